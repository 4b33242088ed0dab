// RUN: mux-opt --split-input-file %s -p 'run-vecz{width=8}' | filecheck %s
//
// run-vecz adds @__vecz_v8_<kernel>, which runs 8 work-items of dimension 0 at once
// (x, x + 1, ..., x + 7, x being its get_local_id 0), and links the two functions:
// mux.vecz_base on the kernel, mux.vecz_derived on the new function.

// A contiguous access under a divergent `if`: the global id x is linear (x + lane),
// so in[x] is one vector load; the condition is a vector of i1 (llvm.icmp), the
// branch runs when a lane of it is active (the `or` reduction) and its accesses are
// masked.
// CHECK-LABEL: func.func @guarded(
// CHECK-SAME:      mux.vecz_base = [8 : i32, "__vecz_v8_guarded"]
// CHECK:       func.func private @__vecz_v8_guarded(%a: memref<?xf32, 1 : i64>, %b: memref<?xf32, 1 : i64>, %n: index)
// CHECK-SAME:      mux.vecz_derived = [8 : i32, "guarded"]
// CHECK-NEXT:    %d0 = arith.constant 0 : i32
// CHECK-NEXT:    %g = mux.get_global_id %d0
// CHECK-NEXT:    %[[G64:.*]] = arith.index_cast %g : index to i64
// CHECK-NEXT:    %[[GS:.*]] = vector.broadcast %[[G64]] : i64 to vector<8xi64>
// CHECK-NEXT:    %[[LANES:.*]] = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : vector<8xi64>
// CHECK-NEXT:    %[[GV:.*]] = arith.addi %[[GS]], %[[LANES]] : vector<8xi64>
// CHECK-NEXT:    %[[N64:.*]] = arith.index_cast %n : index to i64
// CHECK-NEXT:    %[[NS:.*]] = vector.broadcast %[[N64]] : i64 to vector<8xi64>
// CHECK-NEXT:    %in = llvm.icmp "ult" %[[GV]], %[[NS]] : vector<8xi64>
// CHECK-NEXT:    %[[ANY:.*]] = vector.reduction <or>, %in : vector<8xi1> into i1
// CHECK-NEXT:    scf.if %[[ANY]] {
// CHECK-NEXT:      %[[ZEROS:.*]] = arith.constant dense<0.000000e+00> : vector<8xf32>
// CHECK-NEXT:      %x = vector.maskedload %a[%g], %in, %[[ZEROS]] : memref<?xf32, 1 : i64>, vector<8xi1>, vector<8xf32> into vector<8xf32>
// CHECK-NEXT:      %two = arith.constant 2.000000e+00 : f32
// CHECK-NEXT:      %[[TWOS:.*]] = vector.broadcast %two : f32 to vector<8xf32>
// CHECK-NEXT:      %y = arith.mulf %x, %[[TWOS]] : vector<8xf32>
// CHECK-NEXT:      vector.maskedstore %b[%g], %in, %y : memref<?xf32, 1 : i64>, vector<8xi1>, vector<8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
func.func @guarded(%a: memref<?xf32, 1>, %b: memref<?xf32, 1>, %n: index)
    attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %g = mux.get_global_id %d0
  %in = arith.cmpi ult, %g, %n : index
  scf.if %in {
    %x = memref.load %a[%g] : memref<?xf32, 1>
    %two = arith.constant 2.0 : f32
    %y = arith.mulf %x, %two : f32
    memref.store %y, %b[%g] : memref<?xf32, 1>
  }
  func.return
}

// -----

