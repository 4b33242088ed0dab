"""Compile latency: source to first result, mux (cold, cached, disk, relaunch)
against PoCL (build plus first launch), the cold compilations alternating."""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

from bench_suite.impls import Pocl, mux_args
from bench_suite.problems import Problem, check
from bench_suite.timing import error_line

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


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
                errors[side] = {"error": error_line(error)}
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
