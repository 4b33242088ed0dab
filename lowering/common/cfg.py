"""Control-flow graphs of blocks: successors, predecessors' values, reachability,
reverse post-order and dominators. One home for these walks, used by the analyses
of the scheduling passes, the source checks of `mux.compile` and the backend.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from typing import TypeVar

from xdsl.dialects import cf, llvm
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from dialects import llvmx

Node = TypeVar("Node", bound=Hashable)
Successors = Callable[[Block], Sequence[Block]]
"""The edges of a graph walk: a block's successors (a caller may cut edges, as the
barrier regions do at each barrier)."""


def successors(block: Block) -> list[Block]:
    """The blocks `block`'s terminator may branch to."""
    terminator = block.last_op
    return list(terminator.successors) if terminator is not None else []


def incoming(argument: BlockArgument) -> list[SSAValue] | None:
    """The values the predecessors of `argument`'s block pass to it, through the
    `cf` branches and their `llvm`-level twins (`llvm.br`, `llvm.cond_br`,
    `llvmx.switch`: imported code); None when a predecessor ends in a terminator
    this walk does not know, whose values are then unknown."""
    values: list[SSAValue] = []
    block = argument.block
    for predecessor in block.predecessors():
        passed = _passed_to(predecessor.last_op, block)
        if passed is None:
            return None
        values += [operands[argument.index] for operands in passed]
    return values


def _passed_to(terminator: Operation | None, block: Block):
    """The operand lists `terminator` passes to `block`, one per edge to it; None
    for a terminator this walk does not know."""
    if isinstance(terminator, cf.BranchOp | llvm.BrOp):
        return [terminator.arguments]
    if isinstance(terminator, cf.ConditionalBranchOp | llvm.CondBrOp):
        edges = (
            (terminator.then_block, terminator.then_arguments),
            (terminator.else_block, terminator.else_arguments),
        )
        return [operands for target, operands in edges if target is block]
    if isinstance(terminator, cf.SwitchOp | llvmx.SwitchOp):
        cases = (
            terminator.case_operand
            if isinstance(terminator, cf.SwitchOp)
            else [operands for _, _, operands in terminator.cases]
        )
        edges = [(terminator.default_block, terminator.default_operands)]
        edges += list(zip(terminator.case_blocks, cases, strict=True))
        return [operands for target, operands in edges if target is block]
    return None


def branch_condition(block: Block) -> SSAValue | None:
    """The value a block's terminator chooses its successor by, if it has one."""
    terminator = block.last_op
    if isinstance(terminator, cf.ConditionalBranchOp | llvm.CondBrOp):
        return terminator.cond
    if isinstance(terminator, cf.SwitchOp | llvmx.SwitchOp):
        return terminator.flag
    return None


def reverse_post_order(entry: Block, edges: Successors = successors) -> list[Block]:
    """The blocks reachable from `entry` in reverse post-order: a block comes after
    every block that dominates it."""
    order: list[Block] = []
    seen: set[Block] = {entry}
    stack: list[tuple[Block, Iterator[Block]]] = [(entry, iter(edges(entry)))]
    while stack:
        block, following = stack[-1]
        successor = next((s for s in following if s not in seen), None)
        if successor is None:
            order.append(block)
            stack.pop()
        else:
            seen.add(successor)
            stack.append((successor, iter(edges(successor))))
    return order[::-1]


def dominators(
    blocks: Sequence[Block], edges: Successors = successors
) -> dict[Block, set[Block]]:
    """The dominator set of each of `blocks`, the first of which is the entry (in
    reverse post-order, as `reverse_post_order` gives them, the iteration settles
    in few rounds). Edges to blocks outside `blocks` are ignored."""
    predecessors: dict[Block, list[Block]] = {block: [] for block in blocks}
    for block in blocks:
        for successor in edges(block):
            if successor in predecessors:
                predecessors[successor].append(block)
    result = {block: set(blocks) for block in blocks}
    result[blocks[0]] = {blocks[0]}
    changed = True
    while changed:
        changed = False
        for block in blocks[1:]:
            incoming_sets = [result[p] for p in predecessors[block]]
            new = {block} | (
                set.intersection(*incoming_sets) if incoming_sets else set()
            )
            if new != result[block]:
                result[block], changed = new, True
    return result


def reachable(
    starts: Iterable[Node], edges: Callable[[Node], Iterable[Node]]
) -> set[Node]:
    """The nodes reachable from `starts` along `edges`, `starts` included: blocks
    along a CFG's `successors` (or a caller's cut of them), or any other graph,
    such as the functions along calls."""
    seen: set[Node] = set()
    work = list(starts)
    while work:
        node = work.pop()
        if node in seen:
            continue
        seen.add(node)
        work.extend(edges(node))
    return seen
