"""Reading MLIR source: a module parsed and verified, every failure on bad input a
diagnostic (a `ParseError` or `VerifyException` naming the problem and its place).

`mux.compiler.parse` (the API) and `mux-opt` (`mux.opt`) both read their input here.
xDSL 0.74 leaves some bad input to fail deep inside it with an ordinary Python
exception, or never checks it at all; what this module adds on top of xDSL's parser
and verifier is listed in `parse_module` and `verify_module`. Importing it also
installs a fixed lexer rule for string literals (`_install_string_literal_rule`).
"""

from __future__ import annotations

import math
import re
import struct
import traceback
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import xdsl
from xdsl.context import Context
from xdsl.dialects import arith, func, llvm, memref, scf
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, StringAttr
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.irdl import IRDLOperation, OptionalDef
from xdsl.traits import SymbolOpInterface, SymbolTable
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from dialects.attributes import is_kernel, verify_mux_attributes
from lowering.common.cfg import dominators, reverse_post_order
from mux import diagnostics
from mux.diagnostics import LocatingParser

# xDSL 0.74's rule for a string literal (xdsl/utils/mlir_lexer.py,
# `MLIRLexer._unescaped_characters_regex`) nests a `+` inside a `*`. On a literal
# that is not closed before the end of its line, Python's regex engine then tries
# every way of splitting the line into runs before giving up: the time doubles with
# each character (0.5 s at 24 characters, hours at 40), so a typo such as
# `mux.kernel = "entry-point, ...` hangs the process. The same rule with possessive
# quantifiers (Python 3.11) matches the same literals and fails in linear time.
_XDSL_STRING_LITERAL = r'"(?:[^"\\\n\v\f]+|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*"'
_STRING_LITERAL = r'"(?:[^"\\\n\v\f]++|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*+"'


def _install_string_literal_rule() -> None:
    """Replaces xDSL's string literal rule by the linear one, if it is the rule of
    xDSL 0.74 (another version's rule is left alone: tests/test_fuzz.py times an
    unclosed literal, so a rule that still backtracks is noticed)."""
    if MLIRLexer._unescaped_characters_regex.pattern == _XDSL_STRING_LITERAL:
        MLIRLexer._unescaped_characters_regex = re.compile(_STRING_LITERAL)


_install_string_literal_rule()

_XDSL = Path(xdsl.__file__).resolve().parent
_REPO = Path(__file__).resolve().parent.parent


MAX_INTEGER_WIDTH = (1 << 24) - 1
"""The widest integer type, MLIR's `IntegerType::kMaxWidth`."""

MAX_DENSE_ELEMENTS = 1 << 24
"""The most elements a `dense<...>` literal may have."""


class _SourceParser(LocatingParser):
    """`mux.diagnostics.LocatingParser` (every op located in its source), also
    remembering where each op starts (for the diagnostics of the checks below) and
    closing a gap of xDSL 0.74's block labels."""

    def __init__(
        self,
        ctx: Context,
        source: str,
        name: str,
        line_offset: int = 0,
        locate_verify_errors: bool = True,
    ):
        super().__init__(ctx, source, name, line_offset, locate_verify_errors)
        self.parsing: list[Span] = []
        """Where each op being parsed starts, the innermost last."""

    def parse_operation(self) -> Operation:
        start = self._current_token.span
        self.parsing.append(start)
        op = super().parse_operation()
        self.parsing.pop()
        return op

    def _parse_optional_integer_or_float_type(self) -> Any:
        # xDSL builds any width an `iN` spells: `i324294967296` made it compute the
        # range of a 324-billion-bit integer (MemoryError). MLIR's widths stop
        # below 2^24.
        token = self._current_token
        match = re.fullmatch(r"[su]?i(\d+)", token.text)
        if (
            token.kind == MLIRTokenKind.BARE_IDENT
            and match is not None
            and int(match[1]) > MAX_INTEGER_WIDTH
        ):
            self.raise_error(
                f"an integer type of {match[1]} bits (at most {MAX_INTEGER_WIDTH})",
                token.span,
            )
        return super()._parse_optional_integer_or_float_type()

    def _parse_dense_literal_type(self) -> Any:
        # xDSL expands a splat (`dense<1.0> : vector<4294967296xf32>`) into a list
        # of every element before packing it: a type of billions of elements fails
        # with MemoryError or OverflowError, or exhausts the memory.
        start = self._current_token.span
        type = super()._parse_dense_literal_type()
        count = math.prod(type.get_shape())
        if count > MAX_DENSE_ELEMENTS:
            self.raise_error(
                f"a dense literal of {count} elements (at most {MAX_DENSE_ELEMENTS})",
                start,
            )
        return type

    def _parse_block(self) -> Block:
        # xDSL 0.74 records where a block is defined only when the label was not
        # used before; a label used by a branch above its block, then defined twice,
        # fails with a KeyError instead of its "re-declaration of block" error.
        # Recording the definition of every label gives that error.
        label = self._current_token
        block = super()._parse_block()
        name = label.text[1:]
        if label.kind == MLIRTokenKind.CARET_IDENT and name in self.blocks:
            known, span = self.blocks[name]
            if span is None:
                self.blocks[name] = (known, label.span)
        return block


