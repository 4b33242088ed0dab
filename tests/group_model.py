"""A numpy model of the spec's group collectives and shuffles, for the execution
tests of every implementation (native `work-item-loops`, software `replace-wgc`).

`groups(global_size, local_size)` lists the work-groups of an NDRange as arrays of
global linear ids in local linear order; `collective(name, values, ...)` is what one
group (a work-group, or a sub-group: consecutive local linear ids) computes;
`shuffle(name, ...)` the four sub-group shuffles. Results are sequential folds in
local linear order from the operation's identity, which is what the native
implementation computes (`lowering/scheduling/group_exchanges.py`): floating-point
results are the left-to-right sum, compared exactly.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

INTEGER_KINDS = ("add", "mul", "smin", "umin", "smax", "umax", "and", "or", "xor")
FLOAT_KINDS = ("fadd", "fmul", "fmin", "fmax")
LOGICAL_KINDS = ("logical_and", "logical_or", "logical_xor")


def groups(global_size: tuple[int, ...], local_size: tuple[int, ...]) -> list:
    """The work-groups of the NDRange, each an array of the global linear ids of its
    work-items in local linear order (x fastest); the last group of a dimension is
    smaller when the local size does not divide the global size."""
    dims = len(global_size)
    g = tuple(global_size) + (1,) * (3 - dims)
    l_ = tuple(local_size) + (1,) * (3 - dims)
    result = []
    starts = [range(0, g[d], l_[d]) for d in range(3)]
    for sz, sy, sx in itertools.product(starts[2], starts[1], starts[0]):
        xs = range(sx, min(sx + l_[0], g[0]))
        ys = range(sy, min(sy + l_[1], g[1]))
        zs = range(sz, min(sz + l_[2], g[2]))
        ids = [(z * g[1] + y) * g[0] + x for z in zs for y in ys for x in xs]
        result.append((np.array(ids), (len(xs), len(ys), len(zs))))
    return result


def identity(kind: str, dtype: np.dtype):
    dtype = np.dtype(dtype)
    if kind in FLOAT_KINDS:
        value = {"fadd": -0.0, "fmul": 1.0, "fmin": math.inf, "fmax": -math.inf}[kind]
        return dtype.type(value)
    if kind in LOGICAL_KINDS:
        return kind == "logical_and"
    bits = dtype.itemsize * 8
    value = {
        "add": 0,
        "mul": 1,
        "smin": (1 << (bits - 1)) - 1,
        "umin": -1,
        "smax": -(1 << (bits - 1)),
        "umax": 0,
        "and": -1,
        "or": 0,
        "xor": 0,
    }[kind]
    return dtype.type(value)


def combine(kind: str, a, b):
    """`a <kind> b` on numpy scalars of one type (integers wrap)."""
    if kind in FLOAT_KINDS:
        return {"fadd": np.add, "fmul": np.multiply, "fmin": np.fmin, "fmax": np.fmax}[
            kind
        ](a, b)
    if kind in LOGICAL_KINDS:
        return {
            "logical_and": lambda: a and b,
            "logical_or": lambda: a or b,
            "logical_xor": lambda: a != b,
        }[kind]()
    dtype = np.asarray(a).dtype
    unsigned = np.dtype(f"u{dtype.itemsize}")
    ua, ub = int(np.asarray(a).view(unsigned)), int(np.asarray(b).view(unsigned))
    sa, sb = int(a), int(b)
    mask = (1 << (dtype.itemsize * 8)) - 1
    value = {
        "add": lambda: ua + ub,
        "mul": lambda: ua * ub,
        "smin": lambda: min(sa, sb),
        "smax": lambda: max(sa, sb),
        "umin": lambda: min(ua, ub),
        "umax": lambda: max(ua, ub),
        "and": lambda: ua & ub,
        "or": lambda: ua | ub,
        "xor": lambda: ua ^ ub,
    }[kind]()
    return np.array(value & mask, dtype=unsigned).view(dtype)[()]


_UFUNCS = {
    "add": np.add,
    "fadd": np.add,
    "mul": np.multiply,
    "fmul": np.multiply,
    "smin": np.minimum,
    "umin": np.minimum,
    "fmin": np.fmin,
    "smax": np.maximum,
    "umax": np.maximum,
    "fmax": np.fmax,
    "and": np.bitwise_and,
    "or": np.bitwise_or,
    "xor": np.bitwise_xor,
    "logical_and": np.logical_and,
    "logical_or": np.logical_or,
    "logical_xor": np.logical_xor,
}


def fold(kind: str, values: np.ndarray, collective: str) -> np.ndarray:
    """`collective` ("reduce": every element is the total, "scan_inclusive",
    "scan_exclusive") of `kind` over `values` in order, vectorised with numpy's
    ufuncs (integers wrap; umin/umax compare as unsigned; logical kinds treat
    non-zero as true), in the dtype of `values`."""
    dtype = values.dtype
    if kind in LOGICAL_KINDS:
        values = values != 0
    elif kind in ("umin", "umax"):
        values = values.view(dtype.str.replace("i", "u"))
    with np.errstate(over="ignore"):
        scan = _UFUNCS[kind].accumulate(values, dtype=values.dtype)
    if collective == "reduce":
        result = np.full_like(scan, scan[-1])
    elif collective == "scan_inclusive":
        result = scan
    else:
        start = np.array([identity(kind, dtype)])
        if kind not in LOGICAL_KINDS:
            start = start.astype(dtype).view(values.dtype)
        result = np.concatenate([start.astype(values.dtype), scan[:-1]])
    return result.astype(dtype) if kind in LOGICAL_KINDS else result.view(dtype)


def collective(
    name: str, values: np.ndarray, kind: str | None = None, source: int | None = None
) -> np.ndarray:
    """What each invocation of one group gets from collective `name` (any, all,
    broadcast, reduce, scan_inclusive, scan_exclusive) of `values` (the group's
    operands in local linear order): for broadcast, the value of invocation
    `source` (its linear id in the group)."""
    n = len(values)
    if name == "broadcast":
        assert source is not None
        return np.full(n, values[source], dtype=values.dtype)
    if name in ("any", "all"):
        kind = "logical_or" if name == "any" else "logical_and"
    assert kind is not None
    acc = identity(kind, values.dtype)
    out = np.empty_like(values)
    for i, value in enumerate(values):
        following = combine(kind, acc, value)
        out[i] = acc if name == "scan_exclusive" else following
        acc = following
    if name in ("any", "all", "reduce"):
        out[:] = acc
    return out


def sub_groups(n: int, size: int) -> list[slice]:
    """The sub-groups of a work-group of `n` invocations: `size` consecutive local
    linear ids each, the last one possibly smaller."""
    return [slice(s, min(s + size, n)) for s in range(0, n, size)]


def shuffle(
    name: str,
    first: np.ndarray,
    second: np.ndarray | None,
    operand: np.ndarray,
    max_size: int,
) -> np.ndarray:
    """Sub-group shuffle `name` (shuffle, shuffle_xor: `first` is %val; shuffle_up:
    %prev, %curr; shuffle_down: %curr, %next) of one sub-group, `operand` its
    %lid, %xor_val or %delta (unsigned), `max_size` the maximum sub-group size M.
    An out-of-range index gives the invocation's own %val or %curr."""
    n = len(first)
    own = second if name == "shuffle_up" else first
    assert own is not None
    out = own.copy()
    for i in range(n):
        d = int(operand[i]) & 0xFFFFFFFF
        if name in ("shuffle", "shuffle_xor"):
            j = d if name == "shuffle" else i ^ d
            if j < n:
                out[i] = first[j]
        elif name == "shuffle_up":
            j = i - d
            if 0 <= j < max_size:
                if j < n:
                    out[i] = second[j]
            elif -max_size <= j < 0 and j + max_size < n:
                out[i] = first[j + max_size]
        else:  # shuffle_down
            j = i + d
            if j < max_size:
                if j < n:
                    out[i] = first[j]
            elif j < 2 * max_size and j - max_size < n:
                out[i] = second[j - max_size]
    return out
