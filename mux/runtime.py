"""The host runtime: checks a launch, packs the arguments, runs the NDRange.

It follows the spec's host target model (compiler-pipeline-overview.txt, "Host"): the
NDRange is cut into slices of work-groups, each slice is one call of the kernel's entry
hook on a worker thread (ctypes releases the GIL during the call), and the hook loops
over the work-groups of its slice.

Everything about a launch is checked before anything runs, so a refused launch
(`LaunchError`, naming the argument) writes nothing. What each parameter takes and
how it is packed is `mux.arguments`.
"""

from __future__ import annotations

import ctypes
import math
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
from xdsl.dialects import func

from dialects import attributes as mux_attrs
from dialects.scheduling import WORK_GROUP_INFO, FieldKind
from lowering.common.device import HOST
from mux.errors import LaunchError

SIZE_MAX = 2**63 - 1
"""The largest value of the device's `size_t` a launch may use: a global size, a
global offset, their sum in each dimension, and the number of work-items of the
NDRange (the bound of the global linear id). `size_t` is 64 bits, but the scheduling
fields (`MuxWorkGroupInfo`) are int64 and the lowered code compares ids signed (an
`scf.for` over ids, `arith.maxsi`), so a launch stays below 2^63: nothing wraps."""


def _schedule_struct() -> type[ctypes.Structure]:
    """The ctypes twin of MuxWorkGroupInfo (dialects/scheduling.py)."""
    fields = [
        (
            f.name,
            ctypes.c_int64 * 3 if f.kind is FieldKind.SIZE_T_X3 else ctypes.c_int32,
        )
        for f in WORK_GROUP_INFO.fields
    ]
    return type("MuxWorkGroupInfo", (ctypes.Structure,), {"_fields_": fields})


WorkGroupInfo = _schedule_struct()


# --------------------------------------------------------------------------------------
# Sizes.
# --------------------------------------------------------------------------------------


def ndrange_sizes(what: str, sizes: Any, allow_zero: bool = False) -> tuple[int, ...]:
    """An int or a tuple of 1 to 3 ints (Python or numpy integers, not bools), each
    positive (or zero, with `allow_zero`) and at most `SIZE_MAX`, as a tuple of
    Python ints; LaunchError otherwise."""
    values = (sizes,) if _is_int(sizes) else sizes
    if not isinstance(values, tuple | list) or not 1 <= len(values) <= 3:
        raise LaunchError(f"{what}: an int or 1 to 3 ints, got {sizes!r}")
    if any(isinstance(v, bool | np.bool_) for v in values):
        raise LaunchError(f"{what}: sizes are ints, not a bool: got {sizes!r}")
    low = 0 if allow_zero else 1
    if any(not _is_int(v) or v < low for v in values):
        kind = "non-negative" if allow_zero else "positive"
        raise LaunchError(f"{what}: sizes must be {kind} integers, got {sizes!r}")
    result = tuple(int(v) for v in values)
    if max(result) > SIZE_MAX:
        raise LaunchError(
            f"{what}: {max(result)} is over the device's maximum of {SIZE_MAX} "
            "(2**63 - 1)"
        )
    return result


def _is_int(value: Any) -> bool:
    """A Python or numpy integer or bool (bools are refused by name, later)."""
    return isinstance(value, int | np.integer | np.bool_)


def check_ndrange(
    fn: func.FuncOp,
    global_size: tuple[int, ...],
    local_size: tuple[int, ...],
    global_offset: tuple[int, ...],
) -> None:
    """LaunchError if the NDRange does not suit the kernel `fn` or the device: more
    dimensions than the kernel's `mux.max_work_dim`, a sum of offset and size or a
    number of work-items over `SIZE_MAX`, a local size `check_local_size` refuses.
    The sizes come from `ndrange_sizes`: each is already at most `SIZE_MAX`."""
    # mux-compiler-spec.rst, "Metadata": `!max_work_dim` is the "Maximum dimension
    # used for work-items. If not present, 3 is assumed." The spec's dimensions "in
    # use" are those of the NDRange (`__mux_get_work_dim`: "Returns the number of
    # dimensions in use"), so it bounds the launch's number of dimensions, sizes of
    # 1 included: a 2-D launch of a kernel declared 1-D would see get_work_dim() = 2.
    # Beyond it work-item-loops builds no loop (one work-item per work-group), so a
    # local size over 1 there would also run wrong, not only be out of contract.
    max_dim = mux_attrs.max_work_dim(fn)
    if len(global_size) > max_dim:
        raise LaunchError(
            f"global_size: the kernel's mux.max_work_dim = {max_dim} allows "
            f"{max_dim} dimension{'s' if max_dim > 1 else ''} at most, got "
            f"{len(global_size)} ({global_size})"
        )
    for d, (offset, size) in enumerate(zip(global_offset, global_size, strict=True)):
        if offset + size > SIZE_MAX:
            raise LaunchError(
                f"global_offset + global_size: {offset} + {size} in dimension {d} is "
                f"over the device's maximum of {SIZE_MAX} (2**63 - 1)"
            )
    if math.prod(global_size) > SIZE_MAX:
        raise LaunchError(
            f"global_size: {global_size} is {math.prod(global_size)} work-items, over "
            f"the device's maximum of {SIZE_MAX} (2**63 - 1)"
        )
    check_local_size(fn, global_size, local_size)


