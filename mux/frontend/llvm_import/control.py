"""Control flow: LLVM's blocks become blocks of the `func.func`, its phis the
blocks' arguments, and each branch passes a successor the values its phis take
from the branching block (MLIR's form of SSA)."""

from __future__ import annotations

import re

from llvmlite import binding
from xdsl.dialects import llvm
from xdsl.ir import Block, SSAValue

from dialects import llvmx
from mux.frontend.llvm_import import events, facts
from mux.frontend.llvm_import.values import FunctionValues, Refusal


def phis(block: binding.ValueRef) -> list[binding.ValueRef]:
    """The phi instructions at the top of `block`."""
    found = []
    for instruction in block.instructions:
        if instruction.opcode != "phi":
            break
        found.append(instruction)
    return found


def successors(block: binding.ValueRef) -> list[binding.ValueRef]:
    """The blocks `block`'s terminator may jump to."""
    *_, terminator = block.instructions
    return [
        o
        for o in terminator.operands
        if events.value_kind(o) == binding.ValueKind.basic_block
    ]


def reverse_post_order(blocks: list[binding.ValueRef]) -> list[binding.ValueRef]:
    """The blocks reachable from the entry (the first), each after the blocks
    dominating it, so every value is translated before its uses (phis aside)."""
    canonical = {block: block for block in blocks}
    entry = blocks[0]
    order: list[binding.ValueRef] = []
    seen = {entry}
    stack = [(entry, iter(successors(entry)))]
    while stack:
        block, pending = stack[-1]
        for successor in pending:
            if successor not in seen:
                successor = canonical[successor]
                seen.add(successor)
                stack.append((successor, iter(successors(successor))))
                break
        else:
            order.append(block)
            stack.pop()
    return order[::-1]


def _arguments(values: FunctionValues, dest: binding.ValueRef) -> list[SSAValue]:
    """The values `dest`'s phis take when coming from the current block."""
    source = values.llvm_block
    arguments = []
    for phi in phis(values.llvm_blocks[dest]):
        for value, incoming in zip(phi.operands, phi.incoming_blocks, strict=True):
            if incoming == source:
                arguments.append(values.operand(value))
                break
        else:
            raise Refusal(f"phi without a value for a predecessor: {str(phi).strip()}")
    return arguments


def _target(
    values: FunctionValues, dest: binding.ValueRef
) -> tuple[Block, list[SSAValue]]:
    return values.blocks[dest], _arguments(values, dest)


def translate_br(values: FunctionValues, instruction: binding.ValueRef) -> None:
    """`br label %b` and `br i1 %c, label %t, label %f` (llvmlite lists the
    operands of the conditional one as cond, false, true)."""
    operands = list(instruction.operands)
    if len(operands) == 1:
        block, arguments = _target(values, operands[0])
        values.emit(llvm.BrOp(block, *arguments))
        return
    cond, false_dest, true_dest = operands
    condition = values.operand(cond)
    true_block, true_arguments = _target(values, true_dest)
    false_block, false_arguments = _target(values, false_dest)
    values.emit(
        llvm.CondBrOp(
            condition, true_block, true_arguments, false_block, false_arguments
        )
    )


def switch_cases(text: str) -> list[int]:
    """The case values of a switch, in order (`i32 5, label %14`)."""
    body = facts.body(text)
    cases = body[body.index("[") + 1 : body.rindex("]")]
    return [int(v) for v in re.findall(r"i\d+\s+(-?\d+)\s*,\s*label", cases)]


def translate_switch(values: FunctionValues, instruction: binding.ValueRef) -> None:
    condition, default, *case_blocks = list(instruction.operands)
    flag = values.operand(condition)
    default_block, default_arguments = _target(values, default)
    targets = [_target(values, block) for block in case_blocks]
    values.emit(
        llvmx.SwitchOp(
            flag,
            default_block,
            default_arguments,
            switch_cases(str(instruction)),
            [block for block, _ in targets],
            [arguments for _, arguments in targets],
        )
    )
