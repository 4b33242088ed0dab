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
ratios mux/C, mux/PoCL, mux/numpy, CL/MLIR (the kernel from OpenCL C over the
same from MLIR: what the front-end costs), CL/PoCL (the same source) and
checked/unchecked (the MLIR kernel compiled in checked mode, column "mux checked",
over the same unchecked: what checked mode costs). A failed
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
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench_suite, when imported

from bench_suite.impls import (
    CImpl,
    Impl,
    MuxCheckedImpl,
    MuxClImpl,
    MuxImpl,
    NumpyImpl,
    Pocl,
    PoclImpl,
    build_c_library,
    find_pocl,
)
from bench_suite.latency import interleaved_latency
from bench_suite.problems import SUITE
from bench_suite.report import (
    IMPLS,
    RATIOS,
    geomean,
    print_report,
    ratios,
    write_png,
)
from bench_suite.timing import ImplResult, time_problem

ROOT = Path(__file__).resolve().parent.parent


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
        impls: list[Impl] = [
            MuxImpl(threads),
            MuxClImpl(threads),
            MuxCheckedImpl(threads),
        ]
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
