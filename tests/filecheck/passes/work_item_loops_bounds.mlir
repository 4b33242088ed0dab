// RUN: mux-opt --split-input-file %s -p work-item-loops | filecheck %s
//
// Bound functions (lowering/active_items.py): a barrier region whose side effects
// are guarded by a condition on the local id x gets
// `@<k>.mux-barrier-bound.<i>(<params>, %live, %items) -> (lo, hi)`; the wrapper
// loops x over [lo, min(hi, size - 1)) and then runs the last work-item of the group,
// whose region id it follows.

// A step of a scan's up-sweep: work-item x adds when 2d(x + 1) - 1 < n, an affine
// condition `a * x + b < n` with a = 2d and b = 2d - 1, computed by the module's
// helper for `ult`. Region 0 does nothing of its own (queries only): [0, 0), the
// last work-item alone.
// CHECK-LABEL: func.func private @"step.mux-barrier-bound.0"(%s: memref<256xi32, 3 : i64>, %d: index, %live: !llvm.ptr, %items: i64) -> (index, index) {
// CHECK-NEXT:    %[[Z0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[Z1:.*]] = arith.constant 0 : index
// CHECK-NEXT:    func.return %[[Z0]], %[[Z1]] : index, index
// CHECK-LABEL: func.func private @"step.mux-barrier-bound.1"(%s: memref<256xi32, 3 : i64>, %d: index, %live: !llvm.ptr, %items: i64) -> (index, index) {
// CHECK:         %size = mux.get_local_size
// CHECK:         %n = mux.get_local_size
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[A:.*]] = arith.muli %[[TWO]], %d : index
// CHECK-NEXT:    %[[B:.*]] = arith.subi %[[A]], %[[ONE]] : index
// CHECK-NEXT:    %[[HI:.*]] = func.call @"mux-active-below.ult"(%[[A]], %[[B]], %n, %size)
// CHECK-NEXT:    func.return %[[ZERO]], %[[HI]] : index, index
// The wrapper's region 1: the bound, the loop up to the last work-item, the last.
// CHECK-LABEL: func.func @"step.mux-barrier-wrapper"
// CHECK:         mux.mem_barrier
// CHECK:         %lo_1, %hi_1 = func.call @"step.mux-barrier-bound.1"(%s, %d, %live, %{{.*}})
// CHECK-NEXT:    %[[LAST:.*]] = arith.subi %[[SIZE:.*]], %[[STEP:.*]] : index
// CHECK-NEXT:    %[[UPPER:.*]] = arith.minui %hi_1, %[[LAST]] : index
// CHECK-NEXT:    scf.for %x_1 = %lo_1 to %[[UPPER]] step %[[STEP]] {
// CHECK-NEXT:      mux.set_local_id %{{.*}}, %x_1
// CHECK:           func.call @"step.mux-barrier-region.1"
// CHECK:         }
// CHECK-NEXT:    %[[LAST_X:.*]] = arith.subi %[[SIZE]], %[[STEP]] : index
// CHECK-NEXT:    mux.set_local_id %{{.*}}, %[[LAST_X]]
// CHECK:         %[[NEXT:.*]] = func.call @"step.mux-barrier-region.1"
// CHECK-NEXT:    llvm.store %[[NEXT]], %next_region
// The helper: the number of x in [0, size) with a * x + b < u, or size when
// a * x + b might wrap (a not in [1, 2^30), b not below 2^62, size above 2^32).
// CHECK-LABEL: func.func private @"mux-active-below.ult"(%a: index, %b: index, %u: index, %size: index) -> index {
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[A1:.*]] = arith.subi %a, %[[ONE]] : index
// CHECK-NEXT:    %[[A_MAX:.*]] = arith.constant 1073741823 : index
// CHECK-NEXT:    %[[A_OK:.*]] = arith.cmpi ult, %[[A1]], %[[A_MAX]] : index
// CHECK-NEXT:    %[[B_MAX:.*]] = arith.constant 4611686018427387904 : index
// CHECK-NEXT:    %[[B_OK:.*]] = arith.cmpi ult, %b, %[[B_MAX]] : index
// CHECK-NEXT:    %[[SIZE_MAX:.*]] = arith.constant 4294967296 : index
// CHECK-NEXT:    %[[SIZE_OK:.*]] = arith.cmpi ule, %size, %[[SIZE_MAX]] : index
// CHECK-NEXT:    %[[AB_OK:.*]] = arith.andi %[[A_OK]], %[[B_OK]] : i1
// CHECK-NEXT:    %[[OK:.*]] = arith.andi %[[AB_OK]], %[[SIZE_OK]] : i1
// CHECK-NEXT:    %[[ABOVE:.*]] = arith.cmpi ugt, %u, %b : index
// CHECK-NEXT:    %[[ROOM:.*]] = arith.subi %u, %b : index
// CHECK-NEXT:    %[[ROOM1:.*]] = arith.subi %[[ROOM]], %[[ONE]] : index
// CHECK-NEXT:    %[[DIVISOR:.*]] = arith.maxui %a, %[[ONE]] : index
// CHECK-NEXT:    %[[Q:.*]] = arith.divui %[[ROOM1]], %[[DIVISOR]] : index
// CHECK-NEXT:    %[[LAST:.*]] = arith.subi %size, %[[ONE]] : index
// CHECK-NEXT:    %[[Q_MIN:.*]] = arith.minui %[[Q]], %[[LAST]] : index
// CHECK-NEXT:    %[[COUNT:.*]] = arith.addi %[[Q_MIN]], %[[ONE]] : index
// CHECK-NEXT:    %[[NONE:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[HI:.*]] = arith.select %[[ABOVE]], %[[COUNT]], %[[NONE]] : index
// CHECK-NEXT:    %[[RESULT:.*]] = arith.select %[[OK]], %[[HI]], %size : index
// CHECK-NEXT:    func.return %[[RESULT]] : index
func.func @step(%s: memref<256xi32, 3>, %d: index) attributes {mux.kernel = "entry-point", mux.reqd_work_group_size = array<i32: 256, 1, 1>, mux.max_work_dim = 1 : i32} {
  %x = arith.constant 0 : i32
  %lid = mux.get_local_id %x
  %n = mux.get_local_size %x
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %lid1 = arith.addi %lid, %c1 : index
  %lid2 = arith.muli %lid1, %c2 : index
  %end = arith.muli %d, %lid2 : index
  %i = arith.subi %end, %c1 : index
  %active = arith.cmpi ult, %i, %n : index
  scf.if %active {
    %j = arith.subi %i, %d : index
    %left = memref.load %s[%j] : memref<256xi32, 3>
    %mine = memref.load %s[%i] : memref<256xi32, 3>
    %sum = arith.addi %mine, %left : i32
    memref.store %sum, %s[%i] : memref<256xi32, 3>
  }
  func.return
}

