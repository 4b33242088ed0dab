"""OpenCL builtins by their mangled names: the demangler, and a kernel calling them
run through the host pipeline (lower-to-mux-builtins is its first pass)."""

from __future__ import annotations

import numpy as np
import pytest

import mux
from lowering.common.mangling import demangle

SIGNATURES = {
    "_Z13get_global_idj": "get_global_id(uint)",
    "_Z12get_work_dimv": "get_work_dim()",
    "_Z21async_work_group_copyPU3AS3Dv4_fPU3AS1KS_m9ocl_event": (
        "async_work_group_copy(__local float4 *, __global const float4 *, ulong, "
        "event_t)"
    ),
    "_Z25atomic_fetch_add_explicitPU3AS1VU7_Atomicii12memory_order12memory_scope": (
        "atomic_fetch_add_explicit(__global volatile atomic_int *, int, "
        "memory_order, memory_scope)"
    ),
    "_Z4fminDv4_fS_": "fmin(float4, float4)",
    "_Z6vload4mPU3AS1Kf": "vload4(ulong, __global const float *)",
}


@pytest.mark.parametrize("mangled", SIGNATURES)
def test_demangle(mangled):
    demangled = demangle(mangled)
    assert demangled is not None and demangled.signature() == SIGNATURES[mangled]


@pytest.mark.parametrize("name", ["main", "_Z3foo", "_ZN3foo3barEv", "_Z3fooPq"])
def test_not_a_builtin(name):
    assert demangle(name) is None


KERNEL = """
func.func private @_Z13get_global_idj(i32) -> i64
func.func private @_Z7barrierj(i32)
func.func private @_Z21work_group_reduce_addi(i32) -> i32
func.func @k(%out: memref<?xi32, 1>) attributes {mux.kernel = "entry-point"} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %g = func.call @_Z13get_global_idj(%c0) : (i32) -> i64
  func.call @_Z7barrierj(%c1) : (i32) -> ()
  %t = llvm.trunc %g : i64 to i32
  %s = func.call @_Z21work_group_reduce_addi(%t) : (i32) -> i32
  %i = arith.index_cast %g : i64 to index
  memref.store %s, %out[%i] : memref<?xi32, 1>
  func.return
}
"""


def test_kernel_calling_builtins_runs():
    out = np.zeros(64, dtype=np.int32)
    mux.compile(KERNEL).kernel("k")(out, global_size=64, local_size=16)
    sums = [sum(range(g * 16, g * 16 + 16)) for g in range(4)]
    assert np.array_equal(out, np.repeat(sums, 16))
