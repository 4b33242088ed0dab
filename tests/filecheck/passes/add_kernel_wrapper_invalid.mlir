// RUN: not mux-opt %s -p add-kernel-wrapper 2>&1 | filecheck %s
// CHECK: add-kernel-wrapper: kernel 'k' has no scheduling parameters: run add-sched-params first
func.func @k() attributes {mux.kernel = "entry-point"} {
  func.return
}
