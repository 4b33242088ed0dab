// RUN: mux-opt --split-input-file %s -p replace-wgc | filecheck %s
// RUN: mux-opt %S/Inputs/wgc_linear.mlir -p transfer-kernel-metadata,replace-wgc,replace-module-scope-vars,prepare-barriers,work-item-loops | filecheck %s --check-prefix=SCHED
// RUN: mux-opt %S/Inputs/wgc_linear.mlir -p 'host{software_wgc=true}' | filecheck %s --check-prefix=HOST
//
// replace-wgc: each work-group collective becomes work-group barriers around loads
// and stores of a local-memory accumulator of its type (`memref<1xT, 3>`), folded in
// local linear order: the first barrier has a linear schedule, and work-item 0
// starts from the operation's identity. The fold's load and store carry
// `mux.schedule_ordered`: every work-item makes them between the same two
// barriers, ordered by the schedule, so checked mode's race check leaves them out.

// Reduce: fold, barrier, everyone reads the result. The first barrier keeps the
// collective's id, the second gets a new one.
// CHECK:       "memref.global"() <{sym_name = "wgc_accumulator_i32", type = memref<1xi32, 3 : i64>, initial_value, sym_visibility = "private", alignment = 4 : i64}> : () -> ()
// CHECK-LABEL: func.func @reduce(%x: i32) -> i32 {
// CHECK-NEXT:    mux.work_group_barrier id(3) scope(work_group) semantics(acq_rel | work_group_memory) schedule(linear)
// CHECK-NEXT:    %acc = memref.get_global @wgc_accumulator_i32 : memref<1xi32, 3 : i64>
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %lid = mux.get_local_linear_id
// CHECK-NEXT:    %first = arith.cmpi eq, %lid, %[[ZERO]] : index
// CHECK-NEXT:    %[[E:.*]] = arith.constant -1 : i32
// CHECK-NEXT:    %[[OLD:.*]] = memref.load %acc[%[[ZERO]]] {mux.schedule_ordered} : memref<1xi32, 3 : i64>
// CHECK-NEXT:    %prev = arith.select %first, %[[E]], %[[OLD]] : i32
// CHECK-NEXT:    %fold = arith.minui %prev, %x : i32
// CHECK-NEXT:    memref.store %fold, %acc[%[[ZERO]]] {mux.schedule_ordered} : memref<1xi32, 3 : i64>
// CHECK-NEXT:    mux.work_group_barrier id(4) scope(work_group) semantics(acq_rel | work_group_memory)
// CHECK-NEXT:    %r = memref.load %acc[%[[ZERO]]] : memref<1xi32, 3 : i64>
// CHECK-NEXT:    func.return %r : i32
func.func @reduce(%x: i32) -> i32 {
  %r = mux.work_group_reduce umin id(3) %x : i32
  func.return %r : i32
}

// -----

// Scans: one barrier; the inclusive result is the fold, the exclusive one what
// came before it (the identity for work-item 0). Both share the f64 accumulator.
// CHECK:       "memref.global"() <{sym_name = "wgc_accumulator_f64", type = memref<1xf64, 3 : i64>, initial_value, sym_visibility = "private", alignment = 8 : i64}> : () -> ()
// CHECK-NOT:   memref.global
// CHECK-LABEL: func.func @scans(%x: f64) -> (f64, f64) {
// CHECK-NEXT:    mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory) schedule(linear)
// CHECK-NEXT:    %acc = memref.get_global @wgc_accumulator_f64 : memref<1xf64, 3 : i64>
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %lid = mux.get_local_linear_id
// CHECK-NEXT:    %first = arith.cmpi eq, %lid, %[[ZERO]] : index
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-NEXT:    %[[OLD:.*]] = memref.load %acc[%[[ZERO]]] {mux.schedule_ordered} : memref<1xf64, 3 : i64>
// CHECK-NEXT:    %prev = arith.select %first, %[[ONE]], %[[OLD]] : f64
// CHECK-NEXT:    %i = arith.mulf %prev, %x : f64
// CHECK-NEXT:    memref.store %i, %acc[%[[ZERO]]] {mux.schedule_ordered} : memref<1xf64, 3 : i64>
// CHECK-NEXT:    mux.work_group_barrier id(1) scope(work_group) semantics(acq_rel | work_group_memory) schedule(linear)
// CHECK-NEXT:    %acc_1 = memref.get_global @wgc_accumulator_f64 : memref<1xf64, 3 : i64>
// CHECK-NEXT:    %[[ZERO1:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %lid_1 = mux.get_local_linear_id
// CHECK-NEXT:    %first_1 = arith.cmpi eq, %lid_1, %[[ZERO1]] : index
// CHECK-NEXT:    %[[NEGZERO:.*]] = arith.constant -0.000000e+00 : f64
// CHECK-NEXT:    %[[OLD1:.*]] = memref.load %acc_1[%[[ZERO1]]] {mux.schedule_ordered} : memref<1xf64, 3 : i64>
// CHECK-NEXT:    %e = arith.select %first_1, %[[NEGZERO]], %[[OLD1]] : f64
// CHECK-NEXT:    %fold = arith.addf %e, %x : f64
// CHECK-NEXT:    memref.store %fold, %acc_1[%[[ZERO1]]] {mux.schedule_ordered} : memref<1xf64, 3 : i64>
// CHECK-NEXT:    func.return %i, %e : f64, f64
func.func @scans(%x: f64) -> (f64, f64) {
  %i = mux.work_group_scan_inclusive fmul id(0) %x : f64
  %e = mux.work_group_scan_exclusive fadd id(1) %x : f64
  func.return %i, %e : f64, f64
}

