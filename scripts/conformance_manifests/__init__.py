"""Execution manifests for UnitCL's kernels: what `scripts/conformance.py --run`
launches and what it expects back.

A manifest says, for one kernel file of the suite (`kernels/<group>.<nn>_<name>.cl`,
keyed by its stem), how its C++ test runs it: the arguments in order
(`In`, `Out`, `InOut`, `Local`, `Scalar`), the NDRange (`Launch.global_size`,
`Launch.local_size`), the `-D` values and options of the build, and the expected
result of each output as a numpy array (or a check function where the result is
not one array, the order of atomics for example). They are written from the facts
the C++ tests state (sizes, what element x must be), the references computed here
in numpy our own way, not translated from the tests' code.

Why Python modules, one per group (`barrier.py`, `sub_group.py`, ...), and not
data files: a reference is a computation (a prefix sum, a reduction per
work-group), which numpy says in a line where a data format would need the whole
expected buffer or a small language of its own; a group's kernels share their
helpers (`kts` below, a group's own reference functions) in one module without
copies; a module per group keeps each file short and lets a new group be added
without touching the others. Each module defines `MANIFESTS: dict[str,
list[Launch]]`; a file may have several launches (a test run at several local
sizes, or with several macro values) and passes only if all do.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

MODULES = (
    "barrier",
    "work_group_collective_functions",
    "sub_group",
    "dma",
    "c11atomics",
    "regression",
    "regression_later",
    "precision",
    "precision_half",
    "vecz_tasks",
    "vecz_tasks_05_15",
)
"""The modules of this package that hold manifests, in the issue's order."""


class kts:
    """The shared sizes of UnitCL's tests (`kts::N`, `kts::localN`) and the
    reference inputs they use most, as numpy arrays of `n` elements."""

    N = 256
    localN = 16

    @staticmethod
    def identity(n: int = 256, dtype: Any = np.int32) -> np.ndarray:
        """Element x is x."""
        return np.arange(n).astype(dtype)


# ---------------------------------------------------------------------------
# The arguments of a launch


@dataclass(frozen=True)
class In:
    """An input buffer: its contents (a numpy array of the element type)."""

    data: np.ndarray


Check = Callable[[np.ndarray], str | None]
"""A check of an output buffer: None when right, else what is wrong."""


@dataclass(frozen=True)
class Out:
    """An output buffer, zeros before the launch (as UnitCL's are), and what it
    must hold after: an array (its dtype is the buffer's) or a `Check` with
    `dtype` and `size`. Floats may be `ulp` units in the last place from the
    expected value (UnitCL's default: 4)."""

    expected: np.ndarray | Check
    dtype: Any = None
    size: int | tuple[int, ...] = 0
    ulp: int = 4

    def initial(self) -> np.ndarray:
        if isinstance(self.expected, np.ndarray):
            return np.zeros_like(self.expected)
        shape = self.size if isinstance(self.size, tuple) else (self.size,)
        return np.zeros(shape, self.dtype)


@dataclass(frozen=True)
class InOut:
    """A buffer read and written: its contents before, what it must hold after."""

    data: np.ndarray
    expected: np.ndarray | Check
    ulp: int = 4

    def initial(self) -> np.ndarray:
        return self.data.copy()


@dataclass(frozen=True)
class Local:
    """A `__local` pointer argument of `count` elements of `dtype`."""

    count: int
    dtype: Any = np.int32


@dataclass(frozen=True)
class Scalar:
    """A scalar argument passed by value, a numpy scalar of its type."""

    value: Any


Argument = In | Out | InOut | Local | Scalar


@dataclass(frozen=True)
class Launch:
    """One launch of a kernel and what it must produce."""

    args: tuple[Argument, ...]
    global_size: int | tuple[int, ...]
    local_size: int | tuple[int, ...] | None = None
    macros: dict[str, str] = field(default_factory=dict)
    """`-D` values over the file header's and those `test_macros` read."""
    options: str = ""
    """More clBuildProgram options."""
    kernel: str | None = None
    """The kernel's name, when the file has several."""
    sub_group_size: int = 1
    label: str = ""
    """What distinguishes this launch from the file's others (`local 4`)."""


