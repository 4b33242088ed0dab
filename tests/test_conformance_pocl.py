"""scripts/conformance.py --vs-pocl (scripts/conformance_pocl.py, pocl_cases.py,
pocl_report.py):
UnitCL kernels that agree on mux and PoCL, a kernel pair that differs reported
with the index, a PoCL build error, the derived arguments of a kernel without a
manifest, and the comparison and report on their own."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from script_modules import UNITCL, conformance, needs_pocl, needs_unitcl

from script_modules import conformance_pocl as vs_pocl  # isort: skip

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import pocl_cases
import pocl_report

AGREEING = (
    "task_01.02_add",  # a manifest
    "barrier.02_barrier_no_duplicates",  # a manifest with a local size
    "task_04.11_byval_struct",  # a struct by value
    "task_03.15_copy3",  # int3 buffers: the padding lane is not compared
    "builtins.03_mad_conversions",  # derived: scalars only
    "builtins.01_fmin_vector_scalar_nan",  # derived: float4 buffers, NaN
)
"""Kernel files of each kind whose outputs mux and PoCL agree on."""


@needs_unitcl
@needs_pocl
def test_a_handful_of_unitcl_kernels_agree(tmp_path):
    paths = [UNITCL / "kernels" / f"{stem}.cl" for stem in AGREEING]
    results = vs_pocl.compare_all(UNITCL, paths, 2, 300, tmp_path)
    outcomes = {path.stem: record["outcome"] for path, record in results.items()}
    assert outcomes == dict.fromkeys(AGREEING, "agree"), results
    inputs = {path.stem: record["inputs"] for path, record in results.items()}
    assert inputs["task_01.02_add"] == "manifest"
    assert inputs["builtins.03_mad_conversions"] == "derived"


def _one_file(tmp_path: Path, mux_source: str, pocl_source: str) -> dict:
    """A file run by the mux side as `mux_source`, then by the PoCL side as
    `pocl_source`: a kernel pair, compared as `--vs-pocl` compares."""
    suite, scratch = tmp_path / "suite", tmp_path / "scratch"
    (suite / "kernels").mkdir(parents=True)
    (suite / "expectations").mkdir()
    scratch.mkdir()
    path = suite / "kernels" / "test.01_pair.cl"
    path.write_text(mux_source)
    mux = conformance.run(
        suite, [path], 1, 300, vs_pocl.side_command("mux", suite, scratch)
    )
    path.write_text(pocl_source)
    pocl = conformance.run(
        suite, [path], 1, 300, vs_pocl.side_command("pocl", suite, scratch)
    )
    return vs_pocl.verdict(path.stem, mux[path], pocl[path], scratch)


PAIR = """\
kernel void pair(global int *out) {
  int i = (int)get_global_id(0);
  out[i] = %s;
}
"""


@needs_pocl
def test_a_kernel_pair_that_differs_is_reported_with_the_index(tmp_path):
    record = _one_file(tmp_path, PAIR % "i", PAIR % "i == 37 ? -1 : i")
    assert record == {
        "outcome": "differ",
        "reason": "argument 0: element 37: mux 37, PoCL -1 (1 of 4096 differ)",
        "inputs": "derived",
    }


@needs_pocl
def test_a_pocl_build_error_is_reported(tmp_path):
    record = _one_file(tmp_path, PAIR % "i", PAIR % "i + undeclared_value")
    assert record["outcome"] == "PoCL failed"
    assert record["reason"] == (
        "build: use of undeclared identifier 'undeclared_value'"
    ), record


DERIVED = """\
typedef struct { int a; float b; } pair_t;
kernel void derive_me(global float4 *wide, global int *far, local float *scratch,
                      int n, float x, float3 v, pair_t p, constant uint *c) {
  size_t i = get_global_id(0);
  scratch[get_local_id(0)] = x;
  barrier(CLK_LOCAL_MEM_FENCE);
  far[i * 40] = n + (int)c[i];
  wide[i] = v.xyzx + (float)p.a + scratch[0];
}
kernel void other(global int *out) { out[get_global_id(0)] = 1; }
"""


def test_the_arguments_of_a_kernel_without_a_manifest():
    import mux

    program = mux.compile(DERIVED, language="opencl")
    (case,) = pocl_cases.derive_cases(program, "-DX=1", "test.01_derive_me")
    again = pocl_cases.derive_cases(program, "-DX=1", "test.01_derive_me")[0]
    assert (case.kernel, case.options) == ("derive_me", "-DX=1")
    assert (case.global_size, case.local_size, case.global_offset) == (
        (64,),
        (16,),
        (0,),
    )
    kinds = [a.kind for a in case.args]
    assert kinds == ["buffer", "buffer", "local", *["value"] * 4, "buffer"]
    wide, far, scratch, n, x, v, p, c = case.args
    assert wide.data.shape == (4096, 4) and wide.data.dtype == np.float32
    assert far.data.shape == (4096,), "room for 63 * 40"
    assert scratch.nbytes == 16 * pocl_cases.LOCAL_PER_ITEM * 4
    assert n.data.dtype == np.int32 and 1 <= n.data <= 16
    assert x.data.dtype == np.float32 and -2 <= x.data < 2
    assert v.data.shape == (4,) and v.data.dtype == np.float32
    assert p.data.dtype.names == ("f0", "f1") and 1 <= p.data["f0"] <= 16
    assert c.data.dtype == np.int32 and c.data.min() >= 1 and c.data.max() <= 16
    for arg, same in zip(case.args, again.args, strict=True):
        assert arg.data is None or (arg.data == same.data).all(), "deterministic"
    named = pocl_cases.derive_cases(program, "", "test.02_unnamed")
    assert [c.kernel for c in named] == ["derive_me", "other"], "every kernel"


def test_a_required_work_group_size_is_the_derived_local_size():
    import mux

    source = (
        "__attribute__((reqd_work_group_size(8, 2, 1)))\n"
        "kernel void k(global float3 *out) { out[get_global_id(0)] = 1.0f; }\n"
    )
    (case,) = pocl_cases.derive_cases(mux.compile(source, language="opencl"), "", "k")
    assert (case.global_size, case.local_size) == ((32, 2, 1), (8, 2, 1))
    assert case.args[0].lanes == 3


def test_cases_survive_their_trip_between_the_workers(tmp_path):
    record = np.zeros((), np.dtype([("a", np.int32), ("b", np.float64)]))
    case = pocl_cases.Case(
        "k",
        "-DN=2",
        (8, 2),
        (4, 1),
        (0, 0),
        sub_group_size=4,
        label="local 4",
        args=[
            pocl_cases.Arg("buffer", np.arange(6, dtype=np.float32).reshape(3, 2)),
            pocl_cases.Arg("local", nbytes=64),
            pocl_cases.Arg("value", record),
        ],
    )
    pocl_cases.save_cases(tmp_path, "t.01_x", [case], "manifest")
    (back,), inputs = pocl_cases.load_cases(tmp_path, "t.01_x")
    assert inputs == "manifest"
    assert (back.kernel, back.options, back.global_size, back.label) == (
        "k",
        "-DN=2",
        (8, 2),
        "local 4",
    )
    assert (back.args[0].data == case.args[0].data).all()
    assert back.args[1].nbytes == 64 and back.args[1].data is None
    assert back.args[2].data.dtype == record.dtype


def test_difference_of_outputs():
    f32 = np.float32
    one = np.array([1.0, np.nan, 1e-9, 100.0], f32)
    near = np.array([1.0 + 8 * np.finfo(f32).eps, np.nan, 0.0, 100.0], f32)
    assert vs_pocl.difference(one, near) is None
    far = near.copy()
    far[3] = 100.01
    assert vs_pocl.difference(one, far) == (
        f"element 3: mux 100.0, PoCL {f32(100.01).item()!r} (1 of 4 differ)"
    )
    padded = np.arange(8, dtype=np.int32).reshape(2, 4)
    other = padded.copy()
    other[:, 3] = -1
    assert vs_pocl.difference(padded, other, lanes=3) is None
    other[1, 2] = -1
    assert vs_pocl.difference(padded, other, lanes=3) == (
        "element 1, 2: mux 6, PoCL -1 (1 of 6 differ)"
    )


def test_a_mux_crash_is_a_mux_failure():
    crash = {"outcome": "crashed", "reason": "the worker process died (status -11)"}
    pocl = {"outcome": "failed", "reason": "build: x"}
    record = vs_pocl.verdict("k", crash, pocl, Path("unused"))
    assert record == {
        "outcome": "mux failed",
        "reason": "crashed: the worker process died (status -11) (PoCL failed too: "
        "build: x)",
        "crashed": True,
    }


def test_the_report_and_its_section_of_the_page(tmp_path):
    kernels = Path("kernels")
    results = {
        kernels / "barrier.01_a.cl": {"outcome": "agree", "inputs": "manifest"},
        kernels / "barrier.02_b.cl": {
            "outcome": "differ",
            "reason": "argument 1: element 3: mux 1, PoCL 2 (1 of 4 differ)",
            "inputs": "derived",
        },
        kernels / "dma.01_c.cl": {"outcome": "PoCL failed", "reason": "build: x 'y'"},
        kernels / "dma.02_d.cl": {"outcome": "mux failed", "reason": "refused: f"},
    }
    table = pocl_report.pocl_table(results)
    assert "| barrier | 2 | 1 | 1 | 0 | 0 | 0 |" in table
    assert "| **all** | 4 | 1 | 1 | 0 | 1 | 1 |" in table
    assert "- `barrier.02_b` (derived): argument 1: element 3: mux 1" in table
    assert "| build: x _ | 1 |" in table
    page = tmp_path / "conformance.md"
    page.write_text("# Conformance\n\n## Execution: the manifests\n\ntable\n")
    pocl_report.write_section(page, table)
    pocl_report.write_section(page, "new table\n")
    text = page.read_text()
    assert text.startswith("# Conformance\n\n## Execution: the manifests\n\ntable\n")
    assert text.count(pocl_report.POCL_HEADING) == 1
    assert text.endswith("new table\n")


PRINTER = """\
kernel void pair(void) {
  if (get_global_id(0) < 2) printf("item %d: %s\\n", (int)get_global_id(0), "WORD");
}
"""


@needs_pocl
def test_printed_lines_are_compared(tmp_path):
    record = _one_file(
        tmp_path, PRINTER.replace("WORD", "same"), PRINTER.replace("WORD", "other")
    )
    assert record == {
        "outcome": "differ",
        "reason": "printed: mux 'item 0: same', PoCL 'item 0: other' (2 of 2 lines "
        "of mux's not PoCL's, 2 of 2 of PoCL's not mux's)",
        "inputs": "derived",
    }


def test_printed_lines_agree_in_any_order():
    assert vs_pocl.printed_difference("a\nb\nb\n", "b\na\nb\n") is None
    assert vs_pocl.printed_difference("a\nb\n", "a\n") == (
        "mux 'b', PoCL None (1 of 2 lines of mux's not PoCL's, 0 of 1 of PoCL's "
        "not mux's)"
    )


@pytest.mark.parametrize(
    ("log", "gist"),
    [
        (
            "Build on <device>:\n\nError(s) while linking: \nCannot find symbol "
            "_Z22_cl_atomic_fetch_add_xPU3AS1Vii in kernel library\n",
            "link: '_cl_atomic_fetch_add_x' is not in PoCL's kernel library",
        ),
        (
            "error: /root/.cache/pocl/kcache/t.cl:21:24 <Spelling=/x/a.h:9:3>: "
            "call to 'f' is ambiguous\n",
            "build: call to 'f' is ambiguous",
        ),
        (
            "error: /t.cl:24:3 <Spelling=<command line>:5:15>: use of undeclared "
            "identifier 'half4'",
            "build: use of undeclared identifier 'half4'",
        ),
        (
            "clBuildProgram failed: BUILD_PROGRAM_FAILURE\nmore",
            "clBuildProgram failed: BUILD_PROGRAM_FAILURE",
        ),
    ],
)
def test_the_gist_of_a_pocl_error(log, gist):
    assert vs_pocl._pocl_error(log) == gist
