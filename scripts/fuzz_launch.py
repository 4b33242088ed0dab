"""The launch fuzzer: random launches of every `examples/` kernel, each run in a
worker process, with guard bytes around every array.

    python scripts/fuzz_launch.py                     # 500 cases, seed 0
    python scripts/fuzz_launch.py --count 2000 --seed 7 --jobs 2 --timeout 30
    python scripts/fuzz_launch.py --repro 7:123       # one case again, in detail
    python scripts/fuzz_launch.py --json out.json     # every case's outcome

Each case is one launch of one example (`EXAMPLES`), drawn from the seed and the
case's index alone (`--repro SEED:INDEX` draws it again): 1 to 3 dimensions, global
sizes from 1 to millions (multiples of the local size or not) and past the device's
range (2^63, 2^64 - 1, 2^64 + 1, as ints and numpy integers), global offsets small
and near 2^63 and 2^64, local sizes from 1 past the device's maximum or left to the
runtime, arrays as long as the kernel needs, longer or shorter, of the wrong dtype,
0-d, strided, read-only or lists, `LocalBuffer`s of every size and of no size, and
scalars in and out of their type's range as Python and numpy scalars.

Every array is a view into a larger byte array with `GUARD` bytes of a known pattern
before and after it; a launch that changes them wrote outside its arrays. A launch
that raises must not have changed a byte of any array (the runtime's promise). A
worker that dies (a signal) or overruns `--timeout` is replaced by a fresh one; so is
a worker whose last launch was accepted although a precondition did not hold (it
may have corrupted its memory), so that no case is blamed for another one's damage.

Outcomes: `ok` (accepted, ran, guards intact), `crash` (the worker died: the signal),
`outside` (accepted, guard bytes changed), `refused` (`mux.LaunchError`, or the
TypeError/ValueError of `mux.LocalBuffer` for a size that is not one), `wrote` (a
refused launch that changed an array: never allowed), `exception` (any other
exception), `timeout`.

The preconditions: the device's (sizes, offsets and their sums at most
`mux.runtime.SIZE_MAX`, local sizes at most `DeviceInfo.max_work_group_size`, local
memory at most `DeviceInfo.local_memory_size`), the parameters' types (an array of the
element type, contiguous and writable, not 0-d; a positive `LocalBuffer`; a scalar
whose value fits the type, C's conversions), and each example's own, stated once, in
the comment at the top of its `.mlir` (`stated`), in this format:

    // Preconditions (remarks in prose, which may run over several lines):
    //   a, b, c: global_offset(0) + global_size(0) elements
    //   scratch: 4 * min(local_size(0), global_size(0)) bytes
    //   local_size(0), local_size(1): at most 16 (the tile), or global_size in that
    //     dimension
    //   global_offset(0) + global_size(0): at most 8

one line a precondition, indented by two spaces after `//` (four for a line that
continues it), up to the first line that is not: parameters with the elements (an
array) or bytes (a `LocalBuffer`) they need, or a bound (`at most N`) on the local
sizes of dimensions 0 and 1 (the static local tiles indexed by the local ids:
`Example.local_max`) or on global_offset(0) + global_size(0) (`Example.end_max`).
`Example.needs` computes what each parameter needs in a launch, as its line says; a
parameter it computes that its line does not state is an error.
Each violated one is tagged by who is to refuse it:
- `runtime`: the runtime checks it today (types, the device's range, static memref
  shapes): a launch violating one must be `refused`;
- `extent`: a buffer's extent against the NDRange, or a static local tile indexed by
  the local ids: the `bounds` analysis of issue 13 (static shapes, indexing as a
  function of the ids) is to refuse these; until then they may crash or write outside;
- `unsure`: an `extent` precondition (as `Need` computes it from the work-items
  that reach a buffer, guards and offsets included) is broken, but the kernel's
  index arithmetic wraps past 2^63 in this launch, so whether it really reaches
  past the buffer depends on the wrapped values: refused or run, never a crash or
  a write outside;
- `unchecked`: depends on the data (for example an index read from a buffer): no
  check before the launch can refuse it (a later "checked mode"); the generator never
  violates these. None of today's examples has one.
Failures (exit status 1): a launch whose preconditions all hold that is not `ok`; a
`wrote`; a `runtime` violation not refused. With `--strict`, also an `extent`
violation not refused (once the bounds analysis is merged).
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import math
import multiprocessing
import os
import random
import re
import signal
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import mux  # noqa: E402
from lowering.common.device import HOST  # noqa: E402
from mux.runtime import (  # noqa: E402
    SIZE_MAX,
    default_local_size,
)

GUARD = 4096
"""Guard bytes before and after every array."""
CAP = 1 << 22
"""The most elements the fuzzer gives an array (a kernel needing more gets fewer)."""
WORK = 1 << 21
"""Global sizes are drawn so that most launches have at most about this many
work-items (a larger one usually needs larger arrays than `CAP`, so it violates a
precondition and is expected to be refused, not run)."""
OUTCOMES = ("ok", "refused", "crash", "outside", "wrote", "exception", "timeout")


# --------------------------------------------------------------------------------------
# The examples and their preconditions.
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Range:
    """A launch as the device sees it: global sizes, offsets and (enqueued) local
    sizes padded to 3 dimensions, and the scalars' values (an index as its unsigned
    64-bit value, as a kernel's unsigned compare reads it)."""

    g: tuple[int, int, int]
    o: tuple[int, int, int]
    l: tuple[int, int, int]  # noqa: E741
    s: dict[str, Any]

    @property
    def end(self) -> tuple[int, ...]:
        """global_offset + global_size, per dimension."""
        return tuple(o + g for o, g in zip(self.o, self.g, strict=True))


@dataclass(frozen=True)
class Need:
    """`param` needs `amount` elements (an array) or bytes (a LocalBuffer), as its
    precondition line says (`Stated.needs`)."""

    param: str
    amount: int
    certain: bool = True
    """False if the kernel's index arithmetic wraps in this launch (a value past
    2^63): whether it then reaches past `amount` depends on the wrapped values, so
    a shorter buffer is an `unsure` violation, not an `extent` one."""


