// RUN: mux-opt %s --split-input-file --verify-diagnostics -p convert-to-llvm | filecheck %s
//
// The arith ops convert-to-llvm rejects.

// xDSL 0.74's arith comparisons return one i1 even on vectors: not a vector
// comparison, so not converted.
func.func @vector_cmpf(%a: vector<4xf32>) -> i1 {
  %c = arith.cmpf olt, %a, %a : vector<4xf32>
  func.return %c : i1
}
// CHECK: convert-to-llvm: arith.cmpf on vector<4xf32>: xDSL 0.74's arith.cmpf returns one i1 even for vectors, so vector comparisons are not supported

// -----

func.func @vector_cmpi(%a: vector<4xi32>) -> i1 {
  %c = arith.cmpi slt, %a, %a : vector<4xi32>
  func.return %c : i1
}
// CHECK: convert-to-llvm: arith.cmpi on vector<4xi32>: xDSL 0.74's arith.cmpi returns one i1 even for vectors, so vector comparisons are not supported

// -----

func.func @extended(%a: i32) -> i32 {
  %low, %high = arith.mului_extended %a, %a : i32
  func.return %low : i32
}
// CHECK: convert-to-llvm: arith.mului_extended has no conversion to the llvm dialect

// -----

func.func @i1_floordiv(%a: i1) -> i1 {
  %q = arith.floordivsi %a, %a : i1
  func.return %q : i1
}
// CHECK: convert-to-llvm: rounding divisions of i1 are not supported
