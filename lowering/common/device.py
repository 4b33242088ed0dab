"""The device's limits: one record, read by the passes that depend on the device
and by the runtime's launch checks.

The reference implementation's `compiler::utils::DeviceInfo` analysis is what its
passes ask about the target (compiler-utils-passes.rst,
"VerifyReqdSubGroupSizeLegalPass": it checks a required sub-group size "using the
target's `compiler::utils::DeviceInfo` analysis"); `mux_device_info_t` is the
runtime's side of the same facts. Here the one device is the host CPU, `HOST`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class DeviceInfo:
    """What a device offers kernels."""

    max_work_group_size: int = 1024
    """Work-items in one work-group, and in each dimension of it."""
    local_memory_size: int = 64 * 1024
    """Bytes of local memory one work-group may use."""
    sub_group_sizes: tuple[int, ...] = (1, 2, 4, 8, 16, 32, 64)
    """The sub-group sizes the device offers: `work-item-loops` builds sub-groups in
    software from consecutive local linear ids, so any power of two up to 64."""
    vector_width: int = 8
    """Lanes of a 32-bit element in one vector register (AVX2: 256 bits), the width
    `run-vecz`'s cost model starts from."""


HOST = DeviceInfo()
"""The host CPU: the device `mux.compile` compiles for."""
