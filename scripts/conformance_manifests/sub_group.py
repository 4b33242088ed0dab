"""Manifests of the `sub_group` group (UnitCL's sub_groups.cpp): the sub-group
queries and `sub_group_all/any/broadcast/reduce_*/scan_*` over 3-D ranges four
work-groups wide in x, at the test's local sizes. UnitCL's checks are written
for any device's sub-groups (they read the sizes back from the kernel); ours
are exact for this compiler's sub-groups: `SUB_GROUP_SIZE` work-items in local
linear order, the last of a work-group smaller when the size does not divide
it, as docs/passes.md says. Each kernel writes its sub-group's id over the
launch (`get_sub_group_id() + get_enqueued_num_sub_groups() * group linear
id`) and indexes per-sub-group results by it."""

from __future__ import annotations

import numpy as np

from . import In, Launch, Out
from .ndrange import apply, layout, reduce, scan, truth_check

LOCAL_SIZES = (
    (64, 1, 1),
    (8, 8, 1),
    (4, 4, 4),
    (1, 64, 1),
    (1, 1, 64),
    (67, 1, 1),
    (67, 3, 1),
    (67, 2, 3),
)
SUB_GROUP_SIZE = 8
TYPES = {"uint": np.uint32, "int": np.int32, "float": np.float32}
_PREFIX = "sub_group"


def _global(local):
    return (local[0] * 4, *local[1:])


def _launch(args, local) -> Launch:
    return Launch(
        args,
        _global(local),
        local,
        options="-cl-std=CL3.0",
        sub_group_size=SUB_GROUP_SIZE,
        label=f"local {local}",
    )


def _where(local):
    return layout(_global(local), local, SUB_GROUP_SIZE)


def _data(dtype, count: int, seed: int) -> np.ndarray:
    """Random values; floats are multiples of 1/256 below 256 in magnitude, whose
    sums are exact in any order (as the test makes them)."""
    rng = np.random.default_rng(seed)
    if np.issubdtype(dtype, np.floating):
        return (rng.integers(-65536, 65536, count, endpoint=True) / 256).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, count, dtype=dtype, endpoint=True)


def _query(field) -> list[Launch]:
    """A kernel writing one sub-group query per work-item, as uint."""
    launches = []
    for local in LOCAL_SIZES:
        where = _where(local)
        expected = np.broadcast_to(field(where), where.group.shape).astype(np.uint32)
        launches.append(_launch((Out(np.ascontiguousarray(expected)),), local))
    return launches


def _ids(where) -> np.ndarray:
    """The (sub-group over the launch, sub-group local id) pairs, as uint2."""
    return np.stack([where.global_sub_group, where.sub_group_local], axis=1).astype(
        np.uint32
    )


def _per_sub_group(where, values: np.ndarray, fn) -> np.ndarray:
    """`fn` of each sub-group's values, one result per sub-group over the launch."""
    total = where.groups * where.sub_groups_per_group
    out = np.zeros(total, values.dtype)
    for sg, items in where.each(where.global_sub_group):
        out[sg] = fn(values[items])
    return out


def _any_all(is_all: bool) -> list[Launch]:
    launches = []
    for index, local in enumerate(LOCAL_SIZES):
        where = _where(local)
        count = where.group.size
        random = np.random.default_rng(index).integers(0, 2, count).astype(np.int32)
        for data in (np.zeros(count, np.int32), np.full(count, 42, np.int32), random):
            fn = (
                (lambda v: int((v != 0).all()))
                if is_all
                else (lambda v: int((v != 0).any()))
            )
            expected = _per_sub_group(where, data, fn)
            sgid = where.global_sub_group.astype(np.uint64)
            args = (
                In(data),
                Out(sgid),
                Out(truth_check(expected), np.int32, expected.size),
            )
            launches.append(_launch(args, local))
    return launches


def _broadcast(dtype) -> list[Launch]:
    launches = []
    for index, local in enumerate(LOCAL_SIZES):
        where = _where(local)
        data = _data(dtype, where.group.size, index)
        rng = np.random.default_rng(50 + index)
        sizes = _per_sub_group(where, where.sub_group_size, lambda v: v[0])
        lanes = (rng.random(sizes.size) * sizes).astype(np.uint32)
        chosen = lanes[where.global_sub_group]
        expected = np.empty_like(data)
        for sg, items in where.each(where.global_sub_group):
            expected[items] = data[items[lanes[sg]]]
        assert (chosen < where.sub_group_size).all()
        args = (In(data), In(lanes), Out(_ids(where)), Out(expected))
        launches.append(_launch(args, local))
    return launches


def _reduction(op: str, dtype) -> list[Launch]:
    launches = []
    whole = reduce(op, dtype)
    for index, local in enumerate(LOCAL_SIZES):
        where = _where(local)
        data = _data(dtype, where.group.size, index)
        expected = _per_sub_group(where, data, lambda v: whole(v)[0])
        sgid = where.global_sub_group.astype(np.uint64)
        launches.append(_launch((In(data), Out(sgid), Out(expected)), local))
    return launches


def _scan(op: str, dtype, inclusive: bool) -> list[Launch]:
    launches = []
    for index, local in enumerate(LOCAL_SIZES):
        where = _where(local)
        data = _data(dtype, where.group.size, index)
        expected = apply(
            data, where.global_sub_group, where, scan(op, dtype, inclusive)
        )
        launches.append(_launch((In(data), Out(_ids(where)), Out(expected)), local))
    return launches


_QUERIES = {
    "01_get_sub_group_size_builtin": lambda w: w.sub_group_size,
    "02_get_max_sub_group_size_builtin": lambda w: w.max_sub_group_size,
    "03_get_num_sub_groups_builtin": lambda w: w.sub_groups_per_group,
    "04_get_enqueued_num_sub_groups_builtin": lambda w: w.sub_groups_per_group,
    "05_get_sub_group_id_builtin": lambda w: w.sub_group,
    "06_get_sub_group_local_id_builtin": lambda w: w.sub_group_local,
}
_REDUCTIONS = {"10": "add", "11": "min", "12": "max"}
_SCANS = {
    "13": ("exclusive", "add"),
    "14": ("exclusive", "min"),
    "15": ("exclusive", "max"),
    "16": ("inclusive", "add"),
    "17": ("inclusive", "min"),
    "18": ("inclusive", "max"),
}

MANIFESTS: dict[str, list[Launch]] = {
    **{f"{_PREFIX}.{stem}": _query(field) for stem, field in _QUERIES.items()},
    f"{_PREFIX}.07_sub_group_all_builtin": _any_all(True),
    f"{_PREFIX}.08_sub_group_any_builtin": _any_all(False),
    **{
        f"{_PREFIX}.09_sub_group_broadcast_{name}": _broadcast(dtype)
        for name, dtype in TYPES.items()
    },
    **{
        f"{_PREFIX}.{n}_sub_group_reduce_{op}_{name}": _reduction(op, dtype)
        for n, op in _REDUCTIONS.items()
        for name, dtype in TYPES.items()
    },
    **{
        f"{_PREFIX}.{n}_sub_group_scan_{kind}_{op}_{name}": _scan(
            op, dtype, kind == "inclusive"
        )
        for n, (kind, op) in _SCANS.items()
        for name, dtype in TYPES.items()
    },
}
