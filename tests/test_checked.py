"""Checked mode (`checked=True`, docs/checked.md): injected out-of-bounds faults
in the example kernels (MLIR and OpenCL C) are caught, named (kernel,
parameter or variable, element, byte offset, work-item, source location), the
process survives and the buffers keep what the kernel wrote; and no example
gives a false report."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from kernels import build_options
from test_opencl_examples import CASES, Case, copies

import mux
from lowering.common.compile_options import CompileOptions
from lowering.pipelines import HostPipeline
from mux.compiler import KernelVariant
from mux.run import main as mux_run

EXAMPLES = Path(__file__).parent.parent / "examples"


def example(name: str, suffix: str = ".mlir") -> str:
    return (EXAMPLES / f"{name}{suffix}").read_text()


def fault_of(kernel: mux.Kernel, *args, **launch) -> str:
    """The message of the KernelError the launch raises."""
    with pytest.raises(mux.KernelError) as caught:
        kernel(*args, **launch)
    return str(caught.value)


def floats(n: int) -> np.ndarray:
    return np.arange(n, dtype=np.float32)


# -- the MLIR examples with an off-by-one index --------------------------------------

VADD_SHIFTED = {
    "a": ("%lhs = memref.load %a[%i]", "%lhs = memref.load %a[%j]", 14),
    "b": ("%rhs = memref.load %b[%i]", "%rhs = memref.load %b[%j]", 15),
    "c": ("memref.store %sum, %c[%i]", "memref.store %sum, %c[%j]", 17),
}


@pytest.mark.parametrize("param", sorted(VADD_SHIFTED))
@pytest.mark.parametrize("local", [10, 1, 16, None])
def test_an_off_by_one_on_each_buffer_of_vadd_is_caught(param: str, local):
    old, new, line = VADD_SHIFTED[param]
    source = example("vadd").replace(
        "%i = mux.get_global_id %x_dim",
        "%i = mux.get_global_id %x_dim\n  %c1 = arith.constant 1 : index\n"
        "  %j = arith.addi %i, %c1 : index",
    )
    kernel = mux.compile(source.replace(old, new), checked=True, name="vadd.mlir")
    n = 100
    a, b, c = floats(n), np.ones(n, np.float32), np.zeros(n, np.float32)
    message = fault_of(kernel.kernel("vadd"), a, b, c, global_size=n, local_size=local)
    verb = "store to" if param == "c" else "load from"
    assert message.startswith(
        f"kernel 'vadd': out-of-bounds {verb} parameter '{param}' "
        f"(memref<?xf32, 1 : i64>) at vadd.mlir:{line}:3: element 100 (byte offset "
        "400), by the work-item of global id (99, 0, 0)"
    ), message
    if local is not None:
        assert f"local id ({99 % local}, 0, 0)" in message
    # the other work-items ran: the buffers hold what they wrote
    if param == "c":
        np.testing.assert_array_equal(c[1:], a[:-1] + 1)
    else:
        expected = a[1:] + 1 if param == "a" else a[:-1] + 1
        np.testing.assert_array_equal(c[:-1], expected)
        assert c[-1] == (0 + 1 if param == "a" else a[-1])


def test_the_process_survives_a_write_far_past_the_end():
    source = example("saxpy").replace(
        "memref.store %r, %y[%i]",
        "%far = arith.constant 1000000000 : index\n  %k = arith.addi %i, %far : index"
        "\n  memref.store %r, %y[%k]",
    )
    kernel = mux.compile(source, checked=True, name="saxpy.mlir").kernel("saxpy")
    x, y = floats(64), np.ones(64, np.float32)
    message = fault_of(
        kernel, np.float32(2), x, y, global_size=64, local_size=8, threads=1
    )
    assert "store to parameter 'y'" in message
    assert "element 1000000000 (byte offset 4000000000)" in message
    # one fault per packet of 8 work-items (run-vecz); one thread: the first
    # packet's is the first
    assert "global id (0, 0, 0)" in message
    assert "(7 more faults in this launch)" in message
    np.testing.assert_array_equal(y, np.ones(64, np.float32))  # nothing written


def test_a_2d_kernel_names_both_ids_with_an_offset():
    kernel = mux.compile(example("transpose"), checked=True, name="transpose.mlir")
    width, height = 48, 32
    out = np.zeros(width * height, np.float32)
    short = floats(width * height - 1)  # the input lacks its last element
    message = fault_of(
        kernel.kernel("transpose"),
        short,
        out,
        np.uint64(width),
        np.uint64(height),
        global_size=(width, height),
        local_size=(16, 16),
    )
    assert "load from parameter 'input'" in message
    assert f"element {width * height - 1}" in message
    assert "global id (47, 31, 0), local id (15, 15, 0)" in message


def test_a_3d_kernel_with_offsets_and_a_partial_group():
    kernel = mux.load(EXAMPLES / "ids3d.mlir", checked=True).kernel("ids3d")
    out = np.zeros(6 * 5 * 4 - 1, np.int32)
    message = fault_of(
        kernel,
        out,
        global_size=(6, 5, 4),
        local_size=(4, 5, 2),
        global_offset=(1, 2, 3),
    )
    assert re.search(r"store to parameter '\w+'", message), message
    assert f"element {6 * 5 * 4 - 1}" in message


def test_a_vectorised_packet_is_checked_with_its_lane():
    """vadd's work-items run 8 at once (run-vecz): with 95 elements the packet
    of work-items 88..95 faults at its lane 7, 95 (the scalar tail at 96..)."""
    kernel = mux.compile(example("vadd"), checked=True, name="vadd.mlir").kernel("vadd")
    a, b, c = floats(95), floats(95), np.zeros(95, np.float32)
    message = fault_of(kernel, a, b, c, global_size=128, local_size=32)
    assert "element 95 (byte offset 380)" in message
    assert "global id (95, 0, 0), local id (31, 0, 0)" in message
    np.testing.assert_array_equal(c[:88], a[:88] + b[:88])


def test_the_scalar_tail_of_a_vectorised_kernel_is_checked():
    kernel = mux.compile(example("vadd"), checked=True, name="vadd.mlir").kernel("vadd")
    a, b, c = floats(99), floats(99), np.zeros(99, np.float32)
    message = fault_of(kernel, a, b, c, global_size=100, local_size=10)
    assert "element 99 (byte offset 396)" in message
    assert "global id (99, 0, 0), local id (9, 0, 0)" in message
    np.testing.assert_array_equal(c, a + b)


def test_a_2d_memref_parameter_is_checked_by_its_linear_index():
    """scale_rows' `memref<?x8xf32>`: rows from the array's size (5 rows of
    8 here, the launch covering 6)."""
    kernel = mux.load(EXAMPLES / "scale_rows.mlir", checked=True).kernel("scale_rows")
    m, w = floats(6 * 8).reshape(6, 8), np.ones(8, np.float32)
    out = np.zeros((5, 8), np.float32)
    message = fault_of(
        kernel, m, w, np.float32(100), np.uint64(6), out, global_size=(8, 6)
    )
    assert "store to parameter 'out' (memref<?x8xf32, 1 : i64>)" in message
    assert "element 40 (byte offset 160)" in message


# -- private, module-scope local and LocalBuffer memory ------------------------------

PRIVATE = """
func.func @private(%out: memref<?xi32, 1>) attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %i = mux.get_global_id %d
  %v = arith.index_cast %i : index to i32
  %tmp = memref.alloca() : memref<4xi32>
  memref.store %v, %tmp[%i] : memref<4xi32>
  %w = memref.load %tmp[%i] : memref<4xi32>
  memref.store %w, %out[%i] : memref<?xi32, 1>
  func.return
}
"""


def test_a_private_array_indexed_past_its_end():
    kernel = mux.compile(PRIVATE, checked=True, name="p.mlir").kernel("private")
    out = np.full(6, -1, np.int32)
    message = fault_of(kernel, out, global_size=6, local_size=3)
    assert "store to private array 'tmp' (memref<4xi32>) at p.mlir:7:3" in message
    assert "element 4 (byte offset 16)" in message
    assert "global id (4, 0, 0), local id (1, 0, 0)" in message
    assert "(3 more faults" in message  # 4 and 5 store, then load
    np.testing.assert_array_equal(out, [0, 1, 2, 3, 0, 0])  # a faulting load gives 0


LOCAL = """
"memref.global"() <{sym_name = "tile", type = memref<8xf32, 3>, initial_value,
                    sym_visibility = "private"}> : () -> ()