// Uniform values stay scalars: the row (get_global_id 1), the loop over k (uniform
// bounds) and a[row * n + k]. The accumulator differs between lanes: a vector
// iter_arg. b[k * n + x] is contiguous (linear in x).
// CHECK-LABEL: func.func private @__vecz_v8_row_dot(
// CHECK:         %row = mux.get_global_id %d1
// CHECK:         %start = arith.muli %row, %n : index
// CHECK:         %sum = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %{{.*}}) -> (vector<8xf32>) {
// CHECK-NEXT:      %a_index = arith.addi %start, %k : index
// CHECK-NEXT:      %x = memref.load %a[%a_index] : memref<?xf32, 1 : i64>
// CHECK-NEXT:      %b_start = arith.muli %k, %n : index
// CHECK-NEXT:      %[[B:.*]] = arith.addi %b_start, %col : index
// CHECK-NEXT:      %y = vector.load %b[%[[B]]] : memref<?xf32, 1 : i64>, vector<8xf32>
// CHECK-NEXT:      %[[XS:.*]] = vector.broadcast %x : f32 to vector<8xf32>
// CHECK-NEXT:      %xy = arith.mulf %[[XS]], %y : vector<8xf32>
// CHECK-NEXT:      %next = arith.addf %acc, %xy : vector<8xf32>
// CHECK-NEXT:      scf.yield %next : vector<8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[C:.*]] = arith.addi %start, %col : index
// CHECK-NEXT:    vector.store %sum, %c[%[[C]]] : memref<?xf32, 1 : i64>, vector<8xf32>
func.func @row_dot(%a: memref<?xf32, 1>, %b: memref<?xf32, 1>, %c: memref<?xf32, 1>,
                   %n: index) attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %col = mux.get_global_id %d0
  %row = mux.get_global_id %d1
  %start = arith.muli %row, %n : index
  %sum = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    %a_index = arith.addi %start, %k : index
    %x = memref.load %a[%a_index] : memref<?xf32, 1>
    %b_start = arith.muli %k, %n : index
    %b_index = arith.addi %b_start, %col : index
    %y = memref.load %b[%b_index] : memref<?xf32, 1>
    %xy = arith.mulf %x, %y : f32
    %next = arith.addf %acc, %xy : f32
    scf.yield %next : f32
  }
  %c_index = arith.addi %start, %col : index
  memref.store %sum, %c[%c_index] : memref<?xf32, 1>
  func.return
}

// -----

// A strided store (x * 2 is linear of stride 2) is done lane by lane, each store
// marked with its lane (mux.vecz_lane: checked mode names its work-item).
// CHECK-LABEL: func.func private @__vecz_v8_strided(
// CHECK:         %[[X2:.*]] = arith.muli %x, %c2 : index
// CHECK:         %[[V0:.*]] = vector.extract %{{.*}}[0] : i32 from vector<8xi32>
// CHECK-NEXT:    %[[O0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[I0:.*]] = arith.addi %[[X2]], %[[O0]] : index
// CHECK-NEXT:    memref.store %[[V0]], %out[%[[I0]]] {mux.vecz_lane = 0 : i64} : memref<?xi32, 1 : i64>
// CHECK:         %[[V7:.*]] = vector.extract %{{.*}}[7] : i32 from vector<8xi32>
// CHECK-NEXT:    %[[O7:.*]] = arith.constant 14 : index
// CHECK-NEXT:    %[[I7:.*]] = arith.addi %[[X2]], %[[O7]] : index
// CHECK-NEXT:    memref.store %[[V7]], %out[%[[I7]]] {mux.vecz_lane = 7 : i64} : memref<?xi32, 1 : i64>
// CHECK-NEXT:    func.return
func.func @strided(%out: memref<?xi32, 1>) attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : index
  %x = mux.get_global_id %d0
  %xi = arith.index_cast %x : index to i32
  %sq = arith.muli %xi, %xi : i32
  %x2 = arith.muli %x, %c2 : index
  memref.store %sq, %out[%x2] : memref<?xi32, 1>
  func.return
}

// -----

// What run-vecz does not vectorise stays scalar, and mux.vecz_fail says why.
// CHECK-LABEL: func.func @calls(
// CHECK-SAME:      mux.vecz_fail = [8 : i32, "func.call is not vectorised"]
// CHECK-NOT:   __vecz_v8_calls
func.func private @helper(%x: index) -> index {
  func.return %x : index
}
func.func @calls(%a: memref<?xindex, 1>) attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %x = mux.get_global_id %d0
  %y = func.call @helper(%x) : (index) -> index
  memref.store %y, %a[%x] : memref<?xindex, 1>
  func.return
}

// -----