_XDSL_BAD_INPUT = (
    ValueError,
    OverflowError,
    NotImplementedError,
    ZeroDivisionError,
    AssertionError,
    struct.error,
)
"""What xDSL 0.74 raises, instead of a ParseError, on some input it cannot
represent: ValueError from an attribute constructor (an integer out of its type's
range: `cf.switch %v : i8, [300: ^bb]`; an enum's unknown value:
`vector.reduction <minu>`), OverflowError from packing a float attribute out of
its type's range (`1e39 : f32`), NotImplementedError from a type it cannot pack
(`array<i128: 0>`), ZeroDivisionError from an element type of no bytes
(`array<i0: 0>`), struct.error from packing a dense value out of range
(`dense<9223372036854775808> : vector<4xindex>`), AssertionError from a custom
parser's assumption (`cf.switch` on a vector). Only those raised inside xDSL are
turned into diagnostics: the same exception from our own code is a bug to fix."""


def _raised_by_xdsl(error: BaseException) -> bool:
    """Whether the innermost frame of xDSL's or ours that `error` went through is
    xDSL's (the exception may come from the standard library it called)."""
    for frame in reversed(traceback.extract_tb(error.__traceback__)):
        path = Path(frame.filename).resolve()
        if path.is_relative_to(_XDSL):
            return True
        if path.is_relative_to(_REPO):
            return False
    return False


def _describe(error: BaseException) -> str:
    """What xDSL's exception says (for a bare assertion, the assertion), saying
    that xDSL could not build what the source describes."""
    message = str(error)
    if not message:  # a bare `assert`: show it
        message = traceback.extract_tb(error.__traceback__)[-1].line or "assertion"
    kind = type(error)
    name = kind.__name__ if kind.__module__ == "builtins" else kind.__qualname__
    if isinstance(error, struct.error):
        name = "struct.error"
    return f"xDSL 0.74 cannot build this: {message} ({name})"


def check_kernels_defined(module: ModuleOp) -> None:
    """Every kernel (`mux.kernel`) of `module` has a body: a kernel is compiled
    and launched (`func.func @k() attributes {mux.kernel} {}`, an empty body, is a
    declaration in xDSL too)."""
    for op in module.ops:
        if isinstance(op, func.FuncOp) and is_kernel(op) and op.is_declaration:
            raise error_at(
                op,
                f"kernel '{op.sym_name.data}' has no body: define it, or drop its "
                "mux.kernel attribute",
            )


