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
`max`; on float, from `cl_ext_float_atomics`, `add`, `sub`, `min`, `max` are
`fadd`, `fsub`, `fmin`, `fmax`), `atomic_exchange`, `atomic_load`, `atomic_store`,
each also `_explicit` with a `memory_order` argument (and perhaps a
`memory_scope`); and `atomic_work_item_fence(flags, order, scope)`
(`_Z22atomic_work_item_fencej12memory_order12memory_scope`), an `atomic.fence`.
The functions without `_explicit` are `seq_cst`. A `memory_order` argument must be a
constant, the values of OpenCL's enum: 0 relaxed (`monotonic`), 2 acquire, 3
release, 4 acq_rel, 5 seq_cst; a load cannot be release or acq_rel, a store not
acquire or acq_rel; a relaxed fence orders nothing and goes. The scope and the
fence flags are not used: our atomics and fences have no sync scope, the
strongest.

Volatility is not kept (the host's atomics are not elided in any case). The pointer
argument is an `!llvm.ptr<a>` (a kernel imported from LLVM IR) or a memref in
memory space `a` whose element type is `T` (a hand-written kernel); the atomic
addresses the memref's first element.

The names are read by `lowering.common.mangling`'s demangler (as
`lower-to-mux-builtins` reads the other builtins'). Other calls, calls of functions
with a body, and names that are not one of the
above are left alone. Diagnostics, before anything is changed: a known name whose
declaration does not have the function's signature (argument count or types,
result type, address space, a memref of another element type), and a call whose
`memory_order` is not a constant, not one of the enum's values, or not allowed for
the operation.

Before: nothing (it can run first; the host pipeline runs it with the other
builtin-replacing passes, before `prepare-barriers`). After: no call of an OpenCL
atomic function remains, nor its declaration when nothing else refers to it.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    SymbolRefAttr,
    f32,
    i32,
    i64,
)
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from dialects import atomic
from dialects.llvmx import AtomicBinOp, AtomicOrdering
from dialects.mux import address_space_of
from lowering.common.builders import constant_int
from lowering.common.errors import PassError
from lowering.common.functions import callers_of, functions
from lowering.common.mangling import Demangled, demangle

LEGACY_ORDERING = AtomicOrdering.MONOTONIC
"""The ordering of the OpenCL 1.x functions (see the module docstring)."""
DEFAULT_ORDERING = AtomicOrdering.SEQ_CST
"""The ordering of the OpenCL 2.0 functions without `_explicit`."""

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

_TYPES = {
    "i": ("int", i32),
    "j": ("uint", i32),
    "l": ("long", i64),
    "m": ("ulong", i64),
    "f": ("float", f32),
}

_BIN_OPS = {
    "add": AtomicBinOp.ADD,
    "sub": AtomicBinOp.SUB,
    "xchg": AtomicBinOp.XCHG,
    "exchange": AtomicBinOp.XCHG,
    "and": AtomicBinOp.AND,
    "or": AtomicBinOp.OR,
    "xor": AtomicBinOp.XOR,
    "min": AtomicBinOp.MIN,
    "max": AtomicBinOp.MAX,
    "inc": AtomicBinOp.ADD,
    "dec": AtomicBinOp.SUB,
}
_UNSIGNED = {AtomicBinOp.MIN: AtomicBinOp.UMIN, AtomicBinOp.MAX: AtomicBinOp.UMAX}
_FLOAT = {
    AtomicBinOp.ADD: AtomicBinOp.FADD,
    AtomicBinOp.SUB: AtomicBinOp.FSUB,
    AtomicBinOp.MIN: AtomicBinOp.FMIN,
    AtomicBinOp.MAX: AtomicBinOp.FMAX,
    AtomicBinOp.XCHG: AtomicBinOp.XCHG,
}
_LEGACY_OPERATIONS = {*_BIN_OPS} - {"exchange"} | {"cmpxchg"}
_C11_OPERATIONS = {
    f"fetch_{op}" for op in ("add", "sub", "and", "or", "xor", "min", "max")
} | {
    "exchange",
    "load",
    "store",
}
_SPACES = {1: "__global", 3: "__local"}


