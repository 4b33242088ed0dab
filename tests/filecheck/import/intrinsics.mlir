// RUN: python -m mux.frontend.llvm_import %S/Inputs/intrinsics.ll | filecheck %s
// RUN: python -m mux.frontend.llvm_import %S/Inputs/intrinsics.ll | mux-opt -p host -t llvm | filecheck %s --check-prefix=HOST
//
// A call of an LLVM intrinsic is llvm.call_intrinsic of its name, its constant
// operands (immarg) built right before it, its fast-math flags kept; the
// intrinsics' declarations are not imported; lifetime markers and noalias scope
// declarations (a metadata operand) are dropped.

// CHECK-NOT:  llvm.lifetime
// CHECK-NOT:  noalias.scope.decl
// CHECK:      llvm.call_intrinsic "llvm.smax.i32"(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// CHECK:      %[[F:.*]] = llvm.mlir.constant(false) : i1
// CHECK-NEXT: llvm.call_intrinsic "llvm.ctlz.i32"(%{{.*}}, %[[F]]) : (i32, i1) -> i32
// CHECK:      llvm.call_intrinsic "llvm.usub.sat.i64"(%{{.*}}, %{{.*}}) : (i64, i64) -> i64
// CHECK:      llvm.call_intrinsic "llvm.smax.v4i32"(%{{.*}}, %{{.*}}) : (vector<4xi32>, vector<4xi32>) -> vector<4xi32>
// CHECK:      llvm.call_intrinsic "llvm.memset.p0.i64"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, i8, i64, i1) -> ()
// CHECK:      llvm.call_intrinsic "llvm.memcpy.p0.p1.i64"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, !llvm.ptr<1>, i64, i1) -> ()
// CHECK:      llvm.call_intrinsic "llvm.fmuladd.f32"(%{{.*}}, %{{.*}}, %{{.*}}) {fastmathFlags = #llvm.fastmath<contract>} : (f32, f32, f32) -> f32
// CHECK:      llvm.call_intrinsic "llvm.fabs.f32"(%{{.*}}) {fastmathFlags = #llvm.fastmath<nnan>}
// CHECK-NOT:  func.func private @llvm.
// CHECK:      func.func private @_Z13get_global_idj(i32) -> i64

// Through the host pipeline to LLVM IR, the intrinsics are called by name, the
// pointer types in their names in address space 0 as every pointer is on the host,
// fast-math flags on the calls.
// HOST-DAG:     call i32 @"llvm.smax.i32"(i32 %{{.*}}, i32 -3)
// HOST-DAG:     call i32 @"llvm.ctlz.i32"(i32 %{{.*}}, i1 false)
// HOST-DAG:     call void @"llvm.memcpy.p0.p0.i64"({{.*}}, i64 4, i1 false)
// HOST-DAG:     call contract float @"llvm.fmuladd.f32"(
// HOST-DAG:     call nnan float @"llvm.fabs.f32"(
// HOST-DAG:     declare void @"llvm.memcpy.p0.p0.i64"(ptr %{{.*}}, ptr %{{.*}}, i64 %{{.*}}, i1 %{{.*}})