def default_local_size(global_size: tuple[int, ...]) -> tuple[int, ...]:
    """The local size the runtime picks: in x, the largest divisor of the global size
    from 16 to 256 (so that work-groups are uniform), else 64; 1 in y and z."""
    x = global_size[0]
    divisors = [d for d in range(256, 15, -1) if x % d == 0]
    first = divisors[0] if divisors else min(x, 64)
    return (first, *(1,) * (len(global_size) - 1))


def slices(num_groups: tuple[int, ...], count: int) -> list[tuple[int, ...]]:
    """Cuts the work-groups into up to `count` boxes along the dimension that has the
    most work-groups: (x_begin, x_end, y_begin, y_end, z_begin, z_end) each."""
    d = max(range(3), key=lambda i: num_groups[i])
    n = num_groups[d]
    count = max(1, min(count, n))
    boxes = []
    for k in range(count):
        begin, end = n * k // count, n * (k + 1) // count
        box = [0, num_groups[0], 0, num_groups[1], 0, num_groups[2]]
        box[2 * d], box[2 * d + 1] = begin, end
        boxes.append(tuple(box))
    return boxes


_pool: ThreadPoolExecutor | None = None


def thread_pool() -> ThreadPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=os.cpu_count() or 1)
    return _pool


def launch(
    hook: Any,
    packed: ctypes.Structure,
    global_size: tuple[int, ...],
    local_size: tuple[int, ...],
    global_offset: tuple[int, ...],
    threads: int,
) -> None:
    """Runs the NDRange: `threads` slices of work-groups, the first on the calling
    thread and the others on the thread pool."""
    dims = len(global_size)
    pad = (1,) * (3 - dims)
    g, lsz = (*global_size, *pad), (*local_size, *pad)
    num_groups = tuple(-(-g[d] // lsz[d]) for d in range(3))
    schedule = WorkGroupInfo()
    for d in range(3):
        schedule.num_groups[d] = num_groups[d]
        schedule.global_offset[d] = (*global_offset, 0, 0)[d]
        schedule.local_size[d] = lsz[d]
        schedule.enqueued_local_size[d] = lsz[d]
        schedule.global_size[d] = g[d]
    schedule.work_dim = dims
    args, sched = ctypes.addressof(packed), ctypes.addressof(schedule)
    boxes = slices(num_groups, threads)
    if len(boxes) == 1:
        hook(args, sched, *boxes[0])
        return
    # the calling thread runs the first slice itself rather than waiting idle
    futures = [thread_pool().submit(hook, args, sched, *box) for box in boxes[1:]]
    try:
        hook(args, sched, *boxes[0])
    finally:
        for future in futures:
            future.result()


def check_local_size(
    fn: func.FuncOp,
    global_size: tuple[int, ...],
    local_size: tuple[int, ...],
) -> None:
    """LaunchError if `local_size` does not suit the device or the kernel."""
    if len(local_size) != len(global_size):
        raise LaunchError(
            f"local_size: {len(local_size)} dimensions, global_size has "
            f"{len(global_size)}"
        )
    if max(local_size) > HOST.max_work_group_size or math.prod(local_size) > (
        HOST.max_work_group_size
    ):
        raise LaunchError(
            f"local_size: {local_size} is over the device maximum of "
            f"{HOST.max_work_group_size} work-items per work-group"
        )
    reqd = mux_attrs.REQD_WORK_GROUP_SIZE.get(fn)
    if reqd is not None:
        padded = (*local_size, *(1,) * (3 - len(local_size)))
        if padded != reqd:
            raise LaunchError(
                f"local_size: the kernel requires a work-group size of {reqd}, got "
                f"{local_size}"
            )
        if any(g % s for g, s in zip(global_size, local_size, strict=True)):
            raise LaunchError(
                f"global_size: {global_size} is not a multiple of the kernel's "
                f"required work-group size {reqd}"
            )
