// RUN: mux-opt --split-input-file %s -p run-vecz | filecheck %s
//
// run-vecz without a width: its cost model picks the width, and whether to
// vectorise at all (the spec's -cl-wfv=auto).

// A loop carrying a value that differs between lanes (a chain of dependent adds):
// 16 lanes, two independent chains per step, when the required size allows it.
// CHECK-LABEL: func.func @chain(
// CHECK-SAME:      mux.vecz_base = [16 : i32, "__vecz_v16_chain"]
func.func @chain(%a: memref<?xf32, 1>, %n: index) attributes {mux.kernel = "entry-point",
    mux.reqd_work_group_size = array<i32: 32, 1, 1>} {
  %d0 = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = mux.get_global_id %d0
  %v = memref.load %a[%x] : memref<?xf32, 1>
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %v) -> (f32) {
    %next = arith.addf %acc, %v : f32
    scf.yield %next : f32
  }
  memref.store %s, %a[%x] : memref<?xf32, 1>
  func.return
}

// -----

// No wider than the required size in x (rounded down to a power of 2).
// CHECK-LABEL: func.func @narrow(
// CHECK-SAME:      mux.vecz_base = [4 : i32, "__vecz_v4_narrow"]
func.func @narrow(%a: memref<?xf32, 1>) attributes {mux.kernel = "entry-point",
    mux.reqd_work_group_size = array<i32: 6, 2, 1>} {
  %d0 = arith.constant 0 : i32
  %x = mux.get_global_id %d0
  %v = memref.load %a[%x] : memref<?xf32, 1>
  %w = arith.addf %v, %v : f32
  memref.store %w, %a[%x] : memref<?xf32, 1>
  func.return
}

// -----

// More accesses lane by lane than to whole vectors: the scalar kernel is kept.
// CHECK-LABEL: func.func @strided(
// CHECK-SAME:      mux.vecz_fail = [8 : i32, "not worth it: 1 accesses lane by lane, 0 to whole vectors"]
func.func @strided(%out: memref<?xi32, 1>) attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : index
  %one = arith.constant 1 : i32
  %x = mux.get_global_id %d0
  %x2 = arith.muli %x, %c2 : index
  memref.store %one, %out[%x2] : memref<?xi32, 1>
  func.return
}

// -----

// A barrier in an scf.while, a tree's steps: the scalar kernel is kept.
// CHECK-LABEL: func.func @tree(
// CHECK-SAME:      mux.vecz_fail = [8 : i32, "not worth it: a barrier in an scf.while (a tree's steps: LLVM unrolls the scalar kernel's steps and folds their masks)"]
func.func @tree(%a: memref<?xf32, 3>) attributes {mux.kernel = "entry-point",
    mux.reqd_work_group_size = array<i32: 8, 1, 1>} {
  %d0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %x = mux.get_local_id %d0
  %last = scf.while (%s = %c1) : (index) -> index {
    %more = arith.cmpi ult, %s, %c8 : index
    scf.condition(%more) %s : index
  } do {
  ^bb0(%s: index):
    %other = arith.addi %x, %s : index
    %inside = arith.cmpi ult, %other, %c8 : index
    scf.if %inside {
      %v = memref.load %a[%x] : memref<?xf32, 3>
      %w = memref.load %a[%other] : memref<?xf32, 3>
      %sum = arith.addf %v, %w : f32
      memref.store %sum, %a[%x] : memref<?xf32, 3>
    }
    mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
    %next = arith.muli %s, %c2 : index
    scf.yield %next : index
  }
  func.return
}

// -----

// A barrier in an scf.for with uniform bounds, a loop over tiles where every
// work-item works at every step: vectorised.
// CHECK-LABEL: func.func @steps(
// CHECK-SAME:      mux.vecz_base = [8 : i32, "__vecz_v8_steps"]
func.func @steps(%a: memref<?xf32, 3>, %n: index) attributes {mux.kernel = "entry-point",
    mux.reqd_work_group_size = array<i32: 8, 1, 1>} {
  %d0 = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = mux.get_local_id %d0
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %a[%x] : memref<?xf32, 3>
    %w = arith.addf %v, %v : f32
    memref.store %w, %a[%x] : memref<?xf32, 3>
    mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  }
  func.return
}

// -----

// With barriers, a width that divides the required size in x (no scalar tail).
// CHECK-LABEL: func.func @staged(
// CHECK-SAME:      mux.vecz_base = [4 : i32, "__vecz_v4_staged"]
func.func @staged(%in: memref<?xf32, 1>, %tmp: memref<?xf32, 3>)
    attributes {mux.kernel = "entry-point", mux.reqd_work_group_size = array<i32: 12, 1, 1>} {
  %d0 = arith.constant 0 : i32
  %x = mux.get_local_id %d0
  %v = memref.load %in[%x] : memref<?xf32, 1>
  memref.store %v, %tmp[%x] : memref<?xf32, 3>
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %w = memref.load %tmp[%x] : memref<?xf32, 3>
  memref.store %w, %in[%x] : memref<?xf32, 1>
  func.return
}
