// RUN: mux-opt %s -p degenerate-sub-groups | filecheck %s
//
// degenerate-sub-groups: one sub-group spans the work-group. Sub-group queries
// become work-group ones, collectives and barriers their work-group counterparts
// (fresh ids after the kernel's), in the kernel and in the functions it calls;
// shuffles stay, for work-item-loops to schedule over the whole work-group.

// CHECK-LABEL: func.func @helper(%x: i32) -> i32 {
// CHECK-NEXT:    %r = mux.work_group_reduce smax id(0) %x : i32
// CHECK-NEXT:    func.return %r : i32
func.func @helper(%x: i32) -> i32 {
  %r = mux.sub_group_reduce smax %x : i32
  func.return %r : i32
}

// CHECK-LABEL: func.func @k(%x: i32, %b: i1, %lid: i32) attributes {mux.kernel = "entry-point", mux.degenerate_subgroups} {
// CHECK-NEXT:    mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
// CHECK-NEXT:    %id = arith.constant 0 : i32
// CHECK-NEXT:    %n = arith.constant 1 : i32
// The maximum: the enqueued work-group size; the size: this work-group's.
// CHECK-NEXT:    %{{.*}} = arith.constant 0 : i32
// CHECK-NEXT:    %[[E0:.*]] = mux.get_enqueued_local_size %{{.*}}
// CHECK-NEXT:    %{{.*}} = arith.constant 1 : i32
// CHECK-NEXT:    %[[E1:.*]] = mux.get_enqueued_local_size %{{.*}}
// CHECK-NEXT:    %{{.*}} = arith.constant 2 : i32
// CHECK-NEXT:    %[[E2:.*]] = mux.get_enqueued_local_size %{{.*}}
// CHECK-NEXT:    %[[E01:.*]] = arith.muli %[[E0]], %[[E1]] : index
// CHECK-NEXT:    %[[E:.*]] = arith.muli %[[E01]], %[[E2]] : index
// CHECK-NEXT:    %max = arith.index_cast %[[E]] : index to i32
// CHECK:         mux.get_local_size
// CHECK:         %size = arith.index_cast %{{.*}} : index to i32
// CHECK-NEXT:    %[[LINEAR:.*]] = mux.get_local_linear_id
// CHECK-NEXT:    %local = arith.index_cast %[[LINEAR]] : index to i32
// CHECK-NEXT:    %s = mux.work_group_scan_exclusive add id(1) %x : i32
// CHECK-NEXT:    %f = arith.sitofp %x : i32 to f32
// CHECK-NEXT:    %t = mux.work_group_scan_inclusive fmul id(2) %f : f32
// CHECK-NEXT:    %any = mux.work_group_any id(3) %b
// CHECK-NEXT:    %all = mux.work_group_all id(4) %b
// The broadcast's sub-group local id is delinearised with this work-group's sizes.
// CHECK-NEXT:    %[[W:.*]] = arith.extui %lid : i32 to i64
// CHECK-NEXT:    %[[I:.*]] = arith.index_cast %[[W]] : i64 to index
// CHECK:         %[[SX:.*]] = mux.get_local_size
// CHECK:         %[[SY:.*]] = mux.get_local_size
// CHECK-NEXT:    %[[X:.*]] = arith.remui %[[I]], %[[SX]] : index
// CHECK-NEXT:    %[[REST:.*]] = arith.divui %[[I]], %[[SX]] : index
// CHECK-NEXT:    %[[Y:.*]] = arith.remui %[[REST]], %[[SY]] : index
// CHECK-NEXT:    %[[Z:.*]] = arith.divui %[[REST]], %[[SY]] : index
// CHECK-NEXT:    %bc = mux.work_group_broadcast id(5) %x, %[[X]], %[[Y]], %[[Z]] : i32
// CHECK-NEXT:    %sh = mux.sub_group_shuffle_xor %x, %lid : i32
// CHECK-NEXT:    mux.work_group_barrier id(6) scope(sub_group) semantics(acq_rel | sub_group_memory) schedule(linear)
// CHECK-NEXT:    %h = func.call @helper(%x) : (i32) -> i32
func.func @k(%x: i32, %b: i1, %lid: i32) attributes {mux.kernel = "entry-point"} {
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %id = mux.get_sub_group_id
  %n = mux.get_num_sub_groups
  %max = mux.get_max_sub_group_size
  %size = mux.get_sub_group_size
  %local = mux.get_sub_group_local_id
  %s = mux.sub_group_scan_exclusive add %x : i32
  %f = arith.sitofp %x : i32 to f32
  %t = mux.sub_group_scan_inclusive fmul %f : f32
  %any = mux.sub_group_any %b
  %all = mux.sub_group_all %b
  %bc = mux.sub_group_broadcast %x, %lid : i32
  %sh = mux.sub_group_shuffle_xor %x, %lid : i32
  mux.sub_group_barrier id(0) scope(sub_group) semantics(acq_rel | sub_group_memory) schedule(linear)
  %h = func.call @helper(%x) : (i32) -> i32
  func.return
}
