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

// -----

// OpenCL C 2.0 and 3.0 name generic pointers (AS4): the object is an !llvm.ptr<4>
// from an llvmx.addrspacecast of a buffer (a memref parameter cast at entry, as the
// LLVM IR importer makes it) or of a __local variable (a memref.global), or a memref
// of any space (hand-written). Every space is one memory on the host, so the atomic
// takes the generic pointer as it is. double is one of the types; atomic_init is a
// monotonic store; the orderings and scopes are the calls'.

"memref.global"() <{sym_name = "counter", type = memref<1xi32, 3 : i64>, initial_value, sym_visibility = "private"}> : () -> ()

func.func private @_Z25atomic_fetch_add_explicitPU3AS4VU7_Atomicii12memory_order12memory_scope(!llvm.ptr<4>, i32, i32, i32) -> i32
func.func private @_Z12atomic_storePU3AS4VU7_Atomicll(!llvm.ptr<4>, i64)
func.func private @_Z20atomic_load_explicitPU3AS4VU7_Atomicd12memory_order12memory_scope(!llvm.ptr<4>, i32, i32) -> f64
func.func private @_Z24atomic_exchange_explicitPU3AS4VU7_Atomicdd12memory_order12memory_scope(!llvm.ptr<4>, f64, i32, i32) -> f64
func.func private @_Z11atomic_initPU3AS4VU7_Atomicff(!llvm.ptr<4>, f32)
func.func private @_Z16atomic_fetch_maxPU3AS4VU7_Atomicjj(memref<?xi32, 1>, i32) -> i32

// CHECK-NOT: func.func private @_Z
// CHECK-LABEL: func.func @generic
func.func @generic(%buf: memref<?xi32, 1>, %v: i32, %w: i64, %f: f32, %d: f64) {
  %relaxed = llvm.mlir.constant(0 : i32) : i32
  %acquire = llvm.mlir.constant(2 : i32) : i32
  %acq_rel = llvm.mlir.constant(4 : i32) : i32
  %device = llvm.mlir.constant(2 : i32) : i32
  %p = builtin.unrealized_conversion_cast %buf : memref<?xi32, 1> to !llvm.ptr<1>
  %g = llvmx.addrspacecast %p : !llvm.ptr<1> to !llvm.ptr<4>
  %c = memref.get_global @counter : memref<1xi32, 3>
  %l = builtin.unrealized_conversion_cast %c : memref<1xi32, 3> to !llvm.ptr<3>
  %lg = llvmx.addrspacecast %l : !llvm.ptr<3> to !llvm.ptr<4>
  // CHECK:      %[[G:.*]] = llvmx.addrspacecast %{{.*}} : !llvm.ptr<1> to !llvm.ptr<4>
  // CHECK:      %[[LG:.*]] = llvmx.addrspacecast %{{.*}} : !llvm.ptr<3> to !llvm.ptr<4>
  // CHECK-NEXT: %{{.*}} = atomic.rmw add monotonic %[[G]], %v : !llvm.ptr<4>, i32
  // CHECK-NEXT: %{{.*}} = atomic.rmw add monotonic %[[LG]], %v : !llvm.ptr<4>, i32
  // CHECK-NEXT: atomic.store seq_cst %w, %[[G]] : !llvm.ptr<4>, i64
  // CHECK-NEXT: %{{.*}} = atomic.load acquire %[[G]] : !llvm.ptr<4>, f64
  // CHECK-NEXT: %{{.*}} = atomic.rmw xchg acq_rel %[[LG]], %d : !llvm.ptr<4>, f64
  // CHECK-NEXT: atomic.store monotonic %f, %[[LG]] : !llvm.ptr<4>, f32
  // CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : index
  // CHECK-NEXT: %{{.*}} = atomic.rmw umax seq_cst %buf[%[[Z]]], %v : memref<?xi32, 1 : i64>
  // CHECK-NEXT: func.return
  %0 = func.call @_Z25atomic_fetch_add_explicitPU3AS4VU7_Atomicii12memory_order12memory_scope(%g, %v, %relaxed, %device) : (!llvm.ptr<4>, i32, i32, i32) -> i32
  %1 = func.call @_Z25atomic_fetch_add_explicitPU3AS4VU7_Atomicii12memory_order12memory_scope(%lg, %v, %relaxed, %device) : (!llvm.ptr<4>, i32, i32, i32) -> i32
  func.call @_Z12atomic_storePU3AS4VU7_Atomicll(%g, %w) : (!llvm.ptr<4>, i64) -> ()
  %2 = func.call @_Z20atomic_load_explicitPU3AS4VU7_Atomicd12memory_order12memory_scope(%g, %acquire, %device) : (!llvm.ptr<4>, i32, i32) -> f64
  %3 = func.call @_Z24atomic_exchange_explicitPU3AS4VU7_Atomicdd12memory_order12memory_scope(%lg, %d, %acq_rel, %device) : (!llvm.ptr<4>, f64, i32, i32) -> f64
  func.call @_Z11atomic_initPU3AS4VU7_Atomicff(%lg, %f) : (!llvm.ptr<4>, f32) -> ()
  %4 = func.call @_Z16atomic_fetch_maxPU3AS4VU7_Atomicjj(%buf, %v) : (memref<?xi32, 1>, i32) -> i32
  func.return
}

