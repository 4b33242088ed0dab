"""A launch as the analysis sees it, and what the work-item queries return in it.

`Launch` holds the values an analysis depends on: the global size, local size and
global offset (padded to 3 dimensions) and the integer scalar arguments. A
`WorkItem` is one work-item of it, for a concrete run.

`query_range` and `unranked_query` give the value of a `mux.get_*` query: the range
over every work-item of the launch (an abstract run, `item` None) or the one value of
a work-item (a concrete run). `candidates` lists the work-items the concrete runs
try: those likeliest to reach the ends of what the launch accesses.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from mux.access_bounds.intervals import Itv, fit, join


def _triple(values: Sequence[int]) -> tuple[int, int, int]:
    x, y, z = values
    return x, y, z


@dataclass(frozen=True)
class Launch:
    """The values of one launch the analysis depends on, padded to 3 dimensions as
    the runtime pads them (size 1, offset 0)."""

    global_size: tuple[int, int, int]
    local_size: tuple[int, int, int]
    global_offset: tuple[int, int, int]
    work_dim: int
    scalars: dict[int, int] = field(default_factory=dict)
    """Integer scalar arguments, by argument number of the function, as signed
    values of their type."""

    @staticmethod
    def of(
        global_size: Sequence[int],
        local_size: Sequence[int],
        global_offset: Sequence[int],
        scalars: dict[int, int] | None = None,
    ) -> Launch:
        pad = (1,) * (3 - len(global_size))
        return Launch(
            _triple((*global_size, *pad)),
            _triple((*local_size, *pad)),
            _triple((*global_offset, *(0,) * (3 - len(global_offset)))),
            len(global_size),
            scalars or {},
        )

    def groups(self, d: int) -> int:
        return -(-self.global_size[d] // self.local_size[d])

    def last_size(self, d: int) -> int:
        """The local size of the last work-group of dimension d."""
        return self.global_size[d] - (self.groups(d) - 1) * self.local_size[d]


@dataclass(frozen=True)
class WorkItem:
    """One work-item of a launch, for a concrete run: per dimension its global id
    without the offset."""

    position: tuple[int, int, int]


def concrete_ids(launch: Launch, item: WorkItem, d: int) -> tuple[int, int, int, int]:
    """(global id without offset, local id, group id, local size) of `item` in
    dimension d."""
    pos, size = item.position[d], launch.local_size[d]
    group = pos // size
    actual = size if group < launch.groups(d) - 1 else launch.last_size(d)
    return pos, pos % size, group, actual


def query_dims(dim: Itv) -> list[int]:
    """The dimensions a query's i32 operand may name; 3 stands for any out of
    range (unsigned: a negative one is out of range too)."""
    if dim is None or dim[1] - dim[0] > 3:
        return [0, 1, 2, 3]
    return sorted({d if 0 <= d < 3 else 3 for d in range(dim[0], dim[1] + 1)})


def query_range(launch: Launch, item: WorkItem | None, name: str, d: int) -> Itv:
    """A query of dimension d (`name` without "mux."): its value for `item`, or its
    range over the launch's work-items when `item` is None."""
    if d >= 3:
        one = 1 if name.endswith(("_size", "num_groups")) else 0
        return (one, one)
    g, size, off = (
        launch.global_size[d],
        launch.local_size[d],
        launch.global_offset[d],
    )
    n = launch.groups(d)
    if name == "get_global_size":
        return (g, g)
    if name == "get_global_offset":
        return (off, off)
    if name == "get_enqueued_local_size":
        return (size, size)
    if name == "get_num_groups":
        return (n, n)
    if item is not None:
        pos, local, group, actual = concrete_ids(launch, item, d)
        value = {
            "get_global_id": off + pos,
            "get_local_id": local,
            "get_group_id": group,
            "get_local_size": actual,
        }.get(name)
        return None if value is None else fit(value, value, 64)
    if name == "get_global_id":
        return fit(off, off + g - 1, 64)
    if name == "get_local_id":
        return (0, min(size, g) - 1)
    if name == "get_group_id":
        return (0, n - 1)
    if name == "get_local_size":
        last = launch.last_size(d)
        return (last, size if n > 1 else last)
    return None


def ranked_query(launch: Launch, item: WorkItem | None, name: str, dim: Itv) -> Itv:
    """A query whose dimension operand is `dim`: joined over the dimensions it may
    name."""
    itv: Itv | Literal[False] = False
    for d in query_dims(dim):
        one = query_range(launch, item, name, d)
        itv = one if itv is False else join(itv, one)
    return itv if itv is not False else None


def unranked_query(launch: Launch, item: WorkItem | None, name: str) -> Itv:
    """A query without a dimension (`get_work_dim`, the linear ids): its value for
    `item`, or its range over the launch when `item` is None; None for the others
    (the sub-group queries, ...)."""
    g, lsz = launch.global_size, launch.local_size
    if name == "get_work_dim":
        return (launch.work_dim, launch.work_dim)
    if name == "get_global_linear_id":
        if item is not None:
            p = item.position
            lin = (p[2] * g[1] + p[1]) * g[0] + p[0]
            return (lin, lin)
        return fit(0, math.prod(g) - 1, 64)
    if name == "get_local_linear_id":
        if item is not None:
            ids = [concrete_ids(launch, item, d) for d in range(3)]
            local, sizes = [i[1] for i in ids], [i[3] for i in ids]
            lin = (local[2] * sizes[1] + local[1]) * sizes[0] + local[0]
            return (lin, lin)
        most = math.prod(min(lsz[d], g[d]) for d in range(3))
        return (0, most - 1)
    return None


def candidates(launch: Launch, positions: list[set[int]]) -> list[WorkItem]:
    """The work-items a concrete run tries: in each dimension, the first and last
    of the range, the last of the first work-group, the first and last of the
    last two work-groups, and `positions` (global ids without offset)."""
    per_dim = []
    for d in range(3):
        g, size = launch.global_size[d], launch.local_size[d]
        n = launch.groups(d)
        picks = {0, g - 1, size - 1, (n - 1) * size, (n - 1) * size - 1}
        picks |= positions[d]
        # the last first: they are the likeliest to reach past an array's end
        per_dim.append(sorted((p for p in picks if 0 <= p < g), reverse=True))
    return [WorkItem(p) for p in itertools.product(*per_dim)]
