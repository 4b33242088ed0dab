// RUN: mux-opt %s -p check-access-bounds | filecheck %s
//
// With the work-group size known (mux.reqd_work_group_size: mux.compile
// specialises a kernel to its launch's), check-access-bounds computes the
// largest index a scalar access has in any work-item of the group
// (lowering/common/group_values.py: arithmetic on the local id and on loop
// variables, loops run at compile time, under the conditions it knows around
// the access). The access is in bounds if its index is below the extent, or if
// that largest index is: a test of values the whole group shares, which LLVM
// takes out of the work-item loops. A smaller buffer still faults exactly
// where the index is past it (tests/test_checked_bounds_barriers.py).

// tmp[lid + 1]: at most 8 in a group of 8.
// CHECK-LABEL: func.func @shift
// CHECK:         %[[INSIDE:.*]] = arith.cmpi ult, %next, %[[EXTENT:[0-9]+]] : index
// CHECK-NEXT:    %[[LARGEST:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[WHOLE:.*]] = arith.cmpi ult, %[[LARGEST]], %[[EXTENT]] : index
// CHECK-NEXT:    %[[OK:.*]] = arith.ori %[[WHOLE]], %[[INSIDE]] : i1
// CHECK-NEXT:    %{{.*}} = scf.if %[[OK]] -> (f32) {
// CHECK-NEXT:      %{{.*}} = memref.load %tmp[%next] : memref<?xf32, 3 : i64>
func.func @shift(%tmp: memref<?xf32, 3>, %out: memref<?xf32, 1>)
    attributes {mux.kernel = "entry-point", mux.reqd_work_group_size = array<i32: 8, 1, 1>} {
  %d = arith.constant 0 : i32
  %lid = mux.get_local_id %d
  %one = arith.constant 1 : index
  %next = arith.addi %lid, %one : index
  %w = memref.load %tmp[%next] : memref<?xf32, 3>
  memref.store %w, %out[%lid] : memref<?xf32, 1>
  func.return
}

// A size not known: the index alone.
// CHECK-LABEL: func.func @any_size
// CHECK:         %[[INSIDE:.*]] = arith.cmpi ult, %next, %{{.*}} : index
// CHECK-NEXT:    %{{.*}} = scf.if %[[INSIDE]] -> (f32) {
func.func @any_size(%tmp: memref<?xf32, 3>, %out: memref<?xf32, 1>)
    attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %lid = mux.get_local_id %d
  %one = arith.constant 1 : index
  %next = arith.addi %lid, %one : index
  %w = memref.load %tmp[%next] : memref<?xf32, 3>
  memref.store %w, %out[%lid] : memref<?xf32, 1>
  func.return
}