// -----

// any and all: reduces of i1 with logical_or (from false) and logical_and (from
// true). New barrier ids come after the function's largest.
// CHECK:       "memref.global"() <{sym_name = "wgc_accumulator_i1", type = memref<1xi1, 3 : i64>, initial_value, sym_visibility = "private", alignment = 1 : i64}> : () -> ()
// CHECK-LABEL: func.func @any_all(%b: i1) -> (i1, i1) {
// CHECK-NEXT:    mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory) schedule(linear)
// CHECK:         %[[FALSE:.*]] = arith.constant false
// CHECK-NEXT:    %[[OLD:.*]] = memref.load %acc[%{{.*}}] {mux.schedule_ordered} : memref<1xi1, 3 : i64>
// CHECK-NEXT:    %prev = arith.select %first, %[[FALSE]], %[[OLD]] : i1
// CHECK-NEXT:    %fold = arith.ori %prev, %b : i1
// CHECK-NEXT:    memref.store %fold, %acc[%{{.*}}] {mux.schedule_ordered} : memref<1xi1, 3 : i64>
// CHECK-NEXT:    mux.work_group_barrier id(2) scope(work_group) semantics(acq_rel | work_group_memory)
// CHECK-NEXT:    %any = memref.load %acc[%{{.*}}] : memref<1xi1, 3 : i64>
// CHECK-NEXT:    mux.work_group_barrier id(1) scope(work_group) semantics(acq_rel | work_group_memory) schedule(linear)
// CHECK:         %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT:    %[[OLD1:.*]] = memref.load %acc_1[%{{.*}}] {mux.schedule_ordered} : memref<1xi1, 3 : i64>
// CHECK-NEXT:    %prev_1 = arith.select %first_1, %[[TRUE]], %[[OLD1]] : i1
// CHECK-NEXT:    %fold_1 = arith.andi %prev_1, %b : i1
// CHECK-NEXT:    memref.store %fold_1, %acc_1[%{{.*}}] {mux.schedule_ordered} : memref<1xi1, 3 : i64>
// CHECK-NEXT:    mux.work_group_barrier id(3) scope(work_group) semantics(acq_rel | work_group_memory)
// CHECK-NEXT:    %all = memref.load %acc_1[%{{.*}}] : memref<1xi1, 3 : i64>
// CHECK-NEXT:    func.return %any, %all : i1, i1
func.func @any_all(%b: i1) -> (i1, i1) {
  %any = mux.work_group_any id(0) %b
  %all = mux.work_group_all id(1) %b
  func.return %any, %all : i1, i1
}

// -----

// Broadcast: barrier; the work-item at local linear id (lz * size(1) + ly) *
// size(0) + lx stores its value; barrier; everyone reads it.
// CHECK:       "memref.global"() <{sym_name = "wgc_accumulator_index", type = memref<1xindex, 3 : i64>, initial_value, sym_visibility = "private", alignment = 8 : i64}> : () -> ()
// CHECK-LABEL: func.func @broadcast(%x: index, %lx: index, %ly: index, %lz: index) -> index {
// CHECK-NEXT:    mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
// CHECK-NEXT:    %acc = memref.get_global @wgc_accumulator_index : memref<1xindex, 3 : i64>
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %lid = mux.get_local_linear_id
// CHECK-NEXT:    %[[D0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[SX:.*]] = mux.get_local_size %[[D0]]
// CHECK-NEXT:    %[[D1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[SY:.*]] = mux.get_local_size %[[D1]]
// CHECK-NEXT:    %[[A:.*]] = arith.muli %lz, %[[SY]] : index
// CHECK-NEXT:    %[[B:.*]] = arith.addi %[[A]], %ly : index
// CHECK-NEXT:    %[[C:.*]] = arith.muli %[[B]], %[[SX]] : index
// CHECK-NEXT:    %from = arith.addi %[[C]], %lx : index
// CHECK-NEXT:    %is_from = arith.cmpi eq, %lid, %from : index
// CHECK-NEXT:    scf.if %is_from {
// CHECK-NEXT:      memref.store %x, %acc[%[[ZERO]]] : memref<1xindex, 3 : i64>
// CHECK-NEXT:    }
// CHECK-NEXT:    mux.work_group_barrier id(1) scope(work_group) semantics(acq_rel | work_group_memory)
// CHECK-NEXT:    %r = memref.load %acc[%[[ZERO]]] : memref<1xindex, 3 : i64>
// CHECK-NEXT:    func.return %r : index
func.func @broadcast(%x: index, %lx: index, %ly: index, %lz: index) -> index {
  %r = mux.work_group_broadcast id(0) %x, %lx, %ly, %lz : index
  func.return %r : index
}