// -----

// `x == 0` (a reduction's last step): x + b == u gives [u - b, u - b + 1), clamped to
// the group (here u - b folds to 0); no helper (the equality is exact modulo 2^64).
// CHECK-LABEL: func.func private @"last.mux-barrier-bound.1"(%s: memref<64xf32, 3 : i64>, %out: memref<?xf32, 1 : i64>, %live: !llvm.ptr, %items: i64) -> (index, index) {
// CHECK-NEXT:    %{{.*}} = arith.constant 0 : i32
// CHECK-NEXT:    %size = mux.get_local_size
// CHECK-NEXT:    %[[X:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[IN:.*]] = arith.minui %[[X]], %size : index
// CHECK-NEXT:    %[[END:.*]] = arith.addi %[[IN]], %[[ONE]] : index
// CHECK-NEXT:    %[[HI:.*]] = arith.minui %size, %[[END]] : index
// CHECK-NEXT:    func.return %[[X]], %[[HI]] : index, index
// CHECK-NOT:   mux-active-below
func.func @last(%s: memref<64xf32, 3>, %out: memref<?xf32, 1>) attributes {mux.kernel = "entry-point", mux.max_work_dim = 1 : i32} {
  %x = arith.constant 0 : i32
  %lid = mux.get_local_id %x
  %v = arith.constant 1.0 : f32
  memref.store %v, %s[%lid] : memref<64xf32, 3>
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %lid, %c0 : index
  scf.if %first {
    %group = mux.get_group_id %x
    %total = memref.load %s[%c0] : memref<64xf32, 3>
    memref.store %total, %out[%group] : memref<?xf32, 1>
  }
  func.return
}

