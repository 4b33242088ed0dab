"""How every run of the interpreter ends: loops settle, and runs have a budget.

An abstract run joins the values a loop carries round after round until they are
stable (`fixpoint`, and the block entry environments of a region with branches in
`interpreter`). So that this ends in a few rounds, after `WIDEN_AFTER` rounds a
bound still moving is widened (`widened`) to the next constant in scope (a loop's
limit is usually one: `thresholds`), and after `THRESHOLD_ROUNDS` straight to the
end of its type.

A run that cannot go on raises: `Unknowable` when it meets what it cannot know or
does not understand, `OutOfSteps` when it has interpreted more ops than its budget
(`ANALYSIS_STEPS` for the abstract run of a launch shape, `WITNESS_STEPS` for all
its concrete runs together).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.ir import SSAValue

from mux.access_bounds.intervals import Itv, full_range, join_all, smax, smin, width_of

WIDEN_AFTER = 3
"""Rounds of a loop's fixpoint before its unstable bounds are widened."""
THRESHOLD_ROUNDS = 8
"""Rounds after which widening goes straight to the ends of the type."""
ANALYSIS_STEPS = 200_000
"""Ops the abstract run of one launch shape may interpret (nested loops each run
their bodies a few times): past it, every buffer is unknown."""
WITNESS_STEPS = 50_000
"""Ops the concrete runs of one launch shape may interpret in all."""


class Unknowable(Exception):
    """A concrete run met what it cannot know (a branch on a loaded value), or the
    abstract run an op whose regions it does not understand."""


class OutOfSteps(Exception):
    """The run interpreted more ops than its budget."""


def thresholds(env: dict[SSAValue, Itv]) -> list[int]:
    """The constants of an environment: where widening stops first."""
    return sorted({v[0] for v in env.values() if v is not None and v[0] == v[1]})


def widened(v: SSAValue, before: Itv, after: Itv, stops: Sequence[int]) -> Itv:
    """Widening of `v` from `before` to `after`: a bound that moved goes to the
    next of `stops` (the constants in scope, such as a loop's limit) past it, else
    to the end of the type, so that a fixpoint is reached in a few rounds."""
    w = width_of(v.type)
    if w is None or before is None or after is None:
        return None
    lo, hi = after
    if lo != before[0]:
        lo = max((t for t in stops if t <= lo), default=smin(w))
    if hi != before[1]:
        hi = min((t for t in stops if t >= hi), default=smax(w))
    return None if (lo, hi) == full_range(w) else (lo, hi)


def fixpoint(
    values: Sequence[SSAValue],
    state: list[Itv],
    body: Callable[[list[Itv]], list[Itv] | None],
    env: dict[SSAValue, Itv],
) -> list[Itv]:
    """Joins `body(state)` into `state` until it is stable: the loop-carried
    `values` of an abstract loop entered with `env`. `body` gives None when no
    iteration continues."""
    rounds = 0
    stops = thresholds(env)
    while True:
        new = body(state)
        if new is None:
            return state
        joined = join_all(state, new)
        if joined == state:
            return state
        rounds += 1
        if rounds >= WIDEN_AFTER:
            if rounds >= THRESHOLD_ROUNDS:
                stops = []
            joined = [
                widened(v, a, b, stops)
                for v, a, b in zip(values, state, joined, strict=True)
            ]
        state = joined
