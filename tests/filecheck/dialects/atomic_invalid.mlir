// RUN: mux-opt --split-input-file --parsing-diagnostics --verify-diagnostics %s | filecheck %s
//
// What the atomic ops reject: the parser names unknown keywords and address types,
// the verifiers the rule each op breaks (generic forms build what the custom syntax
// cannot say).

func.func @unknown_ordering(%g: memref<?xi32, 1>, %i: index, %v: i32) {
  %0 = atomic.rmw add relaxed %g[%i], %v : memref<?xi32, 1>
  func.return
}
// CHECK: unknown ordering 'relaxed', expected one of unordered, monotonic, acquire, release, acq_rel, seq_cst

// -----

func.func @unknown_operation(%g: memref<?xi32, 1>, %i: index, %v: i32) {
  %0 = atomic.rmw nand monotonic %g[%i], %v : memref<?xi32, 1>
  func.return
}
// CHECK: unknown atomicrmw operation 'nand', expected one of xchg, add, sub, and, or, xor, max, min, umax, umin, fadd, fsub, fmax, fmin

// -----

func.func @unknown_failure_ordering(%g: memref<?xi32, 1>, %i: index, %v: i32) {
  %0, %1 = atomic.cmpxchg monotonic weak %g[%i], %v, %v : memref<?xi32, 1>
  func.return
}
// CHECK: unknown failure ordering 'weak'

// -----

func.func @not_an_address(%g: tensor<?xi32>, %i: index, %v: i32) {
  %0 = atomic.load monotonic %g[%i] : tensor<?xi32>
  func.return
}
// CHECK: an address is a memref with one index per dimension, or an !llvm.ptr with none, got tensor<?xi32>

// -----

func.func @too_many_indices(%g: memref<?xi32, 1>, %i: index, %v: i32) {
  %0 = atomic.rmw add monotonic %g[%i, %i], %v : memref<?xi32, 1>
  func.return
}
// CHECK: an address is a memref with one index per dimension, or an !llvm.ptr with none, got 2 indices for memref<?xi32, 1 : i64>

// -----

func.func @indices_on_a_pointer(%p: !llvm.ptr<1>, %i: index, %v: i32) {
  atomic.store monotonic %v, %p[%i] : !llvm.ptr<1>, i32
  func.return
}
// CHECK: an address is a memref with one index per dimension, or an !llvm.ptr with none, got 1 index for !llvm.ptr<1>

// -----

