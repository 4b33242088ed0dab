"""Inlining a function at a call: `prepare-barriers` inlines the functions with
barriers, `check-access-bounds` every function a checked kernel calls."""

from __future__ import annotations

from xdsl.dialects import cf, func
from xdsl.ir import Region
from xdsl.rewriter import InsertPoint, Rewriter

from lowering.common.errors import PassError
from lowering.common.functions import enclosing_function
from lowering.common.scf_to_cf import lower_scf_to_cf


def inline_call(call: func.CallOp, callee: func.FuncOp, who: str) -> None:
    """Replaces `call` by a copy of `callee`'s body. A callee whose body is one
    block ending in `func.return` is spliced in at the call; one with several
    blocks splits the caller's block at the call (the caller's `scf` lowered to
    `cf` first if the call is in a nested region), each `func.return` becoming
    a branch to the second half. `who` (a pass's name) starts the PassError
    raised when the call is in a region that cannot take several blocks."""
    name = callee.sym_name.data
    caller = enclosing_function(call)
    where = f"'{caller.sym_name.data}'" if caller is not None else "the module"
    body = Region()
    callee.body.clone_into(body)
    blocks = list(body.blocks)
    for block, cloned in zip(callee.body.blocks, blocks, strict=True):
        cloned.name_hint = block.name_hint
    entry = blocks[0]
    arguments = list(call.arguments)

    last = entry.last_op
    if len(blocks) == 1 and isinstance(last, func.ReturnOp):
        Rewriter.inline_block(entry, InsertPoint.before(call), arguments)
        for result, value in zip(call.res, last.arguments, strict=True):
            if len(call.res) == 1 and result.name_hint and value not in arguments:
                value.name_hint = result.name_hint  # the caller's name
            result.replace_all_uses_with(value)
        Rewriter.erase_op(last)
        Rewriter.erase_op(call)
        return

    if not isinstance(call.parent_op(), func.FuncOp) and caller is not None:
        lower_scf_to_cf(caller.body)  # the call's block splits: a CFG
    parent = call.parent_op()
    if not isinstance(parent, func.FuncOp):
        region_of = f"'{parent.name}'" if parent is not None else "an op"
        raise PassError(
            f"{who}: cannot inline '{name}' (several blocks) into the "
            f"single-block region of {region_of} in {where}",
            call,
        )
    block = call.parent_block()
    assert block is not None and block.parent is not None
    after = block.split_before(call, arg_types=call.result_types)
    for result, arg in zip(call.res, after.args, strict=True):
        arg.name_hint = result.name_hint
        result.replace_all_uses_with(arg)
    Rewriter.erase_op(call)
    for cloned in blocks:
        ret = cloned.last_op
        if isinstance(ret, func.ReturnOp):
            Rewriter.replace_op(ret, cf.BranchOp(after, *ret.arguments))
    for cloned in blocks[1:]:
        body.detach_block(cloned)
    block.parent.insert_block_after(blocks[1:], block)
    Rewriter.inline_block(entry, InsertPoint.at_end(block), arguments)
