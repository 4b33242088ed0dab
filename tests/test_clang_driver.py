"""The clang driver (mux/frontend/clang.py): OpenCL C -> spir64 LLVM IR, build
options, diagnostics, finding clang, and our base header's types and macros."""

from __future__ import annotations

import pytest

from mux.errors import CompileError
from mux.frontend import clang
from mux.frontend.build_options import MathFlags, parse_build_options
from mux.frontend.clang import compile_opencl, find_clang

VADD = """\
__kernel void vadd(__global const float *a, __global const float *b,
                   __global float *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] + b[i] * SCALE;
}
"""


def test_vadd_compiles_to_spir_llvm_ir():
    ir = compile_opencl(VADD, "vadd.cl", "-D SCALE=2.0f").llvm_ir
    assert 'target triple = "spir64"' in ir
    assert 'source_filename = "vadd.cl"' in ir
    assert "spir_kernel void @vadd(" in ir
    assert "_Z13get_global_idj" in ir
    assert "alloca" not in ir  # -O1: SROA'd


def test_defines_change_the_ir():
    two = compile_opencl(VADD, "vadd.cl", "-DSCALE=2.0f").llvm_ir
    three = compile_opencl(VADD, "vadd.cl", "-D 'SCALE=3.0f'").llvm_ir
    assert "2.000000e+00" in two and "3.000000e+00" in three


def test_cl_std_20_generic_address_space():
    source = """\
void store(int *p, int v) { *p = v; }
__kernel void k(__global int *out, __local int *tmp) {
  store(out, work_group_reduce_add((int)get_local_id(0)));
  atomic_store_explicit((volatile __global atomic_int *)out, 1,
                        memory_order_relaxed, memory_scope_work_group);
}
"""
    module = compile_opencl(source, "k.cl", "-cl-std=CL2.0")
    assert module.options.cl_std == "CL2.0"
    assert "_Z21work_group_reduce_addi" in module.llvm_ir
    assert "12memory_order12memory_scope" in module.llvm_ir


def test_syntax_error_is_a_compile_error_at_the_users_file():
    source = "__kernel void f(__global int *a) {\n  a[0] = 1;\n  a[1] = 2 }\n"
    with pytest.raises(CompileError) as caught:
        compile_opencl(source, "vadd.cl")
    message = str(caught.value)
    assert message.startswith("vadd.cl:3:11: error: expected ';'")
    assert "a[1] = 2 }" in message  # clang's snippet kept
    assert "generated" not in message and "<stdin>" not in message


def test_warnings_dropped_unless_werror():
    source = "__kernel void f(__global int *a) { if (a[0] = 1) a[1] = 2; }\n"
    compile_opencl(source, "w.cl")
    with pytest.raises(CompileError, match=r"w\.cl:1:\d+: error: .*-Werror"):
        compile_opencl(source, "w.cl", "-Werror")


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ("-cl-opt-disable", "-cl-opt-disable"),
        ("-O3", "-O3"),
        ("-cl-std=CL2.2", "-cl-std=CL2.2"),
        ("-D 1X", "1X"),
        ("-D", "-D"),
        ("-DX='a", "No closing quotation"),
    ],
)
def test_unknown_or_bad_build_option_is_a_compile_error(options, named):
    with pytest.raises(CompileError, match=named):
        parse_build_options(options)


def test_build_options_parse(tmp_path):
    parsed = parse_build_options(
        f"-DA -D B=1 -I {tmp_path} -cl-std=CL3.0 -cl-fast-relaxed-math -w"
    )
    assert parsed.defines == (("A", None), ("B", "1"))
    assert parsed.include_dirs == (str(tmp_path),)
    assert parsed.cl_std == "CL3.0"
    assert parsed.math.fast and parsed.math.mad_enable and parsed.math.no_signed_zeros
    assert parse_build_options("").math == MathFlags()
    mad = parse_build_options("-cl-mad-enable").math
    assert mad.mad_enable and not mad.fast and not mad.finite_math_only


def test_missing_mux_clang_is_a_compile_error(monkeypatch, tmp_path):
    monkeypatch.setenv("MUX_CLANG", str(tmp_path / "no-such-clang"))
    with pytest.raises(CompileError, match=r"MUX_CLANG=.*no such program.*opencl"):
        compile_opencl(VADD, "vadd.cl")


def test_no_clang_anywhere_says_how_to_get_one(monkeypatch):
    monkeypatch.delenv("MUX_CLANG", raising=False)
    monkeypatch.setenv("PATH", "")
    monkeypatch.setattr(clang.importlib.util, "find_spec", lambda name: None)
    clang._find_clang.cache_clear()
    try:
        with pytest.raises(
            CompileError, match=r"pip install 'computemux-xdsl\[opencl\]'"
        ):
            find_clang()
    finally:
        clang._find_clang.cache_clear()


