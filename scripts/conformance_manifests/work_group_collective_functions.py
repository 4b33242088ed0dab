"""Manifests of the `work_group_collective_functions` group (UnitCL's
work_group_collective_functions.cpp): `work_group_all/any/broadcast/reduce_*/
scan_*` over 3-D ranges four work-groups wide in x, at the test's local sizes,
for int, uint, long and ulong. Every work-item's result is its group's
reduction, its inclusive or exclusive scan in local linear order (x fastest,
then y, then z), or the value of the work-item the broadcast names."""

from __future__ import annotations

import numpy as np

from . import In, Launch, Out

LOCAL_SIZES = ((64, 1, 1), (1, 64, 1), (1, 1, 64), (67, 1, 1), (67, 5, 1), (67, 2, 3))
TYPES = {"int": np.int32, "uint": np.uint32, "long": np.int64, "ulong": np.uint64}
STD = {"options": "-cl-std=CL3.0"}


def _global(local: tuple[int, ...]) -> tuple[int, ...]:
    return (local[0] * 4, *local[1:])


def _layout(local: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each work-item in global linear order: its group's linear id, its
    local linear id, and its local ids (x, y, z) as a 3-column array."""
    gx, gy, gz = _global(local)
    lx, ly, lz = local
    z, y, x = (a.reshape(-1) for a in np.indices((gz, gy, gx)))
    group = x // lx + (gx // lx) * (y // ly + (gy // ly) * (z // lz))
    local_linear = x % lx + lx * (y % ly + ly * (z % lz))
    return group, local_linear, np.stack([x % lx, y % ly, z % lz], axis=1)


def _by_group(values: np.ndarray, local: tuple[int, ...], per_group) -> np.ndarray:
    """`per_group(v)` applied to each group's values in local linear order, the
    results put back at their work-items."""
    group, local_linear, _ = _layout(local)
    out = np.empty_like(values)
    for g in np.unique(group):
        items = np.flatnonzero(group == g)
        items = items[np.argsort(local_linear[items], kind="stable")]
        out[items] = per_group(values[items])
    return out


def _inputs(dtype, count: int, seed: int, clamp: int = 1) -> np.ndarray:
    """Random values over the type's range (divided by `clamp`, the group size,
    for sums that must not overflow)."""
    info = np.iinfo(dtype)
    rng = np.random.default_rng(seed)
    low, high = int(info.min) // clamp, int(info.max) // clamp
    return rng.integers(low, high, count, dtype=dtype, endpoint=True)


def _reduce(op: str, dtype):
    info = np.iinfo(dtype)
    if op == "add":
        return lambda v: np.full_like(v, v.sum(dtype=dtype))
    if op == "min":
        return lambda v: np.full_like(v, v.min() if v.size else info.max)
    return lambda v: np.full_like(v, v.max() if v.size else info.min)


def _scan(op: str, dtype, inclusive: bool):
    info = np.iinfo(dtype)
    identity = {"add": 0, "min": info.max, "max": info.min}[op]
    ufunc = {"add": np.add, "min": np.minimum, "max": np.maximum}[op]

    def scan(v: np.ndarray) -> np.ndarray:
        with np.errstate(over="ignore"):
            running = ufunc.accumulate(v, dtype=dtype)
        if inclusive:
            return running
        return np.concatenate([np.array([identity], dtype), running[:-1]])

    return scan


def _truth_check(expected: np.ndarray):
    """Any non-zero result is true: the test compares truth values only."""

    def check(got: np.ndarray) -> str | None:
        bad = np.flatnonzero((got != 0) != (expected != 0))
        if not bad.size:
            return None
        i = int(bad[0])
        return (
            f"element {i}: expected {'true' if expected[i] else 'false'}, got "
            f"{got[i].item()!r} ({bad.size} of {got.size} differ)"
        )

    return check


def _any_all(is_all: bool) -> list[Launch]:
    launches = []
    group_op = np.all if is_all else np.any
    for index, local in enumerate(LOCAL_SIZES):
        count = int(np.prod(_global(local)))
        for fill in (0, 42, None):
            data = (
                np.full(count, fill, np.int32)
                if fill is not None
                else np.random.default_rng(index).integers(0, 2, count).astype(np.int32)
            )
            expected = _by_group(
                data, local, lambda v: np.full_like(v, int(group_op(v != 0)))
            )
            args = (In(data), Out(_truth_check(expected), np.int32, count))
            label = f"local {local} {'random' if fill is None else fill}"
            launches.append(Launch(args, _global(local), local, label=label, **STD))
    return launches


def _binary(op: str, kind: str, dtype, inclusive: bool = False) -> list[Launch]:
    launches = []
    for index, local in enumerate(LOCAL_SIZES):
        count = int(np.prod(_global(local)))
        clamp = int(np.prod(local)) if op == "add" else 1
        data = _inputs(dtype, count, index, clamp)
        fn = _reduce(op, dtype) if kind == "reduce" else _scan(op, dtype, inclusive)
        expected = _by_group(data, local, fn)
        args = (In(data), Out(expected))
        launches.append(
            Launch(args, _global(local), local, label=f"local {local}", **STD)
        )
    return launches


def _broadcast(dims: int, dtype, locals_: tuple) -> list[Launch]:
    """The value of the work-item whose local ids the group's `idx` entry names
    (a size_t in 1-D, a uint2 in 2-D, a uint3 in 3-D)."""
    launches = []
    for index, local in enumerate(locals_):
        count = int(np.prod(_global(local)))
        groups = count // int(np.prod(local))
        rng = np.random.default_rng(100 + index)
        data = _inputs(dtype, count, index)
        chosen = np.stack([rng.integers(0, n, groups) for n in local], axis=1)
        chosen[:, dims:] = 0
        group, _, local_ids = _layout(local)
        expected = np.empty_like(data)
        for g in range(groups):
            items = np.flatnonzero(group == g)
            source = items[(local_ids[items] == chosen[g]).all(axis=1)][0]
            expected[items] = data[source]
        if dims == 1:
            idx = chosen[:, 0].astype(np.uint64)
        else:
            idx = np.zeros((groups, 2 if dims == 2 else 4), np.uint32)
            idx[:, :dims] = chosen[:, :dims]
        args = (In(data), In(idx), Out(expected))
        launches.append(
            Launch(args, _global(local), local, label=f"local {local}", **STD)
        )
    return launches


_PREFIX = "work_group_collective_functions"
_BROADCAST_LOCALS = {
    1: ((64, 1, 1), (67, 1, 1)),
    2: ((64, 1, 1), (1, 64, 1), (67, 1, 1), (67, 5, 1)),
    3: LOCAL_SIZES,
}
_NUMBERED = {
    "06_reduce_add": ("add", "reduce", False),
    "07_reduce_min": ("min", "reduce", False),
    "08_reduce_max": ("max", "reduce", False),
    "09_scan_exclusive_add": ("add", "scan", False),
    "10_scan_exclusive_min": ("min", "scan", False),
    "11_scan_exclusive_max": ("max", "scan", False),
    "12_scan_inclusive_add": ("add", "scan", True),
    "13_scan_inclusive_min": ("min", "scan", True),
    "14_scan_inclusive_max": ("max", "scan", True),
}

MANIFESTS: dict[str, list[Launch]] = {
    f"{_PREFIX}.01_all": _any_all(True),
    f"{_PREFIX}.02_any": _any_all(False),
    **{
        f"{_PREFIX}.0{2 + dims}_broadcast_{dims}d_{name}": _broadcast(
            dims, dtype, _BROADCAST_LOCALS[dims]
        )
        for dims in (1, 2, 3)
        for name, dtype in TYPES.items()
    },
    **{
        f"{_PREFIX}.{stem}_{name}": _binary(op, kind, dtype, inclusive)
        for stem, (op, kind, inclusive) in _NUMBERED.items()
        for name, dtype in TYPES.items()
    },
}