// A call of an LLVM intrinsic that applies lane by lane is widened to its overload
// on vectors, as vecz widens them; on uniform operands it stays one scalar call.
// One with an immarg operand (llvm.ctlz's i1) is not vectorised.
// CHECK-LABEL: func.func private @__vecz_v8_intrinsics(
// CHECK:         llvm.call_intrinsic "llvm.smax.v8i32"(%{{.*}}, %{{.*}}) : (vector<8xi32>, vector<8xi32>) -> vector<8xi32>
// CHECK:         llvm.call_intrinsic "llvm.umin.i32"(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
// CHECK-LABEL: func.func @counts(
// CHECK-SAME:      mux.vecz_fail = [8 : i32, "a call of the LLVM intrinsic llvm.ctlz.i32"]
func.func @intrinsics(%a: memref<?xi32, 1>, %n: i32) attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %x = mux.get_global_id %d0
  %v = memref.load %a[%x] : memref<?xi32, 1>
  %m = llvm.call_intrinsic "llvm.smax.i32"(%v, %n) : (i32, i32) -> i32
  %u = llvm.call_intrinsic "llvm.umin.i32"(%n, %n) : (i32, i32) -> i32
  %s = arith.addi %m, %u : i32
  memref.store %s, %a[%x] : memref<?xi32, 1>
  func.return
}
func.func @counts(%a: memref<?xi32, 1>) attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %x = mux.get_global_id %d0
  %v = memref.load %a[%x] : memref<?xi32, 1>
  %f = arith.constant false
  %c = llvm.call_intrinsic "llvm.ctlz.i32"(%v, %f) : (i32, i1) -> i32
  memref.store %c, %a[%x] : memref<?xi32, 1>
  func.return
}

// -----

// A kernel with barriers is vectorised when its required work-group size is a
// multiple of the width in x (work-item-loops then runs the vectorised kernel
// alone); the barriers stay where they are.
// CHECK-LABEL: func.func private @__vecz_v8_staged(
// CHECK:         vector.store %{{.*}}, %tmp[%x] : memref<?xf32, 3 : i64>, vector<8xf32>
// CHECK-NEXT:    mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
// CHECK:         vector.store %{{.*}}, %out[%x] : memref<?xf32, 1 : i64>, vector<8xf32>
func.func @staged(%in: memref<?xf32, 1>, %out: memref<?xf32, 1>, %tmp: memref<?xf32, 3>)
    attributes {mux.kernel = "entry-point", mux.reqd_work_group_size = array<i32: 16, 1, 1>} {
  %d0 = arith.constant 0 : i32
  %x = mux.get_local_id %d0
  %v = memref.load %in[%x] : memref<?xf32, 1>
  memref.store %v, %tmp[%x] : memref<?xf32, 3>
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %w = memref.load %tmp[%x] : memref<?xf32, 3>
  memref.store %w, %out[%x] : memref<?xf32, 1>
  func.return
}

// -----

// Without such a size, a kernel with barriers stays scalar.
// CHECK-LABEL: func.func @any_size(
// CHECK-SAME:      mux.vecz_fail = [8 : i32, "barriers, and no required work-group size whose x is a multiple of the width (work-item-loops runs a vectorised kernel with barriers alone, without a scalar tail)"]
func.func @any_size(%a: memref<?xi32, 1>) attributes {mux.kernel = "entry-point"} {
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  func.return
}

// -----

// A barrier under a condition that differs between lanes cannot be vectorised.
// CHECK-LABEL: func.func @divergent_barrier(
// CHECK-SAME:      mux.vecz_fail = [8 : i32, "a barrier under a condition that differs between lanes"]
func.func @divergent_barrier(%a: memref<?xi32, 1>)
    attributes {mux.kernel = "entry-point", mux.reqd_work_group_size = array<i32: 8, 1, 1>} {
  %d0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : index
  %x = mux.get_local_id %d0
  %low = arith.cmpi ult, %x, %c4 : index
  scf.if %low {
    mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  }
  func.return
}

// -----

