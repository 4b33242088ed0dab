// RUN: mux-opt %s --split-input-file -p replace-atomic-funcs | filecheck %s
//
// replace-atomic-funcs: calls of OpenCL's atomic functions, by their SPIR-mangled
// names, become atomic ops (monotonic); their declarations go. The mangling selects
// the operation: uint/ulong make min/max unsigned, inc/dec add/subtract 1,
// cmpxchg is a strong cmpxchg whose old value is the call's result.

func.func private @_Z10atomic_addPU3AS1Vii(!llvm.ptr<1>, i32) -> i32
func.func private @_Z10atomic_subPU3AS3Vjj(!llvm.ptr<3>, i32) -> i32
func.func private @_Z11atomic_xchgPU3AS1Vii(!llvm.ptr<1>, i32) -> i32
func.func private @_Z11atomic_xchgPU3AS3Vff(!llvm.ptr<3>, f32) -> f32
func.func private @_Z10atomic_minPU3AS1Vii(!llvm.ptr<1>, i32) -> i32
func.func private @_Z10atomic_minPU3AS1Vjj(!llvm.ptr<1>, i32) -> i32
func.func private @_Z10atomic_maxPU3AS3Vii(!llvm.ptr<3>, i32) -> i32
func.func private @_Z10atomic_maxPU3AS3Vjj(!llvm.ptr<3>, i32) -> i32
func.func private @_Z10atomic_andPU3AS1Vjj(!llvm.ptr<1>, i32) -> i32
func.func private @_Z9atomic_orPU3AS1Vii(!llvm.ptr<1>, i32) -> i32
func.func private @_Z10atomic_xorPU3AS3Vjj(!llvm.ptr<3>, i32) -> i32
func.func private @_Z10atomic_incPU3AS1Vi(!llvm.ptr<1>) -> i32
func.func private @_Z10atomic_decPU3AS3Vj(!llvm.ptr<3>) -> i32
func.func private @_Z14atomic_cmpxchgPU3AS1Viii(!llvm.ptr<1>, i32, i32) -> i32

// CHECK-NOT: func.func private @_Z
// CHECK-LABEL: func.func @atomic_int
func.func @atomic_int(%g: !llvm.ptr<1>, %l: !llvm.ptr<3>, %v: i32, %f: f32) -> i32 {
  // CHECK-NEXT: %{{.*}} = atomic.rmw add monotonic %g, %v : !llvm.ptr<1>, i32
  // CHECK-NEXT: %{{.*}} = atomic.rmw sub monotonic %l, %v : !llvm.ptr<3>, i32
  // CHECK-NEXT: %{{.*}} = atomic.rmw xchg monotonic %g, %v : !llvm.ptr<1>, i32
  // CHECK-NEXT: %{{.*}} = atomic.rmw xchg monotonic %l, %f : !llvm.ptr<3>, f32
  // CHECK-NEXT: %{{.*}} = atomic.rmw min monotonic %g, %v : !llvm.ptr<1>, i32
  // CHECK-NEXT: %{{.*}} = atomic.rmw umin monotonic %g, %v : !llvm.ptr<1>, i32
  // CHECK-NEXT: %{{.*}} = atomic.rmw max monotonic %l, %v : !llvm.ptr<3>, i32
  // CHECK-NEXT: %{{.*}} = atomic.rmw umax monotonic %l, %v : !llvm.ptr<3>, i32
  // CHECK-NEXT: %{{.*}} = atomic.rmw and monotonic %g, %v : !llvm.ptr<1>, i32
  // CHECK-NEXT: %{{.*}} = atomic.rmw or monotonic %g, %v : !llvm.ptr<1>, i32
  // CHECK-NEXT: %{{.*}} = atomic.rmw xor monotonic %l, %v : !llvm.ptr<3>, i32
  // CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
  // CHECK-NEXT: %{{.*}} = atomic.rmw add monotonic %g, %[[ONE]] : !llvm.ptr<1>, i32
  // CHECK-NEXT: %[[ONE2:.*]] = arith.constant 1 : i32
  // CHECK-NEXT: %{{.*}} = atomic.rmw sub monotonic %l, %[[ONE2]] : !llvm.ptr<3>, i32
  // CHECK-NEXT: %[[OLD:.*]], %{{.*}} = atomic.cmpxchg monotonic monotonic %g, %v, %{{.*}} : !llvm.ptr<1>, i32
  // CHECK-NEXT: func.return %[[OLD]] : i32
  %0 = func.call @_Z10atomic_addPU3AS1Vii(%g, %v) : (!llvm.ptr<1>, i32) -> i32
  %1 = func.call @_Z10atomic_subPU3AS3Vjj(%l, %v) : (!llvm.ptr<3>, i32) -> i32
  %2 = func.call @_Z11atomic_xchgPU3AS1Vii(%g, %v) : (!llvm.ptr<1>, i32) -> i32
  %3 = func.call @_Z11atomic_xchgPU3AS3Vff(%l, %f) : (!llvm.ptr<3>, f32) -> f32
  %4 = func.call @_Z10atomic_minPU3AS1Vii(%g, %v) : (!llvm.ptr<1>, i32) -> i32
  %5 = func.call @_Z10atomic_minPU3AS1Vjj(%g, %v) : (!llvm.ptr<1>, i32) -> i32
  %6 = func.call @_Z10atomic_maxPU3AS3Vii(%l, %v) : (!llvm.ptr<3>, i32) -> i32
  %7 = func.call @_Z10atomic_maxPU3AS3Vjj(%l, %v) : (!llvm.ptr<3>, i32) -> i32
  %8 = func.call @_Z10atomic_andPU3AS1Vjj(%g, %v) : (!llvm.ptr<1>, i32) -> i32
  %9 = func.call @_Z9atomic_orPU3AS1Vii(%g, %v) : (!llvm.ptr<1>, i32) -> i32
  %10 = func.call @_Z10atomic_xorPU3AS3Vjj(%l, %v) : (!llvm.ptr<3>, i32) -> i32
  %11 = func.call @_Z10atomic_incPU3AS1Vi(%g) : (!llvm.ptr<1>) -> i32
  %12 = func.call @_Z10atomic_decPU3AS3Vj(%l) : (!llvm.ptr<3>) -> i32
  %13 = func.call @_Z14atomic_cmpxchgPU3AS1Viii(%g, %v, %0) : (!llvm.ptr<1>, i32, i32) -> i32
  func.return %13 : i32
}

