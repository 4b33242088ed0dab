// RUN: python -m mux.frontend.llvm_import %S/Inputs/local_rev.ll | filecheck %s --check-prefix=LOCAL
// RUN: python -m mux.frontend.llvm_import %S/Inputs/float4.ll | filecheck %s --check-prefix=VEC
// RUN: python -m mux.frontend.llvm_import %S/Inputs/local_rev.ll | mux-opt -p replace-module-scope-vars | filecheck %s --check-prefix=PLACED
//
// A kernel-scope __local array (an internal addrspace(3) global, @local_rev.tile) is
// a module-scope local memref.global named as in the source (@tile), read at entry by memref.get_global cast to !llvm.ptr<3>:
// the form replace-module-scope-vars places in the work-group's local buffer.
// Vectors: a float4 buffer is memref<?xvector<4xf32>>, llvm.fmuladd is called as
// the intrinsic (llvm.call_intrinsic), shuffle masks and vector constants (poison
// lanes as 0) are kept.

// LOCAL:      "memref.global"() <{sym_name = "tile", type = memref<64xf32, 3 : i64>, initial_value, sym_visibility = "private", alignment = 4 : i64}>
// LOCAL:      mux.reqd_work_group_size = array<i32: 64, 1, 1>
// LOCAL-NEXT:   %[[G:.*]] = memref.get_global @tile : memref<64xf32, 3 : i64>
// LOCAL-NEXT:   %[[T:.*]] = builtin.unrealized_conversion_cast %[[G]] : memref<64xf32, 3 : i64> to !llvm.ptr<3>
// LOCAL:        llvm.getelementptr inbounds %[[T]][%{{.*}}] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
// LOCAL:        func.call @_Z7barrierj(%{{.*}}) : (i32) -> ()

// PLACED-NOT:  memref.global
// PLACED:      func.func @local_rev(%0: memref<?xf32, 1 : i64>, %1: memref<?xf32, 1 : i64>, %local_vars: memref<256xi8, 3 : i64>)
// PLACED:        builtin.unrealized_conversion_cast %{{.*}} : !llvm.ptr<3> to memref<64xf32, 3 : i64> {mux.local_variable = {name = "tile", offset = 0 : i64, size = 256 : i64, type = memref<64xf32, 3 : i64>}}

// VEC:        func.func @scale4(%0: memref<?xvector<4xf32>, 1 : i64>, %1: memref<?xf32, 1 : i64>, %2: memref<?xf32, 2 : i64>)
// VEC-SAME:     opencl.work_group_size_hint = array<i32: 16, 1, 1>
// VEC:        llvm.shufflevector %{{.*}}, %{{.*}} [0, 0, 0, 0] : vector<4xf32>
// VEC:        llvm.call_intrinsic "llvm.fmuladd.v4f32"(%{{.*}}, %{{.*}}, %{{.*}}) : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// VEC:        llvm.shufflevector %{{.*}}, %{{.*}} [1, 0, 2, 3] : vector<4xf32>
// VEC:        llvm.mlir.constant(dense<[0.000000e+00, 0.000000e+00, 1.000000e+00, 2.000000e+00]> : vector<4xf32>) : vector<4xf32>
// VEC:        llvm.shufflevector %{{.*}}, %{{.*}} [7, 1, 2, 3] : vector<4xf32>
