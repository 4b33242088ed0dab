// RUN: mux-opt %s --split-input-file --verify-diagnostics -p convert-to-llvm | filecheck %s
//
// The cf ops convert-to-llvm rejects.

func.func @wide_switch(%flag: i128) {
  cf.switch %flag : i128, [
    default: ^exit,
    1: ^exit
  ]
^exit:
  func.return
}
// CHECK: convert-to-llvm: cf.switch on i128: llvmx.switch takes i32 or i64 flags