# ---------------------------------------------------------------------------
# Loading, running and checking


def manifests() -> dict[str, list[Launch]]:
    """Every manifest: kernel file stem -> its launches."""
    found: dict[str, list[Launch]] = {}
    for name in MODULES:
        module = importlib.import_module(f"{__name__}.{name}")
        for stem, launches in module.MANIFESTS.items():
            assert stem not in found, f"two manifests for {stem}"
            found[stem] = list(launches)
    return found


def run_launch(program: Any, launch: Launch, stem: str = "") -> str | None:
    """Runs `launch` on a compiled `mux.Program`: None when every output is right,
    else the first wrong one's first differing element, expected vs got."""
    import mux

    values = []
    for arg in launch.args:
        if isinstance(arg, In):
            values.append(aligned(arg.data))
        elif isinstance(arg, (Out, InOut)):
            values.append(aligned(arg.initial()))
        elif isinstance(arg, Local):
            values.append(mux.LocalBuffer(arg.count * np.dtype(arg.dtype).itemsize))
        else:
            values.append(arg.value)
    name = launch.kernel or _kernel_of(program, stem)
    program.kernel(name)(
        *values, global_size=launch.global_size, local_size=launch.local_size
    )
    for index, (arg, got) in enumerate(zip(launch.args, values, strict=True)):
        past = overrun(got) if isinstance(arg, (In, Out, InOut)) else None
        if past is not None:
            return f"argument {index}: written past its end ({past} bytes after)"
        if isinstance(arg, (Out, InOut)):
            wrong = compare(arg.expected, got, arg.ulp)
            if wrong:
                return f"argument {index}: {wrong}"
    return None


BUFFER_ALIGNMENT = 128
"""The alignment of a buffer's start, in bytes: an OpenCL buffer is aligned to
the device's CL_DEVICE_MEM_BASE_ADDR_ALIGN (at least the largest type, a
long16's 128 bytes), a numpy array only to 16 or 64."""


GUARD_BYTES, GUARD_BYTE = 4096, 0xA5
"""After each buffer, `GUARD_BYTES` bytes of `GUARD_BYTE`, checked after the launch
(`overrun`): a kernel writing past the end of a buffer (a manifest's too small,
or our bug) fails its manifest instead of corrupting the worker's heap, which
crashed later kernels at random (task_05.01's one-element output once did)."""


def aligned(values: np.ndarray) -> np.ndarray:
    """A copy of `values` whose data starts on a `BUFFER_ALIGNMENT` boundary,
    followed by the guard bytes."""
    raw = np.full(values.nbytes + BUFFER_ALIGNMENT + GUARD_BYTES, GUARD_BYTE, np.uint8)
    start = -raw.ctypes.data % BUFFER_ALIGNMENT
    copy = raw[start : start + values.nbytes].view(values.dtype).reshape(values.shape)
    copy[...] = values
    return copy


def overrun(copy: np.ndarray) -> int | None:
    """How far past the end of an `aligned` copy something was written (the
    last changed guard byte, counted from 1), or None."""
    raw = copy
    while raw.base is not None and isinstance(raw.base, np.ndarray):
        raw = raw.base
    end = copy.ctypes.data - raw.ctypes.data + copy.nbytes
    changed = np.flatnonzero(raw[end : end + GUARD_BYTES] != GUARD_BYTE)
    return int(changed[-1]) + 1 if changed.size else None