func.func @local(%out: memref<?xf32, 1>) attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %l = mux.get_local_id %d
  %i = mux.get_global_id %d
  %tile = memref.get_global @tile : memref<8xf32, 3>
  %one = arith.constant 1 : index
  %next = arith.addi %l, %one : index
  %v = arith.constant 1.0 : f32
  memref.store %v, %tile[%next] : memref<8xf32, 3>
  func.return
}
"""


def test_a_module_scope_local_written_past_its_end():
    kernel = mux.compile(LOCAL, checked=True, name="l.mlir").kernel("local")
    message = fault_of(kernel, np.zeros(16, np.float32), global_size=16, local_size=8)
    assert "store to" in message and "at l.mlir:12:3" in message
    assert "element 8 (byte offset 32)" in message
    assert "local id (7, 0, 0)" in message


def test_a_local_buffer_too_small_for_reduce():
    kernel = mux.load(EXAMPLES / "reduce.mlir", checked=True).kernel("reduce")
    partial = np.zeros(4, np.float32)
    message = fault_of(
        kernel,
        floats(256),
        partial,
        mux.LocalBuffer(4 * 63),
        global_size=256,
        local_size=64,
    )
    # a kernel with barriers records a group's lowest faulting work-item:
    # 62, whose tree step loads scratch[63] (63 stores it before the barrier)
    assert "load from parameter 'scratch' (memref<?xf32, 3 : i64>)" in message
    assert "element 63 (byte offset 252)" in message
    assert "local id (62, 0, 0)" in message
    assert "(7 more faults in this launch)" in message


def test_an_atomic_out_of_bounds():
    source = example("histogram").replace("memref<256xi32, 1>", "memref<?xi32, 1>")
    kernel = mux.compile(source, checked=True, name="h.mlir").kernel("histogram")
    data = np.arange(64, dtype=np.int8)
    bins = np.zeros(32, np.int32)
    message = fault_of(kernel, data, bins, global_size=64, local_size=16)
    assert "out-of-bounds atomic on parameter 'bins'" in message
    assert "element 32 (byte offset 128)" in message
    np.testing.assert_array_equal(bins, np.ones(32, np.int32))


# -- OpenCL C: pointers, debug-info locations, DMA -----------------------------------


def opencl(name: str, source: str | None = None, **options) -> mux.Program:
    text = source if source is not None else example(name, ".cl")
    flags = " ".join(build_options(example(name, ".cl")))
    return mux.compile(
        text,
        language="opencl",
        build_options=flags,
        checked=True,
        name=f"{name}.cl",
        **options,
    )


def test_an_opencl_c_off_by_one_names_the_parameter_and_the_line():
    source = example("vadd", ".cl").replace(
        "c[i] = a[i] + b[i];", "c[i + 1] = a[i] + b[i];"
    )
    line = source.splitlines().index("    c[i + 1] = a[i] + b[i];") + 1
    kernel = opencl("vadd", source).kernel("vadd")
    a, b, c = floats(50), floats(50), np.zeros(50, np.float32)
    message = fault_of(kernel, a, b, c, global_size=50, local_size=5)
    assert "store to parameter 'c'" in message
    assert f"vadd.cl:{line}:" in message
    assert "element 50 (byte offset 200)" in message
    assert "global id (49, 0, 0), local id (4, 0, 0)" in message


SHIFT = """
void put(__local float *t, size_t i, float v)
{
    t[i] = v;
}

