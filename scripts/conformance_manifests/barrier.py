"""Manifests of the `barrier` group (UnitCL's ktst_barrier.cpp): work-items that
exchange values through local memory across barriers, in functions, loops,
branches, with private structs whose addresses are taken."""

from __future__ import annotations

import numpy as np

from . import In, Launch, Local, Out, Scalar, kts

I32, U8, F32 = np.int32, np.uint8, np.float32
LOCAL_SIZES = (2, 4, 8, 16, 32)
"""The local sizes the tests of several local sizes run a 32-item range at."""


def _swapped_pairs(n: int = kts.N) -> np.ndarray:
    """Element x is its neighbour in its pair: x + 1 for even x, x - 1 for odd."""
    return np.arange(n, dtype=I32) ^ 1


def _sum_below(n: int) -> int:
    """0 + 1 + ... + n - 1."""
    return n * (n - 1) // 2


def _alias(gid: np.ndarray) -> np.ndarray:
    """What barriers_with_alias computes: x + (22 or 1) + (14 or 12), odd or even."""
    odd = (gid & 1) == 1
    return (gid + np.where(odd, 22, 1) + np.where(odd, 14, 12)).astype(I32)


def _each_local(args, global_size=32) -> list[Launch]:
    return [
        Launch(args, global_size, local, label=f"local {local}")
        for local in LOCAL_SIZES
    ]


def _interleaved(*columns: np.ndarray) -> np.ndarray:
    """Work-item x's outputs at x * k .. x * k + k - 1, from k columns."""
    return np.stack(columns, axis=1).reshape(-1).astype(I32)


_GID32 = np.arange(32, dtype=I32)
_ALIGN_OUT = _interleaved(
    np.full(32, 0x3),
    np.full(32, 0x7),
    np.full(32, 0x3FF),
    _GID32 + 12,
    _GID32 + 54,
    _GID32.astype(np.int64) & 0xDEADBEEF,
)

_ROWS = _COLUMNS = 2 * 256

_LOCAL_ARRAYS_OUT = np.array(
    [
        float.fromhex(h)
        for h in (
            *("0x1.cef32p6", "0x1.ee83dp6", "0x1.4b6e2cp7", "0x1.2d2e3ep7"),
            *("0x1.09ab88p7", "0x1.1581d2p7", "0x1.e69fbp6", "0x1.085ae2p7"),
        )
    ],
    F32,
)
_LOCAL_ARRAYS_IN = np.array(
    [
        *(0.54, 0.61, 0.29, 0.76, 0.56, 0.26, 0.75, 0.63),
        *(0.29, 0.86, 0.57, 0.34, 0.37, 0.15, 0.91, 0.56),
        *(0.51, 0.48, 0.19, 0.95, 0.20, 0.78, 0.73, 0.32),
        *(0.75, 0.51, 0.08, 0.29, 0.56, 0.34, 0.85, 0.45),
    ],
    F32,
)

_FENCES = ("mem_fence", "read_mem_fence", "write_mem_fence", "barrier")