// A barrier with the linear (or once) schedule, as replace-wgc emits: the region
// after it relies on work-items running one after another, which a packet does not.
// CHECK-LABEL: func.func @in_order(
// CHECK-SAME:      mux.vecz_fail = [8 : i32, "a barrier with the linear schedule (the region after it relies on work-items running one after another)"]
func.func @in_order(%a: memref<?xi32, 3>)
    attributes {mux.kernel = "entry-point", mux.reqd_work_group_size = array<i32: 8, 1, 1>} {
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory) schedule(linear)
  func.return
}

// -----

// A loop from a linear lower bound (each work-item of a 16x2 group takes every 32nd
// element from its linear local id, as tiled kernels load their tiles): one scalar
// loop over the first lane's values, the body under the mask of the lanes still
// below the bound. That value is a multiple of 8 (8 * packet + 16 * ly, the required
// size known), so its quotient by 16 is the same in every lane and its remainder is
// linear: both accesses are to whole vectors.
// CHECK-LABEL: func.func private @__vecz_v8_tile_rows(
// CHECK:         scf.for %e = %{{.*}} to %c64 step %count {
// CHECK-NEXT:      %[[IV:.*]] = arith.index_cast %e : index to i64
// CHECK-NEXT:      %[[SPLAT:.*]] = vector.broadcast %[[IV]] : i64 to vector<8xi64>
// CHECK-NEXT:      %[[LANES:.*]] = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : vector<8xi64>
// CHECK-NEXT:      %[[IVS:.*]] = arith.addi %[[SPLAT]], %[[LANES]] : vector<8xi64>
// CHECK:           %[[MASK:.*]] = llvm.icmp "slt" %[[IVS]], %{{.*}} : vector<8xi64>
// CHECK-NEXT:      %[[I:.*]] = arith.divui %e, %c16 : index
// CHECK-NEXT:      %[[J:.*]] = arith.remui %e, %c16 : index
// CHECK-NEXT:      %[[ROW:.*]] = arith.muli %[[I]], %c16 : index
// CHECK-NEXT:      %[[AT:.*]] = arith.addi %[[ROW]], %[[J]] : index
// CHECK-NEXT:      %[[AT_K:.*]] = arith.addi %k0, %[[AT]] : index
// CHECK:           %v = vector.maskedload %in[%[[AT_K]]], %[[MASK]], %{{.*}} : memref<?xf32, 1 : i64>, vector<8xi1>, vector<8xf32> into vector<8xf32>
// CHECK-NEXT:      vector.maskedstore %tile[%e], %[[MASK]], %v : memref<64xf32, 3 : i64>, vector<8xi1>, vector<8xf32>
// CHECK-NEXT:    }
func.func @tile_rows(%in: memref<?xf32, 1>, %tile: memref<64xf32, 3>, %k0: index)
    attributes {mux.kernel = "entry-point",
                mux.reqd_work_group_size = array<i32: 16, 2, 1>} {
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 1 : i32
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %lx = mux.get_local_id %d0
  %ly = mux.get_local_id %d1
  %sx = mux.get_local_size %d0
  %sy = mux.get_local_size %d1
  %row = arith.muli %ly, %sx : index
  %l = arith.addi %row, %lx : index
  %count = arith.muli %sx, %sy : index
  scf.for %e = %l to %c64 step %count {
    %i = arith.divui %e, %c16 : index
    %j = arith.remui %e, %c16 : index
    %i16 = arith.muli %i, %c16 : index
    %ij = arith.addi %i16, %j : index
    %at = arith.addi %k0, %ij : index
    %v = memref.load %in[%at] : memref<?xf32, 1>
    memref.store %v, %tile[%e] : memref<64xf32, 3>
  }
  func.return
}

// -----