__kernel void shift(__global float *out)
{
    __local float tile[64];
    __local float sums[64];
    size_t lid = get_local_id(0);
    sums[lid] = 2.0f;
    put(tile, lid + 1, out[get_global_id(0)]);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = sums[lid] + (lid > 0 ? tile[lid] : 0.0f);
}
"""


def test_a_local_variable_is_checked_alone_and_named():
    """A write one past `tile` lands in the next variable unchecked; checked, it
    is a fault of `tile`, at the helper's line (inlined, the store keeps the
    helper's debug place), element 64 of it; the other variable keeps its value."""
    kernel = mux.compile(
        SHIFT, language="opencl", checked=True, name="shift.cl"
    ).kernel("shift")
    out = floats(128)
    message = fault_of(kernel, out, global_size=128, local_size=64)
    assert "kernel 'shift': out-of-bounds store to local variable 'tile'" in message
    # the race check keeps the packets of 8 (local size 64): the vectorised
    # kernel's store faults
    where = (
        r"at shift\.cl:4:10( \(vectorised kernel\))?: element 64 \(byte offset 256\)"
    )
    assert re.search(where, message)
    # the last work-item of either group (the first fault recorded)
    assert re.search(r"global id \((63|127), 0, 0\), local id \(63, 0, 0\)", message)
    # work-item l > 0 reads what l - 1 wrote; sums[0] is still 2 (the faulting
    # write, into it unchecked, was not done). The faulting packet's store
    # (work-items 56..63) is not done as a whole: out[57..63] are left out
    expected = 2.0 + np.where(np.arange(128) % 64 > 0, np.arange(-1, 127), 0)
    kept = np.arange(128) % 64 < 57
    np.testing.assert_array_equal(out[kept], expected[kept].astype(np.float32))


