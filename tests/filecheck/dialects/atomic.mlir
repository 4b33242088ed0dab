// RUN: mux-opt --split-input-file %s | filecheck %s
// RUN: %roundtrip | filecheck %s
//
// Every op of the atomic dialect in the custom form, on memrefs (global, local,
// 2-D, index elements) and on pointers; the second RUN line goes through the generic
// form and back.

// CHECK-LABEL: func.func @rmw
func.func @rmw(%g: memref<?xi32, 1>, %l: memref<4x8xf32, 3>, %x: memref<?xindex, 1>, %p: !llvm.ptr<3>, %i: index, %j: index, %v: i32, %f: f32, %w: i64) {
  // CHECK-NEXT: %{{.*}} = atomic.rmw add monotonic %g[%i], %v : memref<?xi32, 1 : i64>
  // CHECK-NEXT: %{{.*}} = atomic.rmw sub acquire %g[%i], %v : memref<?xi32, 1 : i64>
  // CHECK-NEXT: %{{.*}} = atomic.rmw and release %g[%i], %v : memref<?xi32, 1 : i64>
  // CHECK-NEXT: %{{.*}} = atomic.rmw or acq_rel %g[%i], %v : memref<?xi32, 1 : i64>
  // CHECK-NEXT: %{{.*}} = atomic.rmw xor seq_cst %g[%i], %v : memref<?xi32, 1 : i64>
  // CHECK-NEXT: %{{.*}} = atomic.rmw min monotonic %g[%i], %v : memref<?xi32, 1 : i64>
  // CHECK-NEXT: %{{.*}} = atomic.rmw max monotonic %g[%i], %v : memref<?xi32, 1 : i64>
  // CHECK-NEXT: %{{.*}} = atomic.rmw umin monotonic %g[%i], %v : memref<?xi32, 1 : i64>
  // CHECK-NEXT: %{{.*}} = atomic.rmw umax monotonic %g[%i], %v : memref<?xi32, 1 : i64>
  // CHECK-NEXT: %{{.*}} = atomic.rmw xchg monotonic %l[%i, %j], %f : memref<4x8xf32, 3 : i64>
  // CHECK-NEXT: %{{.*}} = atomic.rmw fadd monotonic %l[%i, %j], %f : memref<4x8xf32, 3 : i64>
  // CHECK-NEXT: %{{.*}} = atomic.rmw fsub monotonic %l[%i, %j], %f : memref<4x8xf32, 3 : i64>
  // CHECK-NEXT: %{{.*}} = atomic.rmw fmax monotonic %l[%i, %j], %f : memref<4x8xf32, 3 : i64>
  // CHECK-NEXT: %{{.*}} = atomic.rmw fmin monotonic %l[%i, %j], %f {tag} : memref<4x8xf32, 3 : i64>
  // CHECK-NEXT: %{{.*}} = atomic.rmw add monotonic %x[%i], %j : memref<?xindex, 1 : i64>
  // CHECK-NEXT: %{{.*}} = atomic.rmw add monotonic %p, %w : !llvm.ptr<3>, i64
  %0 = atomic.rmw add monotonic %g[%i], %v : memref<?xi32, 1>
  %1 = atomic.rmw sub acquire %g[%i], %v : memref<?xi32, 1>
  %2 = atomic.rmw and release %g[%i], %v : memref<?xi32, 1>
  %3 = atomic.rmw or acq_rel %g[%i], %v : memref<?xi32, 1>
  %4 = atomic.rmw xor seq_cst %g[%i], %v : memref<?xi32, 1>
  %5 = atomic.rmw min monotonic %g[%i], %v : memref<?xi32, 1>
  %6 = atomic.rmw max monotonic %g[%i], %v : memref<?xi32, 1>
  %7 = atomic.rmw umin monotonic %g[%i], %v : memref<?xi32, 1>
  %8 = atomic.rmw umax monotonic %g[%i], %v : memref<?xi32, 1>
  %9 = atomic.rmw xchg monotonic %l[%i, %j], %f : memref<4x8xf32, 3>
  %10 = atomic.rmw fadd monotonic %l[%i, %j], %f : memref<4x8xf32, 3>
  %11 = atomic.rmw fsub monotonic %l[%i, %j], %f : memref<4x8xf32, 3>
  %12 = atomic.rmw fmax monotonic %l[%i, %j], %f : memref<4x8xf32, 3>
  %13 = atomic.rmw fmin monotonic %l[%i, %j], %f {tag} : memref<4x8xf32, 3>
  %14 = atomic.rmw add monotonic %x[%i], %j : memref<?xindex, 1>
  %15 = atomic.rmw add monotonic %p, %w : !llvm.ptr<3>, i64
  func.return
}

