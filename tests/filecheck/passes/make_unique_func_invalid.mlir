// RUN: not mux-opt %s -p 'make-unique-func{name=x}' 2>&1 | filecheck %s
// CHECK: make-unique-func: needs exactly one kernel entry point, found a, b
// RUN: not mux-opt %s -p 'make-unique-func' 2>&1 | filecheck %s --check-prefix=NONAME
// NONAME: make-unique-func: give the new name: {name=...}
func.func @a() attributes {mux.kernel = "entry-point"} {
  func.return
}
func.func @b() attributes {mux.kernel = "entry-point"} {
  func.return
}