// -----

// Two dimensions, x innermost: every row runs [lo, hi) but the last row, which
// stops before the group's last work-item (run after the loops). A signed
// comparison has its own helper.
// CHECK-LABEL: func.func private @"rows.mux-barrier-bound.1"
// CHECK:         func.call @"mux-active-below.slt"
// CHECK-LABEL: func.func @"rows.mux-barrier-wrapper"
// CHECK:         %lo_1, %hi_1 = func.call @"rows.mux-barrier-bound.1"
// CHECK-NEXT:    scf.for %y_1 = %{{.*}} to %[[SIZE_Y:.*]] step %[[STEP:.*]] {
// CHECK-NEXT:      mux.set_local_id %{{.*}}, %y_1
// CHECK-NEXT:      %[[LAST:.*]] = arith.subi %[[SIZE_X:.*]], %[[STEP]] : index
// CHECK-NEXT:      %[[BEFORE_LAST:.*]] = arith.minui %hi_1, %[[LAST]] : index
// CHECK-NEXT:      %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT:      %[[LAST_Y:.*]] = arith.subi %[[SIZE_Y]], %[[STEP]] : index
// CHECK-NEXT:      %[[IS_LAST_Y:.*]] = arith.cmpi eq, %y_1, %[[LAST_Y]] : index
// CHECK-NEXT:      %[[LAST_ROW:.*]] = arith.andi %[[TRUE]], %[[IS_LAST_Y]] : i1
// CHECK-NEXT:      %[[UPPER:.*]] = arith.select %[[LAST_ROW]], %[[BEFORE_LAST]], %hi_1 : index
// CHECK-NEXT:      scf.for %x_1 = %lo_1 to %[[UPPER]] step %[[STEP]] {
// CHECK:           func.call @"rows.mux-barrier-region.1"
// CHECK:         %[[X:.*]] = arith.subi %[[SIZE_X]], %[[STEP]] : index
// CHECK-NEXT:    mux.set_local_id %{{.*}}, %[[X]]
// CHECK-NEXT:    %[[Y:.*]] = arith.subi %[[SIZE_Y]], %[[STEP]] : index
// CHECK-NEXT:    mux.set_local_id %{{.*}}, %[[Y]]
// CHECK:         func.call @"rows.mux-barrier-region.1"
func.func @rows(%s: memref<1024xi32, 3>, %n: index) attributes {mux.kernel = "entry-point", mux.max_work_dim = 2 : i32} {
  %x = arith.constant 0 : i32
  %lid = mux.get_local_id %x
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %inside = arith.cmpi slt, %lid, %n : index
  scf.if %inside {
    %v = arith.constant 0 : i32
    memref.store %v, %s[%lid] : memref<1024xi32, 3>
  }
  func.return
}

// -----

// The other way has a side effect (the work-items outside the range would have work
// of their own): no bound function for region 1, every work-item runs.
// CHECK-NOT:   mux-barrier-bound.1
// CHECK-LABEL: func.func @"both.mux-barrier-wrapper"
// CHECK:         mux.mem_barrier
// CHECK-NOT:     func.call @"both.mux-barrier-bound
// CHECK:         scf.for %{{.*}} = %[[ZERO:.*]] to %[[SIZE:.*]] step
func.func @both(%s: memref<1024xi32, 3>, %n: index) attributes {mux.kernel = "entry-point", mux.max_work_dim = 1 : i32} {
  %x = arith.constant 0 : i32
  %lid = mux.get_local_id %x
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %inside = arith.cmpi ult, %lid, %n : index
  %v = arith.constant 0 : i32
  scf.if %inside {
    memref.store %v, %s[%lid] : memref<1024xi32, 3>
  } else {
    memref.store %v, %s[%n] : memref<1024xi32, 3>
  }
  func.return
}

// -----

