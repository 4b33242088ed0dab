// RUN: mux-opt --split-input-file %s -p transfer-kernel-metadata | filecheck %s
// RUN: mux-opt --split-input-file %s -p 'transfer-kernel-metadata{order=zyx}' | filecheck %s --check-prefix=ZYX
//
// transfer-kernel-metadata: every kernel becomes an entry point with a work-item
// order; what a kernel already has is kept; non-kernels are untouched.

// CHECK-LABEL: func.func @k
// CHECK-SAME: mux.kernel = "entry-point"
// CHECK-SAME: mux.work_item_order = #mux<work_item_order xyz>
// ZYX-LABEL: func.func @k
// ZYX-SAME: mux.work_item_order = #mux<work_item_order zyx>
func.func @k() attributes {mux.kernel} {
  func.return
}
// CHECK-LABEL: func.func @helper()
// CHECK-NOT: mux.
// CHECK: func.return
func.func @helper() {
  func.return
}

// -----

// A kernel's own order and required size stay.
// CHECK-LABEL: func.func @with_metadata
// CHECK-SAME: mux.kernel = "entry-point"
// CHECK-SAME: mux.reqd_work_group_size = array<i32: 8, 4, 1>
// CHECK-SAME: mux.work_item_order = #mux<work_item_order yxz>
// ZYX-LABEL: func.func @with_metadata
// ZYX-SAME: mux.work_item_order = #mux<work_item_order yxz>
func.func @with_metadata() attributes {mux.kernel, mux.reqd_work_group_size = array<i32: 8, 4, 1>, mux.work_item_order = #mux<work_item_order yxz>} {
  func.return
}
