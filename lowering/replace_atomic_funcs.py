"""`replace-atomic-funcs`: the spec's ReplaceAtomicFuncsPass.

compiler-utils-passes.rst, "ReplaceAtomicFuncsPass": the pass "changes any calls to
atomic functions made in the module into atomic LLVM instructions ... checking the
mangled name of the called function. The SPIR mangling validated against includes
the address space (`AS<n>`) which is not part of Itanium. If the mangling matches
any of the overloaded variants of the OpenCL atomic functions we use a mapping of
mangled functions to `llvm::AtomicRMWInst::BinOp` operators ... When the operator
is an `atomic_cmpxchg` we build a `llvm::AtomicCmpXchgInst` instruction, otherwise
a `llvm::AtomicRMWInst`." Here the instructions are the `atomic` dialect's ops
(which `convert-to-llvm` makes `llvmx.atomicrmw` and `llvmx.cmpxchg`):

    func.func private @_Z10atomic_addPU3AS1Vii(memref<?xi32, 1>, i32) -> i32
    %old = func.call @_Z10atomic_addPU3AS1Vii(%bins, %one)
        : (memref<?xi32, 1>, i32) -> i32

becomes

    %c0 = arith.constant 0 : index
    %old = atomic.rmw add monotonic %bins[%c0], %one : memref<?xi32, 1>

and the declaration goes once nothing refers to it.

Names: `_Z<n><name>PU3AS<a>V<T>...`, where `<name>` is one of OpenCL 1.x's
`atomic_add`, `atomic_sub`, `atomic_xchg`, `atomic_min`, `atomic_max`,
`atomic_and`, `atomic_or`, `atomic_xor`, `atomic_inc`, `atomic_dec`,
`atomic_cmpxchg`, or the same with the `atom_` prefix of the `cl_khr_*_atomics`
extensions; `<a>` is 1 (`__global`) or 3 (`__local`); `V` (the `volatile` of the
pointee, optional) and `<T>` is `i` (int), `j` (uint), `l` (long), `m` (ulong), or
`f` (float, `atomic_xchg` only), followed by one `<T>` per value argument (none for
inc and dec, two for cmpxchg). The signedness selects `min`/`max` or
`umin`/`umax`; `inc` and `dec` are `add` and `sub` of 1; `cmpxchg` is a strong
`atomic.cmpxchg` whose old value is the result.

Ordering: `monotonic`. The OpenCL 1.x atomic functions give atomicity only, no
ordering of other memory accesses (OpenCL C 2.0 calls them relaxed, and the mux
spec requires no other ordering of `atomicrmw` and `cmpxchg`); a kernel orders its
accesses with barriers or fences. Volatility is not kept (the host's atomics are
not elided in any case).

The pointer argument is an `!llvm.ptr<a>` (a kernel imported from LLVM IR) or a
memref in memory space `a` whose element type is `T` (a hand-written kernel); the
atomic addresses the memref's first element.

Other calls, calls of functions with a body, and names that are not one of the
above are left alone. A known name whose declaration does not have the function's
signature (argument count or types, result type, address space, a memref of
another element type) is a diagnostic naming the function and the expected
signature.

Before: nothing (it can run first; the host pipeline runs it with the other
builtin-replacing passes, before `prepare-barriers`). After: no call of an OpenCL
atomic function remains, nor its declaration when nothing else refers to it.
"""

from __future__ import annotations

import re
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
from lowering.utils import PassError, callers_of, functions

ORDERING = AtomicOrdering.MONOTONIC
"""The ordering of every atomic the pass makes (see the module docstring)."""

_MANGLED = re.compile(
    r"_Z(?P<length>\d+)(?P<name>(?:atomic|atom)_[a-z]+)"
    r"PU3AS(?P<space>\d+)(?P<volatile>V?)(?P<types>[a-z]+)"
)

_TYPES = {
    "i": ("int", i32),
    "j": ("uint", i32),
    "l": ("long", i64),
    "m": ("ulong", i64),
}
_FLOAT = ("float", f32)

_BIN_OPS = {
    "add": AtomicBinOp.ADD,
    "sub": AtomicBinOp.SUB,
    "xchg": AtomicBinOp.XCHG,
    "and": AtomicBinOp.AND,
    "or": AtomicBinOp.OR,
    "xor": AtomicBinOp.XOR,
    "min": AtomicBinOp.MIN,
    "max": AtomicBinOp.MAX,
    "inc": AtomicBinOp.ADD,
    "dec": AtomicBinOp.SUB,
}
_UNSIGNED = {AtomicBinOp.MIN: AtomicBinOp.UMIN, AtomicBinOp.MAX: AtomicBinOp.UMAX}
_SPACES = {1: "__global", 3: "__local"}