// -----

// The 64-bit functions of cl_khr_int64_base/extended_atomics (`atom_`), with and
// without the volatile qualifier, on memrefs: the atomic addresses element 0.

func.func private @_Z8atom_addPU3AS1Vll(memref<?xi64, 1>, i64) -> i64
func.func private @_Z8atom_maxPU3AS3Vmm(memref<4x4xi64, 3>, i64) -> i64
func.func private @_Z8atom_incPU3AS1l(memref<?xi64, 1>) -> i64
func.func private @_Z12atom_cmpxchgPU3AS3Vmmm(memref<4x4xi64, 3>, i64, i64) -> i64
func.func private @_Z10atomic_addPU3AS1Vii(memref<256xi32, 1>, i32) -> i32

// CHECK-NOT: func.func private @_Z
// CHECK-LABEL: func.func @atom_long
func.func @atom_long(%g: memref<?xi64, 1>, %l: memref<4x4xi64, 3>, %w: i64, %b: memref<256xi32, 1>, %v: i32) {
  // CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : index
  // CHECK-NEXT: %{{.*}} = atomic.rmw add monotonic %g[%[[Z]]], %w : memref<?xi64, 1 : i64>
  // CHECK-NEXT: %[[Z2:.*]] = arith.constant 0 : index
  // CHECK-NEXT: %{{.*}} = atomic.rmw umax monotonic %l[%[[Z2]], %[[Z2]]], %w : memref<4x4xi64, 3 : i64>
  // CHECK-NEXT: %[[Z3:.*]] = arith.constant 0 : index
  // CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i64
  // CHECK-NEXT: %{{.*}} = atomic.rmw add monotonic %g[%[[Z3]]], %[[ONE]] : memref<?xi64, 1 : i64>
  // CHECK-NEXT: %[[Z4:.*]] = arith.constant 0 : index
  // CHECK-NEXT: %{{.*}}, %{{.*}} = atomic.cmpxchg monotonic monotonic %l[%[[Z4]], %[[Z4]]], %w, %w : memref<4x4xi64, 3 : i64>
  // CHECK-NEXT: %[[Z5:.*]] = arith.constant 0 : index
  // CHECK-NEXT: %{{.*}} = atomic.rmw add monotonic %b[%[[Z5]]], %v : memref<256xi32, 1 : i64>
  %0 = func.call @_Z8atom_addPU3AS1Vll(%g, %w) : (memref<?xi64, 1>, i64) -> i64
  %1 = func.call @_Z8atom_maxPU3AS3Vmm(%l, %w) : (memref<4x4xi64, 3>, i64) -> i64
  %2 = func.call @_Z8atom_incPU3AS1l(%g) : (memref<?xi64, 1>) -> i64
  %3 = func.call @_Z12atom_cmpxchgPU3AS3Vmmm(%l, %w, %w) : (memref<4x4xi64, 3>, i64, i64) -> i64
  %4 = func.call @_Z10atomic_addPU3AS1Vii(%b, %v) : (memref<256xi32, 1>, i32) -> i32
  func.return
}

