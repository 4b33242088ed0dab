"""`func` to `llvm`.

`func.func` is `llvm.func` with the converted signature (`convert_function_type`:
memrefs are bare pointers, `index` is `i64`, several results a struct). What the
function says about itself is carried over:

- its discardable attributes (`mux.kernel`, `mux.reqd_work_group_size`, ...) as
  they are, since the later passes and the backend read them on the `llvm.func`;
- its argument and result attributes (`arg_attrs`, `res_attrs`) as they are: the
  llvm dialect's names (`llvm.noalias`, `llvm.nonnull`, `llvm.align`, ...) are the
  ones the backend translates to LLVM parameter attributes, and they mean the same
  on a bare pointer as on the memref it stands for;
- its linkage: a private definition is `internal` (nothing outside the module
  calls it), any other definition `external`. A declaration is always `external`,
  even when private: `func.func private @f(...)` is MLIR's usual way to declare a
  function defined elsewhere. An `llvm.linkage` attribute on the `func.func`
  overrides both. Whether a non-kernel function becomes internal is decided by
  another pass.

Every block argument of the body changes type along with the signature (the
arguments of the entry block are the function's; the others are the values the
branches pass, converted in `cf.py`).

`func.call` is `llvm.call` and `func.return` is `llvm.return`; a function of
several results returns them as the fields of a struct, as MLIR's
`convert-func-to-llvm` does.
"""

from __future__ import annotations

from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import DenseArrayBase, UnrealizedConversionCastOp, i64
from xdsl.ir import Region
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from lowering.common.llvm_types import (
    ConversionError,
    convert_function_type,
    convert_type,
    results_type,
)
from lowering.to_llvm.values import llvm_operands, replace_op


def convert_block_arguments(region: Region, rewriter: PatternRewriter) -> None:
    """Gives every block argument of `region` its llvm type; a cast at the start of
    the block gives the users not converted yet the value of the old type."""
    for block in region.blocks:
        for argument in list(block.args):
            new_type = convert_type(argument.type)
            if new_type == argument.type:
                continue
            old_type = argument.type
            new_argument = rewriter.replace_value_with_new_type(argument, new_type)
            cast = UnrealizedConversionCastOp.get([new_argument], [old_type])
            rewriter.insert(cast, InsertPoint.at_start(block))
            rewriter.replace_uses_with_if(
                new_argument,
                cast.results[0],
                lambda use, cast=cast: use.operation is not cast,
            )


class FuncToLLVM(RewritePattern):
    """`func.func` is `llvm.func` (see the module docstring)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.FuncOp, rewriter: PatternRewriter, /):
        function_type = convert_function_type(op.function_type)
        attributes = dict(op.attributes)
        linkage = attributes.pop("llvm.linkage", None)
        if linkage is None:
            is_private = op.sym_visibility is not None and (
                op.sym_visibility.data == "private"
            )
            internal = is_private and not op.is_declaration
            linkage = llvm.LinkageAttr("internal" if internal else "external")
        if not isinstance(linkage, llvm.LinkageAttr):
            raise ConversionError(
                f"llvm.linkage must be an #llvm.linkage attribute, got {linkage}"
            )
        body = rewriter.move_region_contents_to_new_regions(op.body)
        new = llvm.FuncOp(
            op.sym_name,
            function_type,
            linkage=linkage,
            body=body,
            other_props={"arg_attrs": op.arg_attrs, "res_attrs": op.res_attrs},
            extra_attrs=attributes,
        )
        convert_block_arguments(new.body, rewriter)
        rewriter.replace(op, new)


class CallToLLVM(RewritePattern):
    """`func.call` is `llvm.call` of the same function; the results of a function of
    several are the fields of the struct it returns (`llvm.extractvalue`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.CallOp, rewriter: PatternRewriter, /):
        args = llvm_operands(op, rewriter)
        return_type = results_type([r.type for r in op.res])
        new = rewriter.insert(llvm.CallOp(op.callee, *args, return_type=return_type))
        results = list(new.results)
        if len(op.res) > 1:
            results = [
                rewriter.insert(
                    llvm.ExtractValueOp(
                        DenseArrayBase.from_list(i64, [i]),
                        new.results[0],
                        convert_type(r.type),
                    )
                ).res
                for i, r in enumerate(op.res)
            ]
        replace_op(rewriter, op, results)


class ReturnToLLVM(RewritePattern):
    """`func.return` is `llvm.return`; several values go back in a struct
    (`llvm.insertvalue` into an `llvm.mlir.undef`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.ReturnOp, rewriter: PatternRewriter, /):
        values = llvm_operands(op, rewriter)
        if len(values) > 1:
            struct = results_type([v.type for v in op.arguments])
            assert struct is not None
            packed = rewriter.insert(llvm.UndefOp(struct)).res
            for i, value in enumerate(values):
                position = DenseArrayBase.from_list(i64, [i])
                packed = rewriter.insert(
                    llvm.InsertValueOp(position, packed, value)
                ).res
            values = [packed]
        rewriter.replace(op, llvm.ReturnOp(values[0] if values else None))


PATTERNS: list[RewritePattern] = [FuncToLLVM(), CallToLLVM(), ReturnToLLVM()]
"""The patterns converting the `func` dialect."""