@dataclass(frozen=True)
class AtomicFunction:
    """An OpenCL atomic function, as its mangled name says."""

    mangled: str
    name: str
    """`atomic_add`, `atom_cmpxchg`, ..."""
    operation: str
    """`add`, ..., `cmpxchg`."""
    space: int
    volatile: bool
    type_name: str
    """`int`, `uint`, `long`, `ulong` or `float`."""
    type_: Attribute

    @property
    def value_count(self) -> int:
        """The value arguments after the pointer."""
        return {"inc": 0, "dec": 0, "cmpxchg": 2}.get(self.operation, 1)

    @property
    def bin_op(self) -> AtomicBinOp:
        bin_op = _BIN_OPS[self.operation]
        return _UNSIGNED.get(bin_op, bin_op) if self.type_name[0] == "u" else bin_op

    def signature(self) -> str:
        """`int atomic_add(volatile __global int *, int)`."""
        space = _SPACES.get(self.space, f"address space {self.space}")
        volatile = "volatile " if self.volatile else ""
        pointer = f"{volatile}{space} {self.type_name} *"
        values = [self.type_name] * self.value_count
        return f"{self.type_name} {self.name}({', '.join([pointer, *values])})"


def parse_mangled(name: str) -> AtomicFunction | None:
    """The OpenCL atomic function `name` mangles, or None when it is none."""
    match = _MANGLED.fullmatch(name)
    if match is None:
        return None
    base = match["name"]
    if int(match["length"]) != len(base):
        return None
    operation = base.split("_", 1)[1]
    if operation != "cmpxchg" and operation not in _BIN_OPS:
        return None
    codes = match["types"]
    if codes[0] == "f" and operation == "xchg" and base == "atomic_xchg":
        type_name, type_ = _FLOAT
    elif codes[0] in _TYPES:
        type_name, type_ = _TYPES[codes[0]]
    else:
        return None
    function = AtomicFunction(
        name,
        base,
        operation,
        int(match["space"]),
        match["volatile"] == "V",
        type_name,
        type_,
    )
    if codes != codes[0] * (1 + function.value_count):
        return None
    return function


def _error(message: str) -> PassError:
    return PassError(f"replace-atomic-funcs: {message}")


def _pointer_fits(type_: Attribute, function: AtomicFunction) -> bool:
    if isinstance(type_, LLVMPointerType):
        return type_.addr_space.data == function.space
    if isinstance(type_, MemRefType):
        space = type_.memory_space
        number = space.value.data if isinstance(space, IntegerAttr) else 0
        return number == function.space and type_.element_type == function.type_
    return False


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
    expected_pointer = f"!llvm.ptr<{space}> or memref<...x{value}, {space}>"
    expected = (
        f"({', '.join([expected_pointer] + [str(value)] * function.value_count)})"
        f" -> {value}"
    )
    fits = (
        len(inputs) == 1 + function.value_count
        and _pointer_fits(inputs[0], function)
        and all(t == value for t in inputs[1:])
        and list(outputs) == [value]
    )
    if not fits:
        got = f"({', '.join(map(str, inputs))})"
        if outputs:
            got += f" -> {', '.join(map(str, outputs))}"
        raise _error(
            f"@{function.mangled} is {function.signature()}: its declaration must be "
            f"{expected}, got {got}"
        )


def _address(b: Builder, pointer: SSAValue) -> list[SSAValue]:
    """The indices of the first element of a memref (none for a pointer)."""
    if not isinstance(pointer.type, MemRefType):
        return []
    zero = b.insert(arith.ConstantOp(IntegerAttr(0, IndexType()))).result
    return [zero] * pointer.type.get_num_dims()


def _replace_call(call: func.CallOp, function: AtomicFunction) -> None:
    b = Builder(InsertPoint.before(call))
    pointer, *values = call.arguments
    indices = _address(b, pointer)
    if function.operation == "cmpxchg":
        cmp, new = values
        op: Operation = atomic.CmpXchgOp(ORDERING, ORDERING, pointer, indices, cmp, new)
    else:
        if function.operation in ("inc", "dec"):
            one = IntegerAttr(1, function.type_)
            values = [b.insert(arith.ConstantOp(one)).result]
        op = atomic.RMWOp(function.bin_op, ORDERING, pointer, indices, values[0])
    b.insert(op)
    Rewriter.replace_op(call, [], [op.results[0]])


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
        declarations: dict[str, tuple[func.FuncOp, AtomicFunction]] = {}
        for name, fn in functions(op).items():
            function = parse_mangled(name)
            if function is not None and fn.is_declaration:
                check_declaration(fn, function)
                declarations[name] = (fn, function)
        if not declarations:
            return
        callers = callers_of(op)
        for name, (_, function) in declarations.items():
            for call in callers.get(name, []):
                _replace_call(call, function)
        referenced = _referenced_symbols(op)
        for name, (fn, _) in declarations.items():
            if name not in referenced:
                Rewriter.erase_op(fn)
