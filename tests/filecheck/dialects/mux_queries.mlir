// RUN: mux-opt --split-input-file %s | filecheck %s
// RUN: %roundtrip | filecheck %s
//
// Every work-item query of the spec ("Builtins"), in the custom form; the second RUN
// line goes through the generic form and back.

// CHECK-LABEL: func.func @ranked_queries
func.func @ranked_queries(%dim: i32) {
  // CHECK-NEXT: %{{.*}} = mux.get_global_size %dim
  // CHECK-NEXT: %{{.*}} = mux.get_global_id %dim
  // CHECK-NEXT: %{{.*}} = mux.get_global_offset %dim
  // CHECK-NEXT: %{{.*}} = mux.get_local_size %dim
  // CHECK-NEXT: %{{.*}} = mux.get_local_id %dim
  // CHECK-NEXT: %{{.*}} = mux.get_num_groups %dim
  // CHECK-NEXT: %{{.*}} = mux.get_group_id %dim
  // CHECK-NEXT: %{{.*}} = mux.get_enqueued_local_size %dim
  %0 = mux.get_global_size %dim
  %1 = mux.get_global_id %dim
  %2 = mux.get_global_offset %dim
  %3 = mux.get_local_size %dim
  %4 = mux.get_local_id %dim
  %5 = mux.get_num_groups %dim
  %6 = mux.get_group_id %dim
  %7 = mux.get_enqueued_local_size %dim
  func.return
}

// -----

// A constant dimension is an operand like any other (the spec's `i32 %i`).
// CHECK-LABEL: func.func @constant_dimension
func.func @constant_dimension() -> index {
  // CHECK: %[[D:.*]] = arith.constant 1 : i32
  // CHECK-NEXT: %[[ID:.*]] = mux.get_global_id %[[D]]
  // CHECK-NEXT: func.return %[[ID]] : index
  %d = arith.constant 1 : i32
  %id = mux.get_global_id %d
  func.return %id : index
}

// -----

// CHECK-LABEL: func.func @unranked_queries
func.func @unranked_queries() -> (i1, i1, i1, i32, i32, i32, i32, i32, i32, index, index) {
  // CHECK-NEXT: %{{.*}} = mux.isftz
  // CHECK-NEXT: %{{.*}} = mux.usefast
  // CHECK-NEXT: %{{.*}} = mux.isembeddedprofile
  // CHECK-NEXT: %{{.*}} = mux.get_sub_group_id
  // CHECK-NEXT: %{{.*}} = mux.get_num_sub_groups
  // CHECK-NEXT: %{{.*}} = mux.get_max_sub_group_size
  // CHECK-NEXT: %{{.*}} = mux.get_sub_group_size
  // CHECK-NEXT: %{{.*}} = mux.get_sub_group_local_id
  // CHECK-NEXT: %{{.*}} = mux.get_work_dim
  // CHECK-NEXT: %{{.*}} = mux.get_global_linear_id
  // CHECK-NEXT: %{{.*}} = mux.get_local_linear_id
  %0 = mux.isftz
  %1 = mux.usefast
  %2 = mux.isembeddedprofile
  %3 = mux.get_sub_group_id
  %4 = mux.get_num_sub_groups
  %5 = mux.get_max_sub_group_size
  %6 = mux.get_sub_group_size
  %7 = mux.get_sub_group_local_id
  %8 = mux.get_work_dim
  %9 = mux.get_global_linear_id
  %10 = mux.get_local_linear_id
  func.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10 : i1, i1, i1, i32, i32, i32, i32, i32, i32, index, index
}

// -----

// The result types are the spec's: i1, i32, and `index` for size_t.
// CHECK-LABEL: func.func @generic_form
func.func @generic_form(%d: i32) {
  // CHECK-NEXT: %{{.*}} = mux.get_local_id %d
  // CHECK-NEXT: %{{.*}} = mux.get_work_dim
  %0 = "mux.get_local_id"(%d) : (i32) -> index
  %1 = "mux.get_work_dim"() : () -> i32
  func.return
}
