"""The LLVM IR importer, the analogue of MLIR's `--import-llvm`: LLVM IR text (from
clang for spir64, or written by hand) to a module of our dialects, following the IR
contract of issue 15 (every function a `func.func` with an llvm-dialect body in a
CFG, kernels as entry points with memref buffers, builtin calls kept as
`func.call`s for `lower-to-mux-builtins`).

llvmlite parses and verifies the text; its API gives functions, blocks,
instructions, operands and types, and the rest is read from each value's printed
text (`facts.py`, `text.py`). What it does not import is refused with a
`CompileError` naming the instruction and its line (the `!dbg` line when there
is one, else the line in the .ll text).

    python -m mux.frontend.llvm_import kernel.ll     # prints the module
"""

from __future__ import annotations

import re

from llvmlite import binding
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import VerifyException

from mux.errors import CompileError
from mux.frontend.llvm_import import kernels
from mux.frontend.llvm_import.calls import INTRINSIC_PREFIX, signature
from mux.frontend.llvm_import.functions import (
    FunctionSource,
    ImportRefusal,
    declaration,
    import_function,
)
from mux.frontend.llvm_import.globals import Globals
from mux.frontend.llvm_import.locations import DebugInfo, Place, locate
from mux.frontend.llvm_import.text import TextError, struct_types
from mux.frontend.llvm_import.values import ImporterBug, Refusal

KERNEL_COPY = "__clang_ocl_kern_imp_"
"""clang 22's prefix of the copy of each kernel it emits as an ordinary function
(for kernels calling kernels); imported only when something calls it."""


def import_llvm(text: str, file: str = "<llvm>") -> ModuleOp:
    """The module of our dialects for the LLVM IR `text` (named `file` in
    diagnostics); raises CompileError when it does not parse or verify, or has
    something the importer does not take, and `ImporterBug` (not a CompileError:
    the kernel is not at fault) when the importer's own code fails on it."""
    try:
        module = binding.parse_assembly(text)
        module.verify()
    except RuntimeError as error:
        message = str(error).replace("LLVM IR parsing error\n", "").strip()
        raise CompileError(f"{file}: error: invalid LLVM IR: {message}") from None
    try:
        imported = _import_module(module, text, file)
    except ImportRefusal as refusal:
        place = refusal.place
        where = f"{place.file}:{place.line}:{place.column}" if place else file
        raise CompileError(
            f"{where}: error: cannot import `{refusal.text}`: {refusal.reason}"
        ) from None
    except (Refusal, TextError) as error:  # a declaration, a global, a type
        raise CompileError(f"{file}: error: cannot import: {error}") from None
    except ImporterBug:
        raise
    except Exception as error:  # our fault, not the kernel's
        raise ImporterBug(f"{file}: {type(error).__name__}: {error}") from error
    try:
        imported.verify()
    except VerifyException as error:  # LLVM verified the input: ours is wrong
        raise ImporterBug(f"{file}: the imported module: {error}") from error
    return imported


def _import_module(module: binding.ModuleRef, text: str, file: str) -> ModuleOp:
    printed = str(module)
    structs = struct_types(printed)
    nodes = kernels.metadata_nodes(printed)
    debug = DebugInfo(printed, file)
    texts = printed_instructions(printed) if debug else {}
    lines = instruction_lines(text)
    defines = {
        match.group(1).strip('"'): number
        for number, line in enumerate(text.splitlines(), 1)
        if (match := _DEFINED.match(line))
    }
    globals_ = Globals(module, structs)
    functions = list(module.functions)
    called = _called(functions)
    signatures = {  # intrinsics are not called as functions: see calls.py
        f.name: signature(f, structs)
        for f in functions
        if not f.name.startswith(INTRINSIC_PREFIX)
    }
    ops = []
    for function in functions:
        name = function.name
        if name.startswith(KERNEL_COPY) and name not in called:
            continue
        if function.is_declaration:
            if name in called and not name.startswith(INTRINSIC_PREFIX):
                ops.append(declaration(function, structs))
            continue
        header = _header(str(function))
        kernel = None
        if " spir_kernel " in header:
            kernel = kernels.Kernel(
                kernels.kernel_metadata(header, nodes),
                kernels.byval_parameters(function, structs),
            )
        define = debug.place_of(header) or (
            Place(file, defines[name]) if name in defines and not debug else None
        )
        source = FunctionSource(
            file, lines.get(name, []), debug, define, texts.get(name, [])
        )
        ops.append(
            import_function(
                function, kernel, structs, globals_.access, source, signatures
            )
        )
    imported = ModuleOp([*globals_.ops, *ops])
    locate(imported, Place(file, 1).location())
    return imported


_DEFINED = re.compile(r'define [^@]*@("[^"]+"|[-\w.$]+)\(')


def _header(function_text: str) -> str:
    for line in function_text.splitlines():
        if line.startswith("define "):
            return line
    return ""


def _called(functions: list[binding.ValueRef]) -> set[str]:
    """The names of the functions some call instruction calls."""
    names = set()
    for function in functions:
        for block in function.blocks:
            for instruction in block.instructions:
                if instruction.opcode == "call":
                    callee = list(instruction.operands)[-1]
                    names.add(callee.name)
    return names


def instruction_lines(text: str) -> dict[str, list[int]]:
    """The line (1-based) of each instruction of each defined function of `text`,
    in order: the lines of a body that are not labels, comments or blank, a
    switch's case lines counting as its own."""
    spans = instruction_spans(text)
    return {name: [first for first, _ in found] for name, found in spans.items()}


def instruction_spans(text: str) -> dict[str, list[tuple[int, int]]]:
    """The first and last line (1-based) of each instruction of each defined
    function of `text`, in order (`instruction_lines`): a switch spans its case
    lines and its closing `]` (which carries its `!dbg`)."""
    spans: dict[str, list[tuple[int, int]]] = {}
    current: list[tuple[int, int]] | None = None
    in_switch = False
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.split(";", 1)[0].strip()
        if line.startswith("define "):
            match = re.search(r'@("[^"]+"|[-\w.$]+)\(', line)
            current = spans.setdefault(match.group(1).strip('"'), []) if match else None
        elif current is None or not stripped or re.fullmatch(r"[-\w.$\"]+:", stripped):
            continue
        elif stripped == "}":
            current = None
        elif in_switch:
            current[-1] = (current[-1][0], number)
            in_switch = not stripped.startswith("]")
        else:
            current.append((number, number))
            in_switch = stripped.endswith("[")
    return spans


def printed_instructions(printed: str) -> dict[str, list[str]]:
    """The text of each instruction of each defined function in `printed`, the
    module's printout: there an instruction's `!dbg !N` is the node `DebugInfo`
    read from the same printout. (An instruction printed alone numbers its
    metadata afresh: in a function after the first, `!N` is another node.)"""
    lines = printed.splitlines()
    return {
        name: ["\n".join(lines[first - 1 : last]) for first, last in found]
        for name, found in instruction_spans(printed).items()
    }
