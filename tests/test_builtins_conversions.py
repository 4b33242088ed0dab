"""The explicit conversions of the builtin library (`link-builtins`,
`conversions`): `convert_<type>[_sat][_<mode>]` from every type to every type, in
every rounding mode, with and without saturation, checked exactly against the
value rounded from Python's exact rationals. Out-of-range and NaN values
converted to integers without `_sat` are undefined and not checked."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from builtin_kernels import DTYPES, Call, by_type, edge_floats, run_calls, whole_vectors

MODES = ["", "_rte", "_rtz", "_rtp", "_rtn"]
INTEGERS = ["char", "uchar", "short", "ushort", "int", "uint", "long", "ulong"]
FLOATS = ["half", "float", "double"]


def _int_range(type_: str) -> tuple[int, int]:
    info = np.iinfo(DTYPES[type_])
    return int(info.min), int(info.max)


def _inputs(type_: str) -> np.ndarray:
    dtype = DTYPES[type_]
    if type_ in FLOATS:
        near = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 127.5, 128.0, -128.5, 255.5, 256.0]
        near += [32767.5, -32768.5, 65535.5, 2049.0, 4097.0]
        if type_ != "half":
            near += [
                2.0**24 + 1,
                2.0**31 - 64,
                2.0**31,
                -(2.0**31) - 256,
                2.0**32 - 256,
            ]
            near += [2.0**32, 2.0**63, -(2.0**63), 2.0**64, 1e19, -1e19, 2.0**53 + 2]
        if type_ == "double":
            near += [2.0**53 + 1, 2.0**31 - 0.5, 2.0**63 - 1024, 3.4028235677973366e38]
            near += [3.4028234663852886e38 * (1 + 2.0**-30), 1e-300, -1e-300, 1e300]
            near += [65504.0 + 16, 65520.0, 65519.99, 2.0**-25, 2.0**-24 * 1.5]
        with np.errstate(over="ignore"):
            return np.concatenate([edge_floats(dtype), np.array(near, dtype)])
    low, high = _int_range(type_)
    values = {
        low,
        low + 1,
        high,
        high - 1,
        0,
        1,
        -1,
        2,
        127,
        128,
        255,
        256,
        32768,
        65520,
    }
    values |= {65536, 2**24 + 1, 2**24 + 3, 2**31 - 1, 2**32 - 1, 2**53 + 1, 2**62 + 1}
    values |= {-(2**24) - 1, -(2**31), -(2**53) - 1, 2**63 - 1, 2**64 - 1, 2**63 - 511}
    return np.array(sorted(v for v in values if low <= v <= high), dtype)


def _exact(value) -> Fraction | float:
    """The exact rational value (NaN, infinities and zeros, which keep their sign,
    as floats)."""
    if isinstance(value, np.floating) and (not np.isfinite(value) or value == 0):
        return float(value)
    return (
        Fraction(int(value))
        if isinstance(value, np.integer)
        else Fraction(float(value))
    )


def _to_integer(value, type_: str, sat: bool, mode: str) -> int | None:
    """The integer `value` converts to, None where undefined."""
    low, high = _int_range(type_)
    if isinstance(value, float):  # NaN, an infinity or a zero
        if value == 0:
            return 0
        if math.isnan(value):
            return 0 if sat else None
        return (high if value > 0 else low) if sat else None
    rounding = {"_rte": round, "_rtp": math.ceil, "_rtn": math.floor}
    integer = rounding.get(mode, math.trunc)(value)  # round() of a Fraction: to even
    if low <= integer <= high:
        return integer
    return min(max(integer, low), high) if sat else None


def _to_float(value, type_: str, mode: str) -> float:
    """`value` rounded to the float type by the mode (default to nearest even)."""
    dtype = DTYPES[type_]
    if isinstance(value, float):
        return value
    with np.errstate(over="ignore"):
        guess = dtype(float(value))  # within an ulp
        up, down = (
            np.nextafter(guess, dtype(np.inf)),
            np.nextafter(guess, dtype(-np.inf)),
        )
    candidates = {guess, up, down}
    finite = sorted((c for c in candidates if np.isfinite(c)), key=float)
    largest = np.finfo(dtype).max
    below = [c for c in finite if Fraction(float(c)) <= value]
    above = [c for c in finite if Fraction(float(c)) >= value]
    low = below[-1] if below else dtype(-np.inf)
    high = above[0] if above else dtype(np.inf)
    if mode == "_rtp":
        result = high
    elif mode == "_rtn":
        result = low
    elif mode == "_rtz":
        result = low if value >= 0 else high
        if not np.isfinite(result):
            result = largest if value > 0 else -largest
    else:
        result = _nearest(value, low, high, dtype)
    if result == 0:  # the zero of the value's sign
        result = dtype(-0.0) if value < 0 else dtype(0.0)
    return float(result)


def _nearest(value: Fraction, low, high, dtype) -> np.floating:
    if low == high:
        return low
    if not np.isfinite(low) or not np.isfinite(high):
        # beyond the largest float: infinity from half an ulp above it
        largest = np.finfo(dtype).max
        ulp = Fraction(float(largest)) - Fraction(
            float(np.nextafter(largest, dtype(0)))
        )
        limit = Fraction(float(largest)) + ulp / 2
        finite = high if np.isfinite(high) else low
        return finite if abs(value) < limit else dtype(math.copysign(np.inf, value))
    to_low = value - Fraction(float(low))
    to_high = Fraction(float(high)) - value
    if to_low != to_high:
        return low if to_low < to_high else high
    bits = np.array([low], dtype).view(f"u{np.dtype(dtype).itemsize}")[0]
    return low if bits % 2 == 0 else high


def _calls(source: str) -> list[tuple[str, str, bool, str]]:
    """(call, destination, sat, mode) for every conversion from `source`."""
    calls = []
    for destination in INTEGERS + FLOATS:
        for mode in MODES:
            sats = (False, True) if destination in INTEGERS else (False,)
            for sat in sats:
                name = f"convert_{destination}{{lanes}}{'_sat' if sat else ''}{mode}"
                calls.append((name, destination, sat, mode))
    return calls


VECTORS = [("float", 4), ("int", 3), ("double", 2), ("uchar", 16)]
CASES = [(t, 1) for t in INTEGERS + FLOATS] + VECTORS


@by_type(("source", "lanes"), CASES)
def test_conversions_round_and_saturate_as_their_names_say(source: str, lanes: int):
    x = whole_vectors(_inputs(source), lanes)
    conversions = _calls(source)
    suffix = str(lanes) if lanes > 1 else ""
    calls = [Call(f"{n.format(lanes=suffix)}(a)", d) for n, d, _, _ in conversions]
    outputs = run_calls(calls, [x], lanes)
    exact = [_exact(v) for v in x]
    for (name, destination, sat, mode), got in zip(conversions, outputs, strict=True):
        for value, original, result in zip(exact, x, got, strict=True):
            if destination in INTEGERS:
                want = _to_integer(value, destination, sat, mode)
                if want is not None:
                    assert int(result) == want, (
                        f"{name}({original!r}) = {result}, not {want}"
                    )
            else:
                want = _to_float(value, destination, mode)
                same = (math.isnan(want) and math.isnan(result)) or (
                    want == result
                    and math.copysign(1, want) == math.copysign(1, result)
                )
                assert same, f"{name}({original!r}) = {result!r}, not {want!r}"
