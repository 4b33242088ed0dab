// run-vecz's width is one of the widths mux.compile takes (CompileOptions' rule).
// RUN: not mux-opt %s -p 'run-vecz{width=6}' 2>&1 | filecheck %s
// CHECK: run-vecz: width: one of 0, 1, 2, 4, 8, 16, 32, got 6
// RUN: not mux-opt %s -p 'run-vecz{width=64}' 2>&1 | filecheck %s --check-prefix=WIDE
// WIDE: run-vecz: width: one of 0, 1, 2, 4, 8, 16, 32, got 64
// RUN: not mux-opt %s -p 'run-vecz{rows=3}' 2>&1 | filecheck %s --check-prefix=ROWS
// ROWS: run-vecz: rows must be a power of 2, got 3
func.func @k() attributes {mux.kernel = "entry-point"} {
  func.return
}
