"""Module-scope local variables end to end (`replace-module-scope-vars`,
`compute-local-memory-usage`, `add-kernel-wrapper`'s hidden buffer), and the
runtime's local-memory limit."""

import re

import numpy as np
import pytest
from kernels import THREADS

import mux
from dialects import attributes as mux_attrs
from lowering.common.device import HOST
from lowering.compute_local_memory_usage import ComputeLocalMemoryUsagePass
from lowering.replace_module_scope_vars import ReplaceModuleScopeVarsPass
from mux.compiler import context, parse

# Each work-item goes through its own slots of two module-scope local arrays (no
# barrier is needed): `tile` in the kernel, `counts` in a helper it calls. The f64
# array comes second, so it is at offset 8 * 64 * 4 = 2048, aligned to 8.
TILES = """
"memref.global"() <{sym_name = "tile", type = memref<8x64xf32, 3>, initial_value,
                    sym_visibility = "private"}> : () -> ()
"memref.global"() <{sym_name = "counts", type = memref<64xf64, 3>, initial_value,
                    sym_visibility = "private"}> : () -> ()
"memref.global"() <{sym_name = "unused", type = memref<4096xf32, 3>, initial_value,
                    sym_visibility = "private"}> : () -> ()

func.func @bump(%lid: index, %v: f32) -> f32 {
  %counts = memref.get_global @counts : memref<64xf64, 3>
  %w = arith.extf %v : f32 to f64
  %one = arith.constant 1.0 : f64
  %x = arith.addf %w, %one : f64
  memref.store %x, %counts[%lid] : memref<64xf64, 3>
  %back = memref.load %counts[%lid] : memref<64xf64, 3>
  %r = arith.truncf %back : f64 to f32
  func.return %r : f32
}

func.func @tiles(%input: memref<?xf32, 1>, %output: memref<?xf32, 1>)
    attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %gid = mux.get_global_id %d
  %lid = mux.get_local_id %d
  %c8 = arith.constant 8 : index
  %row = arith.remui %gid, %c8 : index
  %tile = memref.get_global @tile : memref<8x64xf32, 3>
  %v = memref.load %input[%gid] : memref<?xf32, 1>
  %two = arith.constant 2.0 : f32
  %w = arith.mulf %v, %two : f32
  memref.store %w, %tile[%row, %lid] : memref<8x64xf32, 3>
  %back = memref.load %tile[%row, %lid] : memref<8x64xf32, 3>
  %r = func.call @bump(%lid, %back) : (index, f32) -> f32
  memref.store %r, %output[%gid] : memref<?xf32, 1>
  func.return
}
"""
# A kernel beside them that uses none. (A module with two entry points is not
# compiled by kernel: `reduce-to-func` keeps every kernel, so only the passes see
# this one.)
PLAIN = """
func.func @plain(%x: memref<?xf32, 1>) attributes {mux.kernel = "entry-point"} {
  func.return
}
"""
TILES_USAGE = 8 * 64 * 4 + 64 * 8


@pytest.fixture(scope="module")
def program():
    return mux.compile(TILES)


@THREADS
@pytest.mark.parametrize(
    # a work-group of at most 64: the tile's rows and `counts` have 64 slots (the
    # runtime's default local size for 48 is 48)
    ("n", "local"),
    [(64, 64), (1000, 64), (100, 32), (7, 3), (48, None)],
)
def test_module_scope_local_array(program, n, local, threads):
    kernel = program.kernel("tiles")
    x = np.random.default_rng(n).random(n, np.float32)
    y = np.zeros_like(x)
    kernel(x, y, global_size=n, local_size=local, threads=threads)
    np.testing.assert_allclose(y, 2 * x + 1, rtol=1e-6)


def test_the_buffer_is_hidden_from_the_runtime(program):
    kernel = program.kernel("tiles")
    assert [p.name for p in kernel.params] == ["input", "output"]
    assert kernel.local_mem_usage == TILES_USAGE
    assert mux.compile(PLAIN).kernel("plain").local_mem_usage == 0


def test_usage_attribute():
    module = parse(TILES + PLAIN)
    ComputeLocalMemoryUsagePass().apply(context(), module)
    usage = {
        fn.sym_name.data: mux_attrs.LOCAL_MEM_USAGE.get(fn)
        for fn in module.ops
        if mux_attrs.is_kernel_entry_point(fn)
    }
    assert usage == {"tiles": TILES_USAGE, "plain": 0}


def test_an_already_replaced_module_runs_too():
    """A module after replace-module-scope-vars: the runtime leaves the buffer out of
    the parameters and counts its size."""
    module = parse(TILES)
    ReplaceModuleScopeVarsPass().apply(context(), module)
    kernel = mux.compile(str(module)).kernel("tiles")
    assert [p.name for p in kernel.params] == ["input", "output"]
    assert kernel.local_mem_usage == TILES_USAGE
    x = np.arange(128, dtype=np.float32)
    y = np.zeros_like(x)
    kernel(x, y, global_size=128, local_size=64)
    np.testing.assert_array_equal(y, 2 * x + 1)


