"""The abstract domain of the access analysis: intervals of signed integers.

An abstract value (`Itv`) is an interval [lo, hi] of the values an integer (or index)
may have, read as signed in its type, or None: unknown, any value of the type. An
`i1` is the interval of 0 and 1. Whenever a computed interval leaves its type's signed
range it becomes unknown (`fit`): the value may have wrapped, and a wrapped value is
never assumed to be in a narrower range.

Besides the lattice operations (`join`, `meet`) this module has the conversions
between the signed and unsigned views of an interval, and `decide`: what a
comparison (`arith.cmpi`) of two intervals is known to give. A concrete value (one
number, as in the concrete runs) is the interval (v, v).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, TypeGuard

from xdsl.dialects.builtin import IndexType, IntegerType

Itv = tuple[int, int] | None
"""An interval [lo, hi] of the signed values of an integer, or None: unknown."""


def width_of(type_: Any) -> int | None:
    """The bits of an integer or index type (index: 64), None for other types."""
    if isinstance(type_, IndexType):
        return 64
    if isinstance(type_, IntegerType):
        return type_.width.data
    return None


def smin(w: int) -> int:
    return 0 if w == 1 else -(1 << (w - 1))


def smax(w: int) -> int:
    return 1 if w == 1 else (1 << (w - 1)) - 1


def fit(lo: int, hi: int, w: int) -> Itv:
    """[lo, hi] if every value fits the signed range of width `w` (i1: 0 and 1),
    else None: the result may have wrapped."""
    if smin(w) <= lo and hi <= smax(w):
        return (lo, hi)
    return None


def full_range(w: int) -> tuple[int, int]:
    return (smin(w), smax(w))


def wrap(v: int, w: int) -> int:
    """`v` as the signed value of its low `w` bits (i1: 0 or 1)."""
    v %= 1 << w
    return v if w == 1 or v <= smax(w) else v - (1 << w)


def is_exact(v: Itv) -> TypeGuard[tuple[int, int]]:
    """Whether `v` is one known value."""
    return v is not None and v[0] == v[1]


def unsigned(v: Itv, w: int) -> Itv:
    """The interval of the unsigned values of `v`, None if it is not one interval
    (a range across 0) or unknown."""
    if v is None:
        return None if w != 1 else (0, 1)
    lo, hi = v
    if w == 1 or lo >= 0:
        return v
    if hi < 0:
        return (lo + (1 << w), hi + (1 << w))
    return None


def from_unsigned(lo: int, hi: int, w: int) -> Itv:
    """The signed interval of the unsigned values [lo, hi], None if they straddle
    the sign bit."""
    if w == 1 or hi <= smax(w):
        return fit(lo, hi, w)
    if lo > smax(w):
        return (lo - (1 << w), hi - (1 << w))
    return None


def join(a: Itv, b: Itv) -> Itv:
    """The smallest interval holding both."""
    if a is None or b is None:
        return None
    return (min(a[0], b[0]), max(a[1], b[1]))


def join_all(a: list[Itv], b: list[Itv]) -> list[Itv]:
    """`join` of two lists of values, element by element."""
    return [join(x, y) for x, y in zip(a, b, strict=True)]


def meet(a: Itv, b: Itv, w: int) -> Itv | Literal[False]:
    """The intersection; False if it is empty."""
    a = a if a is not None else full_range(w)
    b = b if b is not None else full_range(w)
    lo, hi = max(a[0], b[0]), min(a[1], b[1])
    if lo > hi:
        return False
    return None if (lo, hi) == full_range(w) else (lo, hi)


def corners(op: Callable[[int, int], int], a: Itv, b: Itv, w: int) -> Itv:
    """`op` over two intervals, for an `op` monotonic in each argument."""
    if a is None or b is None:
        return None
    values = [op(x, y) for x in a for y in b]
    return fit(min(values), max(values), w)


PREDICATES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
"""The predicates of `arith.cmpi`, by number."""
NEGATE = {
    "eq": "ne",
    "ne": "eq",
    "slt": "sge",
    "sge": "slt",
    "sle": "sgt",
    "sgt": "sle",
    "ult": "uge",
    "uge": "ult",
    "ule": "ugt",
    "ugt": "ule",
}
"""The predicate of the negated comparison."""
SWAP = {"sgt": "slt", "sge": "sle", "ugt": "ult", "uge": "ule"}
"""The predicate with the operands swapped, for those greater than."""


def decide(pred: str, a: Itv, b: Itv, w: int) -> Itv:
    """cmpi's result: (1, 1) or (0, 0) when the intervals decide it, else (0, 1)."""
    if pred[0] == "u":
        a, b = unsigned(a, w), unsigned(b, w)
    if a is None or b is None:
        return (0, 1)
    if pred in ("eq", "ne"):
        if a[0] == a[1] == b[0] == b[1]:
            return (1, 1) if pred == "eq" else (0, 0)
        if a[1] < b[0] or b[1] < a[0]:
            return (0, 0) if pred == "eq" else (1, 1)
        return (0, 1)
    strict = pred[1:] in ("lt", "gt")
    if pred[1:] in ("gt", "ge"):
        a, b = b, a
    # a < b (strict) or a <= b
    if a[1] < b[0] or (not strict and a[1] <= b[0]):
        return (1, 1)
    if a[0] > b[1] or (strict and a[0] >= b[1]):
        return (0, 0)
    return (0, 1)