@dataclass(frozen=True)
class Stated:
    """An example's preconditions as the comment at the top of its .mlir states them
    (the format is in this module's docstring)."""

    needs: dict[str, str]
    """Per parameter, what it needs (the line's text after the colon)."""
    local_max: tuple[int, int] | None = None
    end_max: int | None = None


_LOCAL_SIZES = "local_size(0), local_size(1)"
_END = "global_offset(0) + global_size(0)"


@functools.cache
def stated(name: str) -> Stated:
    """The preconditions the comment at the top of `examples/<name>.mlir` states."""
    lines = (ROOT / "examples" / f"{name}.mlir").read_text().splitlines()
    start = next(
        (i for i, line in enumerate(lines) if line.startswith("// Preconditions")),
        None,
    )
    if start is None:
        raise ValueError(f"examples/{name}.mlir states no preconditions")
    items: list[str] = []
    for line in lines[start + 1 :]:
        if line.startswith("//     ") and items:
            items[-1] += " " + line[2:].strip()
        elif line.startswith("//   "):
            items.append(line[2:].strip())
        elif items:
            break
    needs: dict[str, str] = {}
    local_max, end_max = None, None
    for item in items:
        subject, _, text = item.partition(": ")
        bound = re.match(r"at most (\d+)", text)
        if subject == _LOCAL_SIZES and bound:
            local_max = (int(bound[1]), int(bound[1]))
        elif subject == _END and bound:
            end_max = int(bound[1])
        else:
            needs.update((param, text) for param in subject.split(", "))
    return Stated(needs, local_max, end_max)


@dataclass(frozen=True)
class Example:
    """An example kernel and its launch preconditions (`stated` by its .mlir file,
    computed here)."""

    name: str
    dims: int
    """The number of dimensions its range naturally has."""
    needs: Callable[[Range], list[Need]]
    """What its buffers need beyond their static shapes (which come from the
    kernel's types), as `stated`."""
    scalars: dict[str, Callable[[random.Random, tuple[int, int, int]], int]] = field(
        default_factory=dict
    )
    """Good values of its integer scalars, given the global size."""
    unchecked: tuple[str, ...] = ()
    """Preconditions no check before the launch can decide (never violated here)."""
    limits: Callable[[Range], list[str]] = lambda r: []
    """The preconditions on the range alone it violates (besides `local_max`)."""

    @property
    def local_max(self) -> tuple[int, int] | None:
        """Bounds on local_size(0) and local_size(1): the static local tiles it
        indexes with the local ids."""
        return stated(self.name).local_max

    @property
    def end_max(self) -> int | None:
        """A bound on global_offset(0) + global_size(0) the range is mostly drawn
        within (`limits` says when it matters)."""
        return stated(self.name).end_max


def _slack(rng: random.Random) -> int:
    return rng.choice((0, 0, 0, 1, 2, 5))


def _near(rng: random.Random, size: int) -> int:
    return max(0, size + rng.choice((0, 0, 0, 1, 3, -1, -2)))


_S = 2**63
EVERY = 2**64
"""The elements a buffer would need when the kernel reaches an element before
the first: more than any array has."""


def _signed(v: int) -> int:
    """A 64-bit value as the kernel's signed view of it."""
    v %= 2**64
    return v - 2**64 if v >= _S else v


def _reach(
    param: str,
    points: list[tuple[int, ...]],
    index: Callable,
    indices: int = 1,
) -> Need:
    """What `param` needs for the work-items (or groups, ...) at `points`, the
    corners of what reaches it (the kernels' indices are monotonic in each
    coordinate as long as nothing wraps): `index(*point)` lists the values the
    kernel computes, the element indices (`indices` of them) last."""
    values = [index(*p) for p in points]
    certain = all(-_S <= v < _S for vs in values for v in vs)
    last = [v for vs in values for v in vs[-indices:]]
    amount = EVERY if min(last) < 0 else max(last) + 1
    return Need(param, amount, certain)


def _corners(*ranges: tuple[int, int]) -> list[tuple[int, ...]]:
    """The corners of a box given by inclusive (low, high) ranges."""
    return list(itertools.product(*({lo, hi} for lo, hi in ranges)))


def _inside(lo: int, end: int, limit: int) -> tuple[int, int] | None:
    """The ids in [lo, end) below `limit` (an unsigned guard), as (first, last)."""
    last = min(end, limit) - 1
    return None if last < lo else (lo, last)


def _scale2d_needs(r: Range) -> list[Need]:
    w = _signed(r.s["width"])
    points = _corners((0, r.g[0] - 1), (0, r.g[1] - 1))
    return [
        _reach("input", points, lambda x, y: [y * w, y * w + x]),
        Need("output", math.prod(r.g)),
    ]


def _sgemm_c(r: Range, n: int) -> list[Need]:
    xs, ys = _inside(r.o[0], r.end[0], n), _inside(r.o[1], r.end[1], n)
    if xs is None or ys is None:
        return []
    ns = _signed(n)
    return [_reach("c", _corners(xs, ys), lambda x, y: [y * ns, y * ns + x])]


def _sgemm_naive_needs(r: Range) -> list[Need]:
    n = r.s["n"]
    ns = _signed(n)
    xs, ys = _inside(r.o[0], r.end[0], n), _inside(r.o[1], r.end[1], n)
    needs = _sgemm_c(r, n)
    if xs is None or ys is None or ns <= 0:  # scf.for k < n compares signed
        return needs
    ks = (0, ns - 1)
    return [
        *needs,
        _reach("a", _corners(ys, ks), lambda y, k: [y * ns, y * ns + k]),
        _reach("b", _corners(ks, xs), lambda k, x: [k * ns, k * ns + x]),
    ]


