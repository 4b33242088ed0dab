"""The benchmark suite of issue #5: mux kernels against C, PoCL and numpy.

    python scripts/bench.py                       # the whole suite, full sizes
    python scripts/bench.py --quick               # tiny sizes, 3 repetitions
    python scripts/bench.py --only vadd,sgemm_tiled --reps 20 --threads 2
    python scripts/bench.py --json bench.json --png bench.png

Every kernel of the suite (`SUITE`) is an `examples/` kernel, run through `mux` on
the same data as
  (a) numpy,
  (b) a C version (`scripts/bench_c/*.c`, plain loops with `#pragma omp`), compiled
      here with `gcc -O3 -march=native -fopenmp -shared -fPIC` into a temporary
      directory and called through ctypes,
  (c) PoCL through pyopencl, with OpenCL C versions of the same kernels
      (`examples/*.cl`, the OpenCL C twins of the examples), when pyopencl and
      PoCL are installed (`pip install pyopencl pocl-binary-distribution`: PoCL's
      wheel, no system package),
  (d) mux again, on the OpenCL C twin (`examples/<name>.cl`, the source PoCL builds,
      with the build options its `// Build options:` header line states): the
      column "mux from CL"; "mux" is the kernel compiled from MLIR.
Each implementation runs once untimed (mux compiles then) and its result is checked
against a numpy reference; then repetitions are interleaved, round-robin over the
implementations (rep r starts with implementation r mod n, so none always runs right
after the same other one), and the table gives medians with min and max, and the
ratios mux/C, mux/PoCL, mux/numpy, and CL/MLIR (the kernel from OpenCL C over the
same from MLIR: what the front-end costs) and CL/PoCL (the same source). A failed
check or an exception marks its cell and the run goes on. The results are checked
once more after the timed runs.

Compile latency, on a small launch with the benchmark's local size (so that the same
specialised variant is compiled): mux "cold" is source text to first result with the
compile caches cleared (`mux.compiler._CACHE`, `_PARSED`, `_LOWERED` and `_CHECKED`,
`mux.backend.jit`, and the disk cache, which is a directory of this run's own) in
this already warm process (parse and `mux.compile`'s check, then compile, then
launch), "cached" is a new `mux.load` of the same source
and its first launch with the caches warm, "disk" the same with only the disk cache
warm (what a new process sees), "relaunch" a second launch of the same kernel;
PoCL's is its program build plus its first launch (the work-group function is
compiled then), with PoCL's kernel cache off
(`POCL_KERNEL_CACHE=0`) and pyopencl's too, after one build to warm the process.
The cold compilations of mux and PoCL alternate (`--latency-reps` of each), and
their medians are reported.

Thread pools that busy-wait after a parallel section (OpenBLAS, libgomp) would take a
core from whatever runs next on a 2-core machine, so the script sets
`OPENBLAS_THREAD_TIMEOUT=4` and `OMP_WAIT_POLICY=passive` unless they are set, and
`OPENBLAS_NUM_THREADS` for `--threads`; OpenBLAS reads them when numpy is imported, so
the script re-executes itself once with them.

The timings are information: nothing here asserts on them.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
C_DIR = Path(__file__).resolve().parent / "bench_c"
CL_DIR = Path(__file__).resolve().parent.parent / "examples"

IMPLS = ("mux", "cl", "c", "pocl", "numpy")
LABELS = {
    "mux": "mux",
    "cl": "mux from CL",
    "c": "C",
    "pocl": "PoCL",
    "numpy": "numpy",
}
RATIOS = ("mux/c", "mux/pocl", "mux/numpy", "cl/mux", "cl/pocl")
"""Time of the implementation before the slash over the other's. `mux` is the
kernel compiled from MLIR, `cl` the same kernel compiled from its OpenCL C twin:
cl/mux is what the OpenCL C front-end costs, cl/pocl the same source against PoCL."""
RATIO_LABELS = {
    "mux/c": "mux/C",
    "mux/pocl": "mux/PoCL",
    "mux/numpy": "mux/numpy",
    "cl/mux": "CL/MLIR",
    "cl/pocl": "CL/PoCL",
}

INSTALL_POCL = (
    "pip install pyopencl pocl-binary-distribution (or: pip install -e '.[bench]')"
)
INSTALL_MATPLOTLIB = "pip install matplotlib (or: pip install -e '.[bench]')"

# --------------------------------------------------------------------------------------
# The problems: data, launch, reference, and each implementation's call.
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Local:
    """A local-memory kernel argument of `nbytes` per work-group: `mux.LocalBuffer`
    for mux, `pyopencl.LocalMemory` for PoCL."""

    nbytes: int


@dataclass
class Problem:
    """One kernel of the suite at one size.

    `name` is the kernel's name in `examples/<name>.mlir` and its OpenCL C twin
    `examples/<name>.cl`, whose kernels take the same arguments:
    `kernel_args(inputs, output)` gives them, with buffers in place of the arrays for
    PoCL. `c_args` gives the arguments of C function `c_function` (arrays become
    pointers), `numpy` computes the result into `output` with numpy.
    """

    name: str
    title: str
    size: str
    global_size: tuple[int, ...]
    local_size: tuple[int, ...]
    inputs: list[np.ndarray]
    output: np.ndarray
    """The initial content of the output buffer (NaN or -1 where the kernel writes,
    so that a missing write shows; the data itself for an in-place kernel)."""
    expected: np.ndarray
    rtol: float
    """Relative tolerance of the check; 0: exact."""
    kernel_args: Callable[[list[Any], Any], tuple[Any, ...]]
    c_function: str
    c_argtypes: tuple[Any, ...]
    c_args: Callable[[list[np.ndarray], np.ndarray], tuple[Any, ...]]
    numpy: Callable[[list[np.ndarray], np.ndarray], None]
    work: float
    """Bytes moved (at least) or floating-point operations of one run."""
    unit: str
    """GB/s or GFLOP/s: what `work` per second is."""
    reset_output: bool = False
    """In place: the output is restored from `output` before every run (untimed)."""


P, F32, I64 = ctypes.c_void_p, ctypes.c_float, ctypes.c_int64


def _floats(rng: np.random.Generator, n: int) -> np.ndarray:
    return rng.random(n, np.float32)


def _pow2(n: int) -> str:
    return f"2^{n.bit_length() - 1}" if n & (n - 1) == 0 else str(n)


def vadd_problem(n: int) -> Problem:
    rng = np.random.default_rng(1)
    a, b = _floats(rng, n), _floats(rng, n)
    return Problem(
        name="vadd",
        title="vadd f32",
        size=_pow2(n),
        global_size=(n,),
        local_size=(min(n, 256),),
        inputs=[a, b],
        output=np.full(n, np.nan, np.float32),
        expected=a + b,
        rtol=0.0,
        kernel_args=lambda i, out: (i[0], i[1], out),
        c_function="vadd",
        c_argtypes=(P, P, P, I64),
        c_args=lambda i, out: (i[0], i[1], out, n),
        numpy=lambda i, out: np.add(i[0], i[1], out=out),
        work=3 * 4 * n,
        unit="GB/s",
    )


def saxpy_problem(n: int) -> Problem:
    rng = np.random.default_rng(2)
    x, y = _floats(rng, n), _floats(rng, n)
    alpha = np.float32(2.5)

    def numpy_saxpy(i: list[np.ndarray], out: np.ndarray) -> None:
        out += alpha * i[0]

    return Problem(
        name="saxpy",
        title="saxpy f32",
        size=_pow2(n),
        global_size=(n,),
        local_size=(min(n, 256),),
        inputs=[x],
        output=y,
        # gcc and PoCL may fuse the multiply and the add (one rounding instead of two)
        expected=float(alpha) * x.astype(np.float64) + y,
        rtol=1e-6,
        kernel_args=lambda i, out: (alpha, i[0], out),
        c_function="saxpy",
        c_argtypes=(F32, P, P, I64),
        c_args=lambda i, out: (alpha, i[0], out, n),
        numpy=numpy_saxpy,
        work=3 * 4 * n,
        unit="GB/s",
        reset_output=True,
    )


def reduce_problem(n: int) -> Problem:
    group = 256
    x = _floats(np.random.default_rng(3), n)
    return Problem(
        name="reduce",
        title="reduce f32, local tree",
        size=f"{_pow2(n)}, wg {group}",
        global_size=(n,),
        local_size=(group,),
        inputs=[x],
        output=np.full(n // group, np.nan, np.float32),
        expected=x.astype(np.float64).reshape(-1, group).sum(axis=1),
        # 256 positive terms added in different orders: within 256 * 6e-8 = 1.5e-5
        rtol=1e-4,
        kernel_args=lambda i, out: (i[0], out, Local(4 * group)),
        c_function="reduce",
        c_argtypes=(P, P, I64, I64),
        c_args=lambda i, out: (i[0], out, n, group),
        numpy=lambda i, out: np.sum(i[0].reshape(-1, group), axis=1, out=out),
        work=4 * n + 4 * (n // group),
        unit="GB/s",
    )


def _sgemm_problem(n: int, name: str, title: str) -> Problem:
    rng = np.random.default_rng(4)
    a, b = _floats(rng, n * n), _floats(rng, n * n)
    expected = a.reshape(n, n).astype(np.float64) @ b.reshape(n, n).astype(np.float64)

    def numpy_sgemm(i: list[np.ndarray], out: np.ndarray) -> None:
        np.matmul(i[0].reshape(n, n), i[1].reshape(n, n), out=out.reshape(n, n))

    return Problem(
        name=name,
        title=title,
        size=f"{n}^3",
        global_size=(n, n),
        local_size=(min(n, 16), min(n, 16)),
        inputs=[a, b],
        output=np.full(n * n, np.nan, np.float32),
        expected=expected.ravel(),
        # n positive products added in different orders: within n * 6e-8
        rtol=1e-4,
        kernel_args=lambda i, out: (i[0], i[1], out, np.uint64(n)),
        c_function="sgemm",
        c_argtypes=(P, P, P, I64),
        c_args=lambda i, out: (i[0], i[1], out, n),
        numpy=numpy_sgemm,
        work=2.0 * n**3,
        unit="GFLOP/s",
    )


def sgemm_tiled_problem(n: int) -> Problem:
    return _sgemm_problem(n, "sgemm_tiled", "sgemm f32, local tiles")


def sgemm_naive_problem(n: int) -> Problem:
    return _sgemm_problem(n, "sgemm_naive", "sgemm f32, naive")


def scan_problem(n: int) -> Problem:
    group = 256
    x = np.random.default_rng(5).integers(-1000, 1000, n).astype(np.int32)

    def numpy_scan(i: list[np.ndarray], out: np.ndarray) -> None:
        np.cumsum(
            i[0].reshape(-1, group), axis=1, dtype=np.int32, out=out.reshape(-1, group)
        )

    return Problem(
        name="scan",
        title="scan i32 per group",
        size=f"{_pow2(n)}, wg {group}",
        global_size=(n,),
        local_size=(group,),
        inputs=[x],
        output=np.full(n, -1, np.int32),
        expected=np.cumsum(x.reshape(-1, group), axis=1, dtype=np.int64).ravel(),
        rtol=0.0,
        kernel_args=lambda i, out: (i[0], out),
        c_function="scan",
        c_argtypes=(P, P, I64, I64),
        c_args=lambda i, out: (i[0], out, n, group),
        numpy=numpy_scan,
        work=2 * 4 * n,
        unit="GB/s",
    )


def _stencil_numpy(image: np.ndarray, out: np.ndarray) -> None:
    """The kernel's sum, in its order, over the image padded with its edge pixels."""
    p = np.pad(image, 1, mode="edge")
    np.add(p[:-2, 1:-1], p[1:-1, :-2], out=out)  # up + left
    out += p[1:-1, 1:-1]  # + center
    out += p[1:-1, 2:]  # + right
    out += p[2:, 1:-1]  # + down
    out *= np.float32(0.2)