@dataclass(frozen=True)
class AtomicFunction:
    """An OpenCL atomic function, as its mangled name says."""

    mangled: str
    name: str
    """`atomic_add`, `atom_cmpxchg`, `atomic_fetch_add_explicit`, ..."""
    operation: str
    """`add`, ..., `cmpxchg` (OpenCL 1.x); `fetch_add`, ..., `exchange`, `load`,
    `store` (OpenCL 2.0)."""
    space: int
    volatile: bool
    type_name: str
    """`int`, `uint`, `long`, `ulong` or `float`."""
    type_: Attribute
    c11: bool = False
    """An OpenCL 2.0 function (on `atomic_<type>` objects, with orderings)."""
    order_args: int = 0
    """How many of `memory_order`, `memory_scope` follow the values."""

    @property
    def value_count(self) -> int:
        """The value arguments after the pointer."""
        counts = {"inc": 0, "dec": 0, "load": 0, "cmpxchg": 2}
        return counts.get(self.operation, 1)

    @property
    def returns(self) -> bool:
        return self.operation != "store"

    @property
    def bin_op(self) -> AtomicBinOp:
        bin_op = _BIN_OPS[self.operation.removeprefix("fetch_")]
        if self.type_name == "float":
            return _FLOAT[bin_op]
        return _UNSIGNED.get(bin_op, bin_op) if self.type_name[0] == "u" else bin_op

    def signature(self) -> str:
        """`int atomic_add(volatile __global int *, int)`."""
        space = _SPACES.get(self.space, f"address space {self.space}")
        volatile = "volatile " if self.volatile else ""
        pointee = f"atomic_{self.type_name}" if self.c11 else self.type_name
        pointer = f"{volatile}{space} {pointee} *"
        values = [self.type_name] * self.value_count
        orders = ["memory_order", "memory_scope"][: self.order_args]
        result = self.type_name if self.returns else "void"
        return f"{result} {self.name}({', '.join([pointer, *values, *orders])})"


def _function(
    d: Demangled, operation: str, c11: bool, order_args: int = 0
) -> AtomicFunction | None:
    """The function `d` is, if its pointer and value types agree."""
    pointer, *rest = d.params
    pointee = pointer.element if pointer.code == "P" else None
    if pointee is None or not pointee.address_space:
        return None
    if pointee.qualifiers - {"volatile"} or (pointee.code == "_Atomic") != c11:
        return None
    value = pointee.element if c11 and pointee.element else pointee
    if value.code not in _TYPES:
        return None
    type_name, type_ = _TYPES[value.code]
    function = AtomicFunction(
        d.mangled,
        d.name,
        operation,
        pointee.address_space,
        "volatile" in pointee.qualifiers,
        type_name,
        type_,
        c11,
        order_args,
    )
    values = [p.code for p in rest[: len(rest) - order_args]]
    if values != [value.code] * function.value_count:
        return None
    return function


def _parse_legacy(d: Demangled) -> AtomicFunction | None:
    prefix, _, operation = d.name.partition("_")
    if prefix not in ("atomic", "atom") or operation not in _LEGACY_OPERATIONS:
        return None
    function = _function(d, operation, c11=False)
    if function is None or (function.type_name == "float" and d.name != "atomic_xchg"):
        return None
    return function


def _parse_c11(d: Demangled) -> AtomicFunction | None:
    base = d.name.removeprefix("atomic_")
    explicit = base.endswith("_explicit")
    operation = base.removesuffix("_explicit")
    if base == d.name or operation not in _C11_OPERATIONS:
        return None
    orders = [p.name for p in d.params if p.code == "N"]
    if orders not in (["memory_order"], ["memory_order", "memory_scope"], []):
        return None
    trailing = [p.code for p in d.params[len(d.params) - len(orders) :]]
    if explicit != bool(orders) or trailing != ["N"] * len(orders):
        return None
    function = _function(d, operation, c11=True, order_args=len(orders))
    if function is None or (
        function.type_name == "float"
        and operation in ("fetch_and", "fetch_or", "fetch_xor")
    ):
        return None
    return function


def parse_mangled(name: str) -> AtomicFunction | None:
    """The OpenCL atomic function `name` mangles (not the fence), or None."""
    d = demangle(name)
    if d is None or not d.params:
        return None
    return _parse_legacy(d) or _parse_c11(d)


def _error(message: str) -> PassError:
    return PassError(f"replace-atomic-funcs: {message}")


