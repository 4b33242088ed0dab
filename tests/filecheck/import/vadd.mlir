// RUN: python -m mux.frontend.llvm_import %S/Inputs/vadd.ll | filecheck %s
//
// The importer's IR contract (issue 15): a spir_kernel is an entry point whose
// global pointers are memrefs of the element kernel_arg_base_type names, cast to
// llvm pointers at entry; the body is llvm-level; a builtin stays a func.call to
// a private declaration; clang's __clang_ocl_kern_imp_ copy is not imported.

// CHECK-NOT:   __clang_ocl_kern_imp_
// CHECK-LABEL: func.func @vadd(%0: memref<?xf32, 1 : i64>, %1: memref<?xf32, 1 : i64>, %2: memref<?xf32, 1 : i64>)
// CHECK-SAME:    mux.kernel = "entry-point"
// CHECK-SAME:    opencl.kernel_arg_addr_space = array<i32: 1, 1, 1>
// CHECK-SAME:    opencl.kernel_arg_type_qual = ["const", "const", ""]
// CHECK-NEXT:    %[[A:.*]] = builtin.unrealized_conversion_cast %0 : memref<?xf32, 1 : i64> to !llvm.ptr<1>
// CHECK:         %[[I:.*]] = func.call @_Z13get_global_idj(%{{.*}}) : (i32) -> i64
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %[[A]][%[[I]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    llvm.load %[[P]] {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK:         llvm.fadd
// CHECK:         llvm.store
// CHECK-NEXT:    func.return
// CHECK:       func.func private @_Z13get_global_idj(i32) -> i64
// CHECK-NOT:   __clang_ocl_kern_imp_