def stencil2d_problem(side: int) -> Problem:
    width = height = side
    image = _floats(np.random.default_rng(6), width * height)
    expected = np.empty((height, width), np.float32)
    _stencil_numpy(image.reshape(height, width), expected)
    return Problem(
        name="stencil2d",
        title="stencil2d f32, 5-point",
        size=f"{side}^2, wg 16x16",
        global_size=(width, height),
        local_size=(16, 16),
        inputs=[image],
        output=np.full(width * height, np.nan, np.float32),
        expected=expected.ravel(),
        rtol=1e-6,
        kernel_args=lambda i, out: (i[0], out, np.uint64(width), np.uint64(height)),
        c_function="stencil2d",
        c_argtypes=(P, P, I64, I64),
        c_args=lambda i, out: (i[0], out, width, height),
        numpy=lambda i, out: _stencil_numpy(
            i[0].reshape(height, width), out.reshape(height, width)
        ),
        work=2 * 4 * width * height,
        unit="GB/s",
    )


def transpose_problem(side: int) -> Problem:
    width = height = side
    image = _floats(np.random.default_rng(7), width * height)

    def numpy_transpose(i: list[np.ndarray], out: np.ndarray) -> None:
        np.copyto(out.reshape(width, height), i[0].reshape(height, width).T)

    return Problem(
        name="transpose",
        title="transpose f32, local tile",
        size=f"{side}^2",
        global_size=(width, height),
        local_size=(16, 16),
        inputs=[image],
        output=np.full(width * height, np.nan, np.float32),
        expected=image.reshape(height, width).T.ravel(),
        rtol=0.0,
        kernel_args=lambda i, out: (i[0], out, np.uint64(width), np.uint64(height)),
        c_function="transpose",
        c_argtypes=(P, P, I64, I64),
        c_args=lambda i, out: (i[0], out, width, height),
        numpy=numpy_transpose,
        work=2 * 4 * width * height,
        unit="GB/s",
    )


