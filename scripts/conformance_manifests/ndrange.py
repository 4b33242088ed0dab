"""Where each work-item of a 3-D launch sits: its work-group, its local linear id,
its sub-group, for the references of the collective functions' manifests."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Layout:
    """Per work-item, in global linear order (x fastest, then y, then z)."""

    group: np.ndarray
    """The work-group's linear id (x fastest)."""
    local_linear: np.ndarray
    local_ids: np.ndarray
    """(x, y, z) local ids, one row per work-item."""
    sub_group: np.ndarray
    """The sub-group's id within its work-group."""
    sub_group_local: np.ndarray
    sub_group_size: np.ndarray
    groups: int
    sub_groups_per_group: int
    max_sub_group_size: int

    @property
    def global_sub_group(self) -> np.ndarray:
        """The sub-group's id over the launch: its id plus its work-group's linear
        id times the sub-groups of a work-group."""
        return self.sub_group + self.sub_groups_per_group * self.group

    def each(self, key: np.ndarray):
        """For each distinct `key` (a group or sub-group id per work-item): the
        work-items with it, in local linear order."""
        for k in np.unique(key):
            items = np.flatnonzero(key == k)
            yield k, items[np.argsort(self.local_linear[items], kind="stable")]


def layout(global_size, local_size, sub_group_size: int = 1) -> Layout:
    """The layout of a launch whose work-groups divide the range, with sub-groups
    of `sub_group_size` work-items in local linear order (the last of a
    work-group smaller when the size does not divide it)."""
    gx, gy, gz = global_size
    lx, ly, lz = local_size
    z, y, x = (a.reshape(-1) for a in np.indices((gz, gy, gx)))
    group = x // lx + (gx // lx) * (y // ly + (gy // ly) * (z // lz))
    local_linear = x % lx + lx * (y % ly + ly * (z % lz))
    size = lx * ly * lz
    most = min(sub_group_size, size)
    sub_group = local_linear // most
    last = size - (size - 1) // most * most
    sizes = np.where(sub_group == (size - 1) // most, last, most)
    return Layout(
        group=group,
        local_linear=local_linear,
        local_ids=np.stack([x % lx, y % ly, z % lz], axis=1),
        sub_group=sub_group,
        sub_group_local=local_linear % most,
        sub_group_size=sizes,
        groups=int(group.max()) + 1,
        sub_groups_per_group=-(-size // most),
        max_sub_group_size=most,
    )


def apply(values: np.ndarray, key: np.ndarray, where: Layout, fn) -> np.ndarray:
    """`fn(v)` of each set of work-items sharing a `key`, in local linear order,
    put back at those work-items."""
    out = np.empty_like(values)
    for _, items in where.each(key):
        out[items] = fn(values[items])
    return out


def scan(op: str, dtype, inclusive: bool):
    """The inclusive or exclusive scan of `op` (add, min, max) over one set."""
    info = np.finfo(dtype) if np.issubdtype(dtype, np.floating) else np.iinfo(dtype)
    floating = np.issubdtype(dtype, np.floating)
    identity = {
        "add": 0,
        "min": np.inf if floating else info.max,
        "max": -np.inf if floating else info.min,
    }[op]
    ufunc = {"add": np.add, "min": np.minimum, "max": np.maximum}[op]

    def run(v: np.ndarray) -> np.ndarray:
        with np.errstate(over="ignore"):
            running = ufunc.accumulate(v, dtype=dtype)
        if inclusive:
            return running
        return np.concatenate([np.array([identity], dtype), running[:-1]])

    return run


def reduce(op: str, dtype):
    """The reduction of `op` over one set, at each of its work-items."""
    whole = scan(op, dtype, inclusive=True)
    return lambda v: np.full_like(v, whole(v)[-1])


def truth_check(expected: np.ndarray):
    """A check that compares truth values only (any non-zero is true)."""

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
