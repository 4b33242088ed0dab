"""Conditions, and what a path guarded by one learns about the values it compares.

A kernel guards its accesses: `if (gid < n) out[gid] = ...`. On the guarded path the
interval of `gid` is narrowed to below `n`, which is what keeps the guarded access
inside `out`. `Conditions` remembers what each `i1` value the run computed means (a
comparison `("cmp", pred, a, b)`, `("and", x, y)`, `("or", x, y)`, `("not", x)`) and
`assume` narrows an environment (value -> interval) with a condition being true or
false, through negations, conjunctions and disjunctions down to the comparisons.
"""

from __future__ import annotations

from typing import Literal

from xdsl.ir import SSAValue

from mux.access_bounds.intervals import (
    NEGATE,
    SWAP,
    Itv,
    full_range,
    meet,
    smax,
    unsigned,
    width_of,
)
from mux.access_bounds.relations import IdRelations

Meaning = tuple
"""What an i1 value means, as listed in the module's docstring."""


class Conditions:
    """The meanings of one run's i1 values, and narrowing with them."""

    def __init__(self, relations: IdRelations):
        self.meanings: dict[SSAValue, Meaning] = {}
        self.relations = relations
        """Told of each global id a condition narrows (the guards' edges)."""

    def assume(self, env: dict[SSAValue, Itv], cond: SSAValue, truth: bool) -> bool:
        """Narrows `env` with `cond == truth`; False if that cannot hold."""
        current = env.get(cond)
        if current is not None and current[0] == current[1]:
            return bool(current[0]) == truth
        env[cond] = (1, 1) if truth else (0, 0)
        meaning = self.meanings.get(cond)
        if meaning is None:
            return True
        kind = meaning[0]
        if kind == "not":
            return self.assume(env, meaning[1], not truth)
        if kind == "and":
            return not truth or (
                self.assume(env, meaning[1], True)
                and self.assume(env, meaning[2], True)
            )
        if kind == "or":
            return truth or (
                self.assume(env, meaning[1], False)
                and self.assume(env, meaning[2], False)
            )
        _, pred, a, b = meaning
        return self._narrow(env, pred if truth else NEGATE[pred], a, b)

    def _narrow(
        self, env: dict[SSAValue, Itv], pred: str, a: SSAValue, b: SSAValue
    ) -> bool:
        """Narrows `a` and `b` with `a <pred> b`; False if that cannot hold."""
        if pred in SWAP:
            pred, a, b = SWAP[pred], b, a
        w = width_of(a.type)
        if w is None:
            return True
        va, vb = env.get(a), env.get(b)
        if pred == "ne":
            return _narrow_ne(env, a, b)
        if pred == "eq":
            both = meet(va, vb, w)
            if both is False:
                return False
            env[a] = env[b] = both
            return True
        strict = 1 if pred in ("slt", "ult") else 0
        if pred[0] == "u":
            new_a, new_b = _below_unsigned(va, vb, w, strict)
        else:
            full = full_range(w)
            fa, fb = va or full, vb or full
            new_a = meet(va, (fa[0], fb[1] - strict), w)
            new_b = meet(vb, (fa[0] + strict, fb[1]), w)
        if new_a is False or new_b is False:
            return False
        env[a], env[b] = new_a, new_b
        self.relations.note_narrowed(a, new_a)
        self.relations.note_narrowed(b, new_b)
        return True


def _narrow_ne(env: dict[SSAValue, Itv], a: SSAValue, b: SSAValue) -> bool:
    """`a != b`: a value compared with a constant at one of its ends loses that
    end; False if nothing is left."""
    va, vb = env.get(a), env.get(b)
    for x, other in ((a, vb), (b, va)):
        vx = env.get(x)
        if other is not None and other[0] == other[1] and vx is not None:
            lo, hi = vx
            lo += lo == other[0]
            hi -= hi == other[0]
            if lo > hi:
                return False
            env[x] = (lo, hi)
    return True


def _below_unsigned(
    va: Itv, vb: Itv, w: int, strict: int
) -> tuple[Itv | Literal[False], Itv | Literal[False]]:
    """The new intervals of a and b under unsigned a < b (`strict`) or a <= b:
    with b's unsigned values below 2^(w-1), a is non-negative and below b's
    largest; b is above a's smallest when a is non-negative."""
    ub = unsigned(vb, w)
    new_a: Itv | Literal[False] = va
    new_b: Itv | Literal[False] = vb
    if ub is not None and ub[1] <= smax(w):
        new_a = meet(va, (0, ub[1] - strict), w)
    ua = unsigned(va, w)
    if ua is not None and vb is not None and vb[0] >= 0 and ua[0] <= smax(w):
        new_b = meet(vb, (ua[0] + strict, smax(w)), w)
    return new_a, new_b