def _tile_rows(first: int, size: int, groups: int, n: int) -> tuple[int, int] | None:
    """The rows (or columns) the work-groups' 16-wide tiles load below n."""
    if first >= n:
        return None
    last_group = min(groups - 1, (n - 1 - first) // size)
    return (first, min(n - 1, first + last_group * size + 15))


def _sgemm_tiled_needs(r: Range) -> list[Need]:
    n = r.s["n"]
    ns = _signed(n)
    needs = _sgemm_c(r, n)
    tiles = (n + 15) % 2**64 // 16
    if tiles == 0:
        return needs
    certain = n + 15 < 2**64
    ks = (0, min(n, tiles * 16) - 1)
    groups = [-(-r.g[d] // r.l[d]) for d in (0, 1)]
    rows = _tile_rows(r.o[1], r.l[1], groups[1], n)
    cols = _tile_rows(r.o[0], r.l[0], groups[0], n)
    if rows is not None:
        need = _reach("a", _corners(rows, ks), lambda y, k: [y * ns, y * ns + k])
        needs.append(Need("a", need.amount, need.certain and certain))
    if cols is not None:
        need = _reach("b", _corners(ks, cols), lambda k, x: [k * ns, k * ns + x])
        needs.append(Need("b", need.amount, need.certain and certain))
    return needs


def _stencil2d_needs(r: Range) -> list[Need]:
    w, h = r.s["width"], r.s["height"]
    ws = _signed(w)
    xs, ys = _inside(r.o[0], r.end[0], w), _inside(r.o[1], r.end[1], h)
    if xs is None or ys is None:
        return []  # no work-item inside the image
    points = _corners(xs, ys)

    def neighbours(x: int, y: int) -> list[int]:
        right, down = min(x + 1, w - 1), min(y + 1, h - 1)
        up, left = max(y - 1, 0), max(x - 1, 0)
        rows = [y * ws, up * ws, down * ws]
        center = rows[0] + x
        return [
            *rows,
            center,
            rows[0] + left,
            rows[0] + right,
            rows[1] + x,
            rows[2] + x,
        ]

    return [
        _reach("input", points, neighbours, indices=5),
        _reach("output", points, lambda x, y: [y * ws, y * ws + x]),
    ]


def _transpose_needs(r: Range) -> list[Need]:
    w, h = _signed(r.s["width"]), _signed(r.s["height"])
    points = _corners((r.o[0], r.end[0] - 1), (r.o[1], r.end[1] - 1))
    return [
        _reach("input", points, lambda x, y: [y * w, y * w + x]),
        _reach("output", points, lambda x, y: [x * h, x * h + y]),
    ]


def _dma_tile_needs(r: Range) -> list[Need]:
    w = r.s["width"]
    ws, stride = _signed(w), w * 4 % 2**64
    groups = [-(-r.g[d] // r.l[d]) for d in (0, 1)]

    def group(gx: int, gy: int) -> list[int]:
        tw = min(r.l[0], r.g[0] - gx * r.l[0])
        th = min(r.l[1], r.g[1] - gy * r.l[1])
        origin = gy * r.l[1] * ws + gx * r.l[0]
        first = _signed(origin * 4)  # llvm.getelementptr wraps
        last = first + (th - 1) * stride + tw * 4 - 1
        return [gy * r.l[1] * ws, origin, last // 4]

    points = _corners((0, groups[0] - 1), (0, groups[1] - 1))
    need = _reach("input", points, group)
    certain = need.certain and w * 4 < _S
    return [Need(p, need.amount, certain) for p in ("input", "output")]


def _end(params: str) -> Callable[[Range], list[Need]]:
    """Each of `params` needs global_offset(0) + global_size(0) elements."""
    return lambda r: [Need(p, r.end[0]) for p in params.split(", ")]


def _scale_rows_needs(r: Range) -> list[Need]:
    rows = min(r.s["rows"], r.end[1])
    if rows <= r.o[1]:
        return []  # no row inside: nothing is accessed
    return [Need(p, (rows - 1) * 8 + r.end[0]) for p in ("m", "out")]


def _scale_rows_limits(r: Range) -> list[str]:
    """w's 8 elements bound global_offset(0) + global_size(0) when some row is
    inside."""
    end_max = stated("scale_rows").end_max
    assert end_max is not None
    if r.end[0] > end_max and r.s["rows"] > r.o[1]:
        return [f"global_offset(0) + global_size(0) = {r.end[0]} is over {end_max}"]
    return []


EXAMPLES = [
    Example("vadd", 1, _end("a, b, c")),
    Example("saxpy", 1, _end("x, y")),
    Example(
        "reduce",
        1,
        lambda r: [
            Need("input", r.end[0]),
            Need("partial", -(-r.g[0] // r.l[0])),
            Need("scratch", 4 * min(r.l[0], r.g[0])),
        ],
    ),
    Example("histogram", 1, _end("data")),
    Example("ids3d", 3, lambda r: [Need("out", math.prod(r.g))]),
    Example(
        "scale2d",
        2,
        _scale2d_needs,
        scalars={"width": lambda rng, g: g[0] + _slack(rng)},
    ),
    Example("scan", 1, _end("input, output")),
    Example(
        "sgemm_naive",
        2,
        _sgemm_naive_needs,
        scalars={"n": lambda rng, g: _near(rng, max(g[0], g[1]))},
    ),
    Example(
        "sgemm_tiled",
        2,
        _sgemm_tiled_needs,
        scalars={"n": lambda rng, g: _near(rng, max(g[0], g[1]))},
    ),
    Example(
        "stencil2d",
        2,
        _stencil2d_needs,
        scalars={
            "width": lambda rng, g: _near(rng, g[0]),
            "height": lambda rng, g: _near(rng, g[1]),
        },
    ),
    Example(
        "transpose",
        2,
        _transpose_needs,
        scalars={
            "width": lambda rng, g: g[0] + _slack(rng),
            "height": lambda rng, g: g[1] + _slack(rng),
        },
    ),
    Example(
        "dma_tile",
        2,
        _dma_tile_needs,
        scalars={"width": lambda rng, g: g[0] + _slack(rng)},
    ),
    Example(
        "scale_rows",
        2,
        _scale_rows_needs,
        scalars={
            "rows": lambda rng, g: rng.choice(
                (g[1], g[1], max(0, g[1] - rng.randint(0, 3)), g[1] + 2)
            )
        },
        limits=_scale_rows_limits,
    ),
]
BY_NAME = {e.name: e for e in EXAMPLES}


# --------------------------------------------------------------------------------------
# Parameters, as the fuzzer reads them from the kernel.
# --------------------------------------------------------------------------------------

_DTYPES = {
    "f16": "float16",
    "f32": "float32",
    "f64": "float64",
    "i8": "int8",
    "i16": "int16",
    "i32": "int32",
    "i64": "int64",
    "index": "int64",
}
_WRONG = {"float32": "float64", "float64": "float32", "int32": "int16", "int8": "int16"}


@dataclass(frozen=True)
class ParamInfo:
    name: str
    kind: str  # "array", "local", "index", "int", "float"
    dtype: str = ""  # an array's element dtype, a scalar's type name
    static: int | None = None  # elements of a static memref shape
    constant: bool = False  # constant memory (2): a read-only array is fine


def param_infos(kernel: mux.Kernel) -> list[ParamInfo]:
    from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType

    infos = []
    for p in kernel.params:
        if isinstance(p.type, MemRefType):
            shape = p.type.get_shape()
            static = None if DYNAMIC_INDEX in shape else math.prod(shape)
            dtype = _DTYPES[str(p.type.element_type)]
            if p.is_local and static is not None:  # a LocalBuffer's size: bytes
                static *= np.dtype(dtype).itemsize
            kind = "local" if p.is_local else "array"
            constant = p.address_space == 2
            infos.append(ParamInfo(p.name, kind, dtype, static, constant))
        else:
            name = str(p.type)
            kind = "index" if name == "index" else "float" if name[0] == "f" else "int"
            infos.append(ParamInfo(p.name, kind, name))
    return infos


_KERNELS: dict[str, mux.Kernel] = {}


def kernel_of(name: str) -> mux.Kernel:
    if name not in _KERNELS:
        program = mux.load(ROOT / "examples" / f"{name}.mlir")
        _KERNELS[name] = program.kernel(name)
    return _KERNELS[name]


# --------------------------------------------------------------------------------------
# Cases: drawn from (seed, index) alone.
# --------------------------------------------------------------------------------------


@dataclass
class Arg:
    """How a worker builds one argument: an array (`dtype`, `n` elements, `variant`
    plain, 2d, 0d, strided, readonly or list), a LocalBuffer of `value`, or the
    scalar `value` itself."""

    kind: str  # "array", "local", "value"
    dtype: str = ""
    n: int = 0
    variant: str = "plain"
    value: Any = None

    def describe(self) -> str:
        if self.kind == "array":
            shape = "" if self.variant in ("plain", "2d") else f"{self.variant} "
            return f"{shape}{self.dtype}[{self.n}]"
        if self.kind == "local":
            return f"LocalBuffer({self.value!r})"
        return _short(self.value)


@dataclass
class Case:
    seed: int
    index: int
    example: str
    global_size: Any
    local_size: Any
    global_offset: Any
    args: list[Arg]
    violations: list[tuple[str, str]]
    """(tag, text) of every precondition the launch violates: runtime, extent."""

    @property
    def holds(self) -> bool:
        return not self.violations

    @property
    def tag(self) -> str:
        """What is to refuse the launch: "" (nothing), "runtime", "extent", or
        "unsure" (it may run: `Need.certain`)."""
        tags = {t for t, _ in self.violations}
        for tag in ("runtime", "extent", "unsure"):
            if tag in tags:
                return tag
        return ""

    def describe(self) -> str:
        args = ", ".join(a.describe() for a in self.args)
        return (
            f"{self.example}({args}, global_size={_short(self.global_size)}, "
            f"local_size={_short(self.local_size)}, "
            f"global_offset={_short(self.global_offset)})"
        )


def _short(value: Any) -> str:
    if isinstance(value, tuple):
        return (
            "("
            + ", ".join(_short(v) for v in value)
            + ("," if len(value) == 1 else "")
            + ")"
        )
    if isinstance(value, np.generic):
        return f"np.{value.dtype}({value.item()!r})"
    return repr(value)


_HUGE_SIZES = (2**31, 2**40, 2**62, 2**63 - 1)
_BAD_SIZES = (0, -3, True, 2**63, 2**64 - 1, 2**64 + 1)


def _as_integer(rng: random.Random, value: int) -> Any:
    """`value` as a Python int or as a numpy integer that holds it."""
    choices: list[Callable[[int], Any]] = [int, int, int]
    if -(2**63) <= value < 2**63:
        choices.append(np.int64)
    if 0 <= value < 2**64:
        choices.append(np.uint64)
    if -(2**31) <= value < 2**31:
        choices.append(np.int32)
    return rng.choice(choices)(value)


def _draw_sizes(rng: random.Random, dims: int, bad: float) -> list[Any]:
    sizes: list[Any] = []
    budget = WORK
    for d in range(dims):
        roll = rng.random()
        if roll < 0.1 * bad:
            value = rng.choice(_BAD_SIZES)
            sizes.append(value if value is True else _as_integer(rng, value))
            continue
        if rng.random() < 0.04:
            sizes.append(_as_integer(rng, rng.choice(_HUGE_SIZES)))
            continue
        if roll < 0.2 and d == 0:
            size = rng.randint(1000, max(1000, budget))
        else:
            limit = (300, 64, 12)[dims - 1]
            size = rng.choice((1, 1, rng.randint(1, limit), rng.randint(1, limit)))
        budget = max(1, budget // size)
        sizes.append(_as_integer(rng, size))
    return sizes


def _draw_offsets(rng: random.Random, dims: int, sizes: list[Any], bad: float) -> Any:
    roll = rng.random()
    if roll < 0.55:
        return 0
    if roll < 0.8:
        values = [rng.randint(0, 50) for _ in range(dims)]
    else:
        values = []
        for s in sizes:
            size = max(int(s), 1) if isinstance(s, int | np.integer) else 1
            # the largest offset in range: the last id is SIZE_MAX - 1
            huge = [0, 2**62, 2**63 - 2**40, SIZE_MAX - size + 1]
            if rng.random() < bad:
                huge = [SIZE_MAX - size + 2, 2**63, 2**64 - 1, 2**64 + 1, -1]
            values.append(rng.choice(huge))
    values = [_as_integer(rng, v) for v in values]
    if dims == 1 or (len(set(map(int, values))) == 1 and rng.random() < 0.5):
        return values[0]
    return tuple(values)


def _draw_local(
    rng: random.Random, dims: int, sizes: list[Any], tile: bool, bad: float
) -> Any:
    if rng.random() < 0.25:
        return None
    if rng.random() < 0.1 * bad:
        return rng.choice(
            (0, 2048, (64, 64), True, (1,) * (dims % 3 + 1), (2, 2, 2, 2), 1.5)
        )
    values = []
    for s in sizes:
        size = (
            int(s) if isinstance(s, int | np.integer) and not isinstance(s, bool) else 1
        )
        size = max(1, min(size, 4096))
        options = [1, rng.randint(1, size), min(size, 16), min(size, 8)]
        if not tile or rng.random() < 0.2:
            options += [min(size, 64), min(size, 256), rng.randint(1, min(size, 1024))]
        if rng.random() < 0.1:
            options.append(rng.choice((17, 32, 1023, 1024, 1025 if bad else 1024)))
        values.append(rng.choice(options))
    if dims == 1 and rng.random() < 0.5:
        return _as_integer(rng, values[0])
    return tuple(_as_integer(rng, v) for v in values)


def _device_range(
    sizes: Any, local: Any, offsets: Any
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] | str:
    """The launch's (global, local, offset) as ints, or what breaks the device's
    rules (the runtime's documented contract: `mux.Kernel.__call__`)."""

    def ints(what: str, value: Any, low: int) -> tuple[int, ...] | str:
        values = (value,) if isinstance(value, int | np.integer | np.bool_) else value
        if not isinstance(values, tuple) or not 1 <= len(values) <= 3:
            return f"{what} is an int or 1 to 3 ints"
        for v in values:
            if isinstance(v, bool | np.bool_) or not isinstance(v, int | np.integer):
                return f"{what} has a non-int"
            if not low <= int(v) <= SIZE_MAX:
                return f"{what} has {int(v)}, not in [{low}, SIZE_MAX]"
        return tuple(int(v) for v in values)

    g = ints("global_size", sizes, 1)
    if isinstance(g, str):
        return g
    if isinstance(offsets, int | np.integer) and not isinstance(offsets, bool):
        offsets = (offsets,) * len(g)
    o = ints("global_offset", offsets, 0)
    if isinstance(o, str):
        return o
    if len(o) != len(g):
        return "global_offset has another number of dimensions"
    if any(a + b > SIZE_MAX for a, b in zip(o, g, strict=True)):
        return "global_offset + global_size over SIZE_MAX"
    if math.prod(g) > SIZE_MAX:
        return "more than SIZE_MAX work-items"
    if local is None:
        lsz: tuple[int, ...] | str = default_local_size(g)
    else:
        lsz = ints("local_size", local, 1)
    if isinstance(lsz, str):
        return lsz
    if len(lsz) != len(g):
        return "local_size has another number of dimensions"
    if max(lsz) > HOST.max_work_group_size or math.prod(lsz) > HOST.max_work_group_size:
        return "local_size over HOST.max_work_group_size"
    return g, lsz, o


def _pad(values: tuple[int, ...], fill: int) -> tuple[int, int, int]:
    return (*values, *(fill,) * (3 - len(values)))  # type: ignore[return-value]


def _draw_scalar(
    rng: random.Random, info: ParamInfo, good: int | None, bad: float, odd: float
) -> tuple[Any, str | None, Any]:
    """(the value, why its type refuses it or None, its device value). With the
    probability `odd`, an integer is one the type takes but the kernel may not
    expect (-1, 2^63, 2^64 - 1, ...)."""
    roll = rng.random()
    if info.kind == "float":
        if roll < 0.1 * bad:
            too_large = {"f16": 7e4, "f32": 1e39, "f64": 10**400}[info.dtype]
            bad = rng.choice((too_large, True, 1j, "1.0", None))
            return bad, f"{_short(bad)} is no {info.dtype}", None
        value = rng.choice((0.5, -2.0, 3.25, float("inf"), 1e-3, 7))
        kind = rng.choice((float, float, np.float64, np.float32, np.float16, np.int32))
        if kind is np.int32 and not float(value).is_integer():
            kind = float
        return kind(value), None, float(value)
    width = 64 if info.kind == "index" else int(info.dtype[1:])
    low, high = -(2 ** (width - 1)), 2**width - 1
    if roll < 0.1 * bad:
        value = rng.choice((high + 1, low - 1, 1.5, True, "3", np.float32(2)))
        return value, f"{_short(value)} is no {info.dtype}", None
    if rng.random() < odd:
        value = rng.choice((-1, 0, 2**63, 2**64 - 1, 2**40, -(2**63)))
    else:
        value = good if good is not None else rng.randint(0, 100)
    # the device reads an index unsigned (ult compares): its value mod 2^64
    return _as_integer(rng, value), None, value % 2**64


def draw(seed: int, index: int) -> Case:
    """The case of `index` in the run of `seed`. A launch that holds its
    preconditions is drawn again while it has more than `8 * WORK` work-items: it
    would be right to run it, and take hours."""
    rng = random.Random(f"launch:{seed}:{index}")
    while True:
        case, work = _draw(rng, seed, index)
        if not case.holds or work <= 8 * WORK:
            return case


def _draw(rng: random.Random, seed: int, index: int) -> tuple[Case, int]:
    example = EXAMPLES[rng.randrange(len(EXAMPLES))]
    infos = param_infos(kernel_of(example.name))
    # Half the cases are meant to hold their preconditions, a quarter to break the
    # runtime's (`bad`: the scale of the probability of each bad choice), a quarter
    # the examples' (`short`: the probability a buffer is too short).
    mode = rng.choices(("good", "runtime", "extent"), (2, 1, 1))[0]
    bad = 1.0 if mode == "runtime" else 0.0
    short = 0.5 if mode == "extent" else 0.0
    dims = example.dims if rng.random() < 0.6 else rng.randint(1, 3)
    sizes = _draw_sizes(rng, dims, bad)
    offsets = _draw_offsets(rng, dims, sizes, bad)
    if example.end_max is not None and rng.random() < (0.5 if short else 0.9):
        sizes[0] = _as_integer(rng, rng.randint(1, example.end_max))
        x = rng.randint(0, example.end_max - int(sizes[0]))
        if dims == 1:
            offsets = x
        else:
            rest = (
                offsets[1:] if isinstance(offsets, tuple) else (offsets,) * (dims - 1)
            )
            offsets = (x, *rest)
    local = _draw_local(rng, dims, sizes, example.local_max is not None, bad)
    global_size = sizes[0] if dims == 1 and rng.random() < 0.6 else tuple(sizes)
    violations: list[tuple[str, str]] = []
    device = _device_range(global_size, local, offsets)
    if isinstance(device, str):
        violations.append(("runtime", device))
        g, lsz, o = (1, 1, 1), (1, 1, 1), (0, 0, 0)
        for d, s in enumerate(sizes):  # for the buffers' sizes: what fits
            if isinstance(s, int | np.integer) and 1 <= int(s) <= CAP:
                g = (*g[:d], int(s), *g[d + 1 :])  # type: ignore[assignment]
    else:
        g, lsz, o = (_pad(v, f) for v, f in zip(device, (1, 1, 0), strict=True))

    # Scalars first: the buffers' needs depend on them.
    values: dict[str, Any] = {}
    device_values: dict[str, Any] = {}
    for info in infos:
        if info.kind in ("index", "int", "float"):
            make = example.scalars.get(info.name)
            good = make(rng, g) if make else None
            value, wrong, device_value = _draw_scalar(rng, info, good, bad, short)
            values[info.name] = value
            device_values[info.name] = device_value
            if wrong:
                violations.append(("runtime", f"argument {info.name}: {wrong}"))
    range_ = Range(
        g, o, lsz, {k: v if v is not None else 0 for k, v in device_values.items()}
    )
    needs, texts = _needs(example, range_, infos)

    args: list[Arg] = []
    for info in infos:
        if info.kind in ("index", "int", "float"):
            args.append(Arg("value", value=values[info.name]))
            continue
        need = needs.get(info.name)
        wanted = max(need.amount if need else 0, info.static or 0)
        if info.kind == "local":
            arg, wrong = _draw_local_buffer(rng, wanted, info, bad, short)
        else:
            arg, wrong = _draw_array(rng, wanted, info, bad, short)
        args.append(arg)
        if wrong:
            violations.append(("runtime", f"argument {info.name}: {wrong}"))
            continue
        amount = arg.value if arg.kind == "local" else arg.n
        if info.static is not None and amount < info.static:
            violations.append(
                ("runtime", f"{info.name} has {amount}, its static shape {info.static}")
            )
        if need is not None and amount < need.amount:
            violations.append(
                (
                    "extent" if need.certain else "unsure",
                    f"{info.name} has {amount}, needs {texts[info.name]} = "
                    f"{need.amount}",
                )
            )
    if not isinstance(device, str):
        # a work-group is never larger than the range: min(local, global) items
        for d, bound in enumerate(example.local_max or ()):
            if min(lsz[d], g[d]) > bound:
                violations.append(
                    ("extent", f"local_size({d}) = {lsz[d]} is over the tile's {bound}")
                )
        violations.extend(("extent", text) for text in example.limits(range_))
    if rng.random() < 0.05 * bad:
        args = args[:-1] if rng.random() < 0.5 else [*args, Arg("value", value=1)]
        violations.append(("runtime", "wrong number of arguments"))
    case = Case(
        seed, index, example.name, global_size, local, offsets, args, violations
    )
    return case, math.prod(g)


def _needs(
    example: Example, range_: Range, infos: list[ParamInfo]
) -> tuple[dict[str, Need], dict[str, str]]:
    """What each buffer of `example` needs in `range_`, and what its precondition
    line says; ValueError if the two homes disagree on which parameters have one."""
    needs = {n.param: n for n in example.needs(range_)}
    texts = stated(example.name).needs
    unstated = sorted(set(needs) - set(texts))
    unknown = sorted(set(texts) - {info.name for info in infos})
    if unstated or unknown:
        raise ValueError(
            f"examples/{example.name}.mlir: the preconditions of {unstated} are not "
            f"stated, {unknown} are not parameters"
        )
    return needs, texts


def _draw_array(
    rng: random.Random, wanted: int, info: ParamInfo, bad: float, short: float
) -> tuple[Arg, str | None]:
    if wanted > CAP:
        n = rng.choice((0, 1, rng.randint(0, CAP)))
    elif rng.random() < short:
        n = max(0, wanted - rng.choice((1, 1, rng.randint(1, max(1, wanted)))))
    else:
        n = wanted + rng.choice((0, 0, 1, 7, wanted // 8))
    dtype = info.dtype
    if dtype in ("int32", "int8") and rng.random() < 0.3:
        dtype = "u" + dtype  # signless integers take either sign
    roll = rng.random() / max(bad, 1e-9)
    if roll < 0.06:
        wrong = _WRONG.get(info.dtype, "float64")
        return Arg("array", wrong, n), f"an array of {wrong}"
    if roll < 0.1:
        return Arg("array", dtype, 1, "0d"), "a 0-d array"
    if roll < 0.13 and n >= 2:  # numpy calls an array of 0 or 1 contiguous
        return Arg("array", dtype, n, "strided"), "a strided array"
    if roll < 0.16:
        read_only = None if info.constant else "a read-only array"
        return Arg("array", dtype, n, "readonly"), read_only
    if roll < 0.18:
        return Arg("array", dtype, n, "list"), "a list"
    variant = "2d" if rng.random() < 0.1 and n % 4 == 0 and n else "plain"
    return Arg("array", dtype, n, variant), None


def _draw_local_buffer(
    rng: random.Random, wanted: int, info: ParamInfo, bad: float, short: float
) -> tuple[Arg, str | None]:
    roll = rng.random() / max(bad, 1e-9)
    if roll < 0.1:
        value = rng.choice((None, "64", 2.5, True, 0, -8))
        return Arg("local", value=value), f"LocalBuffer({value!r})"
    if roll < 0.15:
        size = HOST.local_memory_size + rng.choice((1, 4096))
        return Arg("local", value=size), f"{size} bytes of local memory"
    if roll < 0.18:
        return Arg(
            "array", info.dtype, max(1, wanted // 4)
        ), "an array, not a LocalBuffer"
    if rng.random() < short:
        size = max(1, wanted - rng.randint(1, max(1, wanted)))
    else:
        size = wanted + rng.choice((0, 0, 4, 64))
    size = max(size, 1)
    if size > HOST.local_memory_size:
        return Arg("local", value=size), f"{size} bytes of local memory"
    return Arg("local", value=_as_integer(rng, size)), None


# --------------------------------------------------------------------------------------
# The worker: runs cases, checks the guards.
# --------------------------------------------------------------------------------------

_PATTERN = ((np.arange(GUARD) * 37 + 11) % 251 + 1).astype(np.uint8)


def _build(arg: Arg, data: np.random.Generator) -> tuple[Any, np.ndarray | None]:
    """(the argument, the guarded byte array it is a view into, or None)."""
    if arg.kind == "local":
        return mux.LocalBuffer(arg.value), None
    if arg.kind == "value":
        return arg.value, None
    dtype = np.dtype(arg.dtype)
    if arg.variant == "list":
        return [0] * arg.n, None
    count = arg.n * (2 if arg.variant == "strided" else 1)
    base = np.empty(2 * GUARD + count * dtype.itemsize, np.uint8)
    base[:GUARD] = _PATTERN
    base[GUARD + count * dtype.itemsize :] = _PATTERN
    body = base[GUARD : GUARD + count * dtype.itemsize].view(dtype)
    if dtype.kind == "f":
        body[:] = data.random(count).astype(dtype)
    else:
        body[:] = data.integers(0, 100, count).astype(dtype)
    if arg.variant == "0d":
        return body[:1].reshape(()), base
    if arg.variant == "strided":
        return body[::2], base
    if arg.variant == "2d":
        return body.reshape(4, -1), base
    if arg.variant == "readonly":
        body.flags.writeable = False
    return body, base


def guards_intact(base: np.ndarray) -> bool:
    """Whether the guard bytes around the array in `base` (`_build`) are as
    written."""
    return np.array_equal(base[:GUARD], _PATTERN) and np.array_equal(
        base[-GUARD:], _PATTERN
    )


def run_case(case: Case) -> dict[str, Any]:
    """Runs `case` in this process: its outcome and a detail."""
    data = np.random.default_rng([case.seed, case.index])
    kernel = kernel_of(case.example)
    try:
        built = [_build(a, data) for a in case.args]
    except (TypeError, ValueError) as error:  # mux.LocalBuffer's checks
        return {"outcome": "refused", "detail": f"{type(error).__name__}: {error}"}
    bases = [b for _, b in built if b is not None]
    before = [b.copy() for b in bases]
    try:
        kernel(
            *(a for a, _ in built),
            global_size=case.global_size,
            local_size=case.local_size,
            global_offset=case.global_offset,
        )
    except mux.LaunchError as error:
        changed = [
            i
            for i, (b, c) in enumerate(zip(bases, before, strict=True))
            if not np.array_equal(b, c)
        ]
        if changed:
            return {
                "outcome": "wrote",
                "detail": f"refused ({error}) but changed arrays",
            }
        return {"outcome": "refused", "detail": str(error)}
    except Exception as error:  # any other is what the fuzzer reports
        return {
            "outcome": "exception",
            "detail": f"{type(error).__name__}: {error}"[:300],
        }
    infos = param_infos(kernel)
    outside = [
        info.name
        for info, (_, base) in zip(infos, built, strict=False)
        if base is not None and not guards_intact(base)
    ]
    if outside:
        return {
            "outcome": "outside",
            "detail": f"guard bytes changed: {', '.join(outside)}",
        }
    return {"outcome": "ok", "detail": ""}


def _worker(conn: Connection, quiet: bool) -> None:
    if quiet:  # a crashing kernel's glibc message or a refused launch's warnings
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
    while True:
        case = conn.recv()
        if case is None:
            return
        conn.send(run_case(case))


# --------------------------------------------------------------------------------------
# The driver: a pool of worker processes, one case each at a time.
# --------------------------------------------------------------------------------------


class Pool:
    """`jobs` worker processes from a fork server that has imported mux (a fresh one
    costs a fork, not an interpreter start)."""

    def __init__(self, jobs: int, quiet: bool):
        # The fork server and its children import this checkout's mux, whatever
        # the environment has installed.
        paths = [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
        os.environ["PYTHONPATH"] = os.pathsep.join(paths)
        self.context = multiprocessing.get_context("forkserver")
        self.context.set_forkserver_preload(["numpy", "mux", "mux.api"])
        self.jobs = jobs
        self.quiet = quiet

    def start(self) -> tuple[Any, Connection]:
        parent, child = self.context.Pipe()
        process = self.context.Process(
            target=_worker, args=(child, self.quiet), daemon=True
        )
        process.start()
        child.close()
        return process, parent

    def run(
        self, cases: list[Case], timeout: float, report: Callable[[Case, dict], None]
    ) -> None:
        pending = list(reversed(cases))
        workers = [self.start() for _ in range(min(self.jobs, len(cases)))]
        busy: dict[Connection, tuple[Case, float, Any]] = {}

        def assign(process: Any, conn: Connection) -> None:
            if pending:
                case = pending.pop()
                try:
                    conn.send(case)
                except OSError:  # the worker died between cases: a fresh one
                    process.kill()
                    process, conn = self.start()
                    conn.send(case)
                busy[conn] = (case, time.monotonic() + timeout, process)
            else:
                conn.send(None)
                process.join(5)

        for process, conn in workers:
            assign(process, conn)
        while busy:
            deadline = min(d for _, d, _ in busy.values())
            ready = wait(list(busy), timeout=max(0.0, deadline - time.monotonic()))
            now = time.monotonic()
            for conn in list(busy):
                case, deadline, process = busy[conn]
                if conn in ready:
                    try:
                        result = conn.recv()
                    except (EOFError, OSError):
                        process.join(5)
                        code = process.exitcode
                        name = (
                            signal.Signals(-code).name
                            if code is not None and code < 0
                            else f"exit {code}"
                        )
                        result = {"outcome": "crash", "detail": name}
                elif now >= deadline:
                    process.kill()
                    process.join(5)
                    result = {"outcome": "timeout", "detail": f"over {timeout:g} s"}
                else:
                    continue
                del busy[conn]
                report(case, result)
                alive = result["outcome"] not in ("crash", "timeout")
                if alive and (
                    result["outcome"] in ("ok", "outside") and not case.holds
                ):
                    conn.send(None)  # it may have corrupted its memory: a fresh one
                    process.join(5)
                    alive = False
                if not alive:
                    conn.close()
                    if process.is_alive():
                        process.kill()
                        process.join(5)
                    process, conn = self.start()
                assign(process, conn)


def classify(case: Case, outcome: str) -> str:
    """The verdict on `outcome`: "failure", "unrefused" (an extent violation the
    runtime accepted: the bounds analysis's to refuse) or "" (as it should be)."""
    if outcome == "wrote":
        return "failure"
    if case.holds:
        return "" if outcome == "ok" else "failure"
    if outcome == "refused" or (case.tag == "unsure" and outcome == "ok"):
        return ""
    return "failure" if case.tag == "runtime" else "unrefused"


def fuzz(
    count: int, seed: int, jobs: int, timeout: float, quiet: bool = True
) -> list[dict[str, Any]]:
    """Draws and runs `count` cases: one record each (case, outcome, verdict)."""
    cases = [draw(seed, i) for i in range(count)]
    records: dict[int, dict[str, Any]] = {}

    def report(case: Case, result: dict[str, Any]) -> None:
        records[case.index] = {
            "index": case.index,
            "example": case.example,
            "case": case.describe(),
            "holds": case.holds,
            "tag": case.tag,
            "violations": [f"{t}: {v}" for t, v in case.violations],
            "outcome": result["outcome"],
            "detail": result["detail"],
            "verdict": classify(case, result["outcome"]),
        }

    Pool(jobs, quiet).run(cases, timeout, report)
    return [records[i] for i in sorted(records)]


def summary(records: list[dict[str, Any]], seed: int, shown: int = 5) -> str:
    lines = []
    width = max(len(e.name) for e in EXAMPLES)
    header = f"{'':{width + 12}}" + "".join(f"{o:>10}" for o in OUTCOMES)

    def row(label: str, rows: list[dict[str, Any]]) -> str:
        counts = Counter(r["outcome"] for r in rows)
        return f"{label:{width + 12}}" + "".join(f"{counts[o]:>10}" for o in OUTCOMES)

    lines.append(header)
    lines.append(row("preconditions hold", [r for r in records if r["holds"]]))
    lines.append(
        row("runtime violation", [r for r in records if r["tag"] == "runtime"])
    )
    lines.append(row("extent violation", [r for r in records if r["tag"] == "extent"]))
    lines.append(row("unsure (wraps)", [r for r in records if r["tag"] == "unsure"]))
    lines.append("by example:")
    for example in EXAMPLES:
        rows = [r for r in records if r["example"] == example.name]
        lines.append(row(f"  {example.name}", rows))
    failures = [r for r in records if r["verdict"] == "failure"]
    unrefused = [r for r in records if r["verdict"] == "unrefused"]
    lines.append(
        f"failures: {len(failures)} (preconditions hold but not ok, a runtime "
        "violation not refused, or a refused launch that wrote)"
    )
    lines.extend(_shown(failures[:shown], seed))
    lines.append(
        f"extent violations not refused: {len(unrefused)} "
        f"({Counter(r['outcome'] for r in unrefused).most_common()}): the bounds "
        "analysis's to refuse"
    )
    lines.extend(_shown(unrefused[:shown], seed))
    return "\n".join(lines)


def _shown(records: list[dict[str, Any]], seed: int) -> list[str]:
    """The lines of a summary that show `records`: how to run each again, its
    case and the preconditions it violates."""
    lines = []
    for r in records:
        lines.append(f"  --repro {seed}:{r['index']}  {r['outcome']} ({r['detail']})")
        lines.append(f"      {r['case']}")
        lines.extend(f"      violates {v}" for v in r["violations"])
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0] if __doc__ else None
    )
    parser.add_argument("--count", type=int, default=500, help="cases (default 500)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--timeout", type=float, default=30.0, help="seconds per case (default 30)"
    )
    parser.add_argument("--json", help="write every case's record to this file")
    parser.add_argument(
        "--strict",
        action="store_true",
        help="an extent violation not refused is a failure too",
    )
    parser.add_argument(
        "--repro", metavar="SEED:INDEX", help="run one case, with the worker's stderr"
    )
    options = parser.parse_args(argv)
    if options.repro:
        seed, _, index = options.repro.partition(":")
        case = draw(int(seed), int(index))
        print(case.describe())
        for tag, text in case.violations:
            print(f"  violates ({tag}) {text}")
        (record,) = fuzz_cases([case], options.timeout)
        print(f"{record['outcome']}: {record['detail']}")
        return 1 if record["verdict"] == "failure" else 0
    start = time.monotonic()
    records = fuzz(options.count, options.seed, options.jobs, options.timeout)
    print(
        f"launch fuzzer: {options.count} cases, seed {options.seed}, "
        f"{options.jobs} jobs, {time.monotonic() - start:.1f} s"
    )
    print(summary(records, options.seed))
    if options.json:
        Path(options.json).write_text(json.dumps(records, indent=1))
    bad = {"failure", "unrefused"} if options.strict else {"failure"}
    return 1 if any(r["verdict"] in bad for r in records) else 0


def fuzz_cases(cases: list[Case], timeout: float) -> list[dict[str, Any]]:
    """Runs `cases` on one worker whose stderr shows (for --repro)."""
    results: list[dict[str, Any]] = []

    def report(case: Case, result: dict[str, Any]) -> None:
        results.append({**result, "verdict": classify(case, result["outcome"])})

    Pool(1, quiet=False).run(cases, timeout, report)
    return results


if __name__ == "__main__":
    sys.exit(main())
