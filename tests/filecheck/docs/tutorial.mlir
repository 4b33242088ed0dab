// docs/tutorial.md runs: every command on the page, with the output it shows.
//
// RUN: python %repo/scripts/check_docs.py %repo/docs/tutorial.md | filecheck %s
// CHECK: ok: mux-opt examples/vadd.mlir
// CHECK: ok: mux-opt examples/vadd.mlir -p host -t llvm
// CHECK: ok: mux-run examples/vadd.mlir vadd
// CHECK: tutorial.md: 16 steps checked
