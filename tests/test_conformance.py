"""scripts/conformance.py: a fast subset of UnitCL's kernels compiled as the script
compiles the whole corpus (their expected outcome each), the header and macro
readers, the naming of refusals, and the report of crashes and hangs."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest
from script_modules import UNITCL, conformance, needs_unitcl

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "scripts" / "conformance.py"


SUITE = UNITCL
needs_suite = needs_unitcl

SUBSET = {
    "attribute.01_reqd_work_group_size.cl": "compiled",
    "barrier.01_barrier_in_function.cl": "compiled",
    "barrier.02_barrier_no_duplicates.cl": "compiled",
    "c11atomics.03_fence_acquire_release.cl": "compiled",
    "compiler_barrier.02_group_divergent_barriers.cl": "compiled",
    "compiler_barrier.03_odd_work_group_size.cl": "compiled",  # -D from the table
    "dimension.02_single_group_2d.cl": "compiled",
    "dma.01_direct.cl": "compiled",
    "goto.02_fake_if.cl": "compiled",
    "offline.02_add.cl": "compiled",
    "regression.02_work_dim.cl": "compiled",
    "spirv.03_test_atomic_add.cl": "compiled",
    "sub_group.02_get_max_sub_group_size_builtin.cl": "compiled",
    "task_01.02_add.cl": "compiled",
    "task_03.26_atom_inc_builtin_int.cl": "compiled",
    "task_05.02_saxpy_static_trip.cl": "compiled",
    "task_07.02_copy_if_nested_item.cl": "compiled",
    "task_09.02_masked_interleaved_load.cl": "compiled",
    "task_10.05_atomic_cmpxchg_builtin.cl": "compiled",
    "task_13.01_magic_square.cl": "compiled",
    "work_group_collective_functions.01_all.cl": "compiled",
    "printf.01_hello.cl": "compiled",
    "printf.14_print_vector.cl": "compiled",  # lower-printf
    # generic-address-space C11 atomics, compare-exchange through private memory
    "c11atomics.64_compare_exchange_strong_local_global_single_int.cl": "compiled",
    "c11atomics.02_init_local_int.cl": "compiled",
    "dma.04_async_copy.cl": "compiled",  # events
    "ext_async.01_simple_2d.cl": "compiled",
    "sub_group.09_sub_group_broadcast_float.cl": "compiled",  # float4 buffers
    "precision.01_pow_func.cl": "compiled",  # link-builtins
    "vloadvstore.01_half_global.cl": "compiled",
    "conversion.04_explicit_convert.cl": "compiled",
    "regression.04_shuffle_copy.cl": "compiled",  # poison shuffle lanes
    "regression.13_varying_alloca.cl": "compiled",
    "goto.03_fake_for.cl": "compiled",  # llvm.smax
    "task_10.03_vector_loop.cl": "compiled",  # splat constants
    "task_03.23_as_uint_uchar4.cl": "compiled",  # as_<type>
    "task_04.11_byval_struct.cl": "compiled",
    "barrier.17_barrier_store_mask.cl": "compiled",
    "regression.48_image_sampler.cl": "refused: images",
}
"""Files of each kind and their outcome today: a change that breaks one shows
here; one that makes a refused file compile updates its line."""


@needs_suite
def test_subset_outcomes():
    paths = [SUITE / "kernels" / name for name in SUBSET]
    results = conformance.run(SUITE, paths, jobs=2, timeout=300)
    got = {}
    for path, record in results.items():
        outcome = record["outcome"]
        if outcome == "refused":
            outcome = f"refused: {record['reason']}"
        got[path.name] = outcome
    assert got == SUBSET, {
        n: results[SUITE / "kernels" / n] for n in got if got[n] != SUBSET[n]
    }


def test_header_reading(tmp_path):
    path = tmp_path / "group.07_name.cl"
    path.write_text(
        textwrap.dedent(
            """\
            // REQUIRES: half; parameters;
            // CL_STD: 3.0
            // DEFINITIONS: "-DREAD_LOCAL_SIZE=16";"-DGLOBAL_ID=0"
            // DEFINITIONS: -D NUM=4
            __kernel void k() {}
            """
        )
    )
    header = conformance.read_header(path)
    assert header.group == "group"
    assert header.requires == ("half", "parameters")
    assert header.cl_std == "3.0"
    assert header.definitions == ("-DREAD_LOCAL_SIZE=16", "-DGLOBAL_ID=0", "-DNUM=4")
    options = header.build_options({"GLOBAL_ID": "5", "EXTRA": "a b"})
    assert options == (
        '-cl-std=CL3.0 -DREAD_LOCAL_SIZE=16 -DGLOBAL_ID=0 -DNUM=4 "-DEXTRA=a b"'
    )


def test_macros_of_a_test(tmp_path):
    (tmp_path / "ktst_x.cpp").write_text(
        textwrap.dedent(
            """\
            TEST_P(Execution, Barrier_03_Some_Name) {
              const unsigned global_id = 1;
              AddMacro("GLOBAL_ID", global_id);
              AddMacro("SIZE", (cl_int)16);
              AddMacro("TYPE", "float4");
              AddMacro("UNKNOWN", some_call());
            }
            TEST_P(Execution, Barrier_04_Other) { AddMacro("N", 2); }
            """
        )
    )
    macros = conformance.test_macros(tmp_path)
    assert macros["barrier.03_some_name"] == {
        "GLOBAL_ID": "1",
        "SIZE": "16",
        "TYPE": "float4",
    }
    assert macros["barrier.04_other"] == {"N": "2"}


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        ("k.cl:3:5: error: use of undeclared identifier 'printf'", "printf"),
        (
            "k.cl:1:1: error: llvm.call: the OpenCL C builtin 'sqrt(float)' "
            "(@_Z4sqrtf) is not in the builtin library yet",
            "builtin sqrt",
        ),
        ("k.cl:2:1: error: unknown type name 'image2d_t'", "images"),
        ("k.cl:2:1: error: declaring variable of type 'half' is not allowed", "half"),
        ("k.cl:4:2: error: expected ';' after expression", "clang"),
        (
            "kernel 'k': parameter 's': the runtime passes a struct by value, not "
            "a !llvmx.packed_struct<[i8, i32]>",
            "packed struct by value",
        ),
        (
            "k.cl: error: cannot import `%x = foo i32 3`",
            "cannot import `%x = foo i_ _`",
        ),
    ],
)
def test_refusal_reasons(message, reason):
    assert conformance.refusal_reason(message) == reason


FAKE_WORKER = """\
import json, sys, time
for line in sys.stdin:
    name = line.strip().rsplit("/", 1)[-1]
    if name == "die.cl":
        print("last words", file=sys.stderr, flush=True)
        sys.exit(3)
    if name == "hang.cl":
        time.sleep(60)
    print(json.dumps({"outcome": "compiled", "kernels": 1}), flush=True)