@dataclass(frozen=True)
class Spec:
    """A kernel of the suite: its problem builder and three sizes."""

    build: Callable[[int], Problem]
    full: int
    quick: int
    latency: int
    """The size of the compile-latency launch: a few work-groups of the benchmark's
    local size, all full (the same specialised variant)."""


SUITE: dict[str, Spec] = {
    "vadd": Spec(vadd_problem, 1 << 24, 1 << 14, 1024),
    "saxpy": Spec(saxpy_problem, 1 << 24, 1 << 14, 1024),
    "reduce": Spec(reduce_problem, 1 << 24, 1 << 14, 1024),
    "sgemm_tiled": Spec(sgemm_tiled_problem, 1024, 64, 32),
    "sgemm_naive": Spec(sgemm_naive_problem, 1024, 64, 32),
    "scan": Spec(scan_problem, 1 << 22, 1 << 14, 1024),
    "stencil2d": Spec(stencil2d_problem, 4096, 128, 32),
    "transpose": Spec(transpose_problem, 4096, 128, 32),
}


# --------------------------------------------------------------------------------------
# Checking a result.
# --------------------------------------------------------------------------------------


def check(result: np.ndarray, expected: np.ndarray, rtol: float) -> tuple[bool, str]:
    """(passed, a short description) of `result` against `expected`."""
    if result.shape != expected.shape:
        return False, f"shape {result.shape}, expected {expected.shape}"
    got = result.astype(np.float64)
    want = expected.astype(np.float64)
    # with a tolerance, NaN is bad too: a comparison with NaN is false
    bad = (got != want) if rtol == 0 else ~(np.abs(got - want) <= rtol * np.abs(want))
    if not bad.any():
        if rtol == 0:
            return True, "exact"
        scale = np.maximum(np.abs(want), np.finfo(np.float64).tiny)
        return True, f"max rel err {float(np.max(np.abs(got - want) / scale)):.1e}"
    first = int(np.argmax(bad))
    return False, (
        f"{int(bad.sum())} of {bad.size} elements wrong, first at {first}: "
        f"{result[first]!r}, expected {expected[first]!r}"
    )


# --------------------------------------------------------------------------------------
# Implementations: set up once (untimed), prepare (untimed), run (timed), result.
# --------------------------------------------------------------------------------------


class Impl:
    name = ""

    def setup(self, problem: Problem) -> None:
        raise NotImplementedError

    def prepare(self) -> None:
        """Untimed, before every run: restores an in-place output."""

    def run(self) -> None:
        raise NotImplementedError

    def result(self) -> np.ndarray:
        raise NotImplementedError


class HostImpl(Impl):
    """An implementation writing a numpy array of its own."""

    def setup(self, problem: Problem) -> None:
        self.problem = problem
        self.out = problem.output.copy()

    def prepare(self) -> None:
        if self.problem.reset_output:
            np.copyto(self.out, self.problem.output)

    def result(self) -> np.ndarray:
        return self.out


