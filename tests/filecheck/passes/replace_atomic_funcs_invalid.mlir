// RUN: mux-opt %s --split-input-file --verify-diagnostics -p replace-atomic-funcs | filecheck %s
//
// A declaration with the name of an OpenCL atomic function but not its signature:
// a diagnostic naming the function, its OpenCL signature and the expected types.

// Too few arguments.
func.func private @_Z10atomic_addPU3AS1Vii(!llvm.ptr<1>) -> i32
// CHECK: replace-atomic-funcs: @_Z10atomic_addPU3AS1Vii is int atomic_add(volatile __global int *, int): its declaration must be (!llvm.ptr<1> or memref<...xi32, 1>, i32) -> i32, got (!llvm.ptr<1>) -> i32

// -----

// A value of the wrong width (long is i64).
func.func private @_Z8atom_addPU3AS1Vll(!llvm.ptr<1>, i32) -> i64
// CHECK: replace-atomic-funcs: @_Z8atom_addPU3AS1Vll is long atom_add(volatile __global long *, long): its declaration must be (!llvm.ptr<1> or memref<...xi64, 1>, i64) -> i64, got (!llvm.ptr<1>, i32) -> i64

// -----

// A wrong result type.
func.func private @_Z14atomic_cmpxchgPU3AS3Vjjj(!llvm.ptr<3>, i32, i32) -> i1
// CHECK: replace-atomic-funcs: @_Z14atomic_cmpxchgPU3AS3Vjjj is uint atomic_cmpxchg(volatile __local uint *, uint, uint): its declaration must be (!llvm.ptr<3> or memref<...xi32, 3>, i32, i32) -> i32, got (!llvm.ptr<3>, i32, i32) -> i1

// -----

// No result.
func.func private @_Z10atomic_incPU3AS1Vi(!llvm.ptr<1>)
// CHECK: replace-atomic-funcs: @_Z10atomic_incPU3AS1Vi is int atomic_inc(volatile __global int *): its declaration must be (!llvm.ptr<1> or memref<...xi32, 1>) -> i32, got (!llvm.ptr<1>)

// -----

// The pointer is in another address space than the name says.
func.func private @_Z10atomic_subPU3AS3Vii(!llvm.ptr<1>, i32) -> i32
// CHECK: replace-atomic-funcs: @_Z10atomic_subPU3AS3Vii is int atomic_sub(volatile __local int *, int): its declaration must be (!llvm.ptr<3> or memref<...xi32, 3>, i32) -> i32, got (!llvm.ptr<1>, i32) -> i32

// -----

// A memref of another element type.
func.func private @_Z11atomic_xchgPU3AS1Vff(memref<?xi32, 1>, f32) -> f32
// CHECK: replace-atomic-funcs: @_Z11atomic_xchgPU3AS1Vff is float atomic_xchg(volatile __global float *, float): its declaration must be (!llvm.ptr<1> or memref<...xf32, 1>, f32) -> f32, got (memref<?xi32, 1 : i64>, f32) -> f32

// -----

// A value that is not a pointer.
func.func private @_Z9atomic_orPU3AS1Vjj(i64, i32) -> i32
// CHECK: replace-atomic-funcs: @_Z9atomic_orPU3AS1Vjj is uint atomic_or(volatile __global uint *, uint): its declaration must be (!llvm.ptr<1> or memref<...xi32, 1>, i32) -> i32, got (i64, i32) -> i32

// -----

// A memref result.
func.func private @_Z10atomic_minPU3AS3Vii(memref<?xi32, 3>, i32) -> memref<?xi32, 3>
// CHECK: replace-atomic-funcs: @_Z10atomic_minPU3AS3Vii is int atomic_min(volatile __local int *, int): its declaration must be (!llvm.ptr<3> or memref<...xi32, 3>, i32) -> i32, got (memref<?xi32, 3 : i64>, i32) -> memref<?xi32, 3 : i64>

// -----

// An atomic object is in __global, __local or generic memory, never __constant.
func.func private @_Z10atomic_addPU3AS2Vii(!llvm.ptr<2>, i32) -> i32
// CHECK: replace-atomic-funcs: @_Z10atomic_addPU3AS2Vii: atomic_add takes a __global (AS1), __local (AS3) or generic (AS4) pointer, the name has AS2

// -----

// OpenCL 2.0: atomic_store returns nothing.
func.func private @_Z12atomic_storePU3AS1VU7_Atomicii(!llvm.ptr<1>, i32) -> i32
// CHECK: replace-atomic-funcs: @_Z12atomic_storePU3AS1VU7_Atomicii is void atomic_store(volatile __global atomic_int *, int): its declaration must be (!llvm.ptr<1> or memref<...xi32, 1>, i32), got (!llvm.ptr<1>, i32) -> i32

