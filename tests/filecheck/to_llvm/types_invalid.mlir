// RUN: mux-opt %s --split-input-file --verify-diagnostics -p convert-to-llvm | filecheck %s
//
// The types convert-to-llvm rejects, each with the rule it breaks. Memrefs are bare
// pointers: identity layout, static strides, an address space number.

func.func @strided(%m: memref<4xf32, strided<[2]>>) {
  func.return
}
// CHECK: convert-to-llvm: memref<4xf32, strided<[2]>>: only the identity layout is supported (a memref is a bare pointer, which has no strides)
// CHECK: "func.func"() <{sym_name = "strided"
// CHECK-NEXT: ^^^^^^^^^^^

// -----

func.func @permuted(%m: memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>) {
  func.return
}
// CHECK: convert-to-llvm: memref<4x4xf32, affine_map<(d0, d1) -> (d1, d0)>>: only the identity layout is supported

// -----

func.func @two_dynamic(%m: memref<?x?xf32, 1>) {
  func.return
}
// CHECK: convert-to-llvm: memref<?x?xf32, 1 : i64>: only the leading dimension may be dynamic (a memref is a bare pointer, so its strides must be static)

// -----

func.func @inner_dynamic(%m: memref<4x?xf32>) {
  func.return
}
// CHECK: convert-to-llvm: memref<4x?xf32>: only the leading dimension may be dynamic

// -----

func.func @named_space(%m: memref<4xf32, "global">) {
  func.return
}
// CHECK: convert-to-llvm: memref<4xf32, "global">: the memory space must be an address space number

// -----

func.func @element(%m: memref<4xcomplex<f32>>) {
  func.return
}
// CHECK: convert-to-llvm: memref<4xcomplex<f32>>: the element type must be an integer, index, float or vector

// -----

// The memref type of a value that is not an argument is checked too.
func.func @cast(%m: memref<8xf32>) {
  %s = "memref.cast"(%m) : (memref<8xf32>) -> memref<?x?xf32>
  func.return
}
// CHECK: convert-to-llvm: memref<?x?xf32>: only the leading dimension may be dynamic
// CHECK: %s = "memref.cast"(%m)
// CHECK-NEXT: ^^^^^^^^^^^^^

// -----

func.func @vector_2d(%v: vector<2x2xf32>) {
  func.return
}
// CHECK: convert-to-llvm: vector<2x2xf32>: only 1-D vectors of a fixed size have an llvm type

// -----

func.func @scalable(%v: vector<[4]xf32>) {
  func.return
}
// CHECK: convert-to-llvm: vector<[4]xf32>: only 1-D vectors of a fixed size have an llvm type

// -----

func.func @signed(%x: si32) {
  func.return
}
// CHECK: convert-to-llvm: si32: only signless integers have an llvm type

// -----

func.func @tensor(%t: tensor<4xf32>) {
  func.return
}
// CHECK: convert-to-llvm: tensor<4xf32> has no llvm type
