// run-vecz's width must be a power of 2.
// RUN: not mux-opt %s -p 'run-vecz{width=6}' 2>&1 | filecheck %s
// CHECK: run-vecz: width must be a power of 2, got 6
func.func @k() attributes {mux.kernel = "entry-point"} {
  func.return
}
