// RUN: not mux-opt %s -p add-entry-hook 2>&1 | filecheck %s
// CHECK: add-entry-hook: entry point 'k' does not take (packed args, work-group info) pointers: run add-kernel-wrapper first
func.func @k(%a: memref<?xf32, 1>) attributes {mux.kernel = "entry-point"} {
  func.return
}