MANIFESTS: dict[str, list[Launch]] = {
    "barrier.01_barrier_in_function": [Launch((), kts.N, 2)],
    **{
        stem: [Launch((In(kts.identity()), Out(_swapped_pairs())), kts.N, 2)]
        for stem in (
            "barrier.02_barrier_no_duplicates",
            "barrier.03_barrier_noinline",
            "barrier.12_barrier_in_sub_function_called_twice",
        )
    },
    # the item GLOBAL_ID reads what item READ_LOCAL_ID of its group wrote
    "barrier.04_barrier_local_mem": [
        Launch((In(kts.identity()), Out(np.array([1], I32))), 64, 16)
    ],
    "barrier.05_barrier_in_loop": [
        Launch((Out(np.array([_sum_below(16)], I32)),), 64, 16)
    ],
    "barrier.06_barrier_with_ifs": [
        Launch((Out(np.array([_sum_below(4) * 32], I32)),), 32, 4)
    ],
    **{
        f"barrier.07_barrier_in_loop_{n}": [
            Launch((Out(np.array([_sum_below(4) * 4], I32)),), 32, 4)
        ]
        for n in (2, 3, 4)
    },
    "barrier.08_barrier_debug": [
        Launch(
            (In(kts.identity()), Out(((x * (x % local)) + 2 * x).astype(I32))),
            kts.N,
            local,
            label=f"local {local}",
        )
        for x in [np.arange(kts.N)]
        for local in (kts.N, 4)
    ],
    "barrier.09_barrier_with_alias": [Launch((Out(_GID32 + 4),), 32, 4)],
    "barrier.10_barriers_with_alias": _each_local((Out(_alias(_GID32)),)),
    "barrier.10_barriers_with_alias_2": _each_local((Out(_alias(_GID32)),)),
    "barrier.11_barrier_with_align": _each_local(
        (Scalar(I32(0x3)), Scalar(I32(0x7)), Scalar(I32(0x3FF)), Out(_ALIGN_OUT))
    ),
    # every byte of a 512 x 512 image ends 'A'
    "barrier.13_barrier_shift_loop": [
        Launch(
            (
                Out(np.full(_ROWS * _COLUMNS, ord("A"), U8)),
                Scalar(I32(_ROWS)),
                Scalar(I32(_COLUMNS)),
            ),
            (16 * 256, 16),
            (256, 1),
            macros={"BLOCK_COLS": "32", "BLOCK_ROWS": "32", "LOCAL_SIZE": "256"},
        )
    ],
    # each group of 16 sums 0..15 (its inputs) into one output
    "barrier.14_barrier_in_reduce": [
        Launch(
            (
                In((np.arange(kts.N) % kts.localN).astype(I32)),
                Out(np.full(kts.N // kts.localN, _sum_below(kts.localN), I32)),
                Local(kts.localN, I32),
            ),
            kts.N,
            kts.localN,
        )
    ],
    # 8 work-items, 4 outputs each
    "barrier.15_vector_barriers_with_alias": [
        Launch((Out((_GID32 + np.where(_GID32 & 1, 22, 1)).astype(I32)),), 8, 4)
    ],
    "barrier.16_memory_fence_global": [
        Launch(
            (In(kts.identity()), Out(kts.identity()), Out(kts.identity())),
            kts.N,
            macros={"FENCE_OP": fence},
            label=fence,
        )
        for fence in _FENCES
    ],
    "barrier.16_memory_fence_local": [
        Launch(
            (In(kts.identity()), Local(kts.localN, I32), Out(kts.identity())),
            kts.N,
            kts.localN,
            macros={"FENCE_OP": fence},
            label=fence,
        )
        for fence in _FENCES
    ],
    "barrier.17_barrier_store_mask": _each_local(
        (Scalar(I32(0)), Out(np.zeros(32, I32)))
    ),
    "barrier.18_barrier_store_mask": _each_local(
        (Scalar(I32(0x3)), Out(_interleaved(np.full(32, 0x3), _GID32)))
    ),
    "barrier.19_barrier_store_mask": _each_local(
        (Scalar(I32(0x3)), Out(_interleaved(np.full(32, 0x3), _GID32 + 12)))
    ),
    "barrier.20_barriers_with_alias": _each_local(
        (Out((_GID32 + np.where(_GID32 & 1, 22, 20)).astype(I32)),)
    ),
    "barrier.21_barrier_in_loop": [Launch((Out(np.full(32, ord("A"), U8)),), 32, 32)],
    # a 16 x 16 group over 1024 inputs (the 32 values repeated): 64 results,
    # the 8 values below repeated
    "barrier.22_barrier_local_arrays": [
        Launch(
            (In(np.tile(_LOCAL_ARRAYS_IN, 32)), Out(np.tile(_LOCAL_ARRAYS_OUT, 8))),
            (16, 16),
            (16, 16),
        )
    ],
    "barrier.23_barrier_inline_stray_phi": [Launch((Out(np.ones(16, I32)),), 16, 16)],
    "barrier.24_three_barriers": [Launch((Out(kts.identity()), Scalar(I32(2))), kts.N)],
}
