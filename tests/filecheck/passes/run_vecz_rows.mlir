// RUN: mux-opt --split-input-file %s -p 'run-vecz{width=4 rows=2}' | filecheck %s
//
// run-vecz with rows: @__vecz_v4x2_<kernel> runs 2 rows of 4 work-items, the
// work-items (x + i, y + j) in lane i + 4 * j of its vectors (a packet unrolled and
// jammed in y). A load that is the same in every row (B's row) is made once and
// repeated for each row, a load that is the same along each row (A's element) once
// per row, a store that differs between rows is a vector store per row.

// CHECK-LABEL: func.func private @__vecz_v4x2_dot_rows(
// CHECK-SAME:      attributes {mux.vecz_derived = [4 : i32, "dot_rows"], mux.vecz_rows = 2 : i32}
// CHECK:         %a_row = arith.muli %row, %n : index
// CHECK:         %sum = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %{{.*}}) -> (vector<8xf32>) {
// CHECK-NEXT:      %a_at = arith.addi %a_row, %k : index
// CHECK-NEXT:      %k_row = arith.muli %k, %n : index
// CHECK-NEXT:      %b_at = arith.addi %k_row, %col : index
// CHECK-NEXT:      %[[A0:.*]] = memref.load %a[%a_at] : memref<?xf32, 1 : i64>
// CHECK-NEXT:      %[[ROW0:.*]] = vector.broadcast %[[A0]] : f32 to vector<4xf32>
// CHECK-NEXT:      %[[AT1:.*]] = arith.addi %a_at, %n : index
// CHECK-NEXT:      %[[A1:.*]] = memref.load %a[%[[AT1]]] : memref<?xf32, 1 : i64>
// CHECK-NEXT:      %[[ROW1:.*]] = vector.broadcast %[[A1]] : f32 to vector<4xf32>
// CHECK-NEXT:      %x = llvm.shufflevector %[[ROW0]], %[[ROW1]] [0, 1, 2, 3, 4, 5, 6, 7] : vector<4xf32>
// CHECK-NEXT:      %[[B:.*]] = vector.load %b[%b_at] : memref<?xf32, 1 : i64>, vector<4xf32>
// CHECK-NEXT:      %y = llvm.shufflevector %[[B]], %[[B]] [0, 1, 2, 3, 0, 1, 2, 3] : vector<4xf32>
// CHECK-NEXT:      %xy = arith.mulf %x, %y : vector<8xf32>
// CHECK-NEXT:      %next = arith.addf %acc, %xy : vector<8xf32>
// CHECK-NEXT:      scf.yield %next : vector<8xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %c_at = arith.addi %a_row, %col : index
// CHECK-NEXT:    %[[C0:.*]] = llvm.shufflevector %sum, %sum [0, 1, 2, 3] : vector<8xf32>
// CHECK-NEXT:    vector.store %[[C0]], %c[%c_at] : memref<?xf32, 1 : i64>, vector<4xf32>
// CHECK-NEXT:    %[[C1:.*]] = llvm.shufflevector %sum, %sum [4, 5, 6, 7] : vector<8xf32>
// CHECK-NEXT:    %[[AT:.*]] = arith.addi %c_at, %n : index
// CHECK-NEXT:    vector.store %[[C1]], %c[%[[AT]]] : memref<?xf32, 1 : i64>, vector<4xf32>
func.func @dot_rows(%a: memref<?xf32, 1>, %b: memref<?xf32, 1>, %c: memref<?xf32, 1>,
                    %n: index) attributes {mux.kernel = "entry-point",
                    mux.reqd_work_group_size = array<i32: 4, 2, 1>} {
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %col = mux.get_global_id %d0
  %row = mux.get_global_id %d1
  %a_row = arith.muli %row, %n : index
  %sum = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    %a_at = arith.addi %a_row, %k : index
    %k_row = arith.muli %k, %n : index
    %b_at = arith.addi %k_row, %col : index
    %x = memref.load %a[%a_at] : memref<?xf32, 1>
    %y = memref.load %b[%b_at] : memref<?xf32, 1>
    %xy = arith.mulf %x, %y : f32
    %next = arith.addf %acc, %xy : f32
    scf.yield %next : f32
  }
  %c_at = arith.addi %a_row, %col : index
  memref.store %sum, %c[%c_at] : memref<?xf32, 1>
  func.return
}

// -----

// Rows need a required work-group size whose y is a multiple of them.
// CHECK-LABEL: func.func @odd_rows(
// CHECK-SAME:      mux.vecz_fail = [4 : i32, "packets of 2 rows need a required work-group size whose y is a multiple of it"]
func.func @odd_rows(%a: memref<?xf32, 1>) attributes {mux.kernel = "entry-point",
    mux.reqd_work_group_size = array<i32: 4, 3, 1>} {
  %d0 = arith.constant 0 : i32
  %x = mux.get_global_id %d0
  %v = memref.load %a[%x] : memref<?xf32, 1>
  memref.store %v, %a[%x] : memref<?xf32, 1>
  func.return
}

// -----

// Nor barriers (their live values are kept per work-item of a row).
// CHECK-LABEL: func.func @rows_and_barrier(
// CHECK-SAME:      mux.vecz_fail = [4 : i32, "packets of more than one row with barriers"]
func.func @rows_and_barrier(%a: memref<?xf32, 3>) attributes {mux.kernel = "entry-point",
    mux.reqd_work_group_size = array<i32: 4, 2, 1>} {
  %d0 = arith.constant 0 : i32
  %x = mux.get_local_id %d0
  %v = memref.load %a[%x] : memref<?xf32, 3>
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  memref.store %v, %a[%x] : memref<?xf32, 3>
  func.return
}
