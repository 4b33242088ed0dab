"""The options of a compilation: one record, built by `mux.compile` (and `mux.load`,
`mux-run`), carried through `mux.compiler` to the host pipeline
(`lowering.pipelines.HostPipeline.for_options`), and part of the key of the
compiled-kernel caches.

Each option has one rule, checked when the record is made (a bad value is an
`OptionError` naming the option and what it may be). The passes check their own
options of the same meaning with the same functions: `work-item-loops`'
`sub-group-size` (`check_sub_group_size`) and `run-vecz`'s `width`
(`check_vecz_width`), so `mux-opt` and `mux.compile` accept the same values.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields, replace
from typing import Any

from lowering.common.device import HOST

CHECKED_VARIABLE = "MUX_CHECKED"
"""The environment variable that compiles every program in checked mode when
set to anything but "" or "0" (`with_environment`)."""

VECZ_WIDTHS = (0, 1, 2, 4, 8, 16, 32)
"""The widths `vecz_width` may take: 0 (`run-vecz`'s cost model chooses), 1 (no
vectorisation) or a power of 2 up to 32."""


class OptionError(ValueError):
    """A compile option with a value it may not take."""


def check_sub_group_size(size: int, option: str = "sub_group_size") -> None:
    """Raises OptionError unless `size` is one of the device's sub-group sizes
    (`HOST.sub_group_sizes`); `option` is how the caller spells the option."""
    if size not in HOST.sub_group_sizes:
        sizes = ", ".join(map(str, HOST.sub_group_sizes))
        raise OptionError(
            f"{option}: one of the device's sizes ({sizes}), got {size!r}"
        )


def check_vecz_width(width: int, option: str = "vecz_width") -> None:
    """Raises OptionError unless `width` is one of `VECZ_WIDTHS`; `option` is how
    the caller spells the option."""
    if width not in VECZ_WIDTHS:
        widths = ", ".join(map(str, VECZ_WIDTHS))
        raise OptionError(f"{option}: one of {widths}, got {width!r}")


@dataclass(frozen=True)
class CompileOptions:
    """How `mux.compile` compiles every kernel of a module. Frozen and hashable:
    equal options are one key of the caches (`mux.compiler.KernelVariant`)."""

    fast: bool = False
    """Maths builtins may trade accuracy for speed (`mux.usefast`,
    `replace-mux-math-decls{fast}`)."""
    software_wgc: bool = False
    """Work-group collectives in software (`replace-wgc`)."""
    sub_group_size: int = 1
    """The sub-group size of kernels that do not require one
    (`mux.reqd_sub_group_size`): one of the device's sizes, 1 the spec's default
    (`work-item-loops{sub-group-size}`)."""
    vecz_width: int = 0
    """The number of work-items of dimension 0 a vectorised kernel runs at once
    (`run-vecz{width}`; 1: no vectorisation, 0: its cost model chooses)."""
    checked: bool = False
    """Checked mode (docs/checked.md): every memory access is checked against
    the extent of what it addresses (`check-access-bounds`), and a fault is
    recorded and raised by the runtime as `mux.KernelError`. Unchecked code is
    exactly what it is without the option."""

    def __post_init__(self) -> None:
        check_sub_group_size(self.sub_group_size)
        check_vecz_width(self.vecz_width)

    @classmethod
    def from_attributes(cls, holder: Any) -> CompileOptions:
        """The options `holder` has as attributes of the same names (the flags of
        `mux-run`, the fields of `HostPipeline`)."""
        return cls(**{f.name: getattr(holder, f.name) for f in fields(cls)})


def with_environment(options: CompileOptions) -> CompileOptions:
    """`options`, checked if the environment variable MUX_CHECKED says so (any
    value but "" and "0"): how a whole program is run checked without changing
    its calls of `mux.compile` (`mux.Program` applies it)."""
    if options.checked or os.environ.get(CHECKED_VARIABLE, "") in ("", "0"):
        return options
    return replace(options, checked=True)
