"""Manifests of the `work_group_collective_functions` group (UnitCL's
work_group_collective_functions.cpp): `work_group_all/any/broadcast/reduce_*/
scan_*` over 3-D ranges four work-groups wide in x, at the test's local sizes,
for int, uint, long and ulong. Every work-item's result is its group's
reduction, its inclusive or exclusive scan in local linear order (x fastest,
then y, then z), or the value of the work-item the broadcast names."""

from __future__ import annotations

import numpy as np

from . import In, Launch, Out
from .ndrange import apply, layout, reduce, scan, truth_check

LOCAL_SIZES = ((64, 1, 1), (1, 64, 1), (1, 1, 64), (67, 1, 1), (67, 5, 1), (67, 2, 3))
TYPES = {"int": np.int32, "uint": np.uint32, "long": np.int64, "ulong": np.uint64}
STD = {"options": "-cl-std=CL3.0"}


def _global(local: tuple[int, ...]) -> tuple[int, ...]:
    return (local[0] * 4, *local[1:])


def _by_group(values: np.ndarray, local: tuple[int, ...], per_group) -> np.ndarray:
    where = layout(_global(local), local)
    return apply(values, where.group, where, per_group)


def _inputs(dtype, count: int, seed: int, clamp: int = 1) -> np.ndarray:
    """Random values over the type's range (divided by `clamp`, the group size,
    for sums that must not overflow)."""
    info = np.iinfo(dtype)
    rng = np.random.default_rng(seed)
    low, high = int(info.min) // clamp, int(info.max) // clamp
    return rng.integers(low, high, count, dtype=dtype, endpoint=True)


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
            args = (In(data), Out(truth_check(expected), np.int32, count))
            label = f"local {local} {'random' if fill is None else fill}"
            launches.append(Launch(args, _global(local), local, label=label, **STD))
    return launches


def _binary(op: str, kind: str, dtype, inclusive: bool = False) -> list[Launch]:
    launches = []
    for index, local in enumerate(LOCAL_SIZES):
        count = int(np.prod(_global(local)))
        clamp = int(np.prod(local)) if op == "add" else 1
        data = _inputs(dtype, count, index, clamp)
        fn = reduce(op, dtype) if kind == "reduce" else scan(op, dtype, inclusive)
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
        where = layout(_global(local), local)
        expected = np.empty_like(data)
        for g, items in where.each(where.group):
            source = items[(where.local_ids[items] == chosen[g]).all(axis=1)][0]
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