class MuxImpl(HostImpl):
    """The kernel compiled by mux from examples/<name>.mlir."""

    name = "mux"

    def __init__(self, threads: int):
        self.threads = threads

    def load(self, problem: Problem) -> Any:
        import mux

        return mux.load(EXAMPLES / f"{problem.name}.mlir")

    def setup(self, problem: Problem) -> None:
        super().setup(problem)
        self.kernel = self.load(problem).kernel(problem.name)
        self.args = mux_args(problem, problem.inputs, self.out)

    def run(self) -> None:
        self.kernel(
            *self.args,
            global_size=self.problem.global_size,
            local_size=self.problem.local_size,
            threads=self.threads,
        )


class MuxClImpl(MuxImpl):
    """The same kernel compiled by mux from its OpenCL C twin, examples/<name>.cl
    (the source PoCL builds), with the build options its header states."""

    name = "cl"

    def load(self, problem: Problem) -> Any:
        import mux

        path = CL_DIR / f"{problem.name}.cl"
        return mux.load(path, build_options=twin_build_options(path))


def twin_build_options(path: Path) -> str:
    from mux.frontend.build_options import stated_build_options

    return " ".join(stated_build_options(path.read_text()))


def mux_args(problem: Problem, inputs: list[np.ndarray], out: np.ndarray) -> tuple:
    import mux

    return tuple(
        mux.LocalBuffer(a.nbytes) if isinstance(a, Local) else a
        for a in problem.kernel_args(inputs, out)
    )


class NumpyImpl(HostImpl):
    name = "numpy"

    def run(self) -> None:
        self.problem.numpy(self.problem.inputs, self.out)


class CImpl(HostImpl):
    name = "c"

    def __init__(self, library: ctypes.CDLL):
        self.library = library

    def setup(self, problem: Problem) -> None:
        super().setup(problem)
        self.function = getattr(self.library, problem.c_function)
        self.function.argtypes = problem.c_argtypes
        self.function.restype = None
        self.args = tuple(
            a.ctypes.data if isinstance(a, np.ndarray) else a
            for a in problem.c_args(problem.inputs, self.out)
        )

    def run(self) -> None:
        self.function(*self.args)


class PoclImpl(Impl):
    name = "pocl"

    def __init__(self, pocl: Pocl):
        self.pocl = pocl

    def setup(self, problem: Problem) -> None:
        cl = self.pocl.cl
        self.problem = problem
        self.out = problem.output.copy()
        flags = cl.mem_flags
        ctx = self.pocl.context
        # OpenCL kernel arguments do not retain their buffers: keep them here
        self.inputs = [
            cl.Buffer(ctx, flags.READ_ONLY | flags.COPY_HOST_PTR, hostbuf=a)
            for a in problem.inputs
        ]
        self.out_buffer = cl.Buffer(
            ctx, flags.READ_WRITE | flags.COPY_HOST_PTR, hostbuf=self.out
        )
        program = self.pocl.build(problem.name)
        self.kernel = cl.Kernel(program, problem.name)
        self.kernel.set_args(*self.pocl.args(problem, self.inputs, self.out_buffer))

    def prepare(self) -> None:
        if self.problem.reset_output:
            cl = self.pocl.cl
            cl.enqueue_copy(self.pocl.queue, self.out_buffer, self.problem.output)
            self.pocl.queue.finish()

    def run(self) -> None:
        problem = self.problem
        self.pocl.cl.enqueue_nd_range_kernel(
            self.pocl.queue, self.kernel, problem.global_size, problem.local_size
        )
        self.pocl.queue.finish()

    def result(self) -> np.ndarray:
        self.pocl.cl.enqueue_copy(self.pocl.queue, self.out, self.out_buffer)
        self.pocl.queue.finish()
        return self.out


class Pocl:
    """PoCL's CPU device through pyopencl: a context, a queue, program builds."""

    def __init__(self, cl: Any, platform_: Any):
        self.cl = cl
        self.platform = platform_
        self.device = platform_.get_devices()[0]
        self.context = cl.Context([self.device])
        self.queue = cl.CommandQueue(self.context)

    @property
    def version(self) -> str:
        return f"{self.platform.version} ({self.device.name})"

    def build(self, name: str) -> Any:
        path = CL_DIR / f"{name}.cl"
        program = self.cl.Program(self.context, path.read_text())
        return program.build(options=twin_build_options(path))

    def args(self, problem: Problem, inputs: list[Any], out: Any) -> tuple:
        return tuple(
            self.cl.LocalMemory(a.nbytes) if isinstance(a, Local) else a
            for a in problem.kernel_args(inputs, out)
        )


def find_pocl() -> tuple[Pocl | None, str]:
    """PoCL, or None and why not (with how to install it)."""
    try:
        import pyopencl as cl
    except ImportError:
        return None, f"pyopencl is not installed: {INSTALL_POCL}"
    try:
        platforms = cl.get_platforms()
    except Exception as error:  # no ICD at all: pyopencl raises a LogicError
        return None, f"no OpenCL platform ({error}): {INSTALL_POCL}"
    for candidate in platforms:
        if "portable computing language" in candidate.name.lower():
            return Pocl(cl, candidate), ""
    names = ", ".join(p.name for p in platforms) or "none"
    return None, f"no PoCL platform (platforms: {names}): {INSTALL_POCL}"


def build_c_library(directory: Path) -> tuple[ctypes.CDLL | None, str, str]:
    """The C versions compiled into one shared library: (library, gcc version,
    why not)."""
    gcc = shutil.which("gcc")
    if gcc is None:
        return None, "", "gcc not found: the C column is skipped"
    version = subprocess.run(
        [gcc, "--version"], capture_output=True, text=True, check=False
    ).stdout.splitlines()[0]
    library = directory / "bench_c.so"
    command = [
        gcc,
        "-O3",
        "-march=native",
        "-fopenmp",
        "-shared",
        "-fPIC",
        *sorted(str(p) for p in C_DIR.glob("*.c")),
        "-o",
        str(library),
    ]
    compiled = subprocess.run(command, capture_output=True, text=True, check=False)
    if compiled.returncode != 0:
        return None, version, f"gcc failed: {compiled.stderr.strip()}"
    return ctypes.CDLL(str(library)), version, ""


