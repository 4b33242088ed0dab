// RUN: mux-opt %s --split-input-file --verify-diagnostics -p convert-to-llvm | filecheck %s
//
// The functions convert-to-llvm rejects.

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
