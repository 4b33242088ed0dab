"""`lower-printf`: each printf call becomes a record the kernel appends to a buffer
the launch allocates; the host formats the records after the launch
(`mux.printf`), as the OpenCL C specification describes printf (6.15.14).

Two ops print:

- `llvm.call @printf(%format, ...)`, the OpenCL C front-end's variadic call
  (`mux.frontend.llvm_import.calls`): the format is a C format string in a
  constant global, with OpenCL C's conversions (`d i o u x X f F e E g G a A c s
  p`, the lengths `hh h l`, the vector specifiers `%v4f`, `%v2hld`); its `i32`
  result is 0 when the record was written, -1 when not (the buffer is full or
  the format is invalid);
- xDSL's `printf.print_format "x = {}", %x : i32` in an MLIR kernel: the
  dialect's own meaning, a Python format string whose `{}` are its operands, the
  host formatting with `str.format` (the integers read as signed). No other op
  of the `printf` dialect is supported (they print one value at once and have
  nothing a record needs); a kernel using one is refused by the backend.

The buffer (`memref<?xi32, 1>`, a parameter appended to each function that calls
printf, directly or not, and passed down by its callers) is, in 32-bit words:
an i64 counter of the words used at word 0 (the host sets it to `HEADER_WORDS`),
the i64 capacity in words at word 2, records from word `HEADER_WORDS`, and past
the capacity a scratch area as long as the longest record. A call reserves its
record's words with one `atomicrmw add` of the counter; a record that does not
end within the capacity is written to the scratch area instead, which the host
never reads, so that a full buffer costs no branch and never writes outside the
buffer: the host prints the records that fit and says how many it dropped
(`mux.printf`). A record is the format's number (1, 2, ... in the module's
walk order: `formats` gives the host the same table), the work-item's global
linear id (i64, to order the records), then each value argument at its own
size rounded up to words (a vector's elements packed, a `float2` two f32 words);
`%s` takes a string the compiler knows (a constant global), which the table
holds and the record does not.

The spec has no pass for it: mux-compiler-spec.rst only has the front-end's
module hand the runtime its printf call descriptors (`Module::finalize`'s
`printf_calls`), which `formats` is here; the reference implementation's
printf pass is a pass of its OpenCL front-end.

Before: nothing; the host pipeline runs it first of all, on the module as the
program holds it, so that its walk finds the calls in the same order as the
host's `formats`. After: no printf call remains, nor the `llvm.func @printf`
declaration; each function that printed takes the buffer as its last parameter.
A `%s` argument or a format that is not a constant string is a PassError."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, func, llvm, printf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
    UnrealizedConversionCastOp,
    VectorType,
    i32,
    i64,
)
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from dialects import atomic, mux
from lowering.common.errors import PassError, in_function
from lowering.common.functions import (
    append_arguments,
    calls_in,
    enclosing_function,
    functions,
)

PRINTF = "printf"
HEADER_WORDS = 4
"""The counter (i64) and the capacity (i64) ahead of the records."""
RECORD_HEADER_WORDS = 3
"""A record's format number (i32) and work-item id (i64)."""
BUFFER_TYPE = MemRefType(i32, [DYNAMIC_INDEX], memory_space=IntegerAttr(1, i64))

CONVERSION = re.compile(
    r"%(?P<flags>[-+ #0]*)(?P<width>\d*)(?:\.(?P<precision>\d*))?"
    r"(?P<vector>v(?:2|3|4|8|16))?(?P<length>hh|hl|h|l)?(?P<conversion>[diouxXfFeEgGaAcsp%])"
)
"""One conversion of an OpenCL C format (6.15.14.2)."""


