// RUN: mux-opt %s --split-input-file --allow-unregistered-dialect --verify-diagnostics -p convert-to-llvm | filecheck %s
//
// The index ops convert-to-llvm rejects.

func.func @unknown_predicate(%a: index) -> i1 {
  %c = "index.cmp"(%a, %a) <{pred = #index<cmp_predicate between>}> : (index, index) -> i1
  func.return %c : i1
}
// CHECK: convert-to-llvm: index.cmp: unknown predicate between

// -----

func.func @no_predicate(%a: index) -> i1 {
  %c = "index.cmp"(%a, %a) : (index, index) -> i1
  func.return %c : i1
}
// CHECK: convert-to-llvm: index.cmp: the property pred is missing

// -----

// Other unregistered ops are not converted.
func.func @unknown(%a: index) -> index {
  %c = "index.popcount"(%a) : (index) -> index
  func.return %c : index
}
// CHECK: convert-to-llvm: index.popcount has no conversion to the llvm dialect
