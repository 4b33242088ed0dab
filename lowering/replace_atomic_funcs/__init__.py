"""`replace-atomic-funcs`: the spec's ReplaceAtomicFuncsPass.

compiler-utils-passes.rst, "ReplaceAtomicFuncsPass": the pass "changes any calls to
atomic functions made in the module into atomic LLVM instructions ... checking the
mangled name of the called function. The SPIR mangling validated against includes
the address space (`AS<n>`) which is not part of Itanium. If the mangling matches
any of the overloaded variants of the OpenCL atomic functions we use a mapping of
mangled functions to `llvm::AtomicRMWInst::BinOp` operators ... When the operator
is an `atomic_cmpxchg` we build a `llvm::AtomicCmpXchgInst` instruction, otherwise
a `llvm::AtomicRMWInst`." Here the instructions are the `atomic` dialect's ops
(which `convert-to-llvm` makes `llvmx.atomicrmw`, `llvmx.cmpxchg`, atomic
`llvm.load`/`llvm.store` and `llvmx.fence`):

    func.func private @_Z10atomic_addPU3AS1Vii(memref<?xi32, 1>, i32) -> i32
    %old = func.call @_Z10atomic_addPU3AS1Vii(%bins, %one)
        : (memref<?xi32, 1>, i32) -> i32

becomes

    %c0 = arith.constant 0 : index
    %old = atomic.rmw add monotonic %bins[%c0], %one : memref<?xi32, 1>

and the declaration goes once nothing refers to it.

**OpenCL 1.x** (`_Z<n><name>PU3AS<a>V<T>...`): `<name>` is `atomic_add`,
`atomic_sub`, `atomic_xchg`, `atomic_min`, `atomic_max`, `atomic_and`, `atomic_or`,
`atomic_xor`, `atomic_inc`, `atomic_dec`, `atomic_cmpxchg`, or the same with the
`atom_` prefix of the `cl_khr_*_atomics` extensions; `<a>` is 1 (`__global`) or 3
(`__local`); `V` (the `volatile` of the pointee) is optional; `<T>` is `i` (int),
`j` (uint), `l` (long), `m` (ulong), or `f` (float, `atomic_xchg` only), followed by
one `<T>` per value argument (none for inc and dec, two for cmpxchg). The
signedness selects `min`/`max` or `umin`/`umax`; `inc` and `dec` are `add` and
`sub` of 1; `cmpxchg` is a strong `atomic.cmpxchg` whose old value is the result.
Ordering: `monotonic`. OpenCL 1.x defines these functions as atomic
read-modify-writes, with no ordering of other memory accesses, and the mux spec
requires no other ordering of `atomicrmw` and `cmpxchg`; a kernel orders its other
accesses with barriers or fences.

**OpenCL 2.0** (`_Z<n><name>PU3AS<a>VU7_Atomic<T><T>...[12memory_order
[12memory_scope]]`): `atomic_fetch_<op>` (`add`, `sub`, `and`, `or`, `xor`, `min`,
`max`; on float and double, from `cl_ext_float_atomics`, `add`, `sub`, `min`, `max`
are `fadd`, `fsub`, `fmin`, `fmax`), `atomic_exchange`, `atomic_load`,
`atomic_store`, `atomic_compare_exchange_strong`/`_weak`, `atomic_flag_test_and_set`,
`atomic_flag_clear`, each also `_explicit` with a `memory_order` argument (two for
compare_exchange: success, failure) and perhaps a `memory_scope`; `atomic_init`; and
`atomic_work_item_fence(flags, order, scope)`
(`_Z22atomic_work_item_fencej12memory_order12memory_scope`), an `atomic.fence`.
`<T>` is also `d` (double). The functions without `_explicit` are `seq_cst`. A
`memory_order` argument must be a constant, the values of OpenCL's enum: 0 relaxed
(`monotonic`), 2 acquire, 3 release, 4 acq_rel, 5 seq_cst; a load cannot be release
or acq_rel, a store (and `atomic_flag_clear`) not acquire or acq_rel, a
compare_exchange's failure not release or acq_rel; a failure order stronger than the
success order (C17 allows it, LLVM's cmpxchg does not) raises the success order to
it. A relaxed fence orders nothing and goes. The scope and the fence flags are not
used: our atomics and fences have no sync scope, the strongest.

- `bool atomic_compare_exchange_*(object, expected, desired, ...)`: `*expected` is
  loaded, an `atomic.cmpxchg` (weak for `_weak`) compares it with the object and
  stores `desired` if they are equal; when it fails, an `scf.if` stores the value it
  found to `*expected` (C11's contract). `expected` (`P<T>`, in any address space: the
  name says which, generic, private, global or local) is a pointer or a memref. A
  float or double is compared as its bits (`arith.bitcast`), as C11 compares the
  objects' representations; its object must then be a pointer (a memref of floats
  has no integer view).
- `bool atomic_flag_test_and_set(object)` (an `atomic_flag` is an `_Atomic int`):
  `atomic.rmw xchg` of 1, and whether the old flag was not 0;
  `atomic_flag_clear(object)`: an `atomic.store` of 0.
- `atomic_init(object, value)`: a monotonic `atomic.store` (C11 makes it non-atomic;
  on the host it is the same instruction, and every access to an atomic object stays
  an atomic op to the passes).

**Address spaces.** `<a>` is 1 (`__global`), 3 (`__local`) or 4, the generic space
of OpenCL C 2.0 and 3.0, where clang names every atomic function's object generic
(`PU3AS4VU7_Atomici`). On the host every address space is the same memory (the
backend makes every pointer address space 0), so an atomic on a generic pointer is
the atomic on the memory it points to: the `atomic` op takes the `!llvm.ptr<4>` (an
`llvmx.addrspacecast` of a buffer's or a `__local` variable's pointer, in a kernel
from the importer) as it is, or a memref in any space (hand-written). `__constant`
(2) is a diagnostic, on the name and on a generic declaration's pointer.

Volatility is not kept (the host's atomics are not elided in any case). The pointer
argument is an `!llvm.ptr<a>` (a kernel imported from LLVM IR) or a memref in
memory space `a` whose element type is `T` (a hand-written kernel); the atomic
addresses the memref's first element.

The names are read by `lowering.common.mangling`'s demangler (as
`lower-to-mux-builtins` reads the other builtins'). Other calls, calls of functions
with a body, and names that are not one of the
above are left alone. Diagnostics, before anything is changed: a known name whose
declaration does not have the function's signature (argument count or types,
result type, address space, a memref of another element type, a float
compare_exchange on a memref), and a call whose `memory_order` is not a constant,
not one of the enum's values, or not allowed for the operation.

Before: nothing (it can run first; the host pipeline runs it with the other
builtin-replacing passes, before `prepare-barriers`; the `scf.if`s of
compare_exchange go to the CFG with the kernel's other `scf`, in `work-item-loops` or
`convert-to-llvm`). After: no call of an OpenCL
atomic function remains, nor its declaration when nothing else refers to it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr, i32
from xdsl.ir import Attribute
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from dialects import atomic
from dialects.llvmx import AtomicOrdering
from lowering.common.builders import constant_int
from lowering.common.errors import PassError
from lowering.common.functions import callers_of, functions
from lowering.replace_atomic_funcs.names import (
    AtomicFunction,
    check_declaration,
    parse_mangled,
)
from lowering.replace_atomic_funcs.replacements import replace_call

LEGACY_ORDERING = AtomicOrdering.MONOTONIC
"""The ordering of the OpenCL 1.x functions (see the module docstring)."""
DEFAULT_ORDERING = AtomicOrdering.SEQ_CST
"""The ordering of the OpenCL 2.0 functions without `_explicit`."""
INIT_ORDERING = AtomicOrdering.MONOTONIC
"""atomic_init's store: C11 makes it non-atomic; a monotonic store is the same
instruction on the host and keeps every access to an atomic object atomic."""

MEMORY_ORDERS = {
    0: AtomicOrdering.MONOTONIC,
    2: AtomicOrdering.ACQUIRE,
    3: AtomicOrdering.RELEASE,
    4: AtomicOrdering.ACQ_REL,
    5: AtomicOrdering.SEQ_CST,
}
"""OpenCL's `memory_order` values (clang's `__ATOMIC_*`) as LLVM orderings."""
_ORDER_NAMES = "0 relaxed, 2 acquire, 3 release, 4 acq_rel, 5 seq_cst"

FENCE = "_Z22atomic_work_item_fencej12memory_order12memory_scope"
"""`void atomic_work_item_fence(cl_mem_fence_flags, memory_order, memory_scope)`."""


def _error(message: str) -> PassError:
    return PassError(f"replace-atomic-funcs: {message}")


def _types(types: Iterable[Attribute]) -> str:
    return ", ".join(map(str, types))


def _check_fence_declaration(fn: func.FuncOp) -> None:
    inputs = fn.function_type.inputs.data
    outputs = fn.function_type.outputs.data
    if list(inputs) != [i32, i32, i32] or outputs:
        got = f"({_types(inputs)})" + (f" -> {_types(outputs)}" if outputs else "")
        raise _error(
            f"@{FENCE} is void atomic_work_item_fence(cl_mem_fence_flags, "
            f"memory_order, memory_scope): its declaration must be (i32, i32, i32), "
            f"got {got}"
        )


def _ordering(
    call: func.CallOp, index: int, what: str, allowed: tuple[AtomicOrdering, ...]
) -> AtomicOrdering:
    """The LLVM ordering of the `memory_order` argument `index` of `call`, which
    must be one of `allowed` (the orderings of `what`)."""
    name = call.callee.root_reference.data
    code = constant_int(call.arguments[index])
    if code is None:
        raise _error(
            f"@{name}: the memory_order argument must be a constant ({_ORDER_NAMES})"
        )
    if code not in MEMORY_ORDERS:
        raise _error(f"@{name}: unknown memory_order {code} ({_ORDER_NAMES})")
    ordering = MEMORY_ORDERS[code]
    if ordering not in allowed:
        word = "relaxed" if ordering is AtomicOrdering.MONOTONIC else ordering.value
        raise _error(
            f"@{name}: memory_order {code} ({word}) is not an ordering of {what}"
        )
    return ordering


_RMW = ("an atomic read-modify-write", atomic.RMW_ORDERINGS)
_ALLOWED = {
    "load": ("an atomic load", atomic.LOAD_ORDERINGS),
    "store": ("an atomic store", atomic.STORE_ORDERINGS),
    "flag_clear": ("an atomic store", atomic.STORE_ORDERINGS),
}
_FAILURE = ("the failure of a compare-exchange", atomic.FAILURE_ORDERINGS)
_FENCE_ORDERINGS = (AtomicOrdering.MONOTONIC, *atomic.FENCE_ORDERINGS)


def _plan(
    call: func.CallOp, function: AtomicFunction | None
) -> tuple[AtomicOrdering, ...]:
    """The orderings of the atomic replacing `call` (of the fence when `function`
    is None; a compare_exchange's success and failure orderings); a diagnostic when
    a `memory_order` is not one."""
    if function is None:
        return (_ordering(call, 1, "a fence", _FENCE_ORDERINGS),)
    if function.operation == "init":
        return (INIT_ORDERING,)
    if not function.c11:
        return (LEGACY_ORDERING,)
    if not function.order_args:
        return (DEFAULT_ORDERING,) * (1 + function.is_compare_exchange)
    index = 1 + function.value_count
    what, allowed = _ALLOWED.get(function.operation, _RMW)
    ordering = _ordering(call, index, what, allowed)
    if not function.is_compare_exchange:
        return (ordering,)
    failure = _ordering(call, index + 1, *_FAILURE)
    # C11 (since C17) lets the failure order be the stronger one, which LLVM's
    # cmpxchg does not: the success ordering is raised to it, which only orders more.
    return (failure if failure.is_stronger_than(ordering) else ordering, failure)


def _replace_fence(call: func.CallOp, ordering: AtomicOrdering) -> None:
    if ordering is AtomicOrdering.MONOTONIC:  # a relaxed fence orders nothing
        Rewriter.erase_op(call)
    else:
        Rewriter.replace_op(call, atomic.FenceOp(ordering))


def _referenced_symbols(module: ModuleOp) -> set[str]:
    """The root names of every symbol reference in `module`."""
    names: set[str] = set()
    for op in module.walk():
        for attr in (*op.properties.values(), *op.attributes.values()):
            if isinstance(attr, SymbolRefAttr):
                names.add(attr.root_reference.data)
    return names


@dataclass(frozen=True)
class ReplaceAtomicFuncsPass(ModulePass):
    """Replaces calls of the OpenCL atomic functions by `atomic` ops (see the
    module docstring)."""

    name = "replace-atomic-funcs"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        declarations: dict[str, tuple[func.FuncOp, AtomicFunction | None]] = {}
        for name, fn in functions(op).items():
            if not fn.is_declaration:
                continue
            if name == FENCE:
                _check_fence_declaration(fn)
                declarations[name] = (fn, None)
            elif (function := parse_mangled(name)) is not None:
                check_declaration(fn, function)
                declarations[name] = (fn, function)
        if not declarations:
            return
        # Every ordering is checked before anything changes.
        callers = callers_of(op)
        plans = []
        for name, (_, function) in declarations.items():
            for call in callers.get(name, []):
                plans.append((call, function, _plan(call, function)))
        for call, function, orderings in plans:
            if function is None:
                _replace_fence(call, orderings[0])
            else:
                replace_call(call, function, orderings)
        referenced = _referenced_symbols(op)
        for name, (fn, _) in declarations.items():
            if name not in referenced:
                Rewriter.erase_op(fn)
