"""Exact relations of index values with the work-item ids, kept by an abstract run.

Intervals alone lose the link between ids: with `gid = group * enqueued_size + lid`
computed by the kernel, the interval of `gid` is the sum of the intervals of its
terms, which can be far wider than the launch's global range (the last work-group may
be smaller). `IdRelations` tags the values that are, exactly, one of

    ("gid", d, k)    the global id of dimension d without offset, plus k
    ("start", d, k)  group id * enqueued local size in dimension d, plus k
    ("lid", d), ("grp", d), ("els", d)
                     the local id, the group id, the enqueued local size

and narrows a tagged value's interval to what the relation gives. It also
remembers, per dimension, the global ids at the ends of ranges a condition narrowed
a global id to (`positions`): the work-items at the edge of a guard such as
`gid < n`, which the concrete runs try.
"""

from __future__ import annotations

from xdsl.ir import Operation, SSAValue

from mux.access_bounds.intervals import Itv, fit, is_exact, meet
from mux.access_bounds.launch import Launch

Tag = tuple
"""A relation, as listed in the module's docstring."""


class IdRelations:
    """The relations of one abstract run's values with the ids."""

    def __init__(self, launch: Launch):
        self.launch = launch
        self.tags: dict[SSAValue, Tag] = {}
        self.positions: list[set[int]] = [set(), set(), set()]
        """Per dimension, the global ids (without offset) at the ends of the ranges
        conditions narrowed a global id to."""

    def of_query(self, name: str, d: int, result: SSAValue) -> None:
        """Tags the result of query `name` (without "mux.") of dimension d."""
        launch = self.launch
        if name == "get_global_id":
            self.tags[result] = ("gid", d, launch.global_offset[d])
        elif name == "get_local_id":
            self.tags[result] = ("lid", d)
        elif name == "get_group_id":
            self.tags[result] = ("grp", d)
        elif name == "get_enqueued_local_size" or (
            name == "get_local_size" and launch.last_size(d) == launch.local_size[d]
        ):
            self.tags[result] = ("els", d)

    def of_binary(self, op: Operation, env: dict[SSAValue, Itv]) -> None:
        """Derives the relation of an addi/subi/muli result with the ids, and
        narrows its interval with it."""
        a, b = op.operands
        # a relation holds for every evaluation or not at all: derive it anew
        # (in a loop, an operand constant in the first round may not be later)
        self.tags.pop(op.results[0], None)
        ta, tb = self.tags.get(a), self.tags.get(b)
        if ta is None and tb is None:
            return
        tag = _derive(op.name, ta, tb, env.get(a), env.get(b))
        if tag is None:
            return
        result = op.results[0]
        self.tags[result] = tag
        exact = self._range(tag)
        if exact is not None:
            narrowed = meet(env.get(result), exact, 64)
            env[result] = narrowed if narrowed is not False else exact

    def note_narrowed(self, value: SSAValue, itv: Itv) -> None:
        """A condition narrowed `value` to `itv`: if it is a global id, its ends
        are work-items at the edge of a guard."""
        tag = self.tags.get(value)
        if itv is not None and tag is not None and tag[0] == "gid":
            self.positions[tag[1]].update((itv[0] - tag[2], itv[1] - tag[2]))

    def _range(self, tag: Tag) -> Itv:
        """The values a "gid" or "start" relation allows."""
        launch = self.launch
        kind, d, k = tag
        if kind == "gid":
            return fit(k, k + launch.global_size[d] - 1, 64)
        return fit(k, k + (launch.groups(d) - 1) * launch.local_size[d], 64)


def _derive(name: str, ta: Tag | None, tb: Tag | None, va: Itv, vb: Itv) -> Tag | None:
    """The relation of `a <name> b` with the ids, from its operands' relations and
    values (`group * size + local` and `global - local` are recognised, and
    adding or subtracting a constant keeps a relation)."""
    tag = None
    if name == "arith.muli":
        if (
            ta is not None
            and tb is not None
            and ta[1] == tb[1]
            and {ta[0], tb[0]} == {"grp", "els"}
        ):
            tag = ("start", ta[1], 0)
    elif name == "arith.addi":
        for x, y, vy in ((ta, tb, vb), (tb, ta, va)):
            if x is None or x[0] not in ("gid", "start"):
                continue
            if x[0] == "start" and y is not None and y == ("lid", x[1]):
                tag = ("gid", x[1], x[2])
            elif is_exact(vy):
                tag = (x[0], x[1], x[2] + vy[0])
    elif name == "arith.subi" and ta is not None and ta[0] in ("gid", "start"):
        if ta[0] == "gid" and tb == ("lid", ta[1]):
            tag = ("start", ta[1], ta[2])
        elif is_exact(vb):
            tag = (ta[0], ta[1], ta[2] - vb[0])
    return tag
