// mux-explore (run here as `python -m mux.explorer.cli`, which works before the
// console script is installed): the page lists every pass of the host pipeline in
// order, each with its diff or "No change".
// RUN: python -m mux.explorer.cli %s -o %t.html
// RUN: filecheck %s --input-file %t.html
// CHECK: <span class="name">input</span>
// CHECK: <span class="name">lower-printf</span>
// CHECK: <span class="name">encode-kernel-metadata</span>
// CHECK: <span class="name">prepare-barriers</span>
// CHECK: <span class="name">work-item-loops</span>
// CHECK: <span class="name">convert-to-llvm</span>
// CHECK: <span class="name">reconcile-unrealized-casts</span>
// CHECK: <section class="stage" id="stage-1" data-pass="lower-printf">
// CHECK: No change
// CHECK: data-pass="work-item-loops">
// CHECK: diff against
// CHECK: <ins>+{{.*}}scf.for
// CHECK: <section id="assembly"
//
// A kernel a pass refuses: the diagnostic on stderr, exit status 1, and the page
// up to that pass.
// RUN: sed 's/sub_group_size = 1/sub_group_size = 3/' %s | sed '/^\/\//d' > %t.bad.mlir
// RUN: not python -m mux.explorer.cli %t.bad.mlir -o %t.bad.html 2>&1 | filecheck %s --check-prefix=BAD
// BAD: requires sub-group size 3
// BAD-NOT: Traceback
// BAD: mux-explore: wrote {{.*}}.bad.html, up to the error
// RUN: filecheck %s --input-file %t.bad.html --check-prefix=PAGE
// PAGE: <li class="failed"><a href="#error">{{.*}}verify-reqd-sub-group-legal
// PAGE: <section id="error" class="error"><h2>Compilation stopped in verify-reqd-sub-group-legal</h2>

func.func @k(%out: memref<?xindex, 1>) attributes {mux.kernel = "entry-point", mux.reqd_sub_group_size = 1 : i32} {
  %gid = mux.get_global_linear_id
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  memref.store %gid, %out[%gid] : memref<?xindex, 1>
  func.return
}
