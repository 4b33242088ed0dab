// RUN: mux-opt %s -p reduce-to-func | filecheck %s --check-prefix=REDUCE
// RUN: mux-opt %s -p 'make-unique-func{name=k_wg64}' | filecheck %s --check-prefix=RENAME
//
// reduce-to-func keeps the kernels and what they call, transitively; make-unique-func
// renames the one entry point, and its calls.

// REDUCE-LABEL: func.func @leaf
// REDUCE-LABEL: func.func @middle
// REDUCE-LABEL: func.func @k(
// REDUCE-LABEL: func.func @other_kernel
// REDUCE-NOT:   func.func @unused
// RENAME: func.func @k_wg64() attributes {mux.kernel = "entry-point"}
// RENAME: func.func @caller()
// RENAME-NEXT: func.call @k_wg64()
func.func @leaf() {
  func.return
}
func.func @middle() {
  func.call @leaf() : () -> ()
  func.return
}
func.func @unused() {
  func.call @leaf() : () -> ()
  func.return
}
func.func @k() attributes {mux.kernel = "entry-point"} {
  func.call @middle() : () -> ()
  func.return
}
func.func @other_kernel() attributes {mux.kernel} {
  func.return
}
func.func @caller() {
  func.call @k() : () -> ()
  func.return
}