# The LLVM form of a local variable: an llvm.mlir.global in address space 3,
# addressed by llvm.mlir.addressof and GEPs.
LLVM_FORM = """
llvm.mlir.global internal @slots() {addr_space = 3 : i32} : !llvm.array<64 x i32>
func.func @llvm_form(%x: memref<?xi32, 1>) attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %gid = mux.get_global_id %d
  %lid = mux.get_local_id %d
  %i = arith.index_cast %lid : index to i64
  %slots = llvm.mlir.addressof @slots : !llvm.ptr<3>
  %p = llvm.getelementptr inbounds %slots[%i] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i32
  %v = memref.load %x[%gid] : memref<?xi32, 1>
  %three = arith.constant 3 : i32
  %w = arith.muli %v, %three : i32
  llvm.store %w, %p : i32, !llvm.ptr<3>
  %back = llvm.load %p : !llvm.ptr<3> -> i32
  memref.store %back, %x[%gid] : memref<?xi32, 1>
  func.return
}
"""


def test_llvm_form():
    kernel = mux.compile(LLVM_FORM).kernel("llvm_form")
    assert kernel.local_mem_usage == 64 * 4
    x = np.arange(200, dtype=np.int32)
    kernel(x, global_size=200, local_size=50)
    np.testing.assert_array_equal(x, 3 * np.arange(200, dtype=np.int32))


# --------------------------------------------------------------------------------------
# The device limit: module-scope usage + local buffer arguments.
# --------------------------------------------------------------------------------------

BIG = """
"memref.global"() <{sym_name = "storage", type = memref<12288xf32, 3>, initial_value,
                    sym_visibility = "private"}> : () -> ()
func.func @big(%x: memref<?xf32, 1>, %scratch: memref<?xf32, 3>)
    attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %gid = mux.get_global_id %d
  %lid = mux.get_local_id %d
  %big = memref.get_global @storage : memref<12288xf32, 3>
  %v = memref.load %x[%gid] : memref<?xf32, 1>
  memref.store %v, %big[%lid] : memref<12288xf32, 3>
  memref.store %v, %scratch[%lid] : memref<?xf32, 3>
  %a = memref.load %big[%lid] : memref<12288xf32, 3>
  %b = memref.load %scratch[%lid] : memref<?xf32, 3>
  %s = arith.addf %a, %b : f32
  memref.store %s, %x[%gid] : memref<?xf32, 1>
  func.return
}
"""
BIG_USAGE = 12288 * 4  # 48 KiB


def test_launch_within_the_limit():
    kernel = mux.compile(BIG).kernel("big")
    assert kernel.local_mem_usage == BIG_USAGE
    x = np.arange(64, dtype=np.float32)
    room = HOST.local_memory_size - BIG_USAGE
    kernel(x, mux.LocalBuffer(room), global_size=64, local_size=16)
    np.testing.assert_array_equal(x, 2 * np.arange(64, dtype=np.float32))


def test_launch_over_the_limit_is_refused_and_writes_nothing():
    kernel = mux.compile(BIG).kernel("big")
    x = np.arange(64, dtype=np.float32)
    before = x.copy()
    room = HOST.local_memory_size - BIG_USAGE
    message = (
        f"local memory: the arguments ask for {room + 4} bytes per work-group and "
        f"the kernel's module-scope variables for {BIG_USAGE}, the device has "
        f"{HOST.local_memory_size}"
    )
    with pytest.raises(mux.LaunchError, match=re.escape(message)):
        kernel(x, mux.LocalBuffer(room + 4), global_size=64, local_size=16)
    np.testing.assert_array_equal(x, before)


def test_module_scope_variables_alone_over_the_limit():
    source = BIG.replace("12288", str(HOST.local_memory_size // 4 + 1))
    kernel = mux.compile(source).kernel("big")
    x = np.ones(16, dtype=np.float32)
    with pytest.raises(mux.LaunchError, match="module-scope variables for 65540"):
        kernel(x, mux.LocalBuffer(4), global_size=16, local_size=16)
    np.testing.assert_array_equal(x, np.ones(16, dtype=np.float32))


def test_an_invalid_local_variable_is_a_compile_error():
    source = TILES.replace(
        "type = memref<64xf64, 3>, initial_value,",
        "type = memref<64xf64, 3>, initial_value = dense<0.0> : tensor<64xf64>,",
    )
    with pytest.raises(mux.CompileError, match="@counts has an initial value"):
        mux.compile(source).kernel("tiles")


# --------------------------------------------------------------------------------------
# Memory and sub-group barriers: fences (define-mux-builtins).
# --------------------------------------------------------------------------------------

FENCED = """
"memref.global"() <{sym_name = "slots", type = memref<64xi32, 3>, initial_value,
                    sym_visibility = "private"}> : () -> ()
func.func @fenced(%x: memref<?xi32, 1>) attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %gid = mux.get_global_id %d
  %lid = mux.get_local_id %d
  %slots = memref.get_global @slots : memref<64xi32, 3>
  %v = memref.load %x[%gid] : memref<?xi32, 1>
  memref.store %v, %slots[%lid] : memref<64xi32, 3>
  mux.mem_barrier scope(work_group) semantics(seq_cst | work_group_memory)
  mux.sub_group_barrier id(0) scope(sub_group) semantics(acq_rel | sub_group_memory)
  mux.mem_barrier scope(work_item) semantics(acquire)
  %w = memref.load %slots[%lid] : memref<64xi32, 3>
  %one = arith.constant 1 : i32
  %r = arith.addi %w, %one : i32
  memref.store %r, %x[%gid] : memref<?xi32, 1>
  func.return
}
"""


def test_memory_and_sub_group_barriers_are_fences():
    kernel = mux.compile(FENCED).kernel("fenced")
    x = np.arange(100, dtype=np.int32)
    kernel(x, global_size=100, local_size=32)
    np.testing.assert_array_equal(x, np.arange(100, dtype=np.int32) + 1)
    assert re.search(r"^\s*fence seq_cst$", kernel.llvm_ir, re.MULTILINE)