// -----

// CHECK-LABEL: func.func @cmpxchg
func.func @cmpxchg(%g: memref<?xi64, 1>, %s: memref<i32, 3>, %p: !llvm.ptr<1>, %i: index, %a: i64, %b: i64, %c: i32) {
  // CHECK-NEXT: %{{.*}}, %{{.*}} = atomic.cmpxchg monotonic monotonic %g[%i], %a, %b : memref<?xi64, 1 : i64>
  // CHECK-NEXT: %{{.*}}, %{{.*}} = atomic.cmpxchg weak acq_rel acquire %g[%i], %a, %b : memref<?xi64, 1 : i64>
  // CHECK-NEXT: %{{.*}}, %{{.*}} = atomic.cmpxchg seq_cst seq_cst %s[], %c, %c : memref<i32, 3 : i64>
  // CHECK-NEXT: %{{.*}}, %{{.*}} = atomic.cmpxchg weak release monotonic %p, %c, %c : !llvm.ptr<1>, i32
  %0, %1 = atomic.cmpxchg monotonic monotonic %g[%i], %a, %b : memref<?xi64, 1>
  %2, %3 = atomic.cmpxchg weak acq_rel acquire %g[%i], %a, %b : memref<?xi64, 1>
  %4, %5 = atomic.cmpxchg seq_cst seq_cst %s[], %c, %c : memref<i32, 3>
  %6, %7 = atomic.cmpxchg weak release monotonic %p, %c, %c : !llvm.ptr<1>, i32
  func.return
}

// -----

// CHECK-LABEL: func.func @load_store_fence
func.func @load_store_fence(%g: memref<?xf64, 1>, %l: memref<16xi8, 3>, %k: memref<?xi32, 2>, %p: !llvm.ptr<1>, %i: index, %d: f64, %b: i8) {
  // CHECK-NEXT: %{{.*}} = atomic.load monotonic %g[%i] : memref<?xf64, 1 : i64>
  // CHECK-NEXT: %{{.*}} = atomic.load acquire %l[%i] : memref<16xi8, 3 : i64>
  // CHECK-NEXT: %{{.*}} = atomic.load seq_cst %k[%i] : memref<?xi32, 2 : i64>
  // CHECK-NEXT: %{{.*}} = atomic.load unordered %p : !llvm.ptr<1>, i16
  // CHECK-NEXT: atomic.store monotonic %d, %g[%i] : memref<?xf64, 1 : i64>
  // CHECK-NEXT: atomic.store release %b, %l[%i] : memref<16xi8, 3 : i64>
  // CHECK-NEXT: atomic.store seq_cst %d, %p : !llvm.ptr<1>, f64
  // CHECK-NEXT: atomic.fence acquire
  // CHECK-NEXT: atomic.fence release
  // CHECK-NEXT: atomic.fence acq_rel
  // CHECK-NEXT: atomic.fence seq_cst {tag}
  %0 = atomic.load monotonic %g[%i] : memref<?xf64, 1>
  %1 = atomic.load acquire %l[%i] : memref<16xi8, 3>
  %2 = atomic.load seq_cst %k[%i] : memref<?xi32, 2>
  %3 = atomic.load unordered %p : !llvm.ptr<1>, i16
  atomic.store monotonic %d, %g[%i] : memref<?xf64, 1>
  atomic.store release %b, %l[%i] : memref<16xi8, 3>
  atomic.store seq_cst %d, %p : !llvm.ptr<1>, f64
  atomic.fence acquire
  atomic.fence release
  atomic.fence acq_rel
  atomic.fence seq_cst {tag}
  func.return
}

// -----

// A pointer without an address space is in the private space 0 (its verifier read
// the number of a NoneAttr: AttributeError).
// CHECK-LABEL: func.func @private_pointer
// CHECK-NEXT: %{{.*}} = atomic.rmw add monotonic %p, %v : !llvm.ptr, i32
func.func @private_pointer(%p: !llvm.ptr, %v: i32) {
  %r = atomic.rmw add monotonic %p, %v : !llvm.ptr, i32
  func.return
}
