// RUN: mux-opt %s --split-input-file -p convert-to-llvm | filecheck %s
// RUN: mux-opt %s --split-input-file -p convert-to-llvm -t llvm | filecheck %s --check-prefix=IR
//
// convert-to-llvm on atomic: the element's address as memref.load computes it (the
// GEP of the linear index), then llvmx.atomicrmw / llvmx.cmpxchg / atomic
// llvm.load and llvm.store / llvmx.fence, with the natural alignment and no sync
// scope. The LLVM IR shows what the backend emits (xDSL prints no ordering on
// llvm.store).

func.func @rmw(%g: memref<?xi32, 1>, %l: memref<4x8xf32, 3>, %p: !llvm.ptr<1>, %i: index, %j: index, %v: i32, %f: f32, %w: i64) {
  %0 = atomic.rmw umax acq_rel %g[%i], %v : memref<?xi32, 1>
  %1 = atomic.rmw fadd monotonic %l[%i, %j], %f : memref<4x8xf32, 3>
  %2 = atomic.rmw xchg seq_cst %p, %w : !llvm.ptr<1>, i64
  func.return
}
// CHECK-LABEL: llvm.func @rmw(%g: !llvm.ptr<1>, %l: !llvm.ptr<3>, %p: !llvm.ptr<1>, %i: i64, %j: i64, %v: i32, %f: f32, %w: i64)
// CHECK-NEXT:    %[[A:.*]] = llvm.getelementptr inbounds %g[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
// CHECK-NEXT:    %[[R0:.*]] = llvmx.atomicrmw umax %[[A]], %v acq_rel align 4 : !llvm.ptr<1>, i32
// CHECK-NEXT:    %[[EIGHT:.*]] = llvm.mlir.constant(8) : i64
// CHECK-NEXT:    %[[ROW:.*]] = llvm.mul %i, %[[EIGHT]] overflow<nsw> : i64
// CHECK-NEXT:    %[[LIN:.*]] = llvm.add %[[ROW]], %j overflow<nsw> : i64
// CHECK-NEXT:    %[[B:.*]] = llvm.getelementptr inbounds %l[%[[LIN]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    %[[R1:.*]] = llvmx.atomicrmw fadd %[[B]], %f monotonic align 4 : !llvm.ptr<3>, f32
// CHECK-NEXT:    %[[R2:.*]] = llvmx.atomicrmw xchg %p, %w seq_cst align 8 : !llvm.ptr<1>, i64
// IR-LABEL: define {{.*}} @"rmw"
// IR:         atomicrmw umax {{.*}} acq_rel, align 4
// IR:         atomicrmw fadd {{.*}} monotonic, align 4
// IR:         atomicrmw xchg {{.*}} seq_cst, align 8
// IR-NOT:     syncscope

// -----

func.func @cmpxchg(%g: memref<?xi64, 1>, %s: memref<i32, 3>, %i: index, %a: i64, %b: i64, %c: i32) {
  %0, %1 = atomic.cmpxchg weak acq_rel acquire %g[%i], %a, %b : memref<?xi64, 1>
  %2, %3 = atomic.cmpxchg monotonic monotonic %s[], %c, %c : memref<i32, 3>
  func.return
}
// CHECK-LABEL: llvm.func @cmpxchg
// CHECK-NEXT:    %[[A:.*]] = llvm.getelementptr inbounds %g[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i64
// CHECK-NEXT:    %[[X:.*]] = llvmx.cmpxchg weak %[[A]], %a, %b acq_rel acquire align 8 : !llvm.ptr<1>, i64
// CHECK-NEXT:    %[[OLD:.*]] = llvm.extractvalue %[[X]][0] : !llvm.struct<(i64, i1)>
// CHECK-NEXT:    %[[OK:.*]] = llvm.extractvalue %[[X]][1] : !llvm.struct<(i64, i1)>
// CHECK-NEXT:    %[[Y:.*]] = llvmx.cmpxchg %s, %c, %c monotonic monotonic align 4 : !llvm.ptr<3>, i32
// IR-LABEL: define {{.*}} @"cmpxchg"
// IR:         cmpxchg weak {{.*}} acq_rel acquire, align 8
// IR:         cmpxchg {{.*}} monotonic monotonic, align 4

// -----

func.func @load_store_fence(%g: memref<?xf64, 1>, %l: memref<16xi8, 3>, %p: !llvm.ptr<1>, %i: index) {
  %0 = atomic.load acquire %g[%i] : memref<?xf64, 1>
  %1 = atomic.load monotonic %l[%i] : memref<16xi8, 3>
  atomic.store release %0, %g[%i] : memref<?xf64, 1>
  atomic.store seq_cst %1, %p : !llvm.ptr<1>, i8
  atomic.fence acq_rel
  func.return
}
// CHECK-LABEL: llvm.func @load_store_fence
// CHECK-NEXT:    %[[A:.*]] = llvm.getelementptr inbounds %g[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f64
// CHECK-NEXT:    %[[D:.*]] = llvm.load %[[A]] atomic acquire {alignment = 8 : i64} : !llvm.ptr<1> -> f64
// CHECK-NEXT:    %[[B:.*]] = llvm.getelementptr inbounds %l[%i] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    %[[C:.*]] = llvm.load %[[B]] atomic monotonic {alignment = 1 : i64} : !llvm.ptr<3> -> i8
// CHECK-NEXT:    %[[E:.*]] = llvm.getelementptr inbounds %g[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f64
// CHECK-NEXT:    llvm.store %[[D]], %[[E]] {alignment = 8 : i64} : f64, !llvm.ptr<1>
// CHECK-NEXT:    llvm.store %[[C]], %p {alignment = 1 : i64} : i8, !llvm.ptr<1>
// CHECK-NEXT:    llvmx.fence acq_rel
// IR-LABEL: define {{.*}} @"load_store_fence"
// IR:         load atomic double, {{.*}} acquire, align 8
// IR:         load atomic i8, {{.*}} monotonic, align 1
// IR:         store atomic double {{.*}} release, align 8
// IR:         store atomic i8 {{.*}} seq_cst, align 1
// IR:         fence acq_rel
