// RUN: python -m mux.frontend.llvm_import %S/Inputs/atomics.ll | filecheck %s
// RUN: python -m mux.frontend.llvm_import %S/Inputs/atomic_scopes.ll | filecheck %s --check-prefix=SCOPES
//
// Atomic instructions become the atomic dialect's ops on their !llvm.ptr (what
// replace-atomic-funcs makes of OpenCL's atomic functions): atomicrmw is atomic.rmw,
// cmpxchg atomic.cmpxchg (weak or strong, both orderings) whose two results are put
// together into LLVM's {T, i1}, fence atomic.fence, load/store atomic atomic.load/
// atomic.store. A volatile load is llvmx.load volatile with its alignment, a volatile
// store llvm.store with its flag. Sync scopes and the volatility of atomics are
// dropped; names that spell an ordering (%acquire) are names.

// CHECK-LABEL: func.func @atomics
// CHECK:       %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:  %[[TICKET:.*]] = atomic.rmw add monotonic %{{.*}}, %[[ONE]] : !llvm.ptr<1>, i32
// CHECK-NEXT:  %[[SEEN:.*]] = atomic.load acquire %[[TOP:.*]] : !llvm.ptr<1>, i64
// CHECK:       %[[OLD:.*]], %[[OK:.*]] = atomic.cmpxchg weak acq_rel monotonic %[[TOP]], %{{.*}}, %{{.*}} : !llvm.ptr<1>, i64
// CHECK-NEXT:  %[[U:.*]] = llvm.mlir.undef : !llvm.struct<(i64, i1)>
// CHECK-NEXT:  %[[P0:.*]] = llvm.insertvalue %[[OLD]], %[[U]][0] : !llvm.struct<(i64, i1)>
// CHECK-NEXT:  %[[P1:.*]] = llvm.insertvalue %[[OK]], %[[P0]][1] : !llvm.struct<(i64, i1)>
// CHECK-NEXT:  llvm.extractvalue %[[P1]][1] : !llvm.struct<(i64, i1)>
// CHECK:       atomic.rmw fmax seq_cst %{{.*}}, %{{.*}} : !llvm.ptr<1>, f32
// CHECK-NEXT:  atomic.fence release
// CHECK-NEXT:  %[[FLAG:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:  atomic.store release %[[FLAG]], %{{.*}} : !llvm.ptr<1>, i32
// CHECK-NEXT:  %[[IN:.*]] = llvm.getelementptr
// CHECK-NEXT:  %[[A:.*]] = llvmx.load volatile %[[IN]] align 4 : !llvm.ptr<1> -> i32
// CHECK-NEXT:  %[[B:.*]] = llvmx.load volatile %[[IN]] align 4 : !llvm.ptr<1> -> i32
// CHECK-NEXT:  llvm.add %[[B]], %[[A]]
// CHECK:       llvm.store volatile %[[TICKET]], %[[IN]] {alignment = 4 : i64} : i32, !llvm.ptr<1>

// SCOPES-LABEL: func.func @scoped(%0: !llvm.ptr<3>, %1: !llvm.ptr<4>, %2: f32) -> i32
// SCOPES:       %[[X:.*]] = atomic.rmw xchg acq_rel %0, %{{.*}} : !llvm.ptr<3>, i32
// SCOPES:       %[[OLD:.*]], %{{.*}} = atomic.cmpxchg seq_cst acquire %1, %[[X]], %{{.*}} : !llvm.ptr<4>, i32
// SCOPES:       atomic.fence seq_cst
// SCOPES-NEXT:  %[[U:.*]] = atomic.load unordered %0 : !llvm.ptr<3>, i32
// SCOPES-NEXT:  %[[V:.*]] = atomic.load seq_cst %1 : !llvm.ptr<4>, f32
// SCOPES-NEXT:  atomic.store unordered %[[U]], %1 : !llvm.ptr<4>, i32
// SCOPES-NEXT:  atomic.store seq_cst %[[V]], %0 : !llvm.ptr<3>, f32
// SCOPES-NEXT:  atomic.rmw fsub monotonic %1, %2 : !llvm.ptr<4>, f32
// SCOPES-NEXT:  llvmx.load volatile %0 align {{[0-9]+}} : !llvm.ptr<3> -> i64