# --------------------------------------------------------------------------------------
# Timing.
# --------------------------------------------------------------------------------------


@dataclass
class ImplResult:
    status: str = "missing"
    """ok, fail (a check failed), error (an exception), missing (not available)."""
    check: str = ""
    """pass or fail: the check after the first run, and after the timed ones."""
    detail: str = ""
    times: list[float] = field(default_factory=list)

    def summary(self, work: float) -> dict[str, Any]:
        out: dict[str, Any] = {
            "status": self.status,
            "check": self.check,
            "detail": self.detail,
        }
        if self.times:
            median = statistics.median(self.times)
            out |= {
                "median_s": median,
                "min_s": min(self.times),
                "max_s": max(self.times),
                "times_s": self.times,
                "rate": work / median / 1e9,
            }
        return out


def _error(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}".splitlines()[0][:300]


def _check_impl(impl: Impl, problem: Problem, result: ImplResult) -> None:
    passed, detail = check(impl.result(), problem.expected, problem.rtol)
    if not passed:
        result.status, result.check, result.detail = "fail", "fail", detail
    elif result.check != "fail":
        result.status, result.check, result.detail = "ok", "pass", detail


def time_problem(
    problem: Problem,
    impls: Sequence[Impl],
    reps: int,
    budget: float | None,
) -> tuple[dict[str, ImplResult], int]:
    """Runs every implementation once and checks it, then `reps` interleaved timed
    rounds (fewer, but at least 3, when `budget` seconds would be exceeded). Returns
    the results and the number of rounds."""
    results = {impl.name: ImplResult() for impl in impls}
    active: list[Impl] = []
    for impl in impls:
        result = results[impl.name]
        try:
            impl.setup(problem)
            impl.prepare()
            impl.run()
            _check_impl(impl, problem, result)
            active.append(impl)
        except Exception as error:
            result.status, result.detail = "error", _error(error)
    rounds = reps
    done = 0
    gc.collect()
    gc.disable()
    try:
        while done < rounds and active:
            start = done % len(active)
            elapsed = 0.0
            for impl in active[start:] + active[:start]:
                result = results[impl.name]
                try:
                    impl.prepare()
                    t0 = time.perf_counter()
                    impl.run()
                    t1 = time.perf_counter()
                except Exception as error:
                    result.status, result.detail = "error", _error(error)
                    active.remove(impl)
                    continue
                result.times.append(t1 - t0)
                elapsed += t1 - t0
            if done == 0 and budget is not None and elapsed > 0:
                rounds = max(min(3, reps), min(reps, int(budget / elapsed)))
            done += 1
    finally:
        gc.enable()
    for impl in active:
        try:
            _check_impl(impl, problem, results[impl.name])
        except Exception as error:
            results[impl.name].status = "error"
            results[impl.name].detail = _error(error)
    return results, done


# --------------------------------------------------------------------------------------
# Compile latency.
# --------------------------------------------------------------------------------------


def _empty_disk_cache() -> None:
    """Empties the disk cache of compiled kernels, which `main` points at a
    directory of this run."""
    from mux import disk_cache

    directory = disk_cache.cache_dir()
    if directory is not None and directory.is_dir():
        for entry in directory.iterdir():
            entry.unlink()


def mux_latency(problem: Problem, reps: int, threads: int) -> dict[str, Any]:
    """Source to first result, cold and cached, and a relaunch (see the module
    docstring); medians over `reps` cold compilations."""
    import mux
    import mux.compiler
    from mux.backend import jit

    path = EXAMPLES / f"{problem.name}.mlir"
    launch = {
        "global_size": problem.global_size,
        "local_size": problem.local_size,
        "threads": threads,
    }
    parse, compile_, first, cold, cached, relaunch = [], [], [], [], [], []
    from_disk: list[float] = []
    passed = True

    def forget_in_memory() -> None:
        mux.compiler._CACHE.clear()
        mux.compiler._PARSED.clear()
        mux.compiler._LOWERED.clear()
        mux.compiler._CHECKED.clear()
        jit.clear_cache()

    for _ in range(reps):
        forget_in_memory()
        _empty_disk_cache()
        out = problem.output.copy()
        args = mux_args(problem, problem.inputs, out)
        t0 = time.perf_counter()
        kernel = mux.load(path).kernel(problem.name)
        t1 = time.perf_counter()
        kernel.compiled(problem.local_size)  # the variant of a launch of full groups
        t2 = time.perf_counter()
        kernel(*args, **launch)
        t3 = time.perf_counter()
        passed = passed and check(out, problem.expected, problem.rtol)[0]
        parse.append(t1 - t0)
        compile_.append(t2 - t1)
        first.append(t3 - t2)
        cold.append(t3 - t0)
        # cached: a new Program of the same source finds the compiled kernel
        out = problem.output.copy()
        args = mux_args(problem, problem.inputs, out)
        t0 = time.perf_counter()
        kernel = mux.load(path).kernel(problem.name)
        kernel(*args, **launch)
        t1 = time.perf_counter()
        kernel(*args, **launch)
        t2 = time.perf_counter()
        cached.append(t1 - t0)
        relaunch.append(t2 - t1)
        # disk: as a new process would, with the kernel in the disk cache only
        forget_in_memory()
        out = problem.output.copy()
        args = mux_args(problem, problem.inputs, out)
        t0 = time.perf_counter()
        kernel = mux.load(path).kernel(problem.name)
        kernel(*args, **launch)
        from_disk.append(time.perf_counter() - t0)
        passed = passed and check(out, problem.expected, problem.rtol)[0]
    median = statistics.median
    return {
        "cold_s": median(cold),
        "parse_s": median(parse),
        "compile_s": median(compile_),
        "first_launch_s": median(first),
        "cached_s": median(cached),
        "disk_s": median(from_disk),
        "relaunch_s": median(relaunch),
        "check": "pass" if passed else "fail",
    }