def parse_module(
    ctx: Context,
    source: str | bytes,
    name: str = "<source>",
    implicit_module: bool = True,
    line_offset: int = 0,
    locate_verify_errors: bool = True,
) -> ModuleOp:
    """The module of `source`, its structure checked (`check_structure`) but not
    verified; ParseError (or VerifyException) otherwise. Every op has its place in
    the source as its location; `line_offset` and `locate_verify_errors` are
    `mux.diagnostics.LocatingParser`'s."""
    if isinstance(source, bytes):
        # As xDSL's own frontend reads a file: a byte that is not UTF-8 becomes
        # U+FFFD, which the lexer reports at its place.
        source = source.decode(errors="replace")
    parser = _SourceParser(ctx, source, name, line_offset, locate_verify_errors)
    try:
        module = parser.parse_module(implicit_module)
    except _XDSL_BAD_INPUT as error:
        if not _raised_by_xdsl(error):
            raise
        # At the op being parsed (its first token), else where the parser is.
        span = parser.parsing[-1] if parser.parsing else parser._current_token.span
        raise ParseError(span, _describe(error)) from error
    check_structure(module)
    return module


def error_at(op: Operation, message: str) -> VerifyException:
    """A verification error about `op`, named in the message, with `op` as its
    `op`: the diagnostic (`mux.diagnostics.describe`) shows it at its place in the
    source (its location, which `parse_module` gave it)."""
    return diagnostics.OpVerifyException(f"{op.name}: {message}", op)


def _check_printable(op: Operation) -> None:
    """Property values xDSL's printers look up unchecked: its verifiers print ops in
    their messages, so these are checked before any verifier runs."""
    if isinstance(op, llvm.FuncOp):
        for name in ("visibility_", "unnamed_addr"):
            value = op.properties.get(name)
            if isinstance(value, IntegerAttr) and value.value.data not in (0, 1, 2):
                raise error_at(op, f"{name} {value.value.data} is not 0, 1 or 2")
    # Run before the verifiers, which check the properties' kinds: a property of
    # another kind (`predicate = {}`) is left to them.
    count = _PREDICATES.get(type(op))
    predicate = op.properties.get("predicate")
    if (
        count is not None
        and isinstance(predicate, IntegerAttr)
        and not 0 <= predicate.value.data < count
    ):
        message = f"predicate {predicate.value.data} is not in [0, {count})"
        raise error_at(op, message)
    ordering = op.properties.get("ordering")
    if isinstance(op, llvm.LoadOp | llvm.StoreOp) and isinstance(ordering, IntegerAttr):
        value = ordering.value.data
        if value != 0 and value not in llvm.ATOMIC_ORDERING_KEYWORDS:
            raise error_at(op, f"ordering {value} is not an LLVM atomic ordering")


def check_structure(module: ModuleOp) -> None:
    """What xDSL 0.74's verifier assumes but does not check first, checked before it
    runs (its verifiers would fail with KeyError, ValueError, RecursionError...):

    * every op has the properties and attributes its definition requires (xDSL
      verifies an op's nested ops before the op itself, and `func.return`'s verifier
      reads its function's `function_type`);
    * property values xDSL's printers look up unchecked (`_check_printable`): a
      comparison's predicate in range (`arith.cmpi` with predicate 63), an
      `llvm.func` visibility or `unnamed_addr` of 0, 1 or 2, an `llvm.load`/`store`
      ordering that is an LLVM atomic ordering (a verifier's message prints the op);
    * an op with a symbol table (`builtin.module`) has one block (the verifier of a
      call looks its callee up there before the module's own verifier runs);
    * an `scf.while`'s regions have one block each, whose arguments, and the
      values `scf.condition` and `scf.yield` pass, have the types of its operands
      (before) and results (after) (xDSL's verifier indexes the arguments
      unchecked and raises a bare Exception on a wrong type);
    * every operand is defined (xDSL leaves a value used only before its definition
      in another scope, like `scf.for %i = %a to %b step %i`, as a forward
      reference) and dominates its use: defined above it in the same block, in a
      block that dominates the use's, or in a region around it. xDSL 0.74 does not
      check dominance at all; an op using its own result or a value defined below
      it breaks the passes (MLIR's rule: mlir.llvm.org/docs/LangRef, "Value
      Scoping"; the top level of `builtin.module` is a graph region, unchecked).
    """
    order: dict[Operation, int] = {}
    numbered: set[Block] = set()
    dominators: dict[Region, dict[Block, set[Block]]] = {}
    for op in module.walk():
        if isinstance(op, IRDLOperation):
            _check_required(op)
        _check_printable(op)
        if op.has_trait(SymbolTable) and any(len(r.blocks) > 1 for r in op.regions):
            raise error_at(op, "a symbol table has a single block")
        if isinstance(op, scf.WhileOp):
            _check_while(op)
        block = op.parent_block()
        if block is not None and block not in numbered:
            numbered.add(block)
            for index, sibling in enumerate(block.ops):
                order[sibling] = index
    for op in module.walk():
        for position, operand in enumerate(op.operands):
            if not isinstance(operand, OpResult | BlockArgument):
                message = "is not defined in the scope of its use"
            elif not _dominates(operand, op, order, dominators):
                message = (
                    "is used where its definition does not dominate the use (below "
                    "it, in a block not dominated by its block, or outside its region)"
                )
            else:
                continue
            name = f" (%{operand.name_hint})" if operand.name_hint else ""
            raise error_at(op, f"operand #{position}{name} {message}")


