// RUN: python -m mux.frontend.llvm_import %S/Inputs/private_memory.ll | filecheck %s
// RUN: python -m mux.frontend.llvm_import %S/Inputs/vector_constants.ll | filecheck %s --check-prefix=VEC
//
// An alloca is llvm.alloca of its allocated type, typed as its own pointer, with
// its alignment (LLVM gives one to an alloca written without).

// CHECK:      func.func @reverse4(
// CHECK:        %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:   llvm.alloca %[[ONE]] x !llvm.array<4 x i32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
// CHECK:        llvm.alloca %{{.*}} x i32 {alignment = 4 : i64} : (i32) -> !llvm.ptr
// CHECK:        llvm.getelementptr inbounds %{{.*}}[0, %{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<4 x i32>

// `splat (T v)` is the vector of N lanes v; a vector zeroinitializer is a dense 0
// (xDSL's llvm.mlir.zero takes no vector).
// VEC:        llvm.mlir.constant(dense<0> : vector<4xi32>) : vector<4xi32>
// VEC-NEXT:   llvm.mlir.constant(dense<1> : vector<4xi32>) : vector<4xi32>
// VEC:        llvm.mlir.constant(dense<5.000000e-01> : vector<2xf32>) : vector<2xf32>
// VEC-NEXT:   llvm.mlir.constant(dense<3.000000e+00> : vector<2xf32>) : vector<2xf32>