def pocl_latency(pocl: Pocl, problem: Problem, reps: int) -> dict[str, Any]:
    """PoCL's program build and first launch (its work-group function is compiled
    then), and a relaunch; medians over `reps`."""
    cl = pocl.cl
    flags = cl.mem_flags
    builds, firsts, relaunches = [], [], []
    for _ in range(reps):
        out = problem.output.copy()
        inputs = [
            cl.Buffer(pocl.context, flags.READ_ONLY | flags.COPY_HOST_PTR, hostbuf=a)
            for a in problem.inputs
        ]
        out_buffer = cl.Buffer(
            pocl.context, flags.READ_WRITE | flags.COPY_HOST_PTR, hostbuf=out
        )
        t0 = time.perf_counter()
        program = pocl.build(problem.name)
        t1 = time.perf_counter()
        kernel = cl.Kernel(program, problem.name)
        kernel.set_args(*pocl.args(problem, inputs, out_buffer))
        cl.enqueue_nd_range_kernel(
            pocl.queue, kernel, problem.global_size, problem.local_size
        )
        pocl.queue.finish()
        t2 = time.perf_counter()
        cl.enqueue_nd_range_kernel(
            pocl.queue, kernel, problem.global_size, problem.local_size
        )
        pocl.queue.finish()
        t3 = time.perf_counter()
        builds.append(t1 - t0)
        firsts.append(t2 - t1)
        relaunches.append(t3 - t2)
    build, first = statistics.median(builds), statistics.median(firsts)
    return {
        "build_s": build,
        "first_launch_s": first,
        "total_s": statistics.median(
            b + f for b, f in zip(builds, firsts, strict=True)
        ),
        "relaunch_s": statistics.median(relaunches),
    }


def interleaved_latency(
    problem: Problem, pocl: Pocl | None, reps: int, threads: int
) -> dict[str, Any]:
    """`mux_latency` and `pocl_latency` one compilation each in turn, `reps` times,
    so that a slow spell of the machine hits both; their medians (a failed check
    fails the whole). An exception of one stops its side and keeps its error."""
    samples: dict[str, list[dict[str, Any]]] = {"mux": [], "pocl": []}
    errors: dict[str, dict[str, str]] = {}
    sides = {"mux": lambda: mux_latency(problem, 1, threads)}
    if pocl is not None:
        sides["pocl"] = lambda: pocl_latency(pocl, problem, 1)
    for _ in range(reps):
        for side, measure in sides.items():
            if side in errors:
                continue
            try:
                samples[side].append(measure())
            except Exception as error:
                errors[side] = {"error": _error(error)}
    latency: dict[str, Any] = {}
    for side in sides:
        if side in errors:
            latency[side] = errors[side]
            continue
        runs = samples[side]
        latency[side] = {
            key: statistics.median(run[key] for run in runs)
            for key in runs[0]
            if key != "check"
        }
        if side == "mux":
            passed = all(run["check"] == "pass" for run in runs)
            latency[side]["check"] = "pass" if passed else "fail"
    return latency


# --------------------------------------------------------------------------------------
# Report: table, JSON, chart.
# --------------------------------------------------------------------------------------


def _ms(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    ms = seconds * 1e3
    return f"{ms:.3g}" if ms < 1000 else f"{ms:.0f}"


def _time_cell(impl: dict[str, Any]) -> str:
    status = impl["status"]
    if status == "missing":
        return "-"
    if "median_s" not in impl:
        return status.upper()
    cell = f"{_ms(impl['median_s'])} [{_ms(impl['min_s'])}-{_ms(impl['max_s'])}]"
    return cell if status == "ok" else f"{cell} {status.upper()}"


def _ratio_cell(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [
        max(len(h), *(len(r[i]) for r in rows)) if rows else len(h)
        for i, h in enumerate(header)
    ]

    def line(cells: Sequence[str]) -> str:
        return (
            "| "
            + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True))
            + " |"
        )

    return "\n".join(
        [line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)]
    )


def geomean(values: Sequence[float]) -> float | None:
    return math.exp(statistics.fmean(map(math.log, values))) if values else None


def ratios(impls: dict[str, dict[str, Any]]) -> dict[str, float | None]:
    """For each of `RATIOS`, one implementation's time over the other's, when both
    ran and passed their checks."""
    out: dict[str, float | None] = {}
    for key in RATIOS:
        one, other = (impls[name] for name in key.split("/"))
        ok = one["status"] == "ok" and other["status"] == "ok"
        out[key] = one["median_s"] / other["median_s"] if ok else None
    return out