// -----

// Barrier ids: the new barrier gets one above the function's largest (5), so that
// the ids stay unique before prepare-barriers renumbers them.
// CHECK-LABEL: func.func @ids(%x: f32) -> f32 {
// CHECK-NEXT:    mux.work_group_barrier id(0)
// CHECK-NEXT:    mux.work_group_barrier id(2) {{.*}} schedule(linear)
// CHECK:         %{{.*}} = arith.constant 0x7f800000 : f32
// CHECK:         %fold = arith.minnumf %prev, %x : f32
// CHECK-NEXT:    memref.store %fold
// CHECK-NEXT:    mux.work_group_barrier id(6)
// CHECK-NEXT:    %r = memref.load
// CHECK-NEXT:    mux.work_group_barrier id(5)
func.func @ids(%x: f32) -> f32 {
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %r = mux.work_group_reduce fmin id(2) %x : f32
  mux.work_group_barrier id(5) scope(work_group) semantics(acq_rel | work_group_memory)
  func.return %r : f32
}

// -----

// Collectives in any function (here a helper and a loop in it) are replaced where
// they are; a symbol named like the accumulator already exists: the new one gets a
// suffix.
// CHECK:       "memref.global"() <{sym_name = "wgc_accumulator_i64_1", type = memref<1xi64, 3 : i64>
// CHECK-NEXT:  "memref.global"() <{sym_name = "wgc_accumulator_i64", type = memref<4xi64, 3 : i64>
// CHECK-LABEL: func.func @helper
// CHECK:         scf.for
// CHECK-NEXT:      mux.work_group_barrier id(0) {{.*}} schedule(linear)
// CHECK-NEXT:      %{{.*}} = memref.get_global @wgc_accumulator_i64_1
// CHECK:           %fold = arith.addi %prev, %acc : i64
// CHECK:           mux.work_group_barrier id(1)
// CHECK-NEXT:      %s = memref.load
// CHECK-NEXT:      scf.yield %s : i64
// CHECK-NEXT:    }
// CHECK-NEXT:    mux.work_group_barrier id(0) {{.*}} schedule(linear)
// CHECK:         %[[MIN:.*]] = arith.constant -9223372036854775808 : i64
// CHECK:         arith.maxsi
// CHECK:         mux.work_group_barrier id(2)
// CHECK-NOT:     mux.work_group_reduce
"memref.global"() <{sym_name = "wgc_accumulator_i64", type = memref<4xi64, 3>, initial_value, sym_visibility = "private"}> : () -> ()
func.func @helper(%x: i64, %n: index) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (i64) {
    %s = mux.work_group_reduce add id(0) %acc : i64
    scf.yield %s : i64
  }
  %m = mux.work_group_reduce smax id(0) %r : i64
  func.return %m : i64
}

// -----

// No collective: nothing changes, no accumulator.
// CHECK-NOT:   memref.global
// CHECK-LABEL: func.func @none() {
// CHECK-NEXT:    mux.work_group_barrier id(0)
// CHECK-NEXT:    func.return
func.func @none() {
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  func.return
}

// The scheduled kernel: the accumulator is a place in the local variables buffer;
// the region after the collective's barrier loops over the work-items x innermost
// (linear order) although the kernel's order is zyx.
// SCHED-LABEL: func.func @"scan.mux-barrier-wrapper"(%x: memref<?xi32, 1 : i64>, %local_vars: memref<4xi8, 3 : i64>)
// SCHED-SAME:    mux.local_vars_param = array<i64: 1, 4, 4>
// SCHED:         scf.for %x_1 =
// SCHED:           scf.for %y =
// SCHED:             func.call @"scan.mux-barrier-region.0"
// SCHED:       ^bb2:
// SCHED-NEXT:    mux.mem_barrier scope(work_group) semantics(acq_rel | work_group_memory)
// SCHED:         scf.for %y_1 =
// SCHED:           scf.for %x_2 =
// SCHED:             func.call @"scan.mux-barrier-region.1"

// The host pipeline with software_wgc: down to the llvm dialect, no mux op left.
// HOST-NOT:    mux.work_group
// HOST:        llvm.func internal @"scan.mux-barrier-region.1"
// HOST-NOT:    = mux.
// HOST:        llvm.func @"scan.host-entry-hook"
