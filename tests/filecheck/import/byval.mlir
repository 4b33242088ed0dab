// RUN: mux-opt %S/Inputs/byval.ll | filecheck %s
//
// A struct passed by value (spir64: a pointer parameter with byval(<type>)) stays
// an !llvm.ptr, marked with the struct's type (mux.byval) and its alignment
// (llvm.align) for the runtime, which passes a pointer to its copy of the user's
// record. That copy serves every work-item, so a kernel that may write its struct
// (the parameter is not readonly) copies it into a private alloca at entry and
// uses that; one that only reads it reads the shared copy.

// CHECK:      func.func @read_struct(%out: memref<?xi64, 1 : i64>, %p: !llvm.ptr {mux.byval = !llvm.struct<(i32, f32, i8, i64)>, llvm.align = 8 : i64})
// CHECK-NOT:    llvm.alloca
// CHECK:        llvm.getelementptr inbounds %p[16] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK:        func.return

// CHECK:      func.func @write_struct(%out: memref<?xi32, 1 : i64>, %p: !llvm.ptr {mux.byval = !llvm.struct<(i32, f32, i8, i64)>, llvm.align = 16 : i64})
// CHECK-NEXT:   %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:   %[[COPY:.*]] = llvm.alloca %[[ONE]] x !llvm.struct<(i32, f32, i8, i64)> {alignment = 16 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT:   %[[SIZE:.*]] = llvm.mlir.constant(24) : i64
// CHECK-NEXT:   llvmx.memcpy %[[COPY]], %p, %[[SIZE]] : !llvm.ptr, !llvm.ptr, i64
// CHECK-NOT:    {{%p[^_]}}
// CHECK:        llvm.load %[[COPY]] {alignment = 16 : i64} : !llvm.ptr -> i32
// CHECK:        llvm.store %{{.*}}, %[[COPY]] {alignment = 16 : i64} : i32, !llvm.ptr