def print_report(report: dict[str, Any]) -> None:
    rows = []
    for k in report["kernels"]:
        impls = k["impls"]
        mux_ = impls["mux"]
        rate = f"{mux_['rate']:.3g} {k['unit']}" if "rate" in mux_ else "-"
        c_rate = (
            f"{impls['c']['rate']:.3g} {k['unit']}" if "rate" in impls["c"] else "-"
        )
        rows.append(
            [
                k["title"],
                k["size"],
                *(_time_cell(impls[name]) for name in IMPLS),
                *(_ratio_cell(k["ratios"][r]) for r in RATIOS),
                rate,
                c_rate,
                str(k["reps"]),
            ]
        )
    header = [
        "kernel",
        "size",
        *(f"{LABELS[name]} ms" for name in IMPLS),
        *(RATIO_LABELS[r] for r in RATIOS),
        "mux rate",
        "C rate",
        "reps",
    ]
    print("Run time: median [min-max] in ms, interleaved repetitions.\n")
    print(markdown_table(header, rows))
    means = report["geomean"]
    print(
        "\ngeometric mean over the suite: "
        + ", ".join(
            f"{RATIO_LABELS[r]} = {_ratio_cell(means[r]['value'])} "
            f"({means[r]['kernels']} kernels)"
            for r in RATIOS
        )
    )
    problems = [
        f"  {k['name']} / {LABELS[name]}: {impl['status']}: {impl['detail']}"
        for k in report["kernels"]
        for name, impl in k["impls"].items()
        if impl["status"] in ("fail", "error")
    ]
    if problems:
        print("\nFailures (the rows are marked FAIL or ERROR):")
        print("\n".join(problems))

    latency_rows = []
    for k in report["kernels"]:
        lat = k.get("compile")
        if not lat:
            continue
        m, p = lat.get("mux", {}), lat.get("pocl", {})
        mux_cold = (
            f"{_ms(m['cold_s'])} ({_ms(m['parse_s'])} + {_ms(m['compile_s'])} + "
            f"{_ms(m['first_launch_s'])})"
            if "cold_s" in m
            else m.get("error", "-")
        )
        pocl_cells = (
            [
                f"{_ms(p['total_s'])} ({_ms(p['build_s'])} + "
                f"{_ms(p['first_launch_s'])})",
                _ms(p["relaunch_s"]),
            ]
            if "total_s" in p
            else [p.get("error", "-"), "-"]
        )
        latency_rows.append(
            [
                k["name"],
                mux_cold,
                _ms(m.get("cached_s")),
                _ms(m.get("disk_s")),
                _ms(m.get("relaunch_s")),
                *pocl_cells,
            ]
        )
    if latency_rows:
        print(
            "\nCompile latency in ms, source to first result on a small launch of the "
            "same local size:\nmux cold = parse + compile + first launch with the "
            "caches cleared; cached = new\nmux.load + first launch, caches warm; "
            "disk = the same with the kernel in the disk cache only\n(as in a new "
            "process); PoCL = build + first launch, kernel cache off.\n"
        )
        print(
            markdown_table(
                [
                    "kernel",
                    "mux cold",
                    "mux cached",
                    "mux disk",
                    "mux relaunch",
                    "PoCL cold",
                    "PoCL relaunch",
                ],
                latency_rows,
            )
        )
    for note in report["notes"]:
        print(f"\nnote: {note}")


def _bar_label(value: float) -> str:
    return f"{value:.2f}" if value < 10 else f"{value:.0f}"