// -----

// compare_exchange (bool; the second memory_order is the substitution S4_): a
// cmpxchg of *expected and desired, strong or weak; when it fails, the value found
// goes to *expected (an scf.if), which may be generic or private (an alloca) memory,
// or a memref. Without _explicit both orderings are seq_cst; a failure ordering
// stronger than the success one raises it (release + seq_cst: seq_cst). Floats are
// exchanged as their bits.

func.func private @_Z39atomic_compare_exchange_strong_explicitPU3AS4VU7_AtomiciPU3AS4ii12memory_orderS4_12memory_scope(!llvm.ptr<4>, !llvm.ptr<4>, i32, i32, i32, i32) -> i1
func.func private @_Z28atomic_compare_exchange_weakPU3AS4VU7_AtomicmPmm(!llvm.ptr<4>, !llvm.ptr, i64) -> i1
func.func private @_Z37atomic_compare_exchange_weak_explicitPU3AS4VU7_AtomicfPU3AS4ff12memory_orderS4_(!llvm.ptr<4>, !llvm.ptr<4>, f32, i32, i32) -> i1
func.func private @_Z30atomic_compare_exchange_strongPU3AS3VU7_AtomiciPU3AS1ii(memref<?xi32, 3>, memref<?xi32, 1>, i32) -> i1

// CHECK-NOT: func.func private @_Z
// CHECK-LABEL: func.func @compare_exchange
func.func @compare_exchange(%obj: !llvm.ptr<4>, %exp: !llvm.ptr<4>, %v: i32, %w: i64, %f: f32, %lobj: memref<?xi32, 3>, %gexp: memref<?xi32, 1>) -> i1 {
  %relaxed = llvm.mlir.constant(0 : i32) : i32
  %acquire = llvm.mlir.constant(2 : i32) : i32
  %release = llvm.mlir.constant(3 : i32) : i32
  %seq_cst = llvm.mlir.constant(5 : i32) : i32
  %scope = llvm.mlir.constant(1 : i32) : i32
  %one = llvm.mlir.constant(1 : i32) : i32
  %private = llvm.alloca %one x i64 : (i32) -> !llvm.ptr
  // CHECK:      %[[E:.*]] = llvm.load %exp : !llvm.ptr<4> -> i32
  // CHECK-NEXT: %[[OLD:.*]], %[[OK:.*]] = atomic.cmpxchg acquire monotonic %obj, %[[E]], %v : !llvm.ptr<4>, i32
  // CHECK-NEXT: %[[T:.*]] = arith.constant true
  // CHECK-NEXT: %[[FAILED:.*]] = arith.xori %[[OK]], %[[T]] : i1
  // CHECK-NEXT: scf.if %[[FAILED]] {
  // CHECK-NEXT:   llvm.store %[[OLD]], %exp : i32, !llvm.ptr<4>
  // CHECK-NEXT: }
  // CHECK-NEXT: %[[E2:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
  // CHECK-NEXT: %[[OLD2:.*]], %[[OK2:.*]] = atomic.cmpxchg weak seq_cst seq_cst %obj, %[[E2]], %w : !llvm.ptr<4>, i64
  // CHECK:      scf.if
  // CHECK-NEXT:   llvm.store %[[OLD2]], %{{.*}} : i64, !llvm.ptr
  // CHECK-NEXT: }
  // CHECK-NEXT: %[[E3:.*]] = llvm.load %exp : !llvm.ptr<4> -> f32
  // CHECK-NEXT: %[[E3I:.*]] = arith.bitcast %[[E3]] : f32 to i32
  // CHECK-NEXT: %[[FI:.*]] = arith.bitcast %f : f32 to i32
  // CHECK-NEXT: %[[OLD3:.*]], %{{.*}} = atomic.cmpxchg weak seq_cst seq_cst %obj, %[[E3I]], %[[FI]] : !llvm.ptr<4>, i32
  // CHECK:      scf.if
  // CHECK-NEXT:   %[[OLD3F:.*]] = arith.bitcast %[[OLD3]] : i32 to f32
  // CHECK-NEXT:   llvm.store %[[OLD3F]], %exp : f32, !llvm.ptr<4>
  // CHECK-NEXT: }
  // CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : index
  // CHECK-NEXT: %[[E4:.*]] = memref.load %gexp[%[[Z]]] : memref<?xi32, 1 : i64>
  // CHECK-NEXT: %[[Z2:.*]] = arith.constant 0 : index
  // CHECK-NEXT: %[[OLD4:.*]], %[[OK4:.*]] = atomic.cmpxchg seq_cst seq_cst %lobj[%[[Z2]]], %[[E4]], %v : memref<?xi32, 3 : i64>
  // CHECK:      scf.if
  // CHECK-NEXT:   %[[Z3:.*]] = arith.constant 0 : index
  // CHECK-NEXT:   memref.store %[[OLD4]], %gexp[%[[Z3]]] : memref<?xi32, 1 : i64>
  // CHECK-NEXT: }
  // CHECK-NEXT: func.return %[[OK4]] : i1
  %0 = func.call @_Z39atomic_compare_exchange_strong_explicitPU3AS4VU7_AtomiciPU3AS4ii12memory_orderS4_12memory_scope(%obj, %exp, %v, %acquire, %relaxed, %scope) : (!llvm.ptr<4>, !llvm.ptr<4>, i32, i32, i32, i32) -> i1
  %1 = func.call @_Z28atomic_compare_exchange_weakPU3AS4VU7_AtomicmPmm(%obj, %private, %w) : (!llvm.ptr<4>, !llvm.ptr, i64) -> i1
  %2 = func.call @_Z37atomic_compare_exchange_weak_explicitPU3AS4VU7_AtomicfPU3AS4ff12memory_orderS4_(%obj, %exp, %f, %release, %seq_cst) : (!llvm.ptr<4>, !llvm.ptr<4>, f32, i32, i32) -> i1
  %3 = func.call @_Z30atomic_compare_exchange_strongPU3AS3VU7_AtomiciPU3AS1ii(%lobj, %gexp, %v) : (memref<?xi32, 3>, memref<?xi32, 1>, i32) -> i1
  func.return %3 : i1
}

