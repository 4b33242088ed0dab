// RUN: mux-opt %s --split-input-file --verify-diagnostics -p convert-to-llvm | filecheck %s
//
// The vector ops convert-to-llvm rejects.

func.func @broadcast(%v: vector<2xf32>) -> vector<4xf32> {
  %w = vector.broadcast %v : vector<2xf32> to vector<4xf32>
  func.return %w : vector<4xf32>
}
// CHECK: convert-to-llvm: vector.broadcast from vector<2xf32> to vector<4xf32>: only from a scalar or a vector<1xT>

// -----

func.func @print(%v: vector<4xf32>) {
  "vector.print"(%v) : (vector<4xf32>) -> ()
  func.return
}
// CHECK: convert-to-llvm: vector.print has no conversion to the llvm dialect

// -----

func.func @mask(%i: index) -> vector<4xi1> {
  %m = vector.create_mask %i : vector<4xi1>
  func.return %m : vector<4xi1>
}
// CHECK: convert-to-llvm: vector.create_mask has no conversion to the llvm dialect

// -----

// 2-D vectors have no llvm type, in ops as in signatures.
func.func @two_d(%x: f32) {
  %v = vector.broadcast %x : f32 to vector<2x4xf32>
  func.return
}
// CHECK: convert-to-llvm: vector<2x4xf32>: only 1-D vectors of a fixed size have an llvm type