"""


def test_dead_and_hung_workers_are_crashes_and_replaced(tmp_path):
    worker = tmp_path / "worker.py"
    worker.write_text(FAKE_WORKER)
    names = ["a.cl", "die.cl", "b.cl", "hang.cl", "c.cl"]
    paths = [tmp_path / n for n in names]
    results = conformance.run(
        tmp_path, paths, jobs=2, timeout=2, worker_command=[sys.executable, str(worker)]
    )
    outcomes = {p.name: r["outcome"] for p, r in results.items()}
    assert outcomes == {
        "a.cl": "compiled",
        "die.cl": "crashed",
        "b.cl": "compiled",
        "hang.cl": "crashed",
        "c.cl": "compiled",
    }
    assert "died (status 3)" in results[tmp_path / "die.cl"]["reason"]
    assert results[tmp_path / "die.cl"]["message"].endswith("last words\n")
    assert "no answer within 2 s" in results[tmp_path / "hang.cl"]["reason"]
    table = conformance.table(results)
    assert "| **all** | 5 | 3 | 0 | 2 |" in table
    assert "- `hang.cl`: no answer within 2 s (a hang)" in table


# ---------------------------------------------------------------------------
# --run: the execution manifests (scripts/conformance_manifests/)

sys.path.insert(0, str(REPO / "scripts"))
import conformance_manifests as manifests  # noqa: E402

RUN_SUBSET = {
    "barrier.02_barrier_no_duplicates": "passed",
    "barrier.14_barrier_in_reduce": "passed",
    "barrier.16_memory_fence_local": "passed",  # four FENCE_OP builds
    "barrier.18_barrier_store_mask": "passed",  # a private variable across a barrier
    "barrier.19_barrier_store_mask": "passed",  # a pointer into one, across a barrier
    "work_group_collective_functions.12_scan_inclusive_add_long": "passed",
    "sub_group.10_sub_group_reduce_add_float": "passed",
    "dma.05_async_double_buffer": "passed",
    "dma.06_auto_dma_convolution": "passed",
    "c11atomics.13_exchange_local_double": "passed",
    "c11atomics.36_fetch_local_add_uint": "passed",
    "c11atomics.59_compare_exchange_strong_local_local_long": "passed",
    "c11atomics.66_compare_exchange_strong_local_private_single_int": "passed",
    "regression.31_local_struct_alignment": "passed",  # six ALIGN builds
    "regression.74_stride_misaligned": "passed",  # packed records, as bytes
    "regression.100_integer_zero_divide": "failed",  # clang: UB, the store is gone
    "precision.02_denorms": "passed",  # with and without -cl-denorms-are-zero
    "precision.87_single_sincos": "passed",  # random floats of every magnitude
    "precision.13_half_fabs": "passed",  # half, half2 .. half16: five builds
    "task_02.09_printf_add": "passed",  # prints (to the worker's stderr), then adds
    "task_03.15_copy3": "passed",  # int3: the padding lane is not compared
    "task_04.11_byval_struct": "passed",  # a numpy record by value
    "task_07.10_control_dep_scalarization": "passed",
    "task_10.06_noinline_kernels": "passed",  # the kernel named as the file
}
"""Manifests of each group and kind, run as `--run` runs them, and their outcome
today: a change that breaks one shows here; one that fixes a failure updates it."""


@needs_suite
@pytest.mark.parametrize("checked", ["0", "1"], ids=["unchecked", "checked"])
def test_run_subset_outcomes(checked: str, monkeypatch: pytest.MonkeyPatch):
    """Checked (MUX_CHECKED=1, which the workers inherit), the same outcomes: a
    false report of checked mode would crash its manifest with a KernelError."""
    monkeypatch.setenv("MUX_CHECKED", checked)
    paths = [SUITE / "kernels" / f"{stem}.cl" for stem in RUN_SUBSET]
    results = conformance.run(SUITE, paths, jobs=2, timeout=300, execute=True)
    got = {path.stem: record["outcome"] for path, record in results.items()}
    assert got == RUN_SUBSET, {
        stem: results[SUITE / "kernels" / f"{stem}.cl"]
        for stem in got
        if got[stem] != RUN_SUBSET[stem]
    }


@needs_suite
def test_every_manifest_names_a_kernel_file():
    stems = manifests.manifests()
    assert len(stems) >= 600
    missing = [s for s in stems if not (SUITE / "kernels" / f"{s}.cl").is_file()]
    assert not missing


@needs_suite
def test_a_wrong_reference_fails_with_the_first_differing_element():
    stem = "c11atomics.10_store_global_int"
    launch = manifests.manifests()[stem][0]
    data = launch.args[0].data
    wrong = data.copy()
    wrong[7] += 1
    broken = manifests.Launch((manifests.In(data), manifests.Out(wrong)), 256)
    header = conformance.read_header(SUITE / "kernels" / f"{stem}.cl")
    record = conformance.execute_file(header, {}, [broken])
    assert record == {
        "outcome": "failed",
        "reason": f"argument 1: element 7: expected {wrong[7]}, got {data[7]} "
        "(1 of 256 differ)",
    }


def test_compare_floats_in_ulps_of_their_width():
    import numpy as np

    one = np.array([1.0, -0.0, np.nan], np.float32)
    near = np.array([np.nextafter(np.float32(1), np.float32(2)), 0.0, np.nan])
    assert manifests.compare(one, near.astype(np.float32), ulp=1) is None
    assert "element 0" in manifests.compare(one, near.astype(np.float32), ulp=0)
    half = np.array([1.0], np.float16)
    far = (half.view(np.uint16) + 5).view(np.float16)
    assert manifests.compare(half, far, ulp=4) == (
        "element 0: expected 1.0, got 1.0048828125 (1 of 1 differ)"
    )


def test_buffers_are_aligned_as_opencl_buffers():
    import numpy as np

    for n in (1, 3, 100):
        copy = manifests.aligned(np.arange(n, dtype=np.float16))
        assert copy.ctypes.data % manifests.BUFFER_ALIGNMENT == 0
        assert (copy == np.arange(n)).all()


def test_a_write_past_a_buffer_is_seen():
    import ctypes

    import numpy as np

    copy = manifests.aligned(np.zeros((4, 3), np.int32))
    assert manifests.overrun(copy) is None
    # as a kernel would, through the buffer's address: the 10th byte after it
    ctypes.memset(copy.ctypes.data + copy.nbytes + 9, 0, 1)
    assert manifests.overrun(copy) == 10


def test_run_table():
    kernels = Path("kernels")
    results = {
        kernels / "barrier.01_a.cl": {"outcome": "passed"},
        kernels / "barrier.02_b.cl": {"outcome": "failed", "reason": "element 3: x"},
        kernels / "dma.01_c.cl": {"outcome": "crashed", "reason": "ValueError"},
    }
    table = manifests.run_table(results)
    assert "| barrier | 2 | 1 | 1 | 0 |" in table
    assert "| dma | 1 | 0 | 0 | 1 |" in table
    assert "| **all** | 3 | 1 | 1 | 1 |" in table
    assert "- `barrier.02_b` failed: element 3: x" in table
    assert "- `dma.01_c` crashed: ValueError" in table