// -----

// The memory_order and memory_scope arguments are i32 (the enums).
func.func private @_Z25atomic_fetch_add_explicitPU3AS3VU7_Atomicii12memory_order12memory_scope(!llvm.ptr<3>, i32, i64, i32) -> i32
// CHECK: replace-atomic-funcs: @_Z25atomic_fetch_add_explicitPU3AS3VU7_Atomicii12memory_order12memory_scope is int atomic_fetch_add_explicit(volatile __local atomic_int *, int, memory_order, memory_scope): its declaration must be (!llvm.ptr<3> or memref<...xi32, 3>, i32, i32, i32) -> i32, got (!llvm.ptr<3>, i32, i64, i32) -> i32

// -----

func.func private @_Z22atomic_work_item_fencej12memory_order12memory_scope(i32, i32)
// CHECK: replace-atomic-funcs: @_Z22atomic_work_item_fencej12memory_order12memory_scope is void atomic_work_item_fence(cl_mem_fence_flags, memory_order, memory_scope): its declaration must be (i32, i32, i32), got (i32, i32)

// -----

// A memory_order that is not a constant: the ordering of an LLVM instruction is.
func.func private @_Z25atomic_fetch_add_explicitPU3AS1VU7_Atomicii12memory_order(!llvm.ptr<1>, i32, i32) -> i32
func.func @variable_order(%p: !llvm.ptr<1>, %v: i32, %order: i32) -> i32 {
  %0 = func.call @_Z25atomic_fetch_add_explicitPU3AS1VU7_Atomicii12memory_order(%p, %v, %order) : (!llvm.ptr<1>, i32, i32) -> i32
  func.return %0 : i32
}
// CHECK: replace-atomic-funcs: @_Z25atomic_fetch_add_explicitPU3AS1VU7_Atomicii12memory_order: the memory_order argument must be a constant (0 relaxed, 2 acquire, 3 release, 4 acq_rel, 5 seq_cst)

// -----

// An unknown memory_order (1 would be C11's consume, which OpenCL does not have).
func.func private @_Z25atomic_fetch_sub_explicitPU3AS1VU7_Atomicii12memory_order(!llvm.ptr<1>, i32, i32) -> i32
func.func @consume(%p: !llvm.ptr<1>, %v: i32) -> i32 {
  %consume = arith.constant 1 : i32
  %0 = func.call @_Z25atomic_fetch_sub_explicitPU3AS1VU7_Atomicii12memory_order(%p, %v, %consume) : (!llvm.ptr<1>, i32, i32) -> i32
  func.return %0 : i32
}
// CHECK: replace-atomic-funcs: @_Z25atomic_fetch_sub_explicitPU3AS1VU7_Atomicii12memory_order: unknown memory_order 1 (0 relaxed, 2 acquire, 3 release, 4 acq_rel, 5 seq_cst)

// -----

func.func private @_Z22atomic_work_item_fencej12memory_order12memory_scope(i32, i32, i32)
func.func @fence_seven(%flags: i32) {
  %seven = arith.constant 7 : i32
  func.call @_Z22atomic_work_item_fencej12memory_order12memory_scope(%flags, %seven, %flags) : (i32, i32, i32) -> ()
  func.return
}
// CHECK: replace-atomic-funcs: @_Z22atomic_work_item_fencej12memory_order12memory_scope: unknown memory_order 7

// -----

// A release load and an acquire store do not exist.
func.func private @_Z20atomic_load_explicitPU3AS1VU7_Atomici12memory_order(!llvm.ptr<1>, i32) -> i32
func.func @release_load(%p: !llvm.ptr<1>) -> i32 {
  %release = arith.constant 3 : i32
  %0 = func.call @_Z20atomic_load_explicitPU3AS1VU7_Atomici12memory_order(%p, %release) : (!llvm.ptr<1>, i32) -> i32
  func.return %0 : i32
}
// CHECK: replace-atomic-funcs: @_Z20atomic_load_explicitPU3AS1VU7_Atomici12memory_order: memory_order 3 (release) is not an ordering of an atomic load

// -----