func.func @value_type(%g: memref<?xi32, 1>, %i: index, %v: i64) {
  %0 = "atomic.rmw"(%g, %i, %v) <{kind = #llvmx<bin_op add>, ordering = #llvmx<ordering monotonic>}> : (memref<?xi32, 1>, index, i64) -> i64
  func.return
}
// CHECK: the value type is the memref's element type, got i64 for memref<?xi32, 1 : i64>

// -----

func.func @result_type(%g: memref<?xi32, 1>, %i: index, %v: i32) {
  %0 = "atomic.rmw"(%g, %i, %v) <{kind = #llvmx<bin_op add>, ordering = #llvmx<ordering monotonic>}> : (memref<?xi32, 1>, index, i32) -> i64
  func.return
}
// CHECK: the value type is the memref's element type, got a result of i64 for a value of i32

// -----

func.func @odd_width(%g: memref<?xi24, 1>, %i: index, %v: i24) {
  %0 = atomic.rmw add monotonic %g[%i], %v : memref<?xi24, 1>
  func.return
}
// CHECK: an atomic access is to an integer, index or float of 8, 16, 32 or 64 bits, got i24

// -----

func.func @vector(%g: memref<?xvector<4xi32>, 1>, %i: index) {
  %0 = atomic.load monotonic %g[%i] : memref<?xvector<4xi32>, 1>
  func.return
}
// CHECK: an atomic access is to an integer, index or float of 8, 16, 32 or 64 bits, got vector<4xi32>

// -----

func.func @and_on_float(%g: memref<?xf32, 1>, %i: index, %v: f32) {
  %0 = atomic.rmw and monotonic %g[%i], %v : memref<?xf32, 1>
  func.return
}
// CHECK: the operation fits the value type: add, sub, and, or, xor, min, max, umin, umax on integers, fadd, fsub, fmax, fmin on floats, xchg on either, got and on f32

// -----

func.func @fadd_on_int(%g: memref<?xi32, 3>, %i: index, %v: i32) {
  %0 = atomic.rmw fadd monotonic %g[%i], %v : memref<?xi32, 3>
  func.return
}
// CHECK: the operation fits the value type: {{.*}}, got fadd on i32

// -----

func.func @cmpxchg_float(%g: memref<?xf32, 1>, %i: index, %v: f32) {
  %0, %1 = atomic.cmpxchg monotonic monotonic %g[%i], %v, %v : memref<?xf32, 1>
  func.return
}
// CHECK: cmpxchg compares integers (LLVM has no float cmpxchg), got f32

// -----

func.func @rmw_constant(%g: memref<?xi32, 2>, %i: index, %v: i32) {
  %0 = atomic.rmw add monotonic %g[%i], %v : memref<?xi32, 2>
  func.return
}
// CHECK: an atomic that writes does not address constant memory (address space 2), got memref<?xi32, 2 : i64>

// -----

func.func @store_constant(%p: !llvm.ptr<2>, %v: i32) {
  atomic.store monotonic %v, %p : !llvm.ptr<2>, i32
  func.return
}
// CHECK: an atomic that writes does not address constant memory (address space 2), got !llvm.ptr<2>

// -----

func.func @rmw_unordered(%g: memref<?xi32, 1>, %i: index, %v: i32) {
  %0 = atomic.rmw add unordered %g[%i], %v : memref<?xi32, 1>
  func.return
}
// CHECK: an atomicrmw or cmpxchg ordering is monotonic, acquire, release, acq_rel or seq_cst, got unordered

// -----

func.func @cmpxchg_unordered(%g: memref<?xi32, 1>, %i: index, %v: i32) {
  %0, %1 = atomic.cmpxchg unordered unordered %g[%i], %v, %v : memref<?xi32, 1>
  func.return
}
// CHECK: an atomicrmw or cmpxchg ordering is monotonic, acquire, release, acq_rel or seq_cst, got unordered

// -----

func.func @failure_release(%g: memref<?xi32, 1>, %i: index, %v: i32) {
  %0, %1 = atomic.cmpxchg acq_rel release %g[%i], %v, %v : memref<?xi32, 1>
  func.return
}
// CHECK: a cmpxchg failure ordering is monotonic, acquire or seq_cst, and no stronger than the success ordering, got release on failure, acq_rel on success

// -----

func.func @failure_stronger(%g: memref<?xi32, 1>, %i: index, %v: i32) {
  %0, %1 = atomic.cmpxchg weak monotonic seq_cst %g[%i], %v, %v : memref<?xi32, 1>
  func.return
}
// CHECK: a cmpxchg failure ordering is monotonic, acquire or seq_cst, and no stronger than the success ordering, got seq_cst on failure, monotonic on success

// -----

func.func @load_release(%g: memref<?xi32, 1>, %i: index) {
  %0 = atomic.load release %g[%i] : memref<?xi32, 1>
  func.return
}
// CHECK: an atomic load is unordered, monotonic, acquire or seq_cst, got release

// -----

func.func @store_acquire(%g: memref<?xi32, 1>, %i: index, %v: i32) {
  atomic.store acquire %v, %g[%i] : memref<?xi32, 1>
  func.return
}
// CHECK: an atomic store is unordered, monotonic, release or seq_cst, got acquire

// -----

func.func @fence_monotonic() {
  atomic.fence monotonic
  func.return
}
// CHECK: a fence is acquire, release, acq_rel or seq_cst, got monotonic