// Booleans crossing a barrier are a byte each in the live storage
// (types.memory_type): zero-extended where they are stored, compared with 0 where
// they are loaded. Those conversions are pure, so the guard on `%lid < 3` still
// bounds region 1.
// CHECK-LABEL: func.func private @"flags.mux-barrier-region.0"
// CHECK:         %mine = memref.load %a[%lid] : memref<?xi1, 1 : i64>
// CHECK-NEXT:    %[[MB:.*]] = llvm.zext %mine : i1 to i8
// CHECK-NEXT:    %[[MP:.*]] = llvm.getelementptr inbounds %field1[%item] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK-NEXT:    llvm.store %[[MB]], %[[MP]] : i8, !llvm.ptr
// CHECK-LABEL: func.func private @"flags.mux-barrier-region.1"
// CHECK:         %[[FP:.*]] = llvm.getelementptr inbounds %live[%item] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK-NEXT:    %[[FB:.*]] = llvm.load %[[FP]] : !llvm.ptr -> i8
// CHECK-NEXT:    %[[FZ:.*]] = llvm.mlir.constant(0 : i8) : i8
// CHECK-NEXT:    %flag = llvm.icmp "ne" %[[FB]], %[[FZ]] : i8
// CHECK-NEXT:    %act = arith.andi %few, %flag : i1
// CHECK:         %[[LB:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i8
// CHECK-NEXT:    %[[LZ:.*]] = llvm.mlir.constant(0 : i8) : i8
// CHECK-NEXT:    %mine = llvm.icmp "ne" %[[LB]], %[[LZ]] : i8
// CHECK-NEXT:    memref.store %mine, %a[%lid] : memref<?xi1, 1 : i64>
// CHECK-LABEL: func.func @"flags.mux-barrier-wrapper"
// CHECK:         %lo, %hi = func.call @"flags.mux-barrier-bound.1"
func.func @flags(%a: memref<?xi1, 1>, %p: memref<?xi1, 1>) attributes {mux.kernel = "entry-point", mux.max_work_dim = 1 : i32} {
  %x = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %lid = mux.get_local_id %x
  %mine = memref.load %a[%lid] : memref<?xi1, 1>
  %flag = memref.load %p[%c0] : memref<?xi1, 1>
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %few = arith.cmpi ult, %lid, %c3 : index
  %act = arith.andi %few, %flag : i1
  scf.if %act {
    memref.store %mine, %a[%lid] : memref<?xi1, 1>
  }
  func.return
}

// -----

// An && chain as OpenCL C gives it (reduce.cl's step: nested ifs, the first
// condition `lid & (2d - 1) == 0` not affine, the second `lid + d < n` on i64
// index_casts): one guard, narrowed by the second condition.
// CHECK-LABEL: func.func private @"chain.mux-barrier-bound.1"(%s: memref<64xi32, 3 : i64>, %d: i64, %live: !llvm.ptr, %items: i64) -> (index, index) {
// CHECK:         %size = mux.get_local_size
// CHECK:         %m = arith.index_cast %n : index to i64
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[B:.*]] = arith.index_cast %d : i64 to index
// CHECK-NEXT:    %[[U:.*]] = arith.index_cast %m : i64 to index
// CHECK-NEXT:    %[[HI:.*]] = func.call @"mux-active-below.ult"(%[[ONE]], %[[B]], %[[U]], %size)
// CHECK-NEXT:    func.return %[[ZERO]], %[[HI]] : index, index
func.func @chain(%s: memref<64xi32, 3>, %d: i64) attributes {mux.kernel = "entry-point", mux.max_work_dim = 1 : i32} {
  %x = arith.constant 0 : i32
  %lid = mux.get_local_id %x
  %n = mux.get_local_size %x
  %v = arith.constant 1 : i32
  memref.store %v, %s[%lid] : memref<64xi32, 3>
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %l = arith.index_cast %lid : index to i64
  %m = arith.index_cast %n : index to i64
  %one = arith.constant 1 : i64
  %d2 = arith.shli %d, %one : i64
  %mask = arith.subi %d2, %one : i64
  %low = arith.andi %l, %mask : i64
  %c0 = arith.constant 0 : i64
  %head = arith.cmpi eq, %low, %c0 : i64
  scf.if %head {
    %other = arith.addi %l, %d : i64
    %inside = arith.cmpi ult, %other, %m : i64
    scf.if %inside {
      %i = arith.index_cast %other : i64 to index
      %w = memref.load %s[%i] : memref<64xi32, 3>
      memref.store %w, %s[%lid] : memref<64xi32, 3>
    }
  }
  func.return
}
