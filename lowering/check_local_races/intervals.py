"""Which ops of a kernel may run in one barrier interval: its code cut at the
barriers of the work-group, in connected pieces.

A barrier interval is what the work-items of a group run between two
consecutive barriers of the group (or the kernel's entry, or its return). Each
work-item runs, within one interval, a path of the kernel's code that crosses
no barrier; and every work-item of the group starts the interval at the same
point, the barrier all of them passed last (or the entry). So two accesses can
be in one interval only if such a path joins them, through the code before or
after them. This analysis splits each block into *segments* at the barriers
and joins the segments that code without a barrier connects: straight-line
code, the branches of a CFG, and the `scf.if`/`scf.for`/`scf.while` around a
barrier (into and out of their bodies, and a loop's back edge). An *interval
class* is a connected set of segments; two ops of different classes never run
in one interval. Joining is undirected, so a class may hold more than one
interval's code: it errs on the side of "may".

The cuts are the ops every work-item of the group reaches together and
`work-item-loops` schedules as barriers whatever the sub-group size:
`mux.work_group_barrier` (a DMA wait is one by then) and the work-group
collectives. Sub-group ops are not cuts: with sub-groups of one work-item they
order nothing between work-items.

`check-local-races` uses it to leave out the check of a local read in a class
with no local write: a read races only with a write (or an atomic).
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.ir import Block, Operation, Region

from dialects import mux
from lowering.common.cfg import reachable, successors

CUTS: tuple[type[Operation], ...] = (
    mux.WorkGroupBarrierOp,
    *mux.WORK_GROUP_COLLECTIVE_OPS,
)
"""The barriers of the work-group, which end an interval (module docstring)."""


class _Unknown(Exception):
    """A barrier inside an op whose control flow this analysis does not model."""


class _Segments:
    """Segments joined in classes (a union-find), the edges that join them
    (code running on from one into the other), and the segment of each op."""

    def __init__(self, holders: set[Operation]) -> None:
        self.holders = holders
        """The ops that are or hold a cut (`_holders`)."""
        self.parent: list[int] = []
        self.edges: list[list[int]] = []
        self.of: dict[Operation, int] = {}

    def new(self, joined: int | None = None) -> int:
        self.parent.append(len(self.parent))
        self.edges.append([])
        if joined is not None:
            self.join(joined, len(self.parent) - 1)
        return len(self.parent) - 1

    def find(self, segment: int) -> int:
        while self.parent[segment] != segment:
            self.parent[segment] = self.parent[self.parent[segment]]
            segment = self.parent[segment]
        return segment

    def join(self, a: int, b: int) -> None:
        """Code in `a` runs on into `b`."""
        self.edges[a].append(b)
        self.parent[self.find(a)] = self.find(b)

    def reached(self, start: int) -> set[int]:
        """The segments code in `start` runs on into, `start` with them."""
        return reachable([start], lambda segment: self.edges[segment])

    def block(self, block: Block, start: int) -> int:
        """Assigns `block`'s ops to segments from `start`; the segment it ends in."""
        current = start
        for op in block.ops:
            if isinstance(op, CUTS):
                self.of[op] = current
                current = self.new()
            elif op.regions and op in self.holders:
                self.of[op] = current
                current = self.structured(op, current)
            else:
                for inner in op.walk():
                    self.of[inner] = current
        return current

    def region(self, region: Region, start: int) -> int:
        blocks = list(region.blocks)
        if len(blocks) != 1:
            raise _Unknown
        return self.block(blocks[0], self.new(start))

    def structured(self, op: Operation, before: int) -> int:
        """The segment after `op`, an `scf` op around a cut, entered from `before`."""
        if isinstance(op, scf.ForOp):
            end = self.region(op.body, before)
            self.join(end, before)  # the back edge, and the loop's exit
            return before
        if isinstance(op, scf.IfOp):
            after = self.new()
            for branch in (op.true_region, op.false_region):
                if branch.blocks:
                    self.join(self.region(branch, before), after)
                else:
                    self.join(before, after)
            return after
        if isinstance(op, scf.WhileOp):
            condition = self.region(op.before_region, before)
            body = self.region(op.after_region, condition)
            self.join(body, before)  # the back edge
            return self.new(condition)
        raise _Unknown


def _holders(body: Region) -> set[Operation]:
    """The cuts of `body` and the ops they are nested in: one walk, where
    asking each op whether it holds a cut would walk it again."""
    found: set[Operation] = set()
    for op in body.walk():
        if isinstance(op, CUTS):
            inner: Operation | None = op
            while inner is not None and inner not in found:
                found.add(inner)
                inner = inner.parent_op()
    return found


class Intervals:
    """The interval class and the segment of each op of a kernel's body."""

    def __init__(self, segments: _Segments, blocks: int):
        self._segments = segments
        self._blocks = blocks
        self._reached: dict[int, set[int]] = {}

    def class_of(self, op: Operation) -> int:
        """`op`'s interval class: ops of different classes never run in one
        interval."""
        return self._segments.find(self._segments.of[op])

    def holds_cut(self, op: Operation) -> bool:
        """Whether `op` is a cut or has one inside."""
        return op in self._segments.holders

    def segment_of(self, op: Operation) -> int:
        """`op`'s segment: the ops of one block between the same two cuts (or
        the block's ends), with the ops nested in them; a structured op around
        a cut is in the segment it starts in."""
        return self._segments.of[op]

    def together(self, a: Operation, b: Operation) -> bool:
        """Whether `a` and `b` may run in one interval, in two work-items.

        In a body of one block (structured control flow: the `scf` ops
        around a cut have conditions every work-item of the group agrees on,
        or its barriers diverge), the work-items of an interval run one
        sequence of segments, differing only within a segment; so `a` and
        `b` must be in one segment or one run into the other's. The branches
        of a CFG may part work-items anywhere: there, their class decides."""
        if self._blocks > 1:
            return self.class_of(a) == self.class_of(b)
        first, second = self.segment_of(a), self.segment_of(b)
        return second in self._reach(first) or first in self._reach(second)

    def _reach(self, segment: int) -> set[int]:
        if segment not in self._reached:
            self._reached[segment] = self._segments.reached(segment)
        return self._reached[segment]


def interval_classes(body: Region) -> Intervals | None:
    """The interval classes of `body` (a kernel's); None if a cut is inside an
    op whose control flow is not modelled (then any two ops may share an
    interval)."""
    segments = _Segments(_holders(body))
    blocks = list(body.blocks)
    try:
        starts = {block: segments.new() for block in blocks}
        ends = {block: segments.block(block, starts[block]) for block in blocks}
    except _Unknown:
        return None
    for block in blocks:
        for successor in successors(block):
            segments.join(ends[block], starts[successor])
    return Intervals(segments, len(blocks))
