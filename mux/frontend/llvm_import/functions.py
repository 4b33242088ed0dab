"""One LLVM function to one `func.func`: its blocks (phis as block arguments), its
instructions, and for a `spir_kernel` the IR contract's memref parameters, cast to
llvm pointers at entry, and the kernel's metadata as attributes
(`kernels.py`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from llvmlite import binding
from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import UnrealizedConversionCastOp
from xdsl.ir import Attribute, Block, Region

from mux.frontend.llvm_import import calls, control
from mux.frontend.llvm_import.instructions import TRANSLATORS
from mux.frontend.llvm_import.kernels import Kernel
from mux.frontend.llvm_import.locations import DebugInfo, Place
from mux.frontend.llvm_import.text import TextError, parse_type
from mux.frontend.llvm_import.values import (
    FunctionValues,
    GlobalAccess,
    ImporterBug,
    Refusal,
    Signature,
)

_SPECIAL = {
    "br": control.translate_br,
    "switch": control.translate_switch,
    "call": calls.translate_call,
}


class ImportRefusal(Exception):
    """An instruction refused: the reason, the instruction's text, its line."""

    def __init__(self, reason: str, text: str, place: Place | None):
        super().__init__(reason)
        self.reason, self.text, self.place = reason, text.strip(), place


@dataclass
class FunctionSource:
    """Where a function's instructions are: the .ll lines, the debug places."""

    file: str
    lines: list[int]
    """The line in the .ll text of each instruction, in order (may be empty)."""
    debug: DebugInfo
    """The module's debug places: when it has any, they are the source."""
    define: Place | None = None
    """The function's own place (its `DISubprogram`, else its `define` line)."""
    texts: list[str] = field(default_factory=list)
    """With debug places: each instruction's text in the module's printout, in
    order, where its `!dbg !N` is the `DebugInfo`'s node N."""


def declaration(
    function: binding.ValueRef, structs: dict[str, Attribute]
) -> func.FuncOp | llvm.FuncOp:
    """`func.func private @name(...)` for a declared function; `llvm.func @name(...,
    ...)` for a variadic one (`calls`: its calls are `llvm.call`s)."""
    inputs, results = calls.function_type(function, structs)
    if calls.is_variadic(function):
        returned = results[0] if results else llvm.LLVMVoidType()
        type_ = llvm.LLVMFunctionType(inputs, returned, is_variadic=True)
        return llvm.FuncOp(function.name, type_, llvm.LinkageAttr("external"))
    return func.FuncOp.external(function.name, inputs, results)


def import_function(
    function: binding.ValueRef,
    kernel: Kernel | None,
    structs: dict[str, Attribute],
    global_access: Callable[[Block], GlobalAccess],
    source: FunctionSource,
    signatures: dict[str, Signature],
) -> func.FuncOp:
    """The `func.func` of a defined function; `kernel` is its metadata when it is
    a kernel."""
    if calls.is_variadic(function):
        raise Refusal(f"variadic function {function.name}")
    inputs, results = calls.function_type(function, structs)
    llvm_blocks = list(function.blocks)
    entry = Block(arg_types=kernel.parameter_types(inputs) if kernel else inputs)
    values = FunctionValues(structs, global_access(entry), source.file, signatures)
    values.blocks[llvm_blocks[0]] = entry
    values.llvm_blocks = {block: block for block in llvm_blocks}
    for block in llvm_blocks[1:]:
        types = [parse_type_of(phi, structs) for phi in control.phis(block)]
        values.blocks[block] = Block(arg_types=types)
    values.block = entry
    _bind_parameters(values, function, entry, inputs)
    order = control.reverse_post_order(llvm_blocks)
    numbering = _instruction_places(llvm_blocks, source)
    for block in order:
        _translate_block(values, block, numbering)
    region = Region([values.blocks[b] for b in llvm_blocks if b in set(order)])
    op = func.FuncOp(function.name, (entry.arg_types, results), region)
    if source.define is not None:
        op.location = source.define.location()
    if kernel:
        kernel.annotate(op)
    return op


def parse_type_of(value: binding.ValueRef, structs: dict[str, Attribute]) -> Attribute:
    return parse_type(str(value.type), structs)


def _bind_parameters(
    values: FunctionValues,
    function: binding.ValueRef,
    entry: Block,
    inputs: list[Attribute],
) -> None:
    """The function's parameters; a memref parameter is cast to its pointer."""
    for argument, block_argument, type_ in zip(
        function.arguments, entry.args, inputs, strict=True
    ):
        if block_argument.type == type_:
            values.values[argument] = block_argument
            continue
        cast = UnrealizedConversionCastOp.get([block_argument], [type_])
        values.values[argument] = values.emit(cast).results[0]


def _instruction_places(
    blocks: list[binding.ValueRef], source: FunctionSource
) -> dict[binding.ValueRef, Place | None]:
    """The place of each instruction (`locations`): its `!dbg` place when the
    module has debug places (the last one before it when it has none of its own:
    the .ll text is not what the user wrote then), else its .ll line."""
    places: dict[binding.ValueRef, Place | None] = {}
    index = 0
    last: Place | None = None
    for block in blocks:
        for instruction in block.instructions:
            if source.debug:
                text = source.texts[index] if index < len(source.texts) else ""
                place = source.debug.place_of(text) or last
                last = place
            elif index < len(source.lines):
                place = Place(source.file, source.lines[index])
            else:
                place = None
            places[instruction] = place
            index += 1
    return places


def _translate_block(
    values: FunctionValues,
    block: binding.ValueRef,
    places: dict[binding.ValueRef, Place | None],
) -> None:
    values.block = values.blocks[block]
    values.llvm_block = block
    block_phis = control.phis(block)
    # The entry block's arguments are the parameters: it has no phis.
    for phi, argument in zip(block_phis, values.block.args, strict=False):
        values.values[phi] = argument
    for instruction in list(block.instructions)[len(block_phis) :]:
        values.place = places.get(instruction)
        opcode = instruction.opcode
        assert opcode is not None  # llvmlite's None stands for a null C string
        translator = _SPECIAL.get(opcode) or TRANSLATORS.get(opcode)
        try:
            if translator is None:
                raise Refusal(
                    f"the instruction '{instruction.opcode}' is not supported"
                )
            translator(values, instruction)
        except (Refusal, TextError) as refusal:
            raise ImportRefusal(str(refusal), str(instruction), values.place) from None
        except Exception as error:  # our fault, not the kernel's: say where
            where = values.place or Place(values.file, 0)
            raise ImporterBug(
                f"{where.file}:{where.line or '?'}: importing "
                f"`{str(instruction).strip()}`: {type(error).__name__}: {error}"
            ) from error
