"""The implementations a problem runs on: mux (from MLIR, from the OpenCL C
twin, and from MLIR in checked mode), numpy, C (compiled here with gcc) and PoCL
(through pyopencl): each set up once (untimed), prepared (untimed), run (timed),
its result read."""

from __future__ import annotations

import ctypes
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np

from bench_suite.problems import Local, Problem

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
C_DIR = ROOT / "scripts" / "bench_c"
"""The C versions of the kernels."""
CL_DIR = EXAMPLES
"""The OpenCL C twins of the examples: what PoCL and "mux from CL" build."""

INSTALL_POCL = (
    "pip install pyopencl pocl-binary-distribution (or: pip install -e '.[bench]')"
)


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


class MuxCheckedImpl(MuxImpl):
    """The MLIR kernel compiled in checked mode (`checked=True`: every access
    checked, docs/checked.md): checked/mux is what the checks cost."""

    name = "checked"

    def load(self, problem: Problem) -> Any:
        import mux

        return mux.load(EXAMPLES / f"{problem.name}.mlir", checked=True)


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
