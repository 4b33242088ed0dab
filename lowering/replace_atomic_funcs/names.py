"""The OpenCL atomic functions, as their mangled names say: which function, on which
type, in which address space, with which parameters (`parse_mangled`), and the
diagnostic when a declaration of one does not have its signature
(`check_declaration`). The module docstring of the pass lists the functions."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import func
from xdsl.dialects.builtin import (
    IntegerAttr,
    MemRefType,
    f32,
    f64,
    i1,
    i32,
    i64,
)
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import Attribute

from dialects.llvmx import AtomicBinOp
from dialects.mux import address_space_of
from lowering.common.errors import PassError
from lowering.common.mangling import Demangled, MangledType, demangle

GENERIC = 4
"""The generic address space: a pointer to global, local or private memory."""

_TYPES = {
    "i": ("int", i32),
    "j": ("uint", i32),
    "l": ("long", i64),
    "m": ("ulong", i64),
    "f": ("float", f32),
    "d": ("double", f64),
}
FLOAT_TYPES = ("float", "double")

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
    "flag_test_and_set": AtomicBinOp.XCHG,
}
_UNSIGNED = {AtomicBinOp.MIN: AtomicBinOp.UMIN, AtomicBinOp.MAX: AtomicBinOp.UMAX}
_FLOAT = {
    AtomicBinOp.ADD: AtomicBinOp.FADD,
    AtomicBinOp.SUB: AtomicBinOp.FSUB,
    AtomicBinOp.MIN: AtomicBinOp.FMIN,
    AtomicBinOp.MAX: AtomicBinOp.FMAX,
    AtomicBinOp.XCHG: AtomicBinOp.XCHG,
}
_LEGACY_OPERATIONS = {*_BIN_OPS} - {"exchange", "flag_test_and_set"} | {"cmpxchg"}
_FETCH = {f"fetch_{op}" for op in ("add", "sub", "and", "or", "xor", "min", "max")}
COMPARE_EXCHANGE = ("compare_exchange_strong", "compare_exchange_weak")
FLAG = ("flag_test_and_set", "flag_clear")
_C11_OPERATIONS = _FETCH | {"exchange", "load", "store", "init"}
_C11_OPERATIONS |= {*COMPARE_EXCHANGE, *FLAG}
_NOT_EXPLICIT = {"init"}  # atomic_init has no _explicit form
_SPACES = {0: "", 1: "__global ", 3: "__local ", GENERIC: "__generic "}
ATOMIC_SPACES = (1, 3, GENERIC)
"""The address spaces of an atomic object: __global, __local, and the generic space
(OpenCL 2.0), which on the host is the same memory as the others."""


def _error(message: str) -> PassError:
    return PassError(f"replace-atomic-funcs: {message}")


@dataclass(frozen=True)
class AtomicFunction:
    """An OpenCL atomic function, as its mangled name says."""

    mangled: str
    name: str
    """`atomic_add`, `atom_cmpxchg`, `atomic_fetch_add_explicit`, ..."""
    operation: str
    """`add`, ..., `cmpxchg` (OpenCL 1.x); `fetch_add`, ..., `exchange`, `load`,
    `store`, `init`, `compare_exchange_strong`/`weak`, `flag_test_and_set`,
    `flag_clear` (OpenCL 2.0)."""
    space: int
    volatile: bool
    type_name: str
    """`int`, `uint`, `long`, `ulong`, `float` or `double`."""
    type_: Attribute
    c11: bool = False
    """An OpenCL 2.0 function (on `atomic_<type>` objects, with orderings)."""
    order_args: int = 0
    """How many `memory_order`s and `memory_scope`s follow the values."""
    expected_space: int = 0
    """compare_exchange: the address space of the `expected` pointer."""

    @property
    def is_compare_exchange(self) -> bool:
        return self.operation in COMPARE_EXCHANGE

    @property
    def value_count(self) -> int:
        """The arguments after the pointer that are not orders or scopes (the
        `expected` pointer of a compare_exchange counts)."""
        counts = {"inc": 0, "dec": 0, "load": 0, "cmpxchg": 2}
        counts |= dict.fromkeys(FLAG, 0) | dict.fromkeys(COMPARE_EXCHANGE, 2)
        return counts.get(self.operation, 1)

    @property
    def orders(self) -> int:
        """How many of the order arguments are `memory_order`s."""
        if not self.order_args:
            return 0
        return 2 if self.is_compare_exchange else 1

    @property
    def result(self) -> Attribute | None:
        """The LLVM type of the result: the value, a bool (`i1`), or none."""
        if self.operation in ("store", "init", "flag_clear"):
            return None
        if self.is_compare_exchange or self.operation == "flag_test_and_set":
            return i1
        return self.type_

    @property
    def bin_op(self) -> AtomicBinOp:
        bin_op = _BIN_OPS[self.operation.removeprefix("fetch_")]
        if self.type_name in FLOAT_TYPES:
            return _FLOAT[bin_op]
        return _UNSIGNED.get(bin_op, bin_op) if self.type_name[0] == "u" else bin_op

    def signature(self) -> str:
        """`int atomic_add(volatile __global int *, int)`."""
        space = _SPACES.get(self.space, f"address space {self.space} ")
        volatile = "volatile " if self.volatile else ""
        if self.operation in FLAG:
            pointee = "atomic_flag"
        else:
            pointee = f"atomic_{self.type_name}" if self.c11 else self.type_name
        params = [f"{volatile}{space}{pointee} *"]
        if self.is_compare_exchange:
            params.append(f"{_SPACES.get(self.expected_space, '')}{self.type_name} *")
        params += [self.type_name] * (self.value_count - len(params) + 1)
        orders = ["memory_order"] * self.orders
        params += [*orders, "memory_scope"][: self.order_args]
        result = {None: "void", i1: "bool"}.get(self.result, self.type_name)
        return f"{result} {self.name}({', '.join(params)})"


def _values_fit(function: AtomicFunction, values: list[MangledType]) -> bool:
    """Whether the mangled parameters after the pointer (orders excluded) are the
    function's: its value type, and compare_exchange's `expected` pointer to it."""
    value = function.type_name
    codes = [p.code for p in values]
    if function.is_compare_exchange:
        expected = values[0].element if codes[:1] == ["P"] else None
        return (
            expected is not None
            and not expected.qualifiers
            and _TYPES.get(expected.code, ("",))[0] == value
            and len(values) == 2
            and _TYPES.get(codes[1], ("",))[0] == value
        )
    return [_TYPES.get(c, ("",))[0] for c in codes] == [value] * function.value_count


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
    values = rest[: len(rest) - order_args]
    expected = values[0].element if values and values[0].code == "P" else None
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
        expected.address_space if expected is not None else 0,
    )
    return function if _values_fit(function, values) else None


def _parse_legacy(d: Demangled) -> AtomicFunction | None:
    prefix, _, operation = d.name.partition("_")
    if prefix not in ("atomic", "atom") or operation not in _LEGACY_OPERATIONS:
        return None
    function = _function(d, operation, c11=False)
    if function is None or (
        function.type_name in FLOAT_TYPES
        and (d.name != "atomic_xchg" or function.type_name != "float")
    ):
        return None
    return function


_ORDERS = {
    False: ([], ["memory_order"], ["memory_order", "memory_scope"]),
    True: ([], ["memory_order"] * 2, ["memory_order", "memory_order", "memory_scope"]),
}
"""The order arguments an OpenCL 2.0 function may end with, by whether it is a
compare_exchange: none, or the orders, or the orders and the scope."""


def _parse_c11(d: Demangled) -> AtomicFunction | None:
    base = d.name.removeprefix("atomic_")
    explicit = base.endswith("_explicit")
    operation = base.removesuffix("_explicit")
    if base == d.name or operation not in _C11_OPERATIONS:
        return None
    if explicit and operation in _NOT_EXPLICIT:
        return None
    orders = [p.name for p in d.params if p.code == "N"]
    if orders not in _ORDERS[operation in COMPARE_EXCHANGE]:
        return None
    trailing = [p.code for p in d.params[len(d.params) - len(orders) :]]
    if explicit != bool(orders) or trailing != ["N"] * len(orders):
        return None
    function = _function(d, operation, c11=True, order_args=len(orders))
    if function is None:
        return None
    if function.type_name in FLOAT_TYPES and operation in (
        "fetch_and",
        "fetch_or",
        "fetch_xor",
    ):
        return None
    if operation in FLAG and function.type_name != "int":
        return None  # atomic_flag is an _Atomic int
    return function


def parse_mangled(name: str) -> AtomicFunction | None:
    """The OpenCL atomic function `name` mangles (not the fence), or None."""
    d = demangle(name)
    if d is None or not d.params:
        return None
    return _parse_legacy(d) or _parse_c11(d)


def _pointer_fits(type_: Attribute, space: int, element: Attribute) -> bool:
    """A pointer in `space` (any space but __constant, for the generic one), or a
    memref of `element`s there."""
    if isinstance(type_, MemRefType):
        memory = type_.memory_space
        number = memory.value.data if isinstance(memory, IntegerAttr) else 0
        if type_.element_type != element:
            return False
    elif isinstance(type_, LLVMPointerType):
        number = address_space_of(type_)
    else:
        return False
    if space == GENERIC:
        return number != 2
    return number == space


def _types(types: list[Attribute] | tuple[Attribute, ...]) -> str:
    return ", ".join(map(str, types))


def _pointer_text(space: int, value: Attribute) -> str:
    if space == GENERIC:
        return f"a pointer or memref<...x{value}> in any non-constant space"
    pointer = f"!llvm.ptr<{space}>" if space else "!llvm.ptr"
    return f"{pointer} or memref<...x{value}{f', {space}' if space else ''}>"


def _expected_inputs(function: AtomicFunction) -> list[str]:
    inputs = [_pointer_text(function.space, function.type_)]
    if function.is_compare_exchange:
        inputs.append(_pointer_text(function.expected_space, function.type_))
    inputs += [str(function.type_)] * (function.value_count + 1 - len(inputs))
    return inputs + ["i32"] * function.order_args


def _inputs_fit(function: AtomicFunction, inputs: list[Attribute]) -> bool:
    if len(inputs) != 1 + function.value_count + function.order_args:
        return False
    if not _pointer_fits(inputs[0], function.space, function.type_):
        return False
    values = inputs[1 : 1 + function.value_count]
    if function.is_compare_exchange:
        expected, values = values[0], values[1:]
        if not _pointer_fits(expected, function.expected_space, function.type_):
            return False
    return all(t == function.type_ for t in values) and all(
        t == i32 for t in inputs[1 + function.value_count :]
    )


def check_declaration(fn: func.FuncOp, function: AtomicFunction) -> None:
    """A diagnostic unless `fn` has the signature of `function`."""
    if function.space not in ATOMIC_SPACES:
        raise _error(
            f"@{function.mangled}: {function.name} takes a __global (AS1), __local "
            f"(AS3) or generic (AS4) pointer, the name has AS{function.space}"
        )
    inputs = list(fn.function_type.inputs.data)
    outputs = list(fn.function_type.outputs.data)
    expected_outputs = [] if function.result is None else [function.result]
    if _inputs_fit(function, inputs) and outputs == expected_outputs:
        bits = function.is_compare_exchange and function.type_name in FLOAT_TYPES
        if bits and isinstance(inputs[0], MemRefType):
            raise _error(
                f"@{function.mangled}: a compare-exchange of {function.type_name} "
                "compares the bits as an integer, which needs an !llvm.ptr "
                f"object, got {inputs[0]}"
            )
        return
    expected = f"({', '.join(_expected_inputs(function))})"
    if expected_outputs:
        expected += f" -> {function.result}"
    got = f"({_types(inputs)})" + (f" -> {_types(outputs)}" if outputs else "")
    raise _error(
        f"@{function.mangled} is {function.signature()}: its declaration must be "
        f"{expected}, got {got}"
    )