HELPER = """
func.func private @put(%p: memref<?xf32, 1>, %i: index, %v: f32) {
  %one = arith.constant 1 : index
  %j = arith.addi %i, %one : index
  memref.store %v, %p[%j] : memref<?xf32, 1>
  func.return
}
func.func @k(%a: memref<?xf32, 1>, %out: memref<?xf32, 1>)
    attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %i = mux.get_global_id %d
  %v = memref.load %a[%i] : memref<?xf32, 1>
  func.call @put(%out, %i, %v) : (memref<?xf32, 1>, index, f32) -> ()
  func.return
}
"""


def test_a_helper_function_is_checked_against_the_kernels_buffer():
    """Functions a kernel calls are inlined: the helper's store is checked
    against the buffer the kernel passed it, at the helper's line."""
    kernel = mux.compile(HELPER, checked=True, name="helper.mlir").kernel("k")
    a, out = floats(24), np.zeros(24, np.float32)
    message = fault_of(kernel, a, out, global_size=24, local_size=8)
    assert (
        "store to parameter 'out' (memref<?xf32, 1 : i64>) at helper.mlir:5:3"
        in message
    )
    assert (
        "element 24 (byte offset 96), by the work-item of global id (23, 0, 0)"
        in message
    )
    np.testing.assert_array_equal(out[1:], a[:-1])


def test_a_dma_transfer_names_the_first_element_out_and_the_dma_line():
    dma4 = (Path(__file__).parent / "test_opencl_arguments.py").read_text()
    source = dma4.split('DMA4 = """', 1)[1].split('"""', 1)[0]
    kernel = mux.compile(source, checked=True, name="dma4.mlir").kernel("dma4")
    data, out = np.ones((39, 4), np.float32), np.zeros((40, 4), np.float32)
    message = fault_of(kernel, data, out, global_size=40, local_size=16)
    assert "copy (DMA transfer or memcpy) from parameter 'input'" in message
    assert "at dma4.mlir:18:3" in message  # the mux.dma_read_1d
    assert "element 39 (byte offset 624)" in message
    assert "global id (32, 0, 0), local id (0, 0, 0)" in message


def test_an_opencl_c_dma_transfer_past_the_image():
    kernel = opencl("dma_tile").kernel("dma_tile")
    width, height = 32, 16
    message = fault_of(
        kernel,
        floats(width * height - 8),
        np.zeros(width * height, np.float32),
        np.uint64(width),
        global_size=(width, height),
        local_size=(16, 8),
    )
    assert "parameter 'input'" in message, message


# -- no false report ------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.name}-{c.global_size}")
@pytest.mark.parametrize("language", ["mlir", "cl"])
def test_no_false_report_on_the_examples(case: Case, language: str):
    """Each example, checked, computes what it computes unchecked."""
    args = case.args()
    checked, unchecked = copies(args), copies(args)
    launch: dict[str, Any] = {
        "global_size": case.global_size,
        "local_size": case.local_size,
        "global_offset": case.global_offset,
    }
    path = EXAMPLES / f"{case.name}.{language}"
    options = " ".join(build_options(path.read_text())) if language == "cl" else ""
    for values, flag in ((checked, True), (unchecked, False)):
        program = mux.load(path, build_options=options, checked=flag)
        program.kernel(case.name)(*values, **launch)
    for mine, reference in zip(checked, unchecked, strict=True):
        if isinstance(mine, np.ndarray):
            np.testing.assert_array_equal(mine, reference)


