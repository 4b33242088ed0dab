// docs/kernels.md runs: every command and Python snippet on the page, with the
// output it shows.
//
// RUN: python %repo/scripts/check_docs.py %repo/docs/kernels.md | filecheck %s
// CHECK: ok: mux-run examples/scale_rows.mlir scale_rows
// CHECK: kernels.md: {{[0-9]+}} steps checked
