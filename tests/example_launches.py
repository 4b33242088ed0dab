"""The launches the example kernels (examples/<name>.mlir and their OpenCL C twins
examples/<name>.cl) are tested with: each example's arguments and NDRanges, with
partial work-groups, offsets, 1, 2 and 3 dimensions and local size 1. Shared by the
twins' comparison (tests/test_opencl_examples.py) and the checked mode's faults
(tests/test_checked_faults.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import mux

EXAMPLES = Path(__file__).parent.parent / "examples"
RNG = np.random.default_rng(15)


@dataclass(frozen=True)
class Case:
    name: str
    args: Callable[[], list]
    """Fresh arguments (arrays are copied for each of the two kernels)."""
    global_size: tuple[int, ...]
    local_size: tuple[int, ...]
    global_offset: tuple[int, ...] = (0,)


def floats(n: int) -> np.ndarray:
    return RNG.standard_normal(n).astype(np.float32)


CASES = [
    Case(
        "vadd",
        lambda: [floats(1000), floats(1000), np.zeros(1000, np.float32)],
        (1000,),
        (64,),
    ),
    Case(
        "vadd",
        lambda: [floats(300), floats(300), np.zeros(300, np.float32)],
        (290,),
        (1,),
        (10,),
    ),
    Case("saxpy", lambda: [np.float32(2.5), floats(777), floats(777)], (777,), (32,)),
    Case(
        "reduce",
        lambda: [floats(1000), np.zeros(16, np.float32), mux.LocalBuffer(4 * 64)],
        (1000,),
        (64,),
    ),
    Case(
        "scan",
        lambda: [RNG.integers(-9, 9, 1000, dtype=np.int32), np.zeros(1000, np.int32)],
        (1000,),
        (64,),
    ),
    Case(
        "histogram",
        lambda: [
            RNG.integers(0, 256, 5000, dtype=np.uint8).view(np.int8),
            np.zeros(256, np.int32),
        ],
        (5000,),
        (128,),
    ),
    Case(
        "transpose",
        lambda: [
            floats(48 * 32),
            np.zeros(48 * 32, np.float32),
            np.uint64(48),
            np.uint64(32),
        ],
        (48, 32),
        (16, 16),
        (0, 0),
    ),
    Case(
        "sgemm_naive",
        lambda: [
            floats(40 * 40),
            floats(40 * 40),
            np.zeros(40 * 40, np.float32),
            np.uint64(40),
        ],
        (40, 40),
        (8, 5),
        (0, 0),
    ),
    Case(
        "sgemm_tiled",
        lambda: [
            floats(40 * 40),
            floats(40 * 40),
            np.zeros(40 * 40, np.float32),
            np.uint64(40),
        ],
        (48, 48),
        (16, 16),
        (0, 0),
    ),
    Case(
        "ids3d",
        lambda: [np.zeros(6 * 5 * 4, np.int32)],
        (6, 5, 4),
        (2, 5, 2),
        (1, 2, 3),
    ),
    Case(
        "ids3d",
        lambda: [np.zeros(4 * 4 * 4, np.int32)],
        (4, 4, 4),
        (1, 1, 1),
        (0, 0, 0),
    ),
    Case(
        "stencil2d",
        lambda: [
            floats(13 * 9),
            np.zeros(13 * 9, np.float32),
            np.uint64(13),
            np.uint64(9),
        ],
        (16, 12),
        (8, 4),
        (0, 0),
    ),
    Case(
        "stencil2d",
        lambda: [
            floats(5 * 7),
            np.zeros(5 * 7, np.float32),
            np.uint64(5),
            np.uint64(7),
        ],
        (5, 7),
        (1, 1),
        (0, 0),
    ),
    Case(
        "scale_rows",
        lambda: [
            floats(6 * 8).reshape(6, 8),
            floats(8),
            np.float32(0.5),
            np.uint64(5),
            np.zeros((6, 8), np.float32),
        ],
        (8, 7),
        (4, 2),
        (0, 0),
    ),
    Case(
        "scale2d",
        lambda: [
            floats(3 * 7 + 7),
            np.zeros(7 * 3 * 2, np.float32),
            np.uint64(7),
            np.float32(1.5),
        ],
        (7, 3, 2),
        (3, 2, 1),
        (0, 0, 0),
    ),
]


def image(width: int, height: int) -> Callable[[], list]:
    """dma_tile's arguments for an image of `width` x `height`."""
    return lambda: [
        floats(width * height),
        np.zeros(width * height, np.float32),
        np.uint64(width),
    ]


CASES += [
    Case("dma_tile", image(48, 32), (48, 32), (16, 16), (0, 0)),
    Case("dma_tile", image(37, 21), (37, 21), (16, 8), (0, 0)),
    Case("dma_tile", image(5, 3), (5, 3), (1, 1), (0, 0)),
]


def case_id(case: Case) -> str:
    return f"{case.name}-{case.global_size}-{case.local_size}"


def copies(args: list) -> list:
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]