def _pointer_fits(type_: Attribute, function: AtomicFunction) -> bool:
    if isinstance(type_, LLVMPointerType):
        return address_space_of(type_) == function.space
    if isinstance(type_, MemRefType):
        space = type_.memory_space
        number = space.value.data if isinstance(space, IntegerAttr) else 0
        return number == function.space and type_.element_type == function.type_
    return False


def _types(types: list[Attribute] | tuple[Attribute, ...]) -> str:
    return ", ".join(map(str, types))


def check_declaration(fn: func.FuncOp, function: AtomicFunction) -> None:
    """A diagnostic unless `fn` has the signature of `function`."""
    if function.space not in _SPACES:
        raise _error(
            f"@{function.mangled}: {function.name} takes a __global (AS1) or __local "
            f"(AS3) pointer, the name has AS{function.space}"
        )
    inputs = fn.function_type.inputs.data
    outputs = fn.function_type.outputs.data
    value = function.type_
    space = function.space
    expected_inputs = [
        f"!llvm.ptr<{space}> or memref<...x{value}, {space}>",
        *[str(value)] * function.value_count,
        *["i32"] * function.order_args,
    ]
    expected_outputs = [value] if function.returns else []
    expected = f"({', '.join(expected_inputs)})"
    if expected_outputs:
        expected += f" -> {value}"
    fits = (
        len(inputs) == len(expected_inputs)
        and _pointer_fits(inputs[0], function)
        and all(t == value for t in inputs[1 : 1 + function.value_count])
        and all(t == i32 for t in inputs[1 + function.value_count :])
        and list(outputs) == expected_outputs
    )
    if not fits:
        got = f"({_types(inputs)})" + (f" -> {_types(outputs)}" if outputs else "")
        raise _error(
            f"@{function.mangled} is {function.signature()}: its declaration must be "
            f"{expected}, got {got}"
        )


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
}
_FENCE_ORDERINGS = (AtomicOrdering.MONOTONIC, *atomic.FENCE_ORDERINGS)


def _plan(call: func.CallOp, function: AtomicFunction | None) -> AtomicOrdering:
    """The ordering of the atomic replacing `call` (of the fence when `function` is
    None); a diagnostic when its `memory_order` is not one."""
    if function is None:
        return _ordering(call, 1, "a fence", _FENCE_ORDERINGS)
    if not function.c11:
        return LEGACY_ORDERING
    if not function.order_args:
        return DEFAULT_ORDERING
    what, allowed = _ALLOWED.get(function.operation, _RMW)
    return _ordering(call, 1 + function.value_count, what, allowed)


def _address(b: Builder, pointer: SSAValue) -> list[SSAValue]:
    """The indices of the first element of a memref (none for a pointer)."""
    if not isinstance(pointer.type, MemRefType):
        return []
    zero = b.insert(arith.ConstantOp(IntegerAttr(0, IndexType()))).result
    return [zero] * pointer.type.get_num_dims()


def _replace_call(
    call: func.CallOp, function: AtomicFunction, ordering: AtomicOrdering
) -> None:
    b = Builder(InsertPoint.before(call))
    pointer, *values = call.arguments[: 1 + function.value_count]
    indices = _address(b, pointer)
    op: Operation
    if function.operation == "cmpxchg":
        cmp, new = values
        op = atomic.CmpXchgOp(ordering, ordering, pointer, indices, cmp, new)
    elif function.operation == "load":
        op = atomic.LoadOp(ordering, pointer, indices, function.type_)
    elif function.operation == "store":
        op = atomic.StoreOp(ordering, values[0], pointer, indices)
    else:
        if function.operation in ("inc", "dec"):
            one = IntegerAttr(1, function.type_)
            values = [b.insert(arith.ConstantOp(one)).result]
        op = atomic.RMWOp(function.bin_op, ordering, pointer, indices, values[0])
    b.insert(op)
    Rewriter.replace_op(call, [], op.results[:1])


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
        plans: list[tuple[func.CallOp, AtomicFunction | None, AtomicOrdering]] = []
        for name, (_, function) in declarations.items():
            for call in callers.get(name, []):
                plans.append((call, function, _plan(call, function)))
        for call, function, ordering in plans:
            if function is None:
                _replace_fence(call, ordering)
            else:
                _replace_call(call, function, ordering)
        referenced = _referenced_symbols(op)
        for name, (fn, _) in declarations.items():
            if name not in referenced:
                Rewriter.erase_op(fn)