# -- the option ----------------------------------------------------------------------


def test_checked_and_unchecked_are_different_cache_keys():
    assert CompileOptions(checked=True) != CompileOptions()
    key = KernelVariant("h", "k", (), CompileOptions())
    assert key != KernelVariant("h", "k", (), CompileOptions(checked=True))
    checked = mux.compile(example("vadd"), checked=True).kernel("vadd")
    plain = mux.compile(example("vadd")).kernel("vadd")
    assert checked.llvm_ir != plain.llvm_ir
    assert "cmpxchg" in checked.llvm_ir and "cmpxchg" not in plain.llvm_ir


def test_unchecked_pipeline_is_todays():
    names = [p.name for p in HostPipeline().passes()]
    assert "check-access-bounds" not in names
    checked = [p.name for p in HostPipeline(checked=True).passes()]
    at = checked.index("check-access-bounds")
    assert checked[at - 1] == "run-vecz" and checked[at + 1] == "check-local-races"
    assert checked[at + 2] == "work-item-loops"
    assert "check-local-races" not in names


def test_the_environment_turns_it_on(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("MUX_CHECKED", "1")
    assert mux.compile(example("vadd")).options.checked
    monkeypatch.setenv("MUX_CHECKED", "0")
    assert not mux.compile(example("vadd")).options.checked


def test_mux_run_checked(capsys: pytest.CaptureFixture[str]):
    path = str(EXAMPLES / "vadd.mlir")
    status = mux_run(
        [path, "vadd", "--global", "16", "--checked", "range:16", "ones:15", "zeros:16"]
    )
    assert status == 1
    err = capsys.readouterr().err
    assert "mux-run: kernel 'vadd': out-of-bounds load from parameter 'b'" in err


PRINTS = """
func.func @k(%v: memref<?xi32, 1>) attributes {mux.kernel = "entry-point"} {
  %x_dim = arith.constant 0 : i32
  %g = mux.get_global_id %x_dim
  %x = memref.load %v[%g] : memref<?xi32, 1>
  printf.print_format "item {} has {}\\n", %g : index, %x : i32
  func.return
}
"""


def test_a_kernel_that_prints_is_checked_printf_buffer_included(capsys):
    """lower-printf's buffer comes before the record, its accesses checked
    against its real size: no false report; a fault still prints the rest."""
    kernel = mux.compile(PRINTS, checked=True, name="p.mlir").kernel("k")
    v = np.arange(4, dtype=np.int32)
    kernel(v, global_size=4, local_size=2)
    assert capsys.readouterr().out == "".join(f"item {i} has {i}\n" for i in range(4))
    message = fault_of(kernel, v[:3].copy(), global_size=4, local_size=2)
    assert "load from parameter 'v'" in message and "element 3" in message
    assert "item 3 has 0\n" in capsys.readouterr().out  # the faulting load gave 0


STRIDED = """
func.func @strided(%out: memref<?xi32, 1>) attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : index
  %x = mux.get_global_id %d0
  %at = arith.muli %x, %c2 : index
  %v = arith.index_cast %x : index to i32
  memref.store %v, %out[%at] : memref<?xi32, 1>
  func.return
}
"""


def test_a_store_made_lane_by_lane_names_its_lane():
    # run-vecz stores out[2x] lane by lane (stride 2): with 9 elements, lanes
    # 5, 6 and 7 of the one packet store past the end, and the message names
    # lane 5's work-item, not the packet's first
    program = mux.compile(STRIDED, checked=True, vecz_width=8)
    out = np.zeros(9, np.int32)
    message = fault_of(
        program.kernel("strided"), out, global_size=(8,), local_size=(8,)
    )
    assert "(vectorised kernel): element 10 (byte offset 40)" in message
    assert "global id (5, 0, 0), local id (5, 0, 0)" in message
    np.testing.assert_array_equal(out[::2], np.arange(5))
