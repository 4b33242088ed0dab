// RUN: python -m mux.frontend.llvm_import %S/Inputs/structs.ll | filecheck %s
// RUN: python -m mux.frontend.llvm_import %S/Inputs/structs.ll | mux-opt -p host -t llvm | filecheck %s --check-prefix=HOST
//
// Named structs are read whatever their order (Outer names Pair, defined below
// it); a packed struct is !llvmx.packed_struct. A __constant global with an
// initialiser is an internal llvm.mlir.global constant whose region builds the
// value (a string is its bytes, an aggregate its members inserted into undef),
// read by llvm.mlir.addressof at the entry of the function that uses it. An
// argument a function takes byval is copied by the caller into an alloca at its
// entry, and the copy passed.

// CHECK:      llvm.mlir.global internal constant @table() {addr_space = 2 : i32, alignment = 4 : i64} : !llvm.array<2 x !llvm.struct<(!llvm.array<3 x i8>, i8, vector<2xi16>)>> {
// CHECK:        llvm.mlir.constant(97 : i8) : i8
// CHECK:        llvm.insertvalue
// CHECK:        llvm.return %{{.*}} : !llvm.array<2 x !llvm.struct<(!llvm.array<3 x i8>, i8, vector<2xi16>)>>
// CHECK:      func.func @structs(
// CHECK-NEXT:   %[[TABLE:.*]] = llvm.mlir.addressof @table : !llvm.ptr<2>
// CHECK-NEXT:   %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:   %[[COPY:.*]] = llvm.alloca %[[ONE]] x !llvm.struct<(!llvm.struct<(i32, i32)>, i64)> {alignment = 8 : i64}
// CHECK:        %[[O:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(!llvm.struct<(i32, i32)>, i64)>
// CHECK:        %[[V:.*]] = llvm.load %[[O]] : !llvm.ptr -> !llvm.struct<(!llvm.struct<(i32, i32)>, i64)>
// CHECK-NEXT:   llvm.store %[[V]], %[[COPY]]
// CHECK-NEXT:   func.call @bump(%[[COPY]]) : (!llvm.ptr) -> i32
// CHECK:        llvm.getelementptr inbounds %[[TABLE]][0, %{{.*}}]
// CHECK:        llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, !llvmx.packed_struct<[i8, i32]>

// HOST:       @"table" = internal constant [2 x {[3 x i8], i8, <2 x i16>}] [{[3 x i8], i8, <2 x i16>} {[3 x i8] [i8 97, i8 98, i8 0], i8 0, <2 x i16> <i16 1, i16 2>}, {[3 x i8], i8, <2 x i16>} {[3 x i8] [i8 99, i8 100, i8 0], i8 0, <2 x i16> <i16 -3, i16 4>}], align 4
// HOST:       getelementptr <{i8, i32}>, ptr
