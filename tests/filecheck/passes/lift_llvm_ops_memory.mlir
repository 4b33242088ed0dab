// RUN: mux-opt --split-input-file %s -p lift-llvm-ops | filecheck %s
// RUN: mux-opt --split-input-file %s -p 'lift-llvm-ops,run-vecz{width=8}' | filecheck %s --check-prefix=VECZ
//
// lift-llvm-ops's addresses (lowering/lift_llvm_ops/memory.py): a base (the cast of
// a memref to a pointer) plus GEPs is a flat index into a 1-D view of the accessed
// type, when that type's size divides every step.

// An OpenCL C `__local float tile[16][16]` as replace-module-scope-vars gives it
// (the second variable of the buffer, at byte 1024): its memref<16x16xf32, 3> cast
// back to a pointer. tile[ly][lx] (a row GEP of !llvm.array<16 x f32> then an
// element GEP) and tile[lx] then a row step (an element step then a row step) are
// loads and stores of a memref<256xf32, 3> view of that pointer at ly * 16 + lx;
// run-vecz sees them contiguous.
// CHECK-LABEL: func.func @tile_rows(
// CHECK:         %[[ROW:.*]] = arith.constant 16 : i64
// CHECK-NEXT:    %[[ROWS:.*]] = arith.muli %ly, %[[ROW]] : i64
// CHECK-NEXT:    %[[AT:.*]] = arith.addi %[[ROWS]], %lx : i64
// CHECK-NEXT:    %[[VIEW:.*]] = builtin.unrealized_conversion_cast %tile : !llvm.ptr<3> to memref<256xf32, 3 : i64>
// CHECK-NEXT:    %[[I:.*]] = arith.index_cast %[[AT]] : i64 to index
// CHECK-NEXT:    %v = memref.load %[[VIEW]][%[[I]]] : memref<256xf32, 3 : i64>
// CHECK-NEXT:    %[[ROW2:.*]] = arith.constant 16 : i64
// CHECK-NEXT:    %[[ROWS2:.*]] = arith.muli %ly, %[[ROW2]] : i64
// CHECK-NEXT:    %[[AT2:.*]] = arith.addi %lx, %[[ROWS2]] : i64
// CHECK-NEXT:    %[[VIEW2:.*]] = builtin.unrealized_conversion_cast %tile : !llvm.ptr<3> to memref<256xf32, 3 : i64>
// CHECK-NEXT:    %[[I2:.*]] = arith.index_cast %[[AT2]] : i64 to index
// CHECK-NEXT:    memref.store %v, %[[VIEW2]][%[[I2]]] : memref<256xf32, 3 : i64>
// CHECK-NEXT:    memref.store %v, %a[%x] : memref<?xf32, 1 : i64>
// CHECK-NEXT:    func.return
// VECZ-LABEL: func.func private @__vecz_v8_tile_rows(
// VECZ:         %v = vector.load %{{.*}}[%{{.*}}] : memref<256xf32, 3 : i64>, vector<8xf32>
// VECZ:         vector.store %v, %{{.*}}[%{{.*}}] : memref<256xf32, 3 : i64>, vector<8xf32>
// VECZ-NEXT:    vector.store %v, %a[%x] : memref<?xf32, 1 : i64>, vector<8xf32>
func.func @tile_rows(%a: memref<?xf32, 1>, %local_vars: memref<2048xi8, 3>)
    attributes {mux.kernel = "entry-point", mux.reqd_work_group_size = array<i32: 16, 16, 1>} {
  %ap = builtin.unrealized_conversion_cast %a : memref<?xf32, 1> to !llvm.ptr<1>
  %b0 = builtin.unrealized_conversion_cast %local_vars : memref<2048xi8, 3> to !llvm.ptr<3>
  %b1 = llvm.getelementptr inbounds %b0[1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  %tm = builtin.unrealized_conversion_cast %b1 : !llvm.ptr<3> to memref<16x16xf32, 3>
  %tile = builtin.unrealized_conversion_cast %tm : memref<16x16xf32, 3> to !llvm.ptr<3>
  %d0 = llvm.mlir.constant(0 : i32) : i32
  %d1 = llvm.mlir.constant(1 : i32) : i32
  %x = mux.get_local_id %d0
  %y = mux.get_local_id %d1
  %lx = arith.index_cast %x : index to i64
  %ly = arith.index_cast %y : index to i64
  %row = llvm.getelementptr inbounds %tile[%ly] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, !llvm.array<16 x f32>
  %at = llvm.getelementptr inbounds %row[%lx] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
  %v = llvm.load %at {alignment = 4 : i64} : !llvm.ptr<3> -> f32
  %col = llvm.getelementptr inbounds %tile[%lx] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
  %t = llvm.getelementptr inbounds %col[%ly] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, !llvm.array<16 x f32>
  llvm.store %v, %t {alignment = 4 : i64} : f32, !llvm.ptr<3>
  %out = llvm.getelementptr inbounds %ap[%lx] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  llvm.store %v, %out : f32, !llvm.ptr<1>
  func.return
}

// -----

// The byte buffer itself as the base: an f32 at byte 1024 + 4i is element 256 + i
// of a memref<512xf32, 3> view; a GEP of several indices steps into its type (an
// array's element, a struct's member at its offset: member 1 of (i32, f32) is
// 4 bytes in, so element 2i + 1 of f32s); an i32 is read through an i32 view.
// CHECK-LABEL: func.func @bytes(
// CHECK:         %[[C256:.*]] = arith.constant 256 : i64
// CHECK-NEXT:    %[[AT:.*]] = arith.addi %[[C256]], %i : i64
// CHECK-NEXT:    %[[F32S:.*]] = builtin.unrealized_conversion_cast %b0 : !llvm.ptr<3> to memref<512xf32, 3 : i64>
// CHECK-NEXT:    %[[I:.*]] = arith.index_cast %[[AT]] : i64 to index
// CHECK-NEXT:    %v = memref.load %[[F32S]][%[[I]]] : memref<512xf32, 3 : i64>
// CHECK-NEXT:    %[[I32S:.*]] = builtin.unrealized_conversion_cast %b0 : !llvm.ptr<3> to memref<512xi32, 3 : i64>
// CHECK-NEXT:    %[[J:.*]] = arith.index_cast %j : i64 to index
// CHECK-NEXT:    %w = memref.load %[[I32S]][%[[J]]] : memref<512xi32, 3 : i64>
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant 2 : i64
// CHECK-NEXT:    %[[I2:.*]] = arith.muli %i, %[[TWO]] : i64
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-NEXT:    %[[MEMBER:.*]] = arith.addi %[[I2]], %[[ONE]] : i64
// CHECK-NEXT:    %[[VIEW:.*]] = builtin.unrealized_conversion_cast %b0 : !llvm.ptr<3> to memref<512xf32, 3 : i64>
// CHECK-NEXT:    %[[K:.*]] = arith.index_cast %[[MEMBER]] : i64 to index
// CHECK-NEXT:    memref.store %v, %[[VIEW]][%[[K]]] : memref<512xf32, 3 : i64>
// CHECK-NEXT:    func.return
func.func @bytes(%local_vars: memref<2048xi8, 3>, %i: i64, %j: i64)
    attributes {mux.kernel = "entry-point"} {
  %b0 = builtin.unrealized_conversion_cast %local_vars : memref<2048xi8, 3> to !llvm.ptr<3>
  %p = llvm.getelementptr inbounds %b0[1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  %q = llvm.getelementptr inbounds %p[%i] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
  %v = llvm.load %q : !llvm.ptr<3> -> f32
  %r = llvm.getelementptr inbounds %b0[0, %j] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, !llvm.array<16 x i32>
  %w = llvm.load %r : !llvm.ptr<3> -> i32
  %s = llvm.getelementptr inbounds %b0[%i, 1] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, !llvm.struct<(i32, f32)>
  llvm.store %v, %s : f32, !llvm.ptr<3>
  func.return
}

// -----

// A buffer argument read as another type of the same size (OpenCL C's
// `*(__global int *)&f[i]`): an i32 view of it, as dynamic as the buffer.
// CHECK-LABEL: func.func @punned(
// CHECK:         %[[VIEW:.*]] = builtin.unrealized_conversion_cast %ap : !llvm.ptr<1> to memref<?xi32, 1 : i64>
// CHECK-NEXT:    %[[I:.*]] = arith.index_cast %i : i64 to index
// CHECK-NEXT:    %v = memref.load %[[VIEW]][%[[I]]] : memref<?xi32, 1 : i64>
func.func @punned(%a: memref<?xf32, 1>, %i: i64) attributes {mux.kernel = "entry-point"} {
  %ap = builtin.unrealized_conversion_cast %a : memref<?xf32, 1> to !llvm.ptr<1>
  %p = llvm.getelementptr %ap[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %v = llvm.load %p : !llvm.ptr<1> -> i32
  func.return
}

// -----

// Refused, kept as they are: an f64 at a step of 4 bytes (not a multiple of 8), an
// f32 at a step of 2 (an i16 GEP), an f32 aligned to 2 only (the memref access
// assumes 4), an index of i32 (the GEP sign-extends it).
// CHECK-LABEL: func.func @refused(
// CHECK:         %p = llvm.getelementptr %ap[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    llvm.store %x, %p : f64, !llvm.ptr<1>
// CHECK-NEXT:    %q = llvm.getelementptr %ap[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i16
// CHECK-NEXT:    %v = llvm.load %q : !llvm.ptr<1> -> f32
// CHECK-NEXT:    %u = llvm.load %p {alignment = 2 : i64} : !llvm.ptr<1> -> f32
// CHECK-NEXT:    %r = llvm.getelementptr %ap[%n] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    %w = llvm.load %r : !llvm.ptr<1> -> f32
// CHECK-NEXT:    func.return
func.func @refused(%a: memref<?xf32, 1>, %i: i64, %n: i32, %x: f64)
    attributes {mux.kernel = "entry-point"} {
  %ap = builtin.unrealized_conversion_cast %a : memref<?xf32, 1> to !llvm.ptr<1>
  %p = llvm.getelementptr %ap[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  llvm.store %x, %p : f64, !llvm.ptr<1>
  %q = llvm.getelementptr %ap[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i16
  %v = llvm.load %q : !llvm.ptr<1> -> f32
  %u = llvm.load %p {alignment = 2 : i64} : !llvm.ptr<1> -> f32
  %r = llvm.getelementptr %ap[%n] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
  %w = llvm.load %r : !llvm.ptr<1> -> f32
  func.return
}

// -----

// clang's `l % d` is `l - l / d * d` of `freeze l` (so both uses see one value):
// a freeze of a value that is never poison (here of work-item queries, through ops
// with no overflow flags) is the value itself, which run-vecz handles (with a
// required size of 16, l / 16 is uniform and l % 16 linear).
// CHECK-LABEL: func.func @frozen(
// CHECK:         %l0 = arith.addi %ly16, %lx : i64
// CHECK-NEXT:    %q = arith.divui %l0, %d : i64
// CHECK-NEXT:    %qd = arith.muli %q, %d : i64
// CHECK-NEXT:    %r = arith.subi %l0, %qd : i64
// VECZ-LABEL: func.func private @__vecz_v8_frozen(
// VECZ:         %q = arith.divui %{{.*}}, %d : i64
// VECZ-NOT:     vector.insert
// VECZ:         vector.store
func.func @frozen(%a: memref<?xf32, 1>, %b: memref<?xi64, 1>)
    attributes {mux.kernel = "entry-point", mux.reqd_work_group_size = array<i32: 16, 16, 1>} {
  %ap = builtin.unrealized_conversion_cast %a : memref<?xf32, 1> to !llvm.ptr<1>
  %bp = builtin.unrealized_conversion_cast %b : memref<?xi64, 1> to !llvm.ptr<1>
  %d0 = llvm.mlir.constant(0 : i32) : i32
  %d1 = llvm.mlir.constant(1 : i32) : i32
  %x = mux.get_local_id %d0
  %y = mux.get_local_id %d1
  %s = mux.get_local_size %d0
  %lx = arith.index_cast %x : index to i64
  %ly = arith.index_cast %y : index to i64
  %d = arith.index_cast %s : index to i64
  %sixteen = llvm.mlir.constant(16 : i64) : i64
  %ly16 = llvm.mul %ly, %sixteen : i64
  %l0 = llvm.add %ly16, %lx : i64
  %l = llvmx.freeze %l0 : i64
  %q = llvm.udiv %l, %d : i64
  %qd = llvm.mul %q, %d : i64
  %r = llvm.sub %l, %qd : i64
  %at = llvm.getelementptr %bp[%l] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i64
  %sum = llvm.add %q, %r : i64
  llvm.store %sum, %at : i64, !llvm.ptr<1>
  func.return
}

// -----

// A freeze of what a load read (maybe never written: undef) stays.
// CHECK-LABEL: func.func @kept_freeze(
// CHECK:         %loaded = memref.load %a[%x] : memref<?xf32, 1 : i64>
// CHECK-NEXT:    %kept = llvmx.freeze %loaded : f32
func.func @kept_freeze(%a: memref<?xf32, 1>) attributes {mux.kernel = "entry-point"} {
  %ap = builtin.unrealized_conversion_cast %a : memref<?xf32, 1> to !llvm.ptr<1>
  %d0 = llvm.mlir.constant(0 : i32) : i32
  %x = mux.get_local_id %d0
  %lx = arith.index_cast %x : index to i64
  %in = llvm.getelementptr %ap[%lx] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %loaded = llvm.load %in : !llvm.ptr<1> -> f32
  %kept = llvmx.freeze %loaded : f32
  llvm.store %kept, %in : f32, !llvm.ptr<1>
  func.return
}

// -----

// Nor a freeze of what may overflow into poison (an add with `nsw`).
// CHECK-LABEL: func.func @kept_nsw_freeze(
// CHECK:         %l = llvmx.freeze %s : i64
func.func @kept_nsw_freeze(%x: i64) attributes {mux.kernel = "entry-point"} {
  %s = arith.addi %x, %x overflow<nsw> : i64
  %l = llvmx.freeze %s : i64
  func.return
}