func.func private @_Z21atomic_store_explicitPU3AS3VU7_Atomicll12memory_order(!llvm.ptr<3>, i64, i32)
func.func @acq_rel_store(%p: !llvm.ptr<3>, %v: i64) {
  %acq_rel = arith.constant 4 : i32
  func.call @_Z21atomic_store_explicitPU3AS3VU7_Atomicll12memory_order(%p, %v, %acq_rel) : (!llvm.ptr<3>, i64, i32) -> ()
  func.return
}
// CHECK: replace-atomic-funcs: @_Z21atomic_store_explicitPU3AS3VU7_Atomicll12memory_order: memory_order 4 (acq_rel) is not an ordering of an atomic store

// -----

// compare_exchange returns a bool (i1), and its expected pointer is in the space its
// name says.
func.func private @_Z30atomic_compare_exchange_strongPU3AS4VU7_AtomiciPU3AS4ii(!llvm.ptr<4>, !llvm.ptr<4>, i32) -> i32
// CHECK: replace-atomic-funcs: @_Z30atomic_compare_exchange_strongPU3AS4VU7_AtomiciPU3AS4ii is bool atomic_compare_exchange_strong(volatile __generic atomic_int *, __generic int *, int): its declaration must be (a pointer or memref<...xi32> in any non-constant space, a pointer or memref<...xi32> in any non-constant space, i32) -> i1, got (!llvm.ptr<4>, !llvm.ptr<4>, i32) -> i32

// -----

func.func private @_Z28atomic_compare_exchange_weakPU3AS4VU7_AtomiclPll(!llvm.ptr<4>, !llvm.ptr<4>, i64) -> i1
// CHECK: replace-atomic-funcs: @_Z28atomic_compare_exchange_weakPU3AS4VU7_AtomiclPll is bool atomic_compare_exchange_weak(volatile __generic atomic_long *, long *, long): its declaration must be (a pointer or memref<...xi64> in any non-constant space, !llvm.ptr or memref<...xi64>, i64) -> i1, got (!llvm.ptr<4>, !llvm.ptr<4>, i64) -> i1

// -----

// A failed compare-exchange stores nothing: its order cannot be release or acq_rel.
func.func private @_Z39atomic_compare_exchange_strong_explicitPU3AS4VU7_AtomiciPU3AS4ii12memory_orderS4_(!llvm.ptr<4>, !llvm.ptr<4>, i32, i32, i32) -> i1
func.func @failure_release(%p: !llvm.ptr<4>, %e: !llvm.ptr<4>, %v: i32) -> i1 {
  %acq_rel = arith.constant 4 : i32
  %release = arith.constant 3 : i32
  %0 = func.call @_Z39atomic_compare_exchange_strong_explicitPU3AS4VU7_AtomiciPU3AS4ii12memory_orderS4_(%p, %e, %v, %acq_rel, %release) : (!llvm.ptr<4>, !llvm.ptr<4>, i32, i32, i32) -> i1
  func.return %0 : i1
}
// CHECK: replace-atomic-funcs: @_Z39atomic_compare_exchange_strong_explicitPU3AS4VU7_AtomiciPU3AS4ii12memory_orderS4_: memory_order 3 (release) is not an ordering of the failure of a compare-exchange

// -----

// A float compare-exchange compares bits: its object must be a pointer.
func.func private @_Z30atomic_compare_exchange_strongPU3AS1VU7_AtomicfPff(memref<?xf32, 1>, !llvm.ptr, f32) -> i1
// CHECK: replace-atomic-funcs: @_Z30atomic_compare_exchange_strongPU3AS1VU7_AtomicfPff: a compare-exchange of float compares the bits as an integer, which needs an !llvm.ptr object, got memref<?xf32, 1 : i64>

// -----

// atomic_flag_clear is a store: not acquire.
func.func private @_Z26atomic_flag_clear_explicitPU3AS4VU7_Atomici12memory_order(!llvm.ptr<4>, i32)
func.func @acquire_clear(%p: !llvm.ptr<4>) {
  %acquire = arith.constant 2 : i32
  func.call @_Z26atomic_flag_clear_explicitPU3AS4VU7_Atomici12memory_order(%p, %acquire) : (!llvm.ptr<4>, i32) -> ()
  func.return
}
// CHECK: replace-atomic-funcs: @_Z26atomic_flag_clear_explicitPU3AS4VU7_Atomici12memory_order: memory_order 2 (acquire) is not an ordering of an atomic store

// -----

// A generic pointer may point anywhere but to __constant memory.
func.func private @_Z11atomic_loadPU3AS4VU7_Atomici(!llvm.ptr<2>) -> i32
// CHECK: replace-atomic-funcs: @_Z11atomic_loadPU3AS4VU7_Atomici is int atomic_load(volatile __generic atomic_int *): its declaration must be (a pointer or memref<...xi32> in any non-constant space) -> i32, got (!llvm.ptr<2>) -> i32
