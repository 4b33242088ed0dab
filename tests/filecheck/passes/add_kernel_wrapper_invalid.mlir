// RUN: not mux-opt %s -p add-kernel-wrapper 2>&1 | filecheck %s
// CHECK: add-kernel-wrapper: kernel 'k' has no scheduling parameters: run add-sched-params first
func.func @k() attributes {mux.kernel = "entry-point"} {
  func.return
}
//
// mux.local_vars_param (replace-module-scope-vars) must name a buffer in local memory.
// RUN: not mux-opt %S/Inputs/local_vars_param_not_local.mlir -p add-kernel-wrapper 2>&1 | filecheck %s --check-prefix=LOCALVARS
// LOCALVARS: add-kernel-wrapper: kernel 'k' names parameter 0 in mux.local_vars_param, which is not a buffer in local memory (got memref<16xi8, 1 : i64>)
