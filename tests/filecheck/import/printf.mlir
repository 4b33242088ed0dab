// RUN: python -m mux.frontend.llvm_import %S/Inputs/printf.ll | filecheck %s
//
// A call of printf, variadic, cannot be a func.call (whose callee's type fixes
// its operands): it is an llvm.call with the callee's variadic type, printf an
// llvm.func declaration, as in LLVM; the format and the %s argument stay the
// addresses of their constant globals (lower-printf reads them).

// CHECK:      llvm.mlir.global internal constant @".str"() {addr_space = 2 : i32, alignment = 1 : i64} : !llvm.array<15 x i8>
// CHECK:      func.func @print(%[[V:.*]]: memref<?xvector<2xf32>, 1 : i64>, %[[N:[0-9]+]]: i32)
// CHECK-DAG:    %[[DONE:.*]] = llvm.mlir.addressof @".str.1" : !llvm.ptr<2>
// CHECK-DAG:    %[[FORMAT:.*]] = llvm.mlir.addressof @".str" : !llvm.ptr<2>
// CHECK:        %[[VALUE:.*]] = llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<1> -> vector<2xf32>
// CHECK-NEXT:   %{{.*}} = llvm.call @printf(%[[FORMAT]], %[[N]], %[[VALUE]], %[[DONE]]) vararg(!llvm.func<i32 (!llvm.ptr<2>, ...)>) : (!llvm.ptr<2>, i32, vector<2xf32>, !llvm.ptr<2>) -> i32
// CHECK:      llvm.func @printf(!llvm.ptr<2>, ...) -> i32
