// replace-wgc rejects what it cannot replace, naming the op or function and the rule.
//
// RUN: mux-opt --split-input-file --verify-diagnostics %s -p replace-wgc | filecheck %s

// A collective in an llvm.func: the accumulator, a memref.global, is materialised
// by replace-module-scope-vars in func.func functions only.
// CHECK: replace-wgc: mux.work_group_reduce in 'imported': only collectives in a func.func can be replaced (their local variables are materialised there)
llvm.func @imported(%x: i32) -> i32 {
  %r = mux.work_group_reduce add id(0) %x : i32
  llvm.return %r : i32
}

// -----

// A signed integer type has no memory layout for the accumulator.
// CHECK-NEXT: {{^}}//{{ }}-----
// CHECK-NEXT: replace-wgc: mux.work_group_broadcast in 'signed': si32: only signless integers have an llvm type: it cannot be kept in local memory
func.func @signed(%x: si32, %i: index) -> si32 {
  %r = mux.work_group_broadcast id(0) %x, %i, %i, %i : si32
  func.return %r : si32
}

// -----

// replace-module-scope-vars has run: an accumulator would never be placed.
// CHECK-NEXT: {{^}}//{{ }}-----
// CHECK-NEXT: replace-wgc: 'placed' has its local variables buffer already (mux.local_vars_param): run replace-wgc before replace-module-scope-vars, or its accumulators are never allocated
func.func @placed(%x: i1, %local_vars: memref<4xi8, 3>) -> i1 attributes {mux.kernel = "entry-point", mux.local_vars_param = array<i64: 1, 4, 4>} {
  %r = mux.work_group_all id(0) %x
  func.return %r : i1
}
