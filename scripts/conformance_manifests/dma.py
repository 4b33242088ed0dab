"""Manifests of the `dma` group (UnitCL's ktst_dma.cpp): vector additions through
local memory copied explicitly or by `async_work_group_copy` (1-D, strided,
double-buffered, prefetched), `wait_group_events` as a barrier, and small 2-D
convolutions. `dma.15` has no manifest: its C++ test is disabled."""

from __future__ import annotations

import numpy as np

from . import In, Launch, Local, Out, Scalar, kts

I32, U32, F16 = np.int32, np.uint32, np.float16
LOCAL = 16


def _a(n: int) -> np.ndarray:
    return (np.arange(n) * 3 + 27).astype(I32)


def _b(n: int) -> np.ndarray:
    return (np.arange(n) * 7 + 41).astype(I32)


def _rotated_in_groups(values: np.ndarray) -> np.ndarray:
    """Element x is the next work-item's of its group of 16 (the last the first's)."""
    return values.reshape(-1, LOCAL)[:, np.r_[1:LOCAL, 0]].reshape(-1)


def _vadd(locals_: int, n: int = kts.N, *extra) -> Launch:
    args = (*[Local(LOCAL, I32)] * locals_, In(_a(n)), In(_b(n)), Out(_a(n) + _b(n)))
    return Launch((*args, *extra), kts.N, LOCAL)


def _convolution(include_middle: bool, start: int, mask1: int, mask2: int, extra: bool):
    """A 4 x 4 range in 2 x 2 groups over a 20 x 12 image whose pixel x is x: each
    output the sum of `start` and the 3 x 3 neighbours the masks keep (the middle
    one if `include_middle`) around (gid.x + 8, gid.y + 1), divided by 8 or 9."""
    width = 4 + 16
    image = np.arange(width * (4 + 8), dtype=U32)
    out = np.zeros(16, U32)
    for gid in range(16):
        x, y = gid % 4, gid // 4
        centre = (y + 1) * width + x + 8
        total = start
        for yy in range(3):
            for xx in range(3):
                if not include_middle and xx == 1 and yy == 1:
                    continue
                if (1 << xx) & mask1 & mask2:
                    total += int(image[centre + yy * width + xx - 1])
        out[gid] = total // (9 if include_middle else 8)
    args = (In(image), Out(out), *([Scalar(I32(10))] if extra else []))
    return [Launch(args, (4, 4), (2, 2))]


def _half(values: np.ndarray) -> np.ndarray:
    """The halves whose bits are the smallest normal exponent plus `values % 256`."""
    return (0x0400 + values % 256).astype(np.uint16).view(F16)


def _half_lanes(scalars: np.ndarray, width: int) -> np.ndarray:
    """A buffer of `half<width>`: 3 lanes padded to 4 in memory (kts fills a
    half3 element x from the scalars 3x, 3x + 1, 3x + 2)."""
    if width == 1:
        return scalars
    if width != 3:
        return scalars.reshape(-1, width)
    padded = np.zeros((scalars.size // 3, 4), F16)
    padded[:, :3] = scalars.reshape(-1, 3)
    return padded


HALF_WIDTHS = (1, 2, 3, 4, 8, 16)


def _half_type(width: int) -> str:
    return "half" if width == 1 else f"half{width}"


def _half_copy(strided: bool, with_locals: bool) -> list[Launch]:
    launches = []
    for width in HALF_WIDTHS:
        count = kts.N * width * (2 if strided else 1)
        a = _half(np.arange(count) * 3 + 27)
        b = _half(np.arange(count) * 7 + 41)
        c = np.maximum(a, b)
        if strided:  # every other element of `width` scalars
            c = c.reshape(-1, 2, width)[:, 0, :].reshape(-1)
        lanes = 4 if width == 3 else width
        local_args = [Local(LOCAL * lanes, F16)] * 3 if with_locals else []
        args = (
            *local_args,
            In(_half_lanes(a, width)),
            In(_half_lanes(b, width)),
            Out(_half_lanes(c, width)),
        )
        launches.append(
            Launch(
                args,
                kts.N,
                LOCAL,
                macros={"TYPE": _half_type(width)},
                label=_half_type(width),
            )
        )
    return launches


MANIFESTS: dict[str, list[Launch]] = {
    "dma.01_direct": [_vadd(0)],
    "dma.02_explicit_copy": [_vadd(2)],
    "dma.03_explicit_copy_rotate": [_vadd(2)],
    "dma.04_async_copy": [_vadd(3)],
    "dma.05_async_double_buffer": [_vadd(6, kts.N * 16, Scalar(I32(16)))],
    "dma.06_auto_dma_convolution": _convolution(False, 8, 7, 7, False),
    "dma.07_auto_dma_loop_convolution": _convolution(True, 9, 7, 7, False),
    "dma.07_auto_dma_loop_convolution_looprotate": _convolution(True, 9, 7, 7, False),
    "dma.08_auto_dma_loop_convolution_cond_round_inner_loop": _convolution(
        True, 9, 7, 2, False
    ),
    "dma.09_auto_dma_loop_convolution_cond_not_global_id": _convolution(
        True, 19, 7, 7, True
    ),
    "dma.09_auto_dma_loop_convolution_cond_not_global_id_looprotate": _convolution(
        True, 19, 7, 7, True
    ),
    "dma.10_half_async_copy": _half_copy(False, True),
    "dma.11_half_async_strided_copy": _half_copy(True, True),
    "dma.12_half_prefetch": _half_copy(False, False),
    "dma.14_wait_event_is_barrier_overwrite": [
        Launch((Local(LOCAL, I32), In(_a(kts.N)), Out(_a(kts.N) + 1)), kts.N, LOCAL)
    ],
    "dma.16_wait_event_is_barrier_strided": [
        Launch((Local(LOCAL, I32), In(_a(kts.N)), Out(_a(kts.N) + 1)), kts.N, LOCAL)
    ],
}
MANIFESTS["dma.13_wait_event_is_barrier"] = [
    Launch(
        (
            Local(LOCAL, I32),
            Local(LOCAL, I32),
            In(_a(kts.N)),
            In(_b(kts.N)),
            Out(_rotated_in_groups(_b(kts.N))),
        ),
        kts.N,
        LOCAL,
    )
]