// -----

// Left alone: names that are not OpenCL atomic functions (a wrong length, no
// address space, an unknown operation, a float add in OpenCL 1.x, a float xor),
// functions with a body, and other calls.

func.func private @_Z11atomic_addPU3AS1Vii(!llvm.ptr<1>, i32) -> i32
func.func private @_Z10atomic_addPVii(!llvm.ptr, i32) -> i32
func.func private @_Z11atomic_nandPU3AS1Vii(!llvm.ptr<1>, i32) -> i32
func.func private @_Z10atomic_addPU3AS1Vff(!llvm.ptr<1>, f32) -> f32
func.func private @_Z16atomic_fetch_xorPU3AS1VU7_Atomicff(!llvm.ptr<1>, f32) -> f32
func.func @_Z10atomic_subPU3AS1Vii(%p: !llvm.ptr<1>, %v: i32) -> i32 {
  func.return %v : i32
}

// CHECK: func.func private @_Z11atomic_addPU3AS1Vii
// CHECK: func.func private @_Z10atomic_addPVii
// CHECK: func.func private @_Z11atomic_nandPU3AS1Vii
// CHECK: func.func private @_Z10atomic_addPU3AS1Vff
// CHECK: func.func private @_Z16atomic_fetch_xorPU3AS1VU7_Atomicff
// CHECK: func.func @_Z10atomic_subPU3AS1Vii
// CHECK-LABEL: func.func @others
// CHECK-NOT: atomic.
func.func @others(%g: !llvm.ptr<1>, %p: !llvm.ptr, %v: i32, %f: f32) {
  %0 = func.call @_Z11atomic_addPU3AS1Vii(%g, %v) : (!llvm.ptr<1>, i32) -> i32
  %1 = func.call @_Z10atomic_addPVii(%p, %v) : (!llvm.ptr, i32) -> i32
  %2 = func.call @_Z11atomic_nandPU3AS1Vii(%g, %v) : (!llvm.ptr<1>, i32) -> i32
  %3 = func.call @_Z10atomic_addPU3AS1Vff(%g, %f) : (!llvm.ptr<1>, f32) -> f32
  %4 = func.call @_Z16atomic_fetch_xorPU3AS1VU7_Atomicff(%g, %f) : (!llvm.ptr<1>, f32) -> f32
  %5 = func.call @_Z10atomic_subPU3AS1Vii(%g, %v) : (!llvm.ptr<1>, i32) -> i32
  func.return
}

// -----

// OpenCL 2.0: atomic_fetch_<op>, atomic_exchange, atomic_load, atomic_store are
// seq_cst; their _explicit forms take the ordering of their constant memory_order
// (0 relaxed = monotonic, 2 acquire, 3 release, 4 acq_rel, 5 seq_cst), the scope
// is dropped. Float fetch_add/sub/min/max are fadd/fsub/fmin/fmax. A relaxed
// atomic_work_item_fence goes, the others are fences.

func.func private @_Z16atomic_fetch_addPU3AS1VU7_Atomicii(!llvm.ptr<1>, i32) -> i32
func.func private @_Z25atomic_fetch_max_explicitPU3AS3VU7_Atomicjj12memory_order(!llvm.ptr<3>, i32, i32) -> i32
func.func private @_Z25atomic_fetch_min_explicitPU3AS1VU7_Atomicll12memory_order12memory_scope(memref<?xi64, 1>, i64, i32, i32) -> i64
func.func private @_Z25atomic_fetch_add_explicitPU3AS1VU7_Atomicff12memory_order12memory_scope(!llvm.ptr<1>, f32, i32, i32) -> f32
func.func private @_Z16atomic_fetch_subPU3AS3VU7_Atomicff(!llvm.ptr<3>, f32) -> f32
func.func private @_Z15atomic_exchangePU3AS1VU7_Atomicmm(!llvm.ptr<1>, i64) -> i64
func.func private @_Z11atomic_loadPU3AS1VU7_Atomici(!llvm.ptr<1>) -> i32
func.func private @_Z20atomic_load_explicitPU3AS3VU7_Atomicf12memory_order(!llvm.ptr<3>, i32) -> f32
func.func private @_Z12atomic_storePU3AS1VU7_Atomicii(!llvm.ptr<1>, i32)
func.func private @_Z21atomic_store_explicitPU3AS1VU7_Atomicjj12memory_order12memory_scope(memref<?xi32, 1>, i32, i32, i32)
func.func private @_Z22atomic_work_item_fencej12memory_order12memory_scope(i32, i32, i32)

