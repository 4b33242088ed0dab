"""Which values of a kernel are the same for every work-item of a work-group.

An analysis for `work-item-loops`: a value live across a barrier that is uniform
needs one copy per work-group, not one per work-item. The kernel's body is a CFG
(`scf` already lowered to `cf`).

A value is *divergent* (it may differ between work-items) when it is:

- a work-item query that differs between work-items (`get_local_id`,
  `get_global_id`, the linear ids, the sub-group queries);
- the result of an op that is not a plain computation on its operands (a load, a
  call, an allocation, any op `lowering.common.effects.is_pure` does not list):
  memory may differ between work-items, so a load from a uniform address is
  divergent too;
- the result of a pure op with a divergent operand;
- a block argument with a divergent incoming value;
- anything *controlled* by a divergent branch. A `cf.cond_br` or `cf.switch` on a
  divergent condition in block B sends work-items different ways until they meet
  again at B's immediate post-dominator P. Every value defined in a block reachable
  from B without passing P is divergent (work-items may run those blocks a
  different number of times, so even a loop counter there differs), and so are P's
  block arguments (they depend on the way each work-item came). Without a post-
  dominator (a path that never returns), everything reachable from B is divergent.

Everything else is uniform: constants, the kernel's arguments, the work-group
queries (`get_local_size`, `get_group_id`, ...) and pure ops on uniform values,
including loop counters of loops whose exits are uniform. The rules only ever add
divergence, and are applied until nothing changes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import func
from xdsl.ir import Block, BlockArgument, SSAValue

from dialects import mux
from lowering.common.cfg import branch_condition, incoming, reachable, successors
from lowering.common.effects import is_pure

VARYING_QUERIES = (
    mux.GetLocalIdOp,
    mux.GetGlobalIdOp,
    mux.GetLocalLinearIdOp,
    mux.GetGlobalLinearIdOp,
    mux.GetSubGroupIdOp,
    mux.GetSubGroupLocalIdOp,
    mux.GetSubGroupSizeOp,
)


@dataclass
class Uniformity:
    """The divergent values of a kernel (see the module docstring)."""

    kernel: func.FuncOp
    divergent: set[SSAValue] = field(default_factory=set)

    def is_uniform(self, value: SSAValue) -> bool:
        return value not in self.divergent


def analyse(kernel: func.FuncOp) -> Uniformity:
    """The uniformity of the values of `kernel`, whose body is a CFG."""
    result = Uniformity(kernel)
    blocks = list(kernel.body.blocks)
    post_dominator = _immediate_post_dominators(blocks)
    controlled: set[Block] = set()  # blocks whose values are all divergent
    joins: set[Block] = set()  # blocks whose arguments are all divergent
    changed = True
    while changed:
        changed = False
        for block in blocks:
            for argument in block.args:
                if argument not in result.divergent and (
                    block in controlled
                    or block in joins
                    or receives_divergent(argument, result.divergent)
                ):
                    result.divergent.add(argument)
                    changed = True
            for op in block.ops:
                divergent = (
                    block in controlled
                    or isinstance(op, VARYING_QUERIES)
                    or not is_pure(op)
                    or any(o in result.divergent for o in op.operands)
                )
                for value in op.results:
                    if divergent and value not in result.divergent:
                        result.divergent.add(value)
                        changed = True
            condition = branch_condition(block)
            if condition is not None and condition in result.divergent:
                join = post_dominator.get(block)
                region = _reachable_before(block, join)
                if join is not None and join not in joins:
                    joins.add(join)
                    changed = True
                if not region <= controlled:
                    controlled |= region
                    changed = True
    return result


def _reachable_before(start: Block, stop: Block | None) -> set[Block]:
    """The blocks reachable from `start`'s successors without passing `stop`."""

    def edges(block: Block) -> list[Block]:
        return [s for s in successors(block) if s is not stop]

    return reachable(edges(start), edges)


def _immediate_post_dominators(blocks: list[Block]) -> dict[Block, Block]:
    """Each block's immediate post-dominator, for the blocks that have one (a block
    from which every path returns, other than through itself alone)."""
    exits = [b for b in blocks if not successors(b)]
    # post-dominator sets, by the classic iteration from "every block"
    every = set(blocks)
    post: dict[Block, set[Block]] = {b: {b} if b in exits else every for b in blocks}
    changed = True
    while changed:
        changed = False
        for block in reversed(blocks):
            if block in exits:
                continue
            following = successors(block)
            new = set.intersection(*(post[s] for s in following)) | {block}
            if new != post[block]:
                post[block] = new
                changed = True
    # a block from which no exit is reachable keeps "every block": no answer
    reaches_exit = _reaching(exits, blocks)
    immediate: dict[Block, Block] = {}
    for block in blocks:
        if block not in reaches_exit:
            continue
        strict = post[block] - {block}
        # the immediate one is the strict post-dominator that all others
        # post-dominate
        for candidate in strict:
            if all(other in post[candidate] for other in strict):
                immediate[block] = candidate
                break
    return immediate


def _reaching(targets: list[Block], blocks: list[Block]) -> set[Block]:
    """The blocks from which one of `targets` is reachable."""
    predecessors: dict[Block, list[Block]] = {b: [] for b in blocks}
    for block in blocks:
        for successor in successors(block):
            predecessors[successor].append(block)
    return reachable(targets, predecessors.__getitem__)


def receives_divergent(argument: BlockArgument, divergent: set[SSAValue]) -> bool:
    """Whether a predecessor passes `argument` a divergent value, or one this
    analysis cannot see (a terminator `lowering.common.cfg.incoming` does not
    know: assume the worst)."""
    values = incoming(argument)
    return values is None or any(value in divergent for value in values)
