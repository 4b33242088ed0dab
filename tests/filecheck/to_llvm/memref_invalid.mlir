// RUN: mux-opt %s --split-input-file --verify-diagnostics -p convert-to-llvm | filecheck %s
//
// The memref ops convert-to-llvm rejects. The diagnostic is shown on the op of the
// input, not of a half-converted module.

func.func @alloc() {
  %m = memref.alloc() : memref<4xf32>
  func.return
}
// CHECK: convert-to-llvm: memref.alloc: kernels have no heap (use memref.alloca for a private array, a memref.global in address space 3 for local memory)
// CHECK: "func.func"() <{sym_name = "alloc"
// CHECK-NEXT:   %m = "memref.alloc"()
// CHECK-NEXT:   ^^^^^^^^^^^^^^^^^^^---
// CHECK-NEXT:   | memref.alloc: kernels have no heap

// -----

func.func @dealloc(%m: memref<4xf32>) {
  memref.dealloc %m : memref<4xf32>
  func.return
}
// CHECK: convert-to-llvm: memref.dealloc: kernels have no heap

// -----

func.func @dynamic_dim(%m: memref<?x4xf32, 1>) -> index {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %static = memref.dim %m, %c1 : memref<?x4xf32, 1>
  %dynamic = memref.dim %m, %c0 : memref<?x4xf32, 1>
  func.return %dynamic : index
}
// CHECK: convert-to-llvm: memref.dim of the dynamic dimension 0 of memref<?x4xf32, 1 : i64>: a memref is a bare pointer, which has no sizes (pass the size as an argument)
// The input is shown as it was, the first memref.dim not converted:
// CHECK: %static = "memref.dim"(%m, %c1)
// CHECK-NEXT: %dynamic = "memref.dim"(%m, %c0)
// CHECK-NEXT: ^^^^^^^^^^^^^^^^^^^^^^^---

// -----

func.func @variable_dim(%m: memref<4x4xf32>, %d: index) -> index {
  %size = memref.dim %m, %d : memref<4x4xf32>
  func.return %size : index
}
// CHECK: convert-to-llvm: memref.dim: the dimension must be a constant (a memref is a bare pointer, its sizes are in its type only)

// -----

func.func @local_alloca() {
  %m = memref.alloca() : memref<4xf32, 3>
  func.return
}
// CHECK: convert-to-llvm: memref.alloca of memref<4xf32, 3 : i64>: private arrays are in address space 0 (local memory is a memref.global in address space 3)

// -----

func.func @dynamic_alloca(%n: index) {
  %m = memref.alloca(%n) : memref<?xf32>
  func.return
}
// CHECK: convert-to-llvm: memref.alloca of memref<?xf32>: only static shapes (a private array has a size known at compile time)

// -----

func.func @subview(%m: memref<8xf32>) {
  %s = memref.subview %m[0] [4] [1] : memref<8xf32> to memref<4xf32>
  func.return
}
// CHECK: convert-to-llvm: memref.subview has no conversion to the llvm dialect

// -----

"memref.global"() <{sym_name = "g", sym_visibility = "private", type = memref<?xf32, 3>, initial_value}> : () -> ()
// CHECK: convert-to-llvm: memref.global of memref<?xf32, 3 : i64>: a global has a static shape

// -----

// xDSL's memref.cast lets the memory space change; an addrspacecast is
// memref.memory_space_cast.
func.func @cast_space(%m: memref<4xf32, 1>) {
  %s = "memref.cast"(%m) : (memref<4xf32, 1>) -> memref<4xf32>
  func.return
}
// CHECK: convert-to-llvm: memref.cast from memref<4xf32, 1 : i64> to memref<4xf32> changes the memory space

// -----

// A cast made by an earlier pass that the conversion cannot remove: the integer is
// not the memref's pointer.
func.func @cast_left(%address: i64) -> f32 {
  %c0 = arith.constant 0 : index
  %m = "builtin.unrealized_conversion_cast"(%address) : (i64) -> memref<4xf32>
  %x = memref.load %m[%c0] : memref<4xf32>
  func.return %x : f32
}
// CHECK: convert-to-llvm: a cast from i64 to memref<4xf32> is left: the types do not match once converted

// -----

"memref.global"() <{sym_name = "pos", type = memref<2xvector<3xf32>, 3>, initial_value, sym_visibility = "private"}> : () -> ()
// CHECK: convert-to-llvm: memref.global of memref<2xvector<3xf32>, 3 : i64>: a global's elements are integers or floats (its initial value is packed as such)