@dataclass(frozen=True)
class Argument:
    """One argument of a format: a value the record holds (`element` the MLIR
    type of a scalar or of a vector's elements, `lanes` 0 for a scalar) or a
    string the table holds (`string`)."""

    element: str = ""
    lanes: int = 0
    string: bytes | None = None

    @property
    def nbytes(self) -> int:
        if self.string is not None:
            return 0
        width = 64 if self.element in ("index", "ptr") else int(self.element[1:])
        return max(self.lanes, 1) * width // 8

    @property
    def words(self) -> int:
        return -(-self.nbytes // 4)


@dataclass(frozen=True)
class Format:
    """One printf call site: its format and arguments; `python` for the
    `printf.print_format` of the `printf` dialect (`str.format` semantics);
    `valid` false for a C format the spec leaves undefined (the call prints
    nothing and returns -1)."""

    text: bytes
    arguments: tuple[Argument, ...]
    python: bool = False
    valid: bool = True

    @property
    def words(self) -> int:
        return RECORD_HEADER_WORDS + sum(a.words for a in self.arguments)


def printf_calls(scope: Operation) -> Iterator[Operation]:
    """The printf calls in `scope` (a module, a function), in walk order."""
    for op in scope.walk():
        if isinstance(op, printf.PrintFormatOp) or (
            isinstance(op, llvm.CallOp) and _callee(op) == PRINTF
        ):
            yield op


def _callee(op: llvm.CallOp) -> str | None:
    return op.callee.root_reference.data if op.callee is not None else None


def formats(module: ModuleOp) -> list[Format]:
    """The format of each printf call of `module`, in walk order (the record's
    format number is its index plus 1). PassError for a format or a `%s`
    argument the compiler cannot read, or an argument it cannot store."""
    globals_ = {
        op.sym_name.data: op for op in module.walk() if isinstance(op, llvm.GlobalOp)
    }
    return [_format(op, globals_) for op in printf_calls(module)]


def _format(op: Operation, globals_: dict[str, llvm.GlobalOp]) -> Format:
    if isinstance(op, printf.PrintFormatOp):
        values = tuple(_value_argument(v, op) for v in op.format_vals)
        return Format(op.format_str.data.encode(), values, python=True)
    text = _constant_string(op.operands[0], globals_, op, "format")
    values = list(op.operands[1:])
    arguments: list[Argument] = []
    for match in CONVERSION.finditer(text.decode("latin-1")):
        if match["conversion"] == "%":
            continue
        if not values or not _valid(match):
            return Format(text, (), valid=False)
        value = values.pop(0)
        if match["conversion"] == "s":
            arguments.append(Argument(string=_constant_string(value, globals_, op)))
        else:
            arguments.append(_value_argument(value, op))
    # arguments past the conversions are evaluated and ignored, as in C; a '%'
    # that starts no conversion OpenCL C has makes the format invalid
    if "%" in CONVERSION.sub("", text.decode("latin-1")):
        return Format(text, (), valid=False)
    return Format(text, tuple(arguments))


def _valid(match: re.Match[str]) -> bool:
    """Whether OpenCL C defines the conversion: `l` only on integers (and `hl`
    only in a vector, where a length is required of every conversion), no
    length on `c`, `s`, `p`, no vector of `c`, `s`, `p`."""
    conversion, length, vector = match["conversion"], match["length"], match["vector"]
    if vector:
        return conversion not in "csp" and length is not None
    if length == "hl":
        return False
    return length is None or conversion in "diouxX"


def _value_argument(value: SSAValue, op: Operation) -> Argument:
    type_ = value.type
    lanes = 0
    if isinstance(type_, VectorType):
        lanes, type_ = type_.get_shape()[0], type_.element_type
    if isinstance(type_, IndexType):
        return Argument("index", lanes)
    if isinstance(type_, llvm.LLVMPointerType) and not lanes:
        return Argument("ptr")
    if isinstance(type_, IntegerType | AnyFloat) and type_.bitwidth in (8, 16, 32, 64):
        prefix = "i" if isinstance(type_, IntegerType) else "f"
        return Argument(f"{prefix}{type_.bitwidth}", lanes)
    message = f"lower-printf: printf cannot print a {value.type}{in_function(op)}"
    raise PassError(message, op)


def _constant_string(
    value: SSAValue,
    globals_: dict[str, llvm.GlobalOp],
    op: Operation,
    what: str = "%s",
) -> bytes:
    """The bytes up to the first NUL of the constant global `value` points to."""
    owner = value.owner
    while isinstance(owner, llvm.GEPOp) and all(
        i == 0 for i in owner.rawConstantIndices.get_values()
    ):
        owner = owner.ptr.owner
    if isinstance(owner, llvm.AddressOfOp):
        global_ = globals_.get(owner.global_name.root_reference.data)
        data = _global_bytes(global_) if global_ is not None else None
        if data is not None:
            return data.split(b"\0", 1)[0]
    raise PassError(
        f"lower-printf: printf's {what} argument is not a string constant the "
        f"compiler knows{in_function(op)}",
        op,
    )


def _global_bytes(global_: llvm.GlobalOp) -> bytes | None:
    """The bytes of a constant i8 array global: its `value` string, or the
    `insertvalue` chain of constants its initializer builds."""
    if global_.constant is None:
        return None
    if isinstance(global_.value, StringAttr):
        return global_.value.data.encode("latin-1")
    block = global_.body.blocks.first if global_.body.blocks else None
    if block is None:
        return None
    data: dict[int, int] = {}
    for inner in block.ops:
        if isinstance(inner, llvm.InsertValueOp):
            constant = inner.value.owner
            if not isinstance(constant, llvm.ConstantOp):
                return None
            value = constant.value
            if not isinstance(value, IntegerAttr):
                return None
            data[inner.position.get_values()[0]] = value.value.data & 0xFF
    type_ = global_.global_type
    size = type_.size.data if isinstance(type_, llvm.LLVMArrayType) else 0
    return bytes(data.get(i, 0) for i in range(size))


def users_of_printf(module: ModuleOp) -> set[str]:
    """The functions that call printf, directly or through other functions."""
    fns = functions(module)
    callees = {
        name: {c.callee.root_reference.data for c in calls_in(fn)}
        for name, fn in fns.items()
    }
    users = {name for name, fn in fns.items() if next(printf_calls(fn), None)}
    while more := {n for n, c in callees.items() if n not in users and c & users}:
        users |= more
    return users


class LowerPrintfPass(ModulePass):
    """Each printf call appends a record to the printf buffer, a parameter added
    to every function that prints, directly or not, and passed on by its callers
    (module docstring)."""

    name = "lower-printf"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        calls = list(printf_calls(op))
        if not calls:
            return
        table = formats(op)
        users = users_of_printf(op)
        fns = functions(op)
        buffers = {
            name: append_arguments(fns[name], [BUFFER_TYPE])[0]
            for name in users
            if not fns[name].is_declaration
        }
        for name, buffer in buffers.items():
            for call in calls_in(fns[name]):
                if call.callee.root_reference.data in users:
                    arguments = [*call.arguments, buffer]
                    new = func.CallOp(call.callee, arguments, call.result_types)
                    Rewriter.replace_op(call, new)
        for number, (call, format_) in enumerate(zip(calls, table, strict=True), 1):
            _lower_call(call, format_, number, buffers[_enclosing(call)])
        for decl in [o for o in op.ops if isinstance(o, llvm.FuncOp)]:
            if decl.sym_name.data == PRINTF:
                Rewriter.erase_op(decl)


def _enclosing(op: Operation) -> str:
    fn = enclosing_function(op)
    if fn is None:
        raise PassError("printf outside a function", op)
    return fn.sym_name.data


class _Emitter:
    """Ops built in order, inserted before `call` at the end."""

    def __init__(self) -> None:
        self.ops: list[Operation] = []

    def __call__(self, op: Operation) -> SSAValue:
        """Adds `op`, an op with a result; its (first) result."""
        self.ops.append(op)
        return op.results[0]

    def effect(self, op: Operation) -> None:
        """Adds `op`, an op without results (a store)."""
        self.ops.append(op)

    def constant(self, value: int, type_: IntegerType) -> SSAValue:
        return self(llvm.ConstantOp(IntegerAttr(value, type_), type_))


def _lower_call(
    call: Operation, format_: Format, number: int, buffer: SSAValue
) -> None:
    """The record's reservation and stores in place of `call`; its result (if
    it has one: `printf.print_format` has none) 0 if the record fits, else -1."""
    emit = _Emitter()
    if format_.valid:
        fits, record = _reserve(emit, buffer, format_.words)
        at = 0

        def store(value: SSAValue, words: int) -> None:
            nonlocal at
            address = emit(_gep(record, at)) if at else record
            emit.effect(llvm.StoreOp(value, address, 4))
            at += words

        store(emit.constant(number, i32), 1)
        linear = emit(mux.GetGlobalLinearIdOp())
        store(emit(arith.IndexCastOp(linear, i64)), 2)
        values = call.operands[0 if format_.python else 1 :]
        for argument, value in zip(format_.arguments, values, strict=False):
            if argument.string is not None:
                continue  # the host's table has it
            if isinstance(value.type, IndexType):
                value = emit(arith.IndexCastOp(value, i64))
            elif isinstance(value.type, llvm.LLVMPointerType):
                value = emit(llvm.PtrToIntOp(value, i64))
            store(value, argument.words)
        zero, failed = emit.constant(0, i32), emit.constant(-1, i32)
        result = emit(arith.SelectOp(fits, zero, failed)) if call.results else None
    else:
        result = emit.constant(-1, i32)
    Rewriter.insert_op(emit.ops, InsertPoint.before(call))
    if call.results and result is not None:
        call.results[0].replace_all_uses_with(result)
    Rewriter.erase_op(call)


def _reserve(emit: _Emitter, buffer: SSAValue, words: int) -> tuple[SSAValue, SSAValue]:
    """Whether a record of `words` fits, and where to write it: its words in the
    buffer, or the scratch area past the capacity if it does not fit."""
    pointer = llvm.LLVMPointerType(IntAttr(1))
    base = emit(UnrealizedConversionCastOp.get([buffer], [pointer]))
    size = emit.constant(words, i64)
    start = emit(atomic.RMWOp("add", "monotonic", base, [], size))
    end = emit(llvm.AddOp(start, size))
    capacity = emit(llvm.LoadOp(emit(_gep(base, 2)), i64))
    ule = IntegerAttr(llvm.ICmpPredicateFlag.ULE.to_int(), i64)
    fits = emit(llvm.ICmpOp(end, capacity, ule))
    offset = emit(arith.SelectOp(fits, start, capacity))
    return fits, emit(_gep(base, offset))


def _gep(base: SSAValue, words: int | SSAValue) -> Operation:
    """The address `words` 32-bit words past `base`."""
    assert isinstance(base.type, llvm.LLVMPointerType)
    return llvm.GEPOp.from_mixed_indices(base, [words], i32, result_type=base.type)