def _kernel_of(program: Any, stem: str) -> str:
    """The kernel a file's test runs: the one named as the file is after its
    number (`task_10.06_noinline_kernels` -> `noinline_kernels`, UnitCL's rule),
    or the file's only kernel."""
    names = list(program.kernels)
    named = stem.split(".", 1)[-1].split("_", 1)[-1]
    if named in names:
        return named
    if len(names) != 1:
        raise ValueError(f"the file has kernels {names}: the manifest must name one")
    return names[0]


def first_lanes(expected: np.ndarray, lanes: int = 3) -> Check:
    """A check of a buffer of 3-element vectors (4 lanes in memory): the 4th lane
    is padding, whatever a store leaves there."""

    def check(got: np.ndarray) -> str | None:
        return compare(expected[..., :lanes], np.ascontiguousarray(got[..., :lanes]))

    return check


def compare(expected: np.ndarray | Check, got: np.ndarray, ulp: int = 0) -> str | None:
    """None when `got` is `expected` (floats within `ulp`, NaN equal to NaN),
    else the first differing element and how many differ."""
    if callable(expected):
        return expected(got)
    flat_e, flat_g = expected.reshape(-1), got.reshape(-1)
    if np.issubdtype(flat_e.dtype, np.floating):
        same = (flat_e == flat_g) | (np.isnan(flat_e) & np.isnan(flat_g))
        if ulp:
            same |= np.abs(_ordered(flat_e) - _ordered(flat_g)) <= ulp
    else:
        same = flat_e == flat_g
    bad = np.flatnonzero(~same)
    if not bad.size:
        return None
    i = int(bad[0])
    return (
        f"element {i}: expected {flat_e[i].item()!r}, got {flat_g[i].item()!r} "
        f"({bad.size} of {flat_e.size} differ)"
    )


def _ordered(values: np.ndarray) -> np.ndarray:
    """Floats as integers whose difference is their distance in ulps (-0 and +0
    both 0)."""
    bits = values.view(f"i{values.itemsize}").astype(np.int64)
    lowest = -(2 ** (8 * values.itemsize - 1))
    return np.where(bits < 0, lowest - bits, bits)


def run_file(
    launches: list[Launch], build: Callable[[Launch], Any], stem: str = ""
) -> dict:
    """Runs a file's launches, each on the program `build(launch)` compiles (a
    `mux.Program`), as a record: `passed`, or `failed` with the reason (a refusal
    to compile, a launch error, or the first wrong element of the first launch
    that is wrong). Other exceptions propagate: the caller counts them crashes."""
    import mux

    for launch in launches:
        where = f"{launch.label}: " if launch.label else ""
        try:
            wrong = run_launch(build(launch), launch, stem)
        except mux.CompileError as error:
            first = str(error).strip().splitlines()[0]
            return {"outcome": "failed", "reason": f"{where}refused: {first}"}
        except mux.LaunchError as error:
            return {"outcome": "failed", "reason": f"{where}launch error: {error}"}
        if wrong:
            return {"outcome": "failed", "reason": where + wrong}
    return {"outcome": "passed", "launches": len(launches)}


# ---------------------------------------------------------------------------
# The report

RUN_OUTCOMES = ("passed", "failed", "crashed")


def run_table(results: dict[Any, dict]) -> str:
    """The markdown table of a `--run`: by group, files run, passed, failed and
    crashed; then each failure and crash with its reason. `results` maps a
    kernel file's path to its record."""
    from conformance import group_table

    wrong = []
    for path, record in sorted(results.items()):
        if record["outcome"] != "passed":
            reason = " ".join(record["reason"].split())
            wrong.append(f"- `{path.stem}` {record['outcome']}: {reason}")
    lines, total = group_table(results, RUN_OUTCOMES, counted="ran")
    ran = sum(total.values())
    share = 100.0 * total["passed"] / ran if ran else 0.0
    lines += ["", f"Passed: {total['passed']} of {ran} kernels run ({share:.1f} %)."]
    if wrong:
        lines += ["", "Failed and crashed, with the first wrong element:", "", *wrong]
    return "\n".join(lines) + "\n"