def write_png(report: dict[str, Any], path: Path) -> str | None:
    """A bar chart of the ratios; the reason when it cannot be drawn."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return f"matplotlib is not installed, no chart: {INSTALL_MATPLOTLIB}"
    kernels = report["kernels"]
    names = [k["name"] for k in kernels]
    fig, ax = plt.subplots(figsize=(max(6.0, 1.3 * len(names) + 2), 4.8))
    width = 0.8 / len(RATIOS)
    for index, key in enumerate(RATIOS):
        values = [k["ratios"][key] for k in kernels]
        xs = [i + (index - (len(RATIOS) - 1) / 2) * width for i in range(len(names))]
        bars = ax.bar(
            [x for x, v in zip(xs, values, strict=True) if v is not None],
            [v for v in values if v is not None],
            width,
            label=RATIO_LABELS[key],
        )
        ax.bar_label(bars, fmt=_bar_label, fontsize=7, padding=1)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_xticks(range(len(names)), names, rotation=20)
    ax.set_ylabel("mux time / other time (lower is better for mux)")
    mean = report["geomean"]["mux/c"]["value"]
    ax.set_title(
        "mux against C, PoCL and numpy"
        + (f" (geometric mean of mux/C: {mean:.2f})" if mean else "")
    )
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return None


# --------------------------------------------------------------------------------------
# Main.
# --------------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="mux kernels against C, PoCL and numpy (issue #5).",
    )
    parser.add_argument(
        "--quick", action="store_true", help="tiny sizes and 3 repetitions"
    )
    parser.add_argument(
        "--reps",
        type=int,
        help="timed repetitions of each implementation (default 10, fewer for a "
        "kernel whose rounds would take more than --budget; 3 with --quick)",
    )
    parser.add_argument(
        "--budget",
        type=float,
        default=30.0,
        help="seconds of timed runs per kernel when --reps is not given (default 30)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        help="threads for mux, C (OpenMP), PoCL and numpy (default: all cores)",
    )
    parser.add_argument(
        "--only", help=f"comma-separated kernels, of: {', '.join(SUITE)}"
    )
    parser.add_argument("--no-pocl", action="store_true", help="skip PoCL")
    parser.add_argument(
        "--latency-reps",
        type=int,
        help="cold compilations per kernel (default 5, 1 with --quick; 0: none)",
    )
    parser.add_argument("--json", type=Path, help="write the results to this file")
    parser.add_argument("--png", type=Path, help="draw the ratios into this file")
    args = parser.parse_args(argv)
    if args.only:
        args.only = [name.strip() for name in args.only.split(",") if name.strip()]
        unknown = [name for name in args.only if name not in SUITE]
        if unknown:
            parser.error(f"unknown kernels {unknown}; the suite: {', '.join(SUITE)}")
    else:
        args.only = list(SUITE)
    if args.reps is not None and args.reps < 1:
        parser.error("--reps: at least 1")
    if args.threads is not None and args.threads < 1:
        parser.error("--threads: at least 1")
    return args


def configure_environment(threads: int | None) -> None:
    """Sets the thread pools' variables (see the module docstring); re-executes the
    script once if OpenBLAS, loaded with numpy, has to see them."""
    defaults = {"OPENBLAS_THREAD_TIMEOUT": "4", "OMP_WAIT_POLICY": "passive"}
    wanted = {k: v for k, v in defaults.items() if k not in os.environ}
    if threads is not None:
        wanted["OPENBLAS_NUM_THREADS"] = str(threads)
    reexec = any(
        os.environ.get(k) != v for k, v in wanted.items() if k.startswith("OPENBLAS")
    )
    os.environ.update(wanted)
    # PoCL: no kernel cache (cold builds), its thread count (PoCL 3 and 4 names)
    os.environ.setdefault("POCL_KERNEL_CACHE", "0")
    # mux: a disk cache of this run's own (never the user's: it is emptied before
    # each cold compilation), kept across the re-execution
    if "MUX_BENCH_CACHE_DIR" not in os.environ:
        os.environ["MUX_BENCH_CACHE_DIR"] = tempfile.mkdtemp(prefix="mux-bench-")
    os.environ["MUX_CACHE_DIR"] = os.environ["MUX_BENCH_CACHE_DIR"]
    os.environ.setdefault("PYOPENCL_NO_CACHE", "1")
    if threads is not None:
        os.environ["POCL_MAX_PTHREAD_COUNT"] = str(threads)
        os.environ["POCL_CPU_MAX_CU_COUNT"] = str(threads)
    if reexec and not os.environ.get("MUX_BENCH_REEXEC"):
        os.environ["MUX_BENCH_REEXEC"] = "1"
        sys.stdout.flush()
        os.execv(sys.executable, [sys.executable, *sys.orig_argv[1:]])


def machine_info(gcc: str, pocl: Pocl | None, threads: int) -> dict[str, Any]:
    import llvmlite

    cpu = platform.processor()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    git = shutil.which("git")
    commit = (
        subprocess.run(
            [git, "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout.strip()
        if git
        else ""
    )
    from importlib.metadata import PackageNotFoundError, version

    def package(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:
            return ""

    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "threads": threads,
        "platform": platform.platform(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "llvmlite": llvmlite.__version__,
        "xdsl": package("xdsl"),
        "gcc": gcc,
        "pocl": pocl.version if pocl else "",
        "commit": commit,
        "date": time.strftime("%Y-%m-%d %H:%M:%S %z"),
    }


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    configure_environment(args.threads)
    threads = args.threads or os.cpu_count() or 1
    reps = args.reps or (3 if args.quick else 10)
    budget = None if args.reps else args.budget
    latency_reps = (
        args.latency_reps if args.latency_reps is not None else (1 if args.quick else 5)
    )
    notes: list[str] = []

    workdir = tempfile.TemporaryDirectory(prefix="mux-bench-")
    library, gcc, why = build_c_library(Path(workdir.name))
    if library is None:
        notes.append(why)
        print(f"C: {why}", file=sys.stderr)
    else:
        library.bench_set_threads(threads)
    pocl, why = (None, "skipped (--no-pocl)") if args.no_pocl else find_pocl()
    if pocl is None:
        notes.append(f"PoCL: {why}")
        print(f"PoCL: {why}", file=sys.stderr)

    def make_impls() -> list[Impl]:
        """New implementations for each problem (its buffers go with them)."""
        impls: list[Impl] = [MuxImpl(threads), MuxClImpl(threads)]
        if library is not None:
            impls.append(CImpl(library))
        if pocl is not None:
            impls.append(PoclImpl(pocl))
        return [*impls, NumpyImpl()]

    kernels = []
    for name in args.only:
        spec = SUITE[name]
        problem = spec.build(spec.quick if args.quick else spec.full)
        print(f"{name} ({problem.size}) ...", file=sys.stderr, flush=True)
        results, rounds = time_problem(problem, make_impls(), reps, budget)
        impl_summaries = {
            impl: results[impl].summary(problem.work)
            if impl in results
            else ImplResult().summary(problem.work)
            for impl in IMPLS
        }
        kernels.append(
            {
                "name": name,
                "title": problem.title,
                "size": problem.size,
                "global_size": list(problem.global_size),
                "local_size": list(problem.local_size),
                "unit": problem.unit,
                "work": problem.work,
                "reps": rounds,
                "impls": impl_summaries,
                "ratios": ratios(impl_summaries),
            }
        )

    if latency_reps > 0:
        if pocl is not None:  # PoCL's one-time initialisation, outside the figures
            pocl.build("vadd")
        for entry in kernels:
            spec = SUITE[entry["name"]]
            problem = spec.build(spec.latency)
            print(f"compile latency: {entry['name']} ...", file=sys.stderr, flush=True)
            entry["compile"] = interleaved_latency(problem, pocl, latency_reps, threads)

    means = {}
    for key in RATIOS:
        values = [k["ratios"][key] for k in kernels if k["ratios"][key] is not None]
        means[key] = {"value": geomean(values), "kernels": len(values)}
    report = {
        "machine": machine_info(gcc, pocl, threads),
        "options": {
            "quick": args.quick,
            "reps": reps,
            "budget_s": budget,
            "threads": threads,
            "latency_reps": latency_reps,
        },
        "kernels": kernels,
        "geomean": means,
        "notes": notes,
    }
    print()
    print_report(report)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n")
        print(f"\nJSON: {args.json}")
    if args.png:
        why = write_png(report, args.png)
        print(f"\nchart: {why}" if why else f"\nchart: {args.png}")
    workdir.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
