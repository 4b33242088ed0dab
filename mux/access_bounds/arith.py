"""What the integer `arith` ops compute, on intervals and on single values.

`INTERVAL_OPS` gives, per binary op, its result's interval from its operands'
intervals (`intervals.Itv`) in a type of `w` bits: an over-approximation, unknown
(None) whenever the result may wrap or the op may be undefined (a division by a
range holding 0, a shift by the width or more). `exact_binary` computes one value
exactly as the op does (two's complement, wrapping): the interpreter uses it when
both operands are known values, in the concrete runs and for constants.
`bool_op` is the three `i1` logic ops.
"""

from __future__ import annotations

from collections.abc import Callable

from mux.access_bounds.intervals import (
    Itv,
    corners,
    fit,
    from_unsigned,
    full_range,
    smax,
    smin,
    unsigned,
    wrap,
)

IntervalOp = Callable[[Itv, Itv, int], Itv]
"""A binary op on intervals in a type of the given width."""


def trunc_div(x: int, y: int) -> int:
    """Division rounding toward 0, as `arith.divsi`."""
    q = abs(x) // abs(y)
    return q if (x >= 0) == (y > 0) else -q


def exact_binary(name: str, x: int, y: int, w: int) -> Itv:
    """An integer op of `INTERVAL_OPS` on one value each: its result as the op
    computes it (two's complement, wrapping), None where it is undefined (a
    division by 0 or of the smallest value by -1, a shift by the width or more)."""
    m = 1 << w
    ux, uy = x % m, y % m
    if name in ("arith.divsi", "arith.remsi") and (
        y == 0 or (x == smin(w) and y == -1)
    ):
        return None
    if name in ("arith.divui", "arith.remui", "arith.ceildivui") and uy == 0:
        return None
    if name in ("arith.shli", "arith.shrsi", "arith.shrui") and uy >= w:
        return None
    r = {
        "arith.addi": lambda: x + y,
        "arith.subi": lambda: x - y,
        "arith.muli": lambda: x * y,
        "arith.divsi": lambda: trunc_div(x, y),
        "arith.remsi": lambda: x - trunc_div(x, y) * y,
        "arith.divui": lambda: ux // uy,
        "arith.remui": lambda: ux % uy,
        "arith.ceildivui": lambda: -(-ux // uy),
        "arith.minsi": lambda: min(x, y),
        "arith.maxsi": lambda: max(x, y),
        "arith.minui": lambda: min(ux, uy),
        "arith.maxui": lambda: max(ux, uy),
        "arith.andi": lambda: ux & uy,
        "arith.ori": lambda: ux | uy,
        "arith.xori": lambda: ux ^ uy,
        "arith.shli": lambda: x << uy,
        "arith.shrsi": lambda: x >> uy,
        "arith.shrui": lambda: ux >> uy,
    }[name]()
    r = wrap(r, w)
    return (r, r)


def bool_op(name: str, a: Itv, b: Itv) -> Itv:
    """`arith.andi`, `ori` or `xori` on `i1` values: known when the operands are,
    or when one of them decides it (false and x, true or x)."""
    if a is None or b is None or a[0] != a[1] or b[0] != b[1]:
        if name == "arith.andi" and (a == (0, 0) or b == (0, 0)):
            return (0, 0)
        if name == "arith.ori" and (a == (1, 1) or b == (1, 1)):
            return (1, 1)
        return (0, 1)
    x, y = a[0], b[0]
    r = {"arith.andi": x & y, "arith.ori": x | y, "arith.xori": x ^ y}.get(name)
    return (0, 1) if r is None else (r, r)


def add(a: Itv, b: Itv, w: int) -> Itv:
    return None if a is None or b is None else fit(a[0] + b[0], a[1] + b[1], w)


def _sub(a: Itv, b: Itv, w: int) -> Itv:
    return None if a is None or b is None else fit(a[0] - b[1], a[1] - b[0], w)


def mul(a: Itv, b: Itv, w: int) -> Itv:
    return corners(lambda x, y: x * y, a, b, w)


def _divsi(a: Itv, b: Itv, w: int) -> Itv:
    if b is None or b[0] <= 0 <= b[1]:
        return None
    return corners(trunc_div, a, b, w)


def _remsi(a: Itv, b: Itv, w: int) -> Itv:
    if a is None or b is None or b[0] <= 0 <= b[1]:
        return None
    if a[0] == a[1] and b[0] == b[1]:
        r = a[0] - trunc_div(a[0], b[0]) * b[0]
        return (r, r)
    m = max(abs(b[0]), abs(b[1])) - 1
    return (max(a[0], -m) if a[0] < 0 else 0, min(a[1], m) if a[1] > 0 else 0)


def _unsigned_op(fn: Callable[[tuple[int, int], tuple[int, int]], Itv]) -> IntervalOp:
    """An op on the unsigned views of its operands (`fn` on their unsigned
    intervals), its result read back as signed."""

    def op(a: Itv, b: Itv, w: int) -> Itv:
        ua, ub = unsigned(a, w), unsigned(b, w)
        if ua is None or ub is None:
            return None
        r = fn(ua, ub)
        return None if r is None else from_unsigned(r[0], r[1], w)

    return op


def _udiv(a: tuple[int, int], b: tuple[int, int]) -> Itv:
    return None if b[0] == 0 else (a[0] // b[1], a[1] // b[0])


def _urem(a: tuple[int, int], b: tuple[int, int]) -> Itv:
    if b[0] == 0:
        return None
    if a[0] == a[1] and b[0] == b[1]:
        return (a[0] % b[0], a[0] % b[0])
    if a[1] < b[0]:
        return a
    return (0, min(a[1], b[1] - 1))


def _uceil(a: tuple[int, int], b: tuple[int, int]) -> Itv:
    return None if b[0] == 0 else (-(-a[0] // b[1]), -(-a[1] // b[0]))


def _and(a: Itv, b: Itv, w: int) -> Itv:
    if a is not None and b is not None and a[0] == a[1] and b[0] == b[1]:
        return fit(a[0] & b[0], a[0] & b[0], w)
    highs = [x[1] for x in (a, b) if x is not None and x[0] >= 0]
    return (0, min(highs)) if highs else None


def _or_xor(name: str) -> IntervalOp:
    def op(a: Itv, b: Itv, w: int) -> Itv:
        if a is None or b is None or a[0] < 0 or b[0] < 0:
            return None
        if a[0] == a[1] and b[0] == b[1]:
            r = a[0] | b[0] if name == "or" else a[0] ^ b[0]
            return (r, r)
        top = (1 << max(a[1], b[1]).bit_length()) - 1
        return (0, top)

    return op


def _shl(a: Itv, b: Itv, w: int) -> Itv:
    if b is None or b[0] < 0 or b[1] >= w:
        return None
    return corners(lambda x, y: x << y, a, b, w)


def _shrsi(a: Itv, b: Itv, w: int) -> Itv:
    if b is None or b[0] < 0 or b[1] >= w:
        return None
    return corners(lambda x, y: x >> y, a, b, w)


def _shrui(a: Itv, b: Itv, w: int) -> Itv:
    if b is None or b[0] < 0 or b[1] >= w:
        return None
    ua = unsigned(a, w)
    if ua is None:
        return (0, smax(w)) if b[0] >= 1 else None
    return from_unsigned(ua[0] >> b[1], ua[1] >> b[0], w)


def _minmax(fn: Callable[[int, int], int]) -> IntervalOp:
    """minsi/maxsi: monotonic in both operands; an unknown operand is the whole
    signed range (min(x, n - 1) is at most n - 1 whatever x is)."""

    def op(a: Itv, b: Itv, w: int) -> Itv:
        a, b = a or full_range(w), b or full_range(w)
        lo, hi = fn(a[0], b[0]), fn(a[1], b[1])
        return None if (lo, hi) == full_range(w) else (lo, hi)

    return op


INTERVAL_OPS: dict[str, IntervalOp] = {
    "arith.addi": add,
    "arith.subi": _sub,
    "arith.muli": mul,
    "arith.divsi": _divsi,
    "arith.remsi": _remsi,
    "arith.divui": _unsigned_op(_udiv),
    "arith.remui": _unsigned_op(_urem),
    "arith.ceildivui": _unsigned_op(_uceil),
    "arith.minsi": _minmax(min),
    "arith.maxsi": _minmax(max),
    "arith.minui": _unsigned_op(lambda a, b: (min(a[0], b[0]), min(a[1], b[1]))),
    "arith.maxui": _unsigned_op(lambda a, b: (max(a[0], b[0]), max(a[1], b[1]))),
    "arith.andi": _and,
    "arith.ori": _or_xor("or"),
    "arith.xori": _or_xor("xor"),
    "arith.shli": _shl,
    "arith.shrsi": _shrsi,
    "arith.shrui": _shrui,
}
"""The binary integer ops the analysis computes: the interval of the result."""