def test_include_dirs_and_source_dir(tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "scale.h").write_text("#define SCALE 5.0f\n")
    (tmp_path / "near.h").write_text("#define OFFSET 7.0f\n")
    source = '#include "scale.h"\n#include "near.h"\n' + VADD.replace(
        "* SCALE", "* SCALE + OFFSET"
    )
    ir = compile_opencl(
        source, "v.cl", f"-I {tmp_path / 'inc'}", source_dir=tmp_path
    ).llvm_ir
    assert "5.000000e+00" in ir and "7.000000e+00" in ir


HEADER_FAMILIES = """\
__kernel void families(__global uint4 *u, __global float *f, __global long *l,
                       __local char16 *c, __global double3 *d, __global half *h) {
  size_t i = get_global_id(0);
  ptrdiff_t p = 1; intptr_t ip = 2; uintptr_t up = 3;
  uchar uc = UCHAR_MAX; ushort us = USHRT_MAX; ulong ul = ULONG_MAX;
  u[i] = (uint4)(UINT_MAX, INT_MAX, CHAR_BIT, SHRT_MAX) + (uint4)(uc, us, (uint)ul, 0);
  f[i] = FLT_MAX + FLT_MIN + FLT_EPSILON + MAXFLOAT + HUGE_VALF + INFINITY + NAN
       + M_PI_F + M_E_F + M_SQRT2_F + M_1_PI_F + (float)(FLT_DIG + FLT_MANT_DIG);
  l[i] = LONG_MAX + LONG_MIN + FP_ILOGB0 + FP_ILOGBNAN + p + ip + (long)up;
  d[i] = (double3)(DBL_MAX, M_PI, DBL_EPSILON);
  float8 f8 = (float8)(1.0f); short2 s2 = (short2)(SCHAR_MIN, SHRT_MIN);
  f[i] += f8.s7 + s2.y;
  f[i + 1] = M_PI_F;
  c[0] = (char16)(CHAR_MAX);
  event_t e = async_work_group_copy(c, (__global const char16 *)u, 1, 0);
  wait_group_events(1, &e);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
"""


@pytest.mark.parametrize("std", ["CL1.2", "CL3.0"])
def test_base_header_types_and_macros_compile(std):
    ir = compile_opencl(HEADER_FAMILIES, "families.cl", f"-cl-std={std}").llvm_ir
    assert "_Z7barrierj(i32 noundef 3)" in ir  # local | global = 1 | 2
    assert "0x400921FB60000000" in ir  # M_PI_F, rounded to float


def test_base_header_20_memory_order_and_scope():
    source = """\
__kernel void k(__global int *out) {
  out[0] = memory_order_relaxed + memory_order_acquire + memory_order_release
         + memory_order_acq_rel + memory_order_seq_cst;
  out[1] = memory_scope_work_item + memory_scope_work_group + memory_scope_device
         + memory_scope_all_svm_devices + memory_scope_sub_group;
  out[2] = CLK_IMAGE_MEM_FENCE;
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst,
                         memory_scope_device);
}
"""
    # memory_order: relaxed 0, acquire 2, release 3, acq_rel 4, seq_cst 5 (C11's);
    # memory_scope: item 0, group 1, device 2, all 3, sub-group 4 (clang's).
    ir = compile_opencl(source, "k.cl", "-cl-std=CL3.0").llvm_ir
    assert "store i32 14," in ir and "store i32 10," in ir and "store i32 4," in ir


AS_TYPE = """\
__kernel void reinterpret(__global const float *f, __global uint *u,
                          __global int *packed, __global float *back) {
  size_t i = get_global_id(0);
  u[i] = as_uint(f[i]);
  uchar4 bytes = as_uchar4(u[i]);
  packed[i] = as_int((uchar4)(bytes.w, bytes.z, bytes.y, bytes.x));
  back[i] = as_float2(as_ulong((uint2)(u[i], 0u))).x;
}
"""


def test_as_type_operators_reinterpret_bits():
    """as_<type><n> (OpenCL C 6.4.4.2) come from our header: the bits, unchanged."""
    import numpy as np

    import mux

    f = np.array([1.0, -0.0, np.inf, 3.5e-40, -2.25, np.nan], dtype=np.float32)
    u, packed = np.zeros(6, np.uint32), np.zeros(6, np.int32)
    back = np.zeros(6, np.float32)
    kernel = mux.compile(AS_TYPE, language="opencl").kernel("reinterpret")
    kernel(f, u, packed, back, global_size=6, local_size=1)
    assert (u == f.view(np.uint32)).all()
    assert (packed == f.view(np.uint32).byteswap().view(np.int32)).all()
    assert (back.view(np.uint32) == f.view(np.uint32)).all()
