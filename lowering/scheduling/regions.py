"""Barrier regions: a kernel's control-flow graph cut at its barriers.

compiler-utils-passes.rst, "WorkItemLoopsPass": "we traverse the CFG and build
inter-barrier regions. We start traversal at the beginning of the function, and at the
barriers, and we end whenever we encounter another barrier or a return statement."

On a kernel whose body is a CFG (`scf` already lowered to `cf`), `split_at_barriers`
splits each block after its `mux.work_group_barrier`, so that a barrier always ends a
block (`barrier; cf.br ^continuation`). Region 0 starts at the entry block, region `i`
at the continuation of the `i`-th barrier; a region is the blocks reachable from its
start without passing a barrier. A block may belong to several regions (a loop
around a barrier, code after a join).

The live values (`lowering.scheduling.live_values`) and the region functions
(`lowering.scheduling.region_functions`) are built on these regions, with the
dominance within a region given here (`BarrierRegion.dominates`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects import cf, func
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

from dialects import mux
from lowering.common.cfg import dominators, reverse_post_order, successors
from lowering.common.errors import PassError

BARRIER = mux.WorkGroupBarrierOp


@dataclass
class BarrierRegion:
    """The blocks run between two barriers (or the entry, or a return)."""

    index: int
    start: Block
    barrier: mux.WorkGroupBarrierOp | None
    """The barrier the region starts after; None for the entry region."""
    blocks: list[Block] = field(default_factory=list)
    """Reverse post-order from `start`: a block comes after its dominators."""
    dominators: dict[Block, set[Block]] = field(default_factory=dict)
    positions: dict[Block, dict[Operation, int]] = field(default_factory=dict)
    """Each block's ops -> their index in it, filled on first use (the blocks are
    not changed once split; xDSL's `get_operation_index` walks the block)."""

    def position(self, op: Operation, block: Block) -> int:
        positions = self.positions.get(block)
        if positions is None:
            positions = {o: i for i, o in enumerate(block.ops)}
            self.positions[block] = positions
        return positions[op]

    def dominates(self, value: SSAValue, user: Operation, block: Block) -> bool:
        """Whether the definition of `value` dominates `user` (an op of `block`)
        within this region."""
        home = defining_block(value)
        if home is None or home not in self.dominators:
            return False
        if home is block:
            if isinstance(value, BlockArgument):
                return True
            assert isinstance(value, OpResult)
            return self.position(value.op, block) < self.position(user, block)
        return home in self.dominators[block]


@dataclass
class BarrierSplit:
    """A kernel split at its barriers, and its regions."""

    kernel: func.FuncOp
    regions: list[BarrierRegion]
    exits: dict[Block, int]
    """Each block ending with a barrier -> the index of the region after it."""

    def successors(self, block: Block) -> list[Block]:
        """The successors of `block` within a region: none after a barrier."""
        return [] if block in self.exits else successors(block)


def split_at_barriers(kernel: func.FuncOp) -> BarrierSplit:
    """Splits the blocks of `kernel` after each barrier; finds the regions."""
    body = kernel.body
    barriers = [op for op in kernel.walk() if isinstance(op, BARRIER)]
    for barrier in barriers:
        block = barrier.parent_block()
        if block is None or block.parent is not body:
            holder = barrier.parent_op()
            raise PassError(
                f"work-item-loops: a barrier in kernel '{kernel.sym_name.data}' is "
                f"inside {holder.name if holder else 'a region'}: only barriers in "
                "the kernel's own control-flow graph can be scheduled",
                barrier,
            )
    entry = body.blocks.first
    assert entry is not None
    regions = [BarrierRegion(0, entry, None)]
    exits: dict[Block, int] = {}
    for barrier in barriers:
        block = barrier.parent_block()
        assert block is not None and barrier.next_op is not None
        continuation = block.split_before(barrier.next_op)
        block.add_op(cf.BranchOp(continuation))
        regions.append(BarrierRegion(len(regions), continuation, barrier))
        exits[block] = len(regions) - 1
    split = BarrierSplit(kernel, regions, exits)
    for region in regions:
        region.blocks = reverse_post_order(region.start, split.successors)
        region.dominators = dominators(region.blocks, split.successors)
    return split


def defining_block(value: SSAValue) -> Block | None:
    """The block that defines `value` (an argument's block, or its op's)."""
    if isinstance(value, BlockArgument):
        return value.block
    assert isinstance(value, OpResult)
    return value.op.parent_block()


def outer_operands(top: Operation) -> list[SSAValue]:
    """The values `top` and the ops nested in it use but do not define, in order of
    first use."""
    inner = {r for op in top.walk() for r in op.results}
    inner |= {
        a for op in top.walk() for reg in op.regions for b in reg.blocks for a in b.args
    }
    seen: dict[SSAValue, None] = {}
    for op in top.walk():
        for operand in op.operands:
            if operand not in inner:
                seen[operand] = None
    return list(seen)
