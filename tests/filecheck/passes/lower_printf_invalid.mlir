// RUN: mux-opt %s --split-input-file --verify-diagnostics -p lower-printf | filecheck %s
//
// The compiler must know the format and each %s string: a pointer it cannot
// follow to a constant global is a diagnostic naming the argument and function.

llvm.func @printf(!llvm.ptr<2>, ...) -> i32

func.func @unknown_format(%fmt: !llvm.ptr<2>) -> i32 {
  %r = llvm.call @printf(%fmt) vararg(!llvm.func<i32 (!llvm.ptr<2>, ...)>) : (!llvm.ptr<2>) -> i32
  func.return %r : i32
}
// CHECK: lower-printf: printf's format argument is not a string constant the compiler knows in 'unknown_format'

// -----

llvm.mlir.global internal constant @fmt("%s\00") {addr_space = 2 : i32}
llvm.func @printf(!llvm.ptr<2>, ...) -> i32

func.func @unknown_string(%s: !llvm.ptr<2>) -> i32 {
  %fmt = llvm.mlir.addressof @fmt : !llvm.ptr<2>
  %r = llvm.call @printf(%fmt, %s) vararg(!llvm.func<i32 (!llvm.ptr<2>, ...)>) : (!llvm.ptr<2>, !llvm.ptr<2>) -> i32
  func.return %r : i32
}
// CHECK: lower-printf: printf's %s argument is not a string constant the compiler knows in 'unknown_string'

// -----

llvm.mlir.global internal constant @fmt("%d\00") {addr_space = 2 : i32}
llvm.func @printf(!llvm.ptr<2>, ...) -> i32

func.func @unprintable(%x: i128) -> i32 {
  %fmt = llvm.mlir.addressof @fmt : !llvm.ptr<2>
  %r = llvm.call @printf(%fmt, %x) vararg(!llvm.func<i32 (!llvm.ptr<2>, ...)>) : (!llvm.ptr<2>, i128) -> i32
  func.return %r : i32
}
// CHECK: lower-printf: printf cannot print a i128 in 'unprintable'
