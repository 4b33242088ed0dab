// RUN: mux-opt %s --split-input-file --verify-diagnostics -p convert-to-llvm | filecheck %s
//
// The functions convert-to-llvm rejects.

// An llvm function returns at most one value.
func.func @two_results(%a: i32) -> (i32, i32) {
  func.return %a, %a : i32, i32
}
// CHECK: convert-to-llvm: (i32) -> (i32, i32): an llvm function returns at most one value
// CHECK: "func.func"() <{sym_name = "two_results"
// CHECK-NEXT: ^^^^^^^^^^^

// -----

func.func private @declared(i32) -> (i32, f32)
// CHECK: convert-to-llvm: (i32) -> (i32, f32): an llvm function returns at most one value

// -----

func.func @bad_linkage() attributes {llvm.linkage = "internal"} {
  func.return
}
// CHECK: convert-to-llvm: llvm.linkage must be an #llvm.linkage attribute, got "internal"

// -----

// Every mux op must be lowered before: the first one is reported.
func.func @kernel(%a: memref<?xf32, 1>) attributes {mux.kernel = "entry-point"} {
  %x = arith.constant 0 : i32
  %i = mux.get_global_id %x
  %j = mux.get_local_id %x
  func.return
}
// CHECK: convert-to-llvm: mux.get_global_id: mux ops must be lowered before convert-to-llvm (run define-mux-builtins)
// CHECK: %i = "mux.get_global_id"(%x)
// CHECK-NEXT: ^^^^^^^^^^^^^^^^^^^^^^^^

// -----

// A call of a function returning two values (declared after the caller, so the
// call is the first op converted that breaks the rule).
func.func @caller(%a: i32) -> i32 {
  %x, %y = func.call @pair(%a) : (i32) -> (i32, i32)
  func.return %x : i32
}
func.func private @pair(i32) -> (i32, i32)
// CHECK: convert-to-llvm: func.call returns more than one value: an llvm function returns at most one
// CHECK: %x, %y = "func.call"(%a)
// CHECK-NEXT: ^^^^^^^^^^^^^^^^^^^^---
