"""`mux.compile(..., language=)` and `mux.load` by suffix: OpenCL C and LLVM IR come
in through the front-end (`mux.frontend.languages`) and launch like MLIR kernels.

Kernels here call no OpenCL C builtin, so they run before lower-to-mux-builtins
exists; the builtins' own tests are that pass's."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import mux

INPUTS = Path(__file__).parent / "filecheck" / "import" / "Inputs"

LOOP_SUM = """\
__kernel __attribute__((reqd_work_group_size(1, 1, 1)))
void loop_sum(__global const int *in, __global int *out, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i)
    s += in[i] * (i & 3);
  out[0] = s;
}
"""


def run_loop_sum(program: mux.Program) -> None:
    x = np.arange(-50, 53, dtype=np.int32)
    out = np.zeros(1, np.int32)
    program.kernel("loop_sum")(x, out, np.int32(x.size), global_size=1, local_size=1)
    assert out[0] == (x * (np.arange(x.size) & 3)).sum()


def test_opencl_c_text_compiles_and_runs():
    run_loop_sum(mux.compile(LOOP_SUM, language="opencl", name="loop_sum.cl"))


def test_llvm_ir_text_compiles_and_runs():
    text = (INPUTS / "loop_sum.ll").read_text()
    run_loop_sum(mux.compile(text, language="llvm", name="loop_sum.ll"))


def _bitcode(text: str) -> bytes:
    from llvmlite import binding

    return binding.parse_assembly(text).as_bitcode()


@pytest.mark.parametrize("suffix", [".cl", ".ll", ".bc"])
def test_load_picks_the_language_by_suffix(tmp_path, suffix):
    path = tmp_path / f"loop_sum{suffix}"
    llvm_ir = (INPUTS / "loop_sum.ll").read_text()
    if suffix == ".bc":
        path.write_bytes(_bitcode(llvm_ir))
    else:
        path.write_text(LOOP_SUM if suffix == ".cl" else llvm_ir)
    run_loop_sum(mux.load(path))


def test_bad_bitcode_is_a_compile_error(tmp_path):
    path = tmp_path / "k.bc"
    path.write_bytes(_bitcode((INPUTS / "loop_sum.ll").read_text())[:40])
    with pytest.raises(mux.CompileError, match=r"k\.bc: error: invalid LLVM bitcode"):
        mux.load(path)


def test_fast_relaxed_math_sets_the_fast_option():
    program = mux.compile(
        LOOP_SUM, language="opencl", build_options="-cl-fast-relaxed-math"
    )
    assert program.options.fast
    assert not mux.compile(LOOP_SUM, language="opencl").options.fast


def test_build_options_reach_clang():
    source = LOOP_SUM.replace("(i & 3)", "(i & MASK)")
    with pytest.raises(mux.CompileError, match="MASK"):
        mux.compile(source, language="opencl")
    run_loop_sum(mux.compile(source, language="opencl", build_options="-DMASK=3"))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: mux.compile("", language="fortran"), "language: one of mlir"),
        (
            lambda: mux.compile("", build_options="-DX"),
            "build_options are OpenCL C's",
        ),
        (
            lambda: mux.compile("kernel void k( {", language="opencl", name="k.cl"),
            r"k\.cl:1:\d+: error",
        ),
        (
            lambda: mux.compile("define void @k(", language="llvm", name="k.ll"),
            r"k\.ll: error: invalid LLVM IR",
        ),
    ],
)
def test_bad_input_is_a_compile_error(call, message):
    with pytest.raises(mux.CompileError, match=message):
        call()


def test_an_unknown_suffix_is_a_compile_error_naming_it(tmp_path):
    path = tmp_path / "k.spv"
    path.write_bytes(b"\x03\x02\x23\x07")
    with pytest.raises(mux.CompileError, match=r"no language has the suffix '\.spv'"):
        mux.load(path)


def test_launch_errors_name_the_opencl_c_parameters():
    kernel = mux.compile(LOOP_SUM, language="opencl").kernel("loop_sum")
    assert [p.name for p in kernel.params] == ["in", "out", "n"]
    with pytest.raises(
        mux.LaunchError, match="argument 'in': expected an array of i32"
    ):
        kernel(np.zeros(4, np.float32), np.zeros(1, np.int32), 4, global_size=1)


HELPER_DECLARED_ONLY = """\
float helper(float x);

__kernel void k(__global float *a) {
  a[get_global_id(0)] = 2.0f * helper(a[0]);
}
"""


def test_diagnostics_point_at_the_opencl_c_line_and_column():
    """clang's line tables give every imported op its place in the OpenCL C
    source; the passes and the conversion to LLVM keep it, so a late error (a
    function defined nowhere, found on the llvm level) shows the user's line."""
    with pytest.raises(mux.CompileError) as caught:
        mux.compile(HELPER_DECLARED_ONLY, language="opencl", name="k.cl")
    assert str(caught.value).splitlines() == [
        "k.cl:4:32: error: llvm.call: @helper is declared but defined nowhere: not "
        "in the module, and not a symbol of this process the JIT could link to",
        "    a[get_global_id(0)] = 2.0f * helper(a[0]);",
        "                                 ^",
    ]


def test_imported_ops_without_debug_info_are_at_their_llvm_ir_line():
    text = (
        "declare float @helper(float)\n"
        "define spir_kernel void @k(ptr addrspace(1) %a) {\n"
        "  %x = load float, ptr addrspace(1) %a\n"
        "  %y = call float @helper(float %x)\n"
        "  store float %y, ptr addrspace(1) %a\n"
        "  ret void\n"
        "}\n"
    )
    with pytest.raises(mux.CompileError) as caught:
        mux.compile(text, language="llvm", name="k.ll")
    lines = str(caught.value).splitlines()
    assert lines[0].startswith("k.ll:4:1: error: llvm.call: @helper is declared")
    assert lines[1] == "    %y = call float @helper(float %x)"
