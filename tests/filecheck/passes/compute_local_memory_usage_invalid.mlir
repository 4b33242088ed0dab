// RUN: not mux-opt %s -p compute-local-memory-usage 2>&1 | filecheck %s
//
// compute-local-memory-usage places the variables as replace-module-scope-vars
// does, and rejects what it rejects: here a local variable with an initial value.
// CHECK: replace-module-scope-vars: local variable @init has an initial value: local memory is not initialised
"memref.global"() <{sym_name = "init", type = memref<4xf32, 3>, initial_value = dense<1.0> : tensor<4xf32>, sym_visibility = "private"}> : () -> ()
func.func @k() attributes {mux.kernel = "entry-point"} {
  %t = memref.get_global @init : memref<4xf32, 3>
  func.return
}
