"""scripts/bench.py: a smoke test of the whole suite on tiny sizes (`--quick`), and
how it reports a wrong result or an exception. Nothing here looks at a time: the
timings of a shared 2-core machine are information, not something to assert on."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from script_modules import load_script

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "scripts" / "bench.py"

# The suite of issue #5.
KERNELS = [
    "vadd",
    "saxpy",
    "reduce",
    "sgemm_tiled",
    "sgemm_naive",
    "scan",
    "stencil2d",
    "transpose",
]

RATIOS = ["mux/c", "mux/pocl", "mux/numpy", "cl/mux", "cl/pocl", "checked/mux"]
"""mux from MLIR against C, PoCL and numpy; mux from OpenCL C against mux from
MLIR and PoCL (the same source)."""

bench = load_script("bench")  # puts scripts/ on sys.path: bench_suite

from bench_suite import impls, problems, report, timing  # noqa: E402


def test_the_suite_is_the_issues():
    assert list(bench.SUITE) == KERNELS
    for name in KERNELS:
        assert (REPO / "examples" / f"{name}.mlir").exists()
        assert (REPO / "examples" / f"{name}.cl").exists()


@pytest.fixture(scope="module")
def quick_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("bench") / "out.json"
    completed = subprocess.run(
        [sys.executable, str(SCRIPT), "--quick", "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=300,  # a guard against a hang, not a timing assertion
        check=False,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr
    return json.loads(out.read_text()), completed.stdout


def test_quick_run_has_every_kernel(quick_report):
    report, _ = quick_report
    assert [k["name"] for k in report["kernels"]] == KERNELS
    assert report["options"]["quick"] is True


def test_quick_run_checks_pass(quick_report):
    report, _ = quick_report
    # mux runs each kernel twice: compiled from MLIR (mux) and from its OpenCL C
    # twin (cl); both are checked against numpy like the others
    needed = ["mux", "cl", "checked", "numpy"] + (["c"] if shutil.which("gcc") else [])
    for kernel in report["kernels"]:
        impls = kernel["impls"]
        assert set(impls) == {"mux", "cl", "checked", "c", "pocl", "numpy"}
        for name in needed:
            impl = impls[name]
            assert impl["check"] == "pass", (kernel["name"], name, impl)
            assert impl["status"] == "ok", (kernel["name"], name, impl)
            assert len(impl["times_s"]) == kernel["reps"] >= 1
            assert impl["min_s"] <= impl["median_s"] <= impl["max_s"]
        # PoCL is optional; when it ran, its OpenCL kernels must be right too
        if impls["pocl"]["status"] != "missing":
            assert impls["pocl"]["check"] == "pass", (kernel["name"], impls["pocl"])


def test_quick_run_has_ratios_and_compile_latency(quick_report):
    report, stdout = quick_report
    has_c = shutil.which("gcc") is not None
    for kernel in report["kernels"]:
        assert set(kernel["ratios"]) == set(RATIOS)
        assert kernel["ratios"]["mux/numpy"] > 0
        assert kernel["ratios"]["cl/mux"] > 0
        if has_c:
            assert kernel["ratios"]["mux/c"] > 0
        mux_latency = kernel["compile"]["mux"]
        for key in ("cold_s", "cached_s", "disk_s", "relaunch_s", "compile_s"):
            assert mux_latency[key] > 0, (kernel["name"], key)
        assert mux_latency["check"] == "pass"
    assert set(report["geomean"]) == set(RATIOS)
    assert report["geomean"]["cl/mux"]["kernels"] == len(KERNELS)
    if has_c:
        assert report["geomean"]["mux/c"]["kernels"] == len(KERNELS)
    assert "mux/C" in stdout
    assert "mux from CL ms" in stdout
    assert "CL/MLIR" in stdout
    assert "geometric mean" in stdout


# --------------------------------------------------------------------------------------
# A wrong result or an exception marks its implementation; the run goes on.
# --------------------------------------------------------------------------------------


class Wrong(impls.HostImpl):
    """Writes a wrong last element."""

    name = "c"

    def run(self):
        self.problem.numpy(self.problem.inputs, self.out)
        self.out[-1] += 1


class Raises(impls.HostImpl):
    name = "pocl"

    def run(self):
        raise RuntimeError("no device")


def test_failures_mark_their_implementation():
    problem = problems.vadd_problem(1024)
    results, rounds = timing.time_problem(
        problem, [impls.NumpyImpl(), Wrong(), Raises()], reps=2, budget=None
    )
    assert rounds == 2
    assert results["numpy"].status == "ok"
    assert len(results["numpy"].times) == 2
    assert results["c"].status == "fail"
    assert "1 of 1024 elements wrong, first at 1023" in results["c"].detail
    assert results["pocl"].status == "error"
    assert "no device" in results["pocl"].detail
    summaries = {name: r.summary(problem.work) for name, r in results.items()}
    summaries["mux"] = summaries["cl"] = summaries["checked"] = summaries["numpy"]
    ratios = report.ratios(summaries)
    assert ratios["mux/numpy"] == pytest.approx(1.0)
    assert ratios["cl/mux"] == pytest.approx(1.0)
    assert ratios["checked/mux"] == pytest.approx(1.0)
    assert ratios["mux/c"] is None
    assert ratios["mux/pocl"] is None
    assert ratios["cl/pocl"] is None


def test_check_tolerances():
    expected = np.array([1.0, 2.0, 3.0])
    assert problems.check(expected.astype(np.float32), expected, 0.0) == (True, "exact")
    near = expected * (1 + 1e-7)
    assert not problems.check(near, expected, 0.0)[0]
    assert problems.check(near, expected, 1e-6)[0]
    assert not problems.check(np.array([1.0, np.nan, 3.0]), expected, 1e-6)[0]
    assert not problems.check(expected[:2], expected, 1e-6)[0]


def test_twins_are_built_with_their_stated_options():
    """mux and PoCL build an OpenCL C twin with the options its header states."""
    examples = REPO / "examples"
    assert impls.twin_build_options(examples / "ids3d.cl") == "-cl-std=CL2.0"
    assert impls.twin_build_options(examples / "vadd.cl") == "-cl-std=CL1.2"