// -----

// atomic_flag (an _Atomic int): test_and_set swaps 1 in and returns whether the
// flag was set (not 0); clear stores 0. Without _explicit they are seq_cst.

func.func private @_Z24atomic_flag_test_and_setPU3AS4VU7_Atomici(!llvm.ptr<4>) -> i1
func.func private @_Z33atomic_flag_test_and_set_explicitPU3AS4VU7_Atomici12memory_order12memory_scope(!llvm.ptr<4>, i32, i32) -> i1
func.func private @_Z17atomic_flag_clearPU3AS4VU7_Atomici(!llvm.ptr<4>)
func.func private @_Z26atomic_flag_clear_explicitPU3AS4VU7_Atomici12memory_order(!llvm.ptr<4>, i32)

// CHECK-NOT: func.func private @_Z
// CHECK-LABEL: func.func @flags
func.func @flags(%flag: !llvm.ptr<4>) -> i1 {
  %acquire = llvm.mlir.constant(2 : i32) : i32
  %release = llvm.mlir.constant(3 : i32) : i32
  %scope = llvm.mlir.constant(1 : i32) : i32
  // CHECK-NEXT: %{{.*}} = llvm.mlir.constant(2 : i32) : i32
  // CHECK-NEXT: %{{.*}} = llvm.mlir.constant(3 : i32) : i32
  // CHECK-NEXT: %{{.*}} = llvm.mlir.constant(1 : i32) : i32
  // CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
  // CHECK-NEXT: %[[WAS:.*]] = atomic.rmw xchg seq_cst %flag, %[[ONE]] : !llvm.ptr<4>, i32
  // CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
  // CHECK-NEXT: %{{.*}} = arith.cmpi ne, %[[WAS]], %[[ZERO]] : i32
  // CHECK-NEXT: %[[ONE2:.*]] = arith.constant 1 : i32
  // CHECK-NEXT: %[[WAS2:.*]] = atomic.rmw xchg acquire %flag, %[[ONE2]] : !llvm.ptr<4>, i32
  // CHECK-NEXT: %[[ZERO2:.*]] = arith.constant 0 : i32
  // CHECK-NEXT: %[[SET:.*]] = arith.cmpi ne, %[[WAS2]], %[[ZERO2]] : i32
  // CHECK-NEXT: %[[CLEAR:.*]] = arith.constant 0 : i32
  // CHECK-NEXT: atomic.store seq_cst %[[CLEAR]], %flag : !llvm.ptr<4>, i32
  // CHECK-NEXT: %[[CLEAR2:.*]] = arith.constant 0 : i32
  // CHECK-NEXT: atomic.store release %[[CLEAR2]], %flag : !llvm.ptr<4>, i32
  // CHECK-NEXT: func.return %[[SET]] : i1
  %0 = func.call @_Z24atomic_flag_test_and_setPU3AS4VU7_Atomici(%flag) : (!llvm.ptr<4>) -> i1
  %1 = func.call @_Z33atomic_flag_test_and_set_explicitPU3AS4VU7_Atomici12memory_order12memory_scope(%flag, %acquire, %scope) : (!llvm.ptr<4>, i32, i32) -> i1
  func.call @_Z17atomic_flag_clearPU3AS4VU7_Atomici(%flag) : (!llvm.ptr<4>) -> ()
  func.call @_Z26atomic_flag_clear_explicitPU3AS4VU7_Atomici12memory_order(%flag, %release) : (!llvm.ptr<4>, i32) -> ()
  func.return %1 : i1
}