// CHECK-NOT: func.func private @_Z
// CHECK-LABEL: func.func @opencl_20
func.func @opencl_20(%g: !llvm.ptr<1>, %l: !llvm.ptr<3>, %m: memref<?xi64, 1>, %u: memref<?xi32, 1>, %v: i32, %w: i64, %f: f32) {
  %relaxed = arith.constant 0 : i32
  %acquire = arith.constant 2 : i32
  %release = arith.constant 3 : i32
  %acq_rel = arith.constant 4 : i32
  %seq_cst = arith.constant 5 : i32
  %scope = arith.constant 2 : i32
  %flags = arith.constant 1 : i32
  // CHECK:      %{{.*}} = atomic.rmw add seq_cst %g, %v : !llvm.ptr<1>, i32
  // CHECK-NEXT: %{{.*}} = atomic.rmw umax acq_rel %l, %v : !llvm.ptr<3>, i32
  // CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : index
  // CHECK-NEXT: %{{.*}} = atomic.rmw min monotonic %m[%[[Z]]], %w : memref<?xi64, 1 : i64>
  // CHECK-NEXT: %{{.*}} = atomic.rmw fadd release %g, %f : !llvm.ptr<1>, f32
  // CHECK-NEXT: %{{.*}} = atomic.rmw fsub seq_cst %l, %f : !llvm.ptr<3>, f32
  // CHECK-NEXT: %{{.*}} = atomic.rmw xchg seq_cst %g, %w : !llvm.ptr<1>, i64
  // CHECK-NEXT: %{{.*}} = atomic.load seq_cst %g : !llvm.ptr<1>, i32
  // CHECK-NEXT: %{{.*}} = atomic.load acquire %l : !llvm.ptr<3>, f32
  // CHECK-NEXT: atomic.store seq_cst %v, %g : !llvm.ptr<1>, i32
  // CHECK-NEXT: %[[Z2:.*]] = arith.constant 0 : index
  // CHECK-NEXT: atomic.store monotonic %v, %u[%[[Z2]]] : memref<?xi32, 1 : i64>
  // CHECK-NEXT: atomic.fence acq_rel
  // CHECK-NEXT: atomic.fence seq_cst
  // CHECK-NEXT: func.return
  %0 = func.call @_Z16atomic_fetch_addPU3AS1VU7_Atomicii(%g, %v) : (!llvm.ptr<1>, i32) -> i32
  %1 = func.call @_Z25atomic_fetch_max_explicitPU3AS3VU7_Atomicjj12memory_order(%l, %v, %acq_rel) : (!llvm.ptr<3>, i32, i32) -> i32
  %2 = func.call @_Z25atomic_fetch_min_explicitPU3AS1VU7_Atomicll12memory_order12memory_scope(%m, %w, %relaxed, %scope) : (memref<?xi64, 1>, i64, i32, i32) -> i64
  %3 = func.call @_Z25atomic_fetch_add_explicitPU3AS1VU7_Atomicff12memory_order12memory_scope(%g, %f, %release, %scope) : (!llvm.ptr<1>, f32, i32, i32) -> f32
  %4 = func.call @_Z16atomic_fetch_subPU3AS3VU7_Atomicff(%l, %f) : (!llvm.ptr<3>, f32) -> f32
  %5 = func.call @_Z15atomic_exchangePU3AS1VU7_Atomicmm(%g, %w) : (!llvm.ptr<1>, i64) -> i64
  %6 = func.call @_Z11atomic_loadPU3AS1VU7_Atomici(%g) : (!llvm.ptr<1>) -> i32
  %7 = func.call @_Z20atomic_load_explicitPU3AS3VU7_Atomicf12memory_order(%l, %acquire) : (!llvm.ptr<3>, i32) -> f32
  func.call @_Z12atomic_storePU3AS1VU7_Atomicii(%g, %v) : (!llvm.ptr<1>, i32) -> ()
  func.call @_Z21atomic_store_explicitPU3AS1VU7_Atomicjj12memory_order12memory_scope(%u, %v, %relaxed, %scope) : (memref<?xi32, 1>, i32, i32, i32) -> ()
  func.call @_Z22atomic_work_item_fencej12memory_order12memory_scope(%flags, %relaxed, %scope) : (i32, i32, i32) -> ()
  func.call @_Z22atomic_work_item_fencej12memory_order12memory_scope(%flags, %acq_rel, %scope) : (i32, i32, i32) -> ()
  func.call @_Z22atomic_work_item_fencej12memory_order12memory_scope(%flags, %seq_cst, %scope) : (i32, i32, i32) -> ()
  func.return
}
