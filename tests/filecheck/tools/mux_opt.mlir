// The mux-opt command line: xdsl-opt's flags, our dialect, and errors as diagnostics.
//
// RUN: mux-opt --help | filecheck %s --check-prefix=HELP
// HELP: ComputeMux modular optimizer driver
// HELP-DAG: --split-input-file
// HELP-DAG: --verify-diagnostics
// HELP-DAG: --print-op-generic
// HELP-DAG: -p PASSES, --passes PASSES
// HELP-DAG: -t TARGET, --target TARGET
//
// RUN: mux-opt --version | filecheck %s --check-prefix=VERSION
// VERSION: mux-opt (ComputeMux on xDSL 0.74.0)
//
// xDSL's own passes are there too; queries are pure, so an unused one goes away.
// RUN: mux-opt %s -p canonicalize | filecheck %s --check-prefix=CANON
// CANON-LABEL: func.func @k
// CANON-NEXT: %[[D:.*]] = arith.constant 0 : i32
// CANON-NEXT: %{{.*}} = mux.get_global_id %[[D]]
// CANON-NEXT: func.return %{{.*}} : index
//
// An invalid op without --verify-diagnostics is an error exit, not a crash into a
// Python traceback at the user.
// A parse error points at the file, line and column.
// RUN: not mux-opt %S/Inputs/invalid_op.mlir 2> %t.err
// RUN: filecheck %s --check-prefix=ERR --input-file %t.err
// ERR: invalid_op.mlir:2:{{[0-9]+}}
// ERR-NEXT: mux.mem_barrier scope(device) semantics(acquire | release)
// ERR: MemSemantics sets at most one ordering, got acquire, release
// ERR-NOT: Traceback
//
// A verifier error is one diagnostic at the op, at its place in the file, with its
// line of source (not the whole module).
// RUN: not mux-opt %S/Inputs/invalid_verify.mlir 2> %t.verr
// RUN: filecheck %s --check-prefix=VERR --input-file %t.verr
// VERR: invalid_verify.mlir:2:3: error: mux.sub_group_reduce: {{.*}}'fadd' on i32
// VERR-NEXT: %r = mux.sub_group_reduce fadd %x : i32
// VERR-NOT: func.func
// VERR-NOT: Traceback

func.func @k(%unused: index) -> index {
  %d = arith.constant 0 : i32
  %id = mux.get_global_id %d
  %dead = arith.addi %unused, %unused : index
  %dead_id = mux.get_local_id %d
  func.return %id : index
}