// Without the required size, the local size (and so the first lane's value) could
// be any number: the quotient and remainder are computed lane by lane (by
// subtracting multiples of 16, `emit_linear_division`), and the load is lane by lane.
// CHECK-LABEL: func.func private @__vecz_v8_any_rows(
// CHECK:         scf.for %e = %{{.*}} to %c64 step %count {
// CHECK-NOT:       vector.maskedload
// CHECK:           memref.load %in
// CHECK:         }
func.func @any_rows(%in: memref<?xf32, 1>, %tile: memref<64xf32, 3>)
    attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 1 : i32
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %lx = mux.get_local_id %d0
  %ly = mux.get_local_id %d1
  %sx = mux.get_local_size %d0
  %sy = mux.get_local_size %d1
  %row = arith.muli %ly, %sx : index
  %l = arith.addi %row, %lx : index
  %count = arith.muli %sx, %sy : index
  scf.for %e = %l to %c64 step %count {
    %i = arith.divui %e, %c16 : index
    %j = arith.remui %e, %c16 : index
    %i16 = arith.muli %i, %c16 : index
    %ij = arith.addi %i16, %j : index
    %v = memref.load %in[%ij] : memref<?xf32, 1>
    memref.store %v, %tile[%e] : memref<64xf32, 3>
  }
  func.return
}

// -----

// A division by a local size, known from the required work-group size (8x8): the
// first lane's linear id is a multiple of 8, so the quotient is the same in every
// lane and the remainder is linear: the store is to a whole vector (transpose's
// `l / size_y`, `l % size_y`).
// CHECK-LABEL: func.func private @__vecz_v8_by_size(
// CHECK:         %i = arith.divui %l, %sy : index
// CHECK-NEXT:    %j = arith.remui %l, %sy : index
// CHECK:         vector.store %{{.*}}, %out[%{{.*}}] : memref<?xi32, 1 : i64>, vector<8xi32>
func.func @by_size(%out: memref<?xi32, 1>, %n: index)
    attributes {mux.kernel = "entry-point",
                mux.reqd_work_group_size = array<i32: 8, 8, 1>} {
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 1 : i32
  %lx = mux.get_local_id %d0
  %ly = mux.get_local_id %d1
  %sx = mux.get_local_size %d0
  %sy = mux.get_local_size %d1
  %row = arith.muli %ly, %sx : index
  %l = arith.addi %row, %lx : index
  %i = arith.divui %l, %sy : index
  %j = arith.remui %l, %sy : index
  %start = arith.muli %i, %n : index
  %at = arith.addi %start, %j : index
  %v = arith.index_cast %at : index to i32
  memref.store %v, %out[%at] : memref<?xi32, 1>
  func.return
}

// -----

// A clamp computed in i64 and cast to `index` at its load (as an imported kernel's
// `x > 0 ? x - 1 : 0` is, lifted from clang's usub.sat): the cast of a piecewise
// value is piecewise, each piece cast, so the load is still one masked contiguous
// load and one load at the clamp, not a load per lane.
// CHECK-LABEL: func.func private @__vecz_v8_clamped_i64(
// CHECK:         %[[WINS:.*]] = llvm.icmp "uge" %{{.*}}, %{{.*}} : vector<8xi64>
// CHECK-NEXT:    %[[LIN:.*]] = arith.subi %{{.*}}, %one : i64
// CHECK-NEXT:    %[[CLAMP:.*]] = arith.subi %one, %one : i64
// CHECK-NEXT:    %[[LIN_I:.*]] = arith.index_cast %[[LIN]] : i64 to index
// CHECK-NEXT:    %[[CLAMP_I:.*]] = arith.index_cast %[[CLAMP]] : i64 to index
// CHECK:         %[[L:.*]] = vector.maskedload %a[%[[LIN_I]]], %[[WINS]], %{{.*}}
// CHECK:         memref.load %a[%[[CLAMP_I]]] : memref<?xf32, 1 : i64>
// CHECK:         %v = llvmx.select %[[WINS]], %[[L]], %{{.*}} : vector<8xi1>, vector<8xf32>
// CHECK-NEXT:    vector.store %v, %b[%g] : memref<?xf32, 1 : i64>, vector<8xf32>
func.func @clamped_i64(%a: memref<?xf32, 1>, %b: memref<?xf32, 1>)
    attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %g = mux.get_global_id %d0
  %x = arith.index_cast %g : index to i64
  %top = arith.maxui %x, %one : i64
  %left = arith.subi %top, %one : i64
  %at = arith.index_cast %left : i64 to index
  %v = memref.load %a[%at] : memref<?xf32, 1>
  memref.store %v, %b[%g] : memref<?xf32, 1>
  func.return
}