def _check_required(op: IRDLOperation) -> None:
    definition = type(op).get_irdl_definition()
    for kind, defs, present in (
        ("property", definition.properties, op.properties),
        ("attribute", definition.attributes, op.attributes),
    ):
        for name, field_def in defs.items():
            if name not in present and not isinstance(field_def, OptionalDef):
                raise error_at(op, f"{kind} '{name}' expected")


def _dominates(
    value: SSAValue,
    use: Operation,
    order: dict[Operation, int],
    dominators: dict[Region, dict[Block, set[Block]]],
) -> bool:
    """Whether `value`'s definition dominates `use` (see `check_structure`)."""
    if isinstance(value, OpResult):
        definer: Operation | None = value.op
        block = definer.parent_block()
    else:
        assert isinstance(value, BlockArgument)
        definer, block = None, value.block
    region = block.parent_region() if block is not None else None
    if block is None or region is None:
        return False
    if isinstance(region.parent_op(), ModuleOp):
        return True  # a graph region
    # The ancestor of `use` (maybe `use` itself) in the definition's region.
    ancestor: Operation | None = use
    while ancestor is not None and ancestor.parent_region() is not region:
        ancestor = ancestor.parent_op()
    if ancestor is None:
        return False  # used outside the region of its definition
    if ancestor.parent_block() is block:
        if definer is None:
            return True
        return definer is not ancestor and order[definer] < order[ancestor]
    use_block = ancestor.parent_block()
    assert use_block is not None
    if region not in dominators:
        dominators[region] = _block_dominators(region)
    return block in dominators[region].get(use_block, {block})


def _block_dominators(region: Region) -> dict[Block, set[Block]]:
    """The dominators of each block of `region` reachable from its entry (an
    unreachable block is absent: whatever it uses, it never runs)."""
    entry = region.blocks.first
    assert entry is not None
    return dominators(reverse_post_order(entry))


def _verify_op(op: Operation) -> None:
    op.verify()
    verify_mux_attributes(op)


def verify_module(module: ModuleOp, locate: bool = True) -> None:
    """Verifies `module`: its ops' verifiers, the `mux.*` attributes
    (`dialects.attributes.verify_mux_attributes`) and what xDSL 0.74's verifiers
    miss (`_verify_more`); VerifyException (or ParseError) otherwise. With
    `locate`, a verifier's error names the innermost op at fault as its `op`
    (`mux.diagnostics.verify`), which a diagnostic shows at its place in the
    source; without, it is the verifier's own (`mux-opt --verify-diagnostics`
    matches those)."""
    if locate:
        diagnostics.verify(module, _verify_op)
    else:
        _verify_op(module)
    _verify_more(module)
    check_kernels_defined(module)


