// RUN: mux-opt %s --split-input-file --verify-diagnostics -p replace-module-scope-vars | filecheck %s
//
// The module-scope local variables replace-module-scope-vars cannot place or
// replace: each is a diagnostic naming the variable.

// Local memory is not initialised: an initial value cannot be honoured.
"memref.global"() <{sym_name = "init", type = memref<4xf32, 3>, initial_value = dense<1.0> : tensor<4xf32>, sym_visibility = "private"}> : () -> ()
// CHECK: replace-module-scope-vars: local variable @init has an initial value: local memory is not initialised (OpenCL C allows no initialiser on a __local variable)

// -----

// Nor in the LLVM form (only `undef` is no initial value).
llvm.mlir.global internal @zero(0 : i32) {addr_space = 3 : i32} : i32
// CHECK: replace-module-scope-vars: local variable @zero has an initial value

// -----

llvm.mlir.global internal @body() {addr_space = 3 : i32} : i32 {
  %0 = llvm.mlir.constant(7 : i32) : i32
  llvm.return %0 : i32
}
// CHECK: replace-module-scope-vars: local variable @body has an initial value

// -----

// The size of a variable is known at compile time.
"memref.global"() <{sym_name = "dynamic", type = memref<?xf32, 3>, initial_value, sym_visibility = "private"}> : () -> ()
// CHECK: replace-module-scope-vars: local variable @dynamic of memref<?xf32, 3 : i64>: its shape must be static

// -----

// A use must have the variable's type.
"memref.global"() <{sym_name = "tile", type = memref<16xf32, 3>, initial_value, sym_visibility = "private"}> : () -> ()
func.func @wrong_type() {
  %t = memref.get_global @tile : memref<8xf32, 3>
  func.return
}
// CHECK: replace-module-scope-vars: memref.get_global @tile : memref<8xf32, 3 : i64> does not match the local variable, of type memref<16xf32, 3 : i64>

// -----

llvm.mlir.global internal @ptr() {addr_space = 3 : i32} : !llvm.array<4 x i32>
func.func @wrong_kind() {
  %t = memref.get_global @ptr : memref<4xi32, 3>
  func.return
}
// CHECK: replace-module-scope-vars: memref.get_global @ptr: the variable is an llvm.mlir.global, use llvm.mlir.addressof

// -----

llvm.mlir.global internal @generic() {addr_space = 3 : i32} : i32
func.func @wrong_space() {
  %p = llvm.mlir.addressof @generic : !llvm.ptr
  func.return
}
// CHECK: replace-module-scope-vars: llvm.mlir.addressof @generic : !llvm.ptr does not match the local variable, of type !llvm.ptr<3>

// -----

// Another op naming the variable could not be rewritten.
"memref.global"() <{sym_name = "named", type = memref<16xf32, 3>, initial_value, sym_visibility = "private"}> : () -> ()
func.func @other_use() {
  "test.op"() {ref = @named} : () -> ()
  func.return
}
// CHECK: replace-module-scope-vars: test.op refers to local variable @named: only memref.get_global and llvm.mlir.addressof can use one

// -----

// Only a func.func takes the buffer.
llvm.mlir.global internal @in_llvm_func() {addr_space = 3 : i32} : i32
llvm.func @user() {
  %p = llvm.mlir.addressof @in_llvm_func : !llvm.ptr<3>
  llvm.return
}
// CHECK: replace-module-scope-vars: a use of @in_llvm_func is in 'user': only func.func can take the buffer

// -----

// The pass has run: a function with a buffer does not get a second one.
"memref.global"() <{sym_name = "late", type = memref<4xf32, 3>, initial_value, sym_visibility = "private"}> : () -> ()
func.func @twice(%local_vars: memref<16xi8, 3>) attributes {mux.kernel = "entry-point", mux.local_vars_param = array<i64: 0, 16, 4>} {
  %t = memref.get_global @late : memref<4xf32, 3>
  %i = arith.constant 0 : index
  %v = memref.load %t[%i] : memref<4xf32, 3>
  func.return
}
// CHECK: replace-module-scope-vars: 'twice' already has a buffer of local variables (mux.local_vars_param): this pass has run before

// -----

// mux.local_vars_param is checked where it is read (every mux-opt input).
func.func @bad_alignment(%local_vars: memref<16xi8, 3>) attributes {mux.kernel = "entry-point", mux.local_vars_param = array<i64: 0, 16, 3>} {
  func.return
}
// CHECK: 'mux.local_vars_param' is a parameter index, a size in bytes and a power-of-two alignment: array<i64: index, size, alignment>, got array<i64: 0, 16, 3>
