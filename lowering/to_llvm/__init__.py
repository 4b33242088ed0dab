"""`convert-to-llvm`: the upstream dialects to xDSL's `llvm` dialect.

DESIGN.md, "The levels a kernel passes through", level 6. There is no spec pass for
this: the reference implementation gets LLVM IR from its front-end, we get it from
MLIR's dialects. xDSL 0.74 has no such conversions but `convert-scf-to-cf`.

Before: every `mux` op is lowered (`define-mux-builtins` and the passes before it);
the module holds `func`, `arith`, `math`, `index`, `scf`, `cf`, `memref`, `atomic`
and `vector` ops, and perhaps `llvm`/`llvmx` ones already.

After: only `llvm` and `llvmx` ops remain (in `builtin.module`): functions are
`llvm.func` with their `mux.*` attributes, memrefs are bare pointers in their
address spaces, `index` is `i64`. Or, when some op or type cannot be converted, a
diagnostic on it names the rule it breaks, and the module is unchanged.

How: `scf` becomes `cf` first (`lowering.common.scf_to_cf`). Then the patterns of
every dialect run together, one module per dialect (`arith.py`, `math.py`,
`index.py`, `func.py`, `cf.py`, `memref.py`, `atomic.py`, `vector.py`), with one
type conversion (`lowering.common.llvm_types`, which the passes before this one
also use to lay values out in memory, with `lowering.common.layout`). The dialect
modules share their machinery, as MLIR's LLVMCommon does:

- `values.py`: how a pattern reads its operands and replaces its op while the
  conversion is under way. Function signatures and block arguments change type
  together with the ops using them, and `builtin.unrealized_conversion_cast`s
  bridge the two until every op is converted;
- `patterns.py`: the pattern classes the dialect modules instantiate from tables
  (one op to one llvm op, to an intrinsic call, a rounding division);
- `building.py`: building llvm IR (constants, intrinsic calls, declarations of C
  functions, integer resizing, element pointers, rounding divisions);
- `memory.py`: the element addresses, loads and stores of the `memref`, `vector`
  and `atomic` ops.

Any op left that is not `llvm` or `llvmx` is a diagnostic.

The conversion works on a copy of the module, which replaces the module's contents
when it succeeds: a diagnostic is then shown on the input as it was, not on a
half-converted module.
"""

from __future__ import annotations

import functools
import threading
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    FileLineColLoc,
    ModuleOp,
    UnrealizedConversionCastOp,
)
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.transforms.reconcile_unrealized_casts import reconcile_unrealized_casts
from xdsl.utils.diagnostic import Diagnostic
from xdsl.utils.exceptions import PassFailedException

from lowering.common.dispatch import TypeDispatch, op_name
from lowering.common.llvm_types import ConversionError
from lowering.common.scf_to_cf import lower_scf_to_cf
from lowering.to_llvm import arith, atomic, cf, func, index, math, memref, vector

PATTERNS: list[RewritePattern] = [
    *func.PATTERNS,
    *cf.PATTERNS,
    *arith.PATTERNS,
    *math.PATTERNS,
    *index.PATTERNS,
    *memref.PATTERNS,
    *atomic.PATTERNS,
    *vector.PATTERNS,
]
"""The patterns of every dialect."""

MUX_OPS_LEFT = (
    "mux ops must be lowered before convert-to-llvm (run define-mux-builtins)"
)


class _Dispatch(TypeDispatch):
    """The patterns of every dialect, tried on an op in their order, but only those
    that convert an op of its kind (`lowering.common.dispatch`). The ops a pattern
    inserts take the location of the op they convert (as MLIR's conversions build
    them at it), so that a diagnostic on the `llvm` level still points at the line
    of source. Records on a `ConversionError` the op being converted."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if _locate_inserted not in rewriter.operation_insertion_handler:
            # the walker keeps one rewriter for every op it visits
            rewriter.operation_insertion_handler.append(_locate_inserted)
        _CONVERTED.location = op.location
        try:
            self.applier(op).match_and_rewrite(op, rewriter)
        except ConversionError as error:
            error.op = error.op or op
            raise


_CONVERTED = threading.local()
"""The location of the op being converted, in this thread."""


def _locate_inserted(inserted: Operation) -> None:
    location = getattr(_CONVERTED, "location", None)
    if isinstance(location, FileLineColLoc) and not isinstance(
        inserted.location, FileLineColLoc
    ):
        inserted.location = location


@functools.cache
def _dispatch() -> _Dispatch:
    """One dispatcher for every conversion: the patterns are stateless, and which of
    them convert an op of a kind is worth remembering between modules."""
    return _Dispatch(PATTERNS)


def _check_no_mux_ops(module: ModuleOp) -> None:
    for op in module.walk():
        if op_name(op).startswith("mux."):
            raise ConversionError(f"{op_name(op)}: {MUX_OPS_LEFT}", op)


def _check_all_converted(module: ModuleOp) -> None:
    """Raises a `ConversionError` on the first op that is not `llvm` or `llvmx`."""
    for op in module.walk():
        if op is module or isinstance(op, UnrealizedConversionCastOp):
            continue
        if op_name(op).split(".")[0] not in ("llvm", "llvmx"):
            raise ConversionError(
                f"{op_name(op)} has no conversion to the llvm dialect", op
            )
    for op in module.walk():
        if isinstance(op, UnrealizedConversionCastOp):
            types = f"{op.inputs.types[0]} to {op.result_types[0]}"
            raise ConversionError(
                f"a cast from {types} is left: the types do not match once converted",
                op,
            )


def _convert(module: ModuleOp) -> ConversionError | None:
    """Converts `module` in place; returns the error that stopped it, if any."""
    try:
        _check_no_mux_ops(module)
        lower_scf_to_cf(module)
        # every pattern emits `llvm`/`llvmx` ops (or ops converted before), so the
        # ops it creates need no visit (docs/performance.md, "Small costs of the
        # translation to LLVM")
        walker = PatternRewriteWalker(_dispatch(), apply_recursively=False)
        walker.rewrite_module(module)
        reconcile_unrealized_casts(module, warn_on_failure=False)
        _check_all_converted(module)
    except ConversionError as error:
        return error
    return None


class _ConversionFailed(PassFailedException):
    """convert-to-llvm's failure, with the op at fault (`op`), where
    `mux.diagnostics` shows it, as it shows a `PassError`'s."""

    def __init__(self, message: str, op: Operation):
        super().__init__(message)
        self.op = op


def _report(error: ConversionError, originals: dict[Operation, Operation]) -> None:
    """Raises the diagnostic for `error`, shown on the op of the input module."""
    op = error.op
    assert op is not None
    op = originals.get(op, op)
    diagnostic = Diagnostic()
    diagnostic.add_message(op, str(error))
    failure = _ConversionFailed(f"convert-to-llvm: {error}", op)
    diagnostic.raise_exception(op, failure)


@dataclass(frozen=True)
class ConvertToLLVMPass(ModulePass):
    """Converts func, arith, math, index, scf, cf, memref, atomic and vector to the
    llvm dialect (see the module docstring)."""

    name = "convert-to-llvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        work = op.clone()
        originals = dict(zip(work.walk(), op.walk(), strict=True))
        error = _convert(work)
        if error is not None:
            _report(error, originals)
        op.body.detach_block(0).erase(safe_erase=False)
        op.body.add_block(work.body.detach_block(0))
