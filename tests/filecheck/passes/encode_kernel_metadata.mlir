// RUN: mux-opt %s -p 'encode-kernel-metadata{name=vadd local-sizes=64}' | filecheck %s
// RUN: mux-opt %s -p 'encode-kernel-metadata{name=other local-sizes=8,4 order=zyx}' | filecheck %s --check-prefix=OTHER
// RUN: mux-opt %s -p 'encode-kernel-metadata{name=vadd}' | filecheck %s --check-prefix=NOSIZE
//
// encode-kernel-metadata: one kernel, by name, gets the entry-point attribute and the
// required work-group size given to the pass (missing dimensions are 1).

// CHECK-LABEL: func.func @vadd
// CHECK-SAME: mux.kernel = "entry-point"
// CHECK-SAME: mux.reqd_work_group_size = array<i32: 64, 1, 1>
// CHECK-SAME: mux.work_item_order = #mux<work_item_order xyz>
// CHECK-LABEL: func.func @other()
// CHECK-NOT: mux.kernel
// OTHER-LABEL: func.func @vadd()
// OTHER-NOT: mux.reqd_work_group_size
// OTHER-LABEL: func.func @other
// OTHER-SAME: mux.kernel = "entry-point", mux.reqd_work_group_size = array<i32: 8, 4, 1>, mux.work_item_order = #mux<work_item_order zyx>
// NOSIZE-LABEL: func.func @vadd
// NOSIZE-NOT: reqd_work_group_size
// NOSIZE-SAME: mux.kernel = "entry-point"
func.func @vadd() {
  func.return
}
func.func @other() {
  func.return
}