_PREDICATES = {
    arith.CmpiOp: len(arith.CMPI_COMPARISON_OPERATIONS),
    arith.CmpfOp: len(arith.CMPF_COMPARISON_OPERATIONS),
}


def _verify_more(module: ModuleOp) -> None:
    """What xDSL 0.74's verifiers accept and the passes cannot compile:

    * an `scf.if` whose `scf.yield`s do not yield its results (xDSL checks the
      yields of `scf.for` and `scf.index_switch`, not those of `scf.if`; an
      `scf.if` with results and empty regions gets yields of nothing);
    * an op at the top level of the module that is not a symbol (a function or a
      global): nothing runs it, and the passes look for every op in a function.
      A nested `builtin.module` is not compiled either: one module is one program;
    * a symbol named `@""`: the LLVM IR of two such functions has two unnamed
      functions of one name (llvmlite's DuplicatedNameError);
    * an `llvm.mlir.global` whose initializer region returns a value of another
      type than the global's (LLVM refuses the initializer);
    * a function or a global anywhere but at the top level of the module (inside a
      function's body): the symbol tables the passes use hold only the module's.
    """
    for op in module.ops:
        if isinstance(op, ModuleOp) or not op.has_trait(SymbolOpInterface):
            raise error_at(
                op,
                "at the top level of a module, only functions and globals "
                "(symbols) may be",
            )
        name = op.properties.get("sym_name") or op.attributes.get("sym_name")
        if isinstance(name, StringAttr) and not name.data:
            raise error_at(op, "a symbol's name is not empty")
    for op in module.walk():
        if isinstance(op, scf.IfOp):
            _check_if_yields(op)
        if isinstance(op, llvm.GlobalOp):
            _check_global_initializer(op)
        parent = op.parent_op()
        if isinstance(op, _TOP_LEVEL_ONLY) and not isinstance(parent, ModuleOp):
            where = parent.name if parent is not None else "nothing"
            raise error_at(
                op, f"is defined at the top level of a module, not inside {where}"
            )


def _types(values: Iterable[SSAValue]) -> str:
    return "(" + ", ".join(str(value.type) for value in values) + ")"


_TOP_LEVEL_ONLY = (func.FuncOp, llvm.FuncOp, memref.GlobalOp, llvm.GlobalOp)
"""The ops that define a module's functions and globals."""


def _check_global_initializer(op: llvm.GlobalOp) -> None:
    for block in op.body.blocks:
        last = block.last_op
        if isinstance(last, llvm.ReturnOp):
            returned = _types(last.operands)
            if returned != _types([]) and returned != f"({op.global_type})":
                raise error_at(
                    op,
                    f"its initializer returns {returned}, not ({op.global_type})",
                )


def _check_if_yields(op: scf.IfOp) -> None:
    for region in op.regions:
        for block in region.blocks:
            last = block.last_op
            if isinstance(last, scf.YieldOp) and _types(last.operands) != _types(
                op.results
            ):
                raise error_at(
                    op,
                    f"its results are {_types(op.results)} but a region yields "
                    f"{_types(last.operands)}",
                )


def _check_while(op: scf.WhileOp) -> None:
    operands, results = _types(op.operands), _types(op.results)
    for region, name in ((op.before_region, "before"), (op.after_region, "after")):
        if len(region.blocks) != 1:
            count = len(region.blocks)
            raise error_at(op, f"its {name} region has {count} blocks, not 1")
    before, after = op.before_region.block, op.after_region.block
    checks = [
        ("the arguments of its before region", _types(before.args), operands),
        ("the arguments of its after region", _types(after.args), results),
    ]
    if isinstance(condition := before.last_op, scf.ConditionOp):
        checks.append(
            ("the values scf.condition passes", _types(condition.args), results)
        )
    if isinstance(yield_ := after.last_op, scf.YieldOp):
        checks.append(
            ("the values scf.yield passes", _types(yield_.operands), operands)
        )
    for what, got, expected in checks:
        if got != expected:
            raise error_at(op, f"{what} are {got}, not {expected}")
