// RUN: mux-opt --split-input-file %s -p work-item-loops | filecheck %s
//
// work-item-loops on barrier-free kernels: the entry point becomes
// @k.mux-barrier-wrapper, which loops over the work-items of one work-group and calls
// the kernel, now private, after setting the local id of each dimension.

// The spec's example: old_kernel(in, out) { id = get_local_linear_id; out[id] = in[id] * 4 }
// CHECK-LABEL: func.func private @old_kernel(%in: memref<?xi32, 1 : i64>, %out: memref<?xi32, 1 : i64>) {
// CHECK:       func.func @"old_kernel.mux-barrier-wrapper"(%in: memref<?xi32, 1 : i64>, %out: memref<?xi32, 1 : i64>)
// CHECK-SAME:      mux.kernel = "entry-point"
// CHECK-SAME:      mux.orig_fn = "old_kernel", mux.base_fn_name = "old_kernel"
// CHECK-NEXT:    %[[D0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[D1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[D2:.*]] = arith.constant 2 : i32
// CHECK-NEXT:    %[[SX:.*]] = mux.get_local_size %[[D0]]
// CHECK-NEXT:    %[[SY:.*]] = mux.get_local_size %[[D1]]
// CHECK-NEXT:    %[[SZ:.*]] = mux.get_local_size %[[D2]]
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    scf.for %z = %[[ZERO]] to %[[SZ]] step %[[ONE]] {
// CHECK-NEXT:      mux.set_local_id %[[D2]], %z
// CHECK-NEXT:      scf.for %y = %[[ZERO]] to %[[SY]] step %[[ONE]] {
// CHECK-NEXT:        mux.set_local_id %[[D1]], %y
// CHECK-NEXT:        scf.for %x = %[[ZERO]] to %[[SX]] step %[[ONE]] {
// CHECK-NEXT:          mux.set_local_id %[[D0]], %x
// CHECK-NEXT:          func.call @old_kernel(%in, %out)
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
func.func @old_kernel(%in: memref<?xi32, 1>, %out: memref<?xi32, 1>) attributes {mux.kernel = "entry-point"} {
  %id = mux.get_local_linear_id
  %v = memref.load %in[%id] : memref<?xi32, 1>
  %four = arith.constant 4 : i32
  %r = arith.muli %v, %four : i32
  memref.store %r, %out[%id] : memref<?xi32, 1>
  func.return
}

// -----

// The work-item order zyx makes z the innermost loop; a required work-group size
// makes the trip counts constants, and the metadata moves to the wrapper.
// CHECK-LABEL: func.func private @ordered(%a: memref<?xf32, 1 : i64>) {
// CHECK:       func.func @"ordered.mux-barrier-wrapper"(%a: memref<?xf32, 1 : i64>)
// CHECK-SAME:      mux.kernel = "entry-point", mux.reqd_work_group_size = array<i32: 8, 4, 2>, mux.work_item_order = #mux<work_item_order zyx>
// CHECK:         %[[SX:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[SY:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[SZ:.*]] = arith.constant 2 : index
// CHECK-NOT:     mux.get_local_size
// CHECK:         scf.for %x = %{{.*}} to %[[SX]]
// CHECK-NEXT:      mux.set_local_id
// CHECK-NEXT:      scf.for %y = %{{.*}} to %[[SY]]
// CHECK-NEXT:        mux.set_local_id
// CHECK-NEXT:        scf.for %z = %{{.*}} to %[[SZ]]
// CHECK-NEXT:          mux.set_local_id
// CHECK-NEXT:          func.call @ordered(%a)
func.func @ordered(%a: memref<?xf32, 1>) attributes {mux.kernel = "entry-point", mux.reqd_work_group_size = array<i32: 8, 4, 2>, mux.work_item_order = #mux<work_item_order zyx>} {
  func.return
}

// -----

// mux.max_work_dim = 1: the y and z local ids are 0, with no loop.
// CHECK-LABEL: func.func @"one_dim.mux-barrier-wrapper"
// CHECK-SAME:      mux.max_work_dim = 1 : i32
// CHECK:         %[[SX:.*]] = mux.get_local_size %[[D0:[^ ]*]]
// CHECK-NEXT:    %[[SY:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[SZ:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %{{.*}} = arith.constant 1 : index
// CHECK-NEXT:    mux.set_local_id %{{.*}}, %[[ZERO]]
// CHECK-NEXT:    mux.set_local_id %{{.*}}, %[[ZERO]]
// CHECK-NEXT:    scf.for %x = %[[ZERO]] to %[[SX]]
// CHECK-NEXT:      mux.set_local_id %[[D0]], %x
// CHECK-NEXT:      func.call @one_dim()
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
func.func @one_dim() attributes {mux.kernel = "entry-point", mux.max_work_dim = 1 : i32} {
  func.return
}

// -----

// A kernel that asks for sub-group state (here through a helper it calls) gets it
// set: size-1 sub-groups, one per work-item, numbered in local linear order.
// CHECK-LABEL: func.func @"sub_groups.mux-barrier-wrapper"
// CHECK:         mux.get_local_size
// CHECK-NEXT:    mux.get_local_size
// CHECK-NEXT:    mux.get_local_size
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    mux.set_max_sub_group_size %[[ONE]]
// CHECK-NEXT:    %[[N:.*]] = arith.muli
// CHECK-NEXT:    %[[N2:.*]] = arith.muli %[[N]]
// CHECK-NEXT:    %[[N32:.*]] = arith.index_cast %[[N2]] : index to i32
// CHECK-NEXT:    mux.set_num_sub_groups %[[N32]]
// CHECK:         mux.set_local_id %{{.*}}, %x
// CHECK-NEXT:    %[[L0:.*]] = arith.muli %z, %{{.*}} : index
// CHECK-NEXT:    %[[L1:.*]] = arith.addi %[[L0]], %y : index
// CHECK-NEXT:    %[[L2:.*]] = arith.muli %[[L1]], %{{.*}} : index
// CHECK-NEXT:    %[[L3:.*]] = arith.addi %[[L2]], %x : index
// CHECK-NEXT:    %[[SG:.*]] = arith.index_cast %[[L3]] : index to i32
// CHECK-NEXT:    mux.set_sub_group_id %[[SG]]
// CHECK-NEXT:    func.call @sub_groups()
func.func @helper() -> i32 {
  %sg = mux.get_sub_group_id
  func.return %sg : i32
}
func.func @sub_groups() attributes {mux.kernel = "entry-point"} {
  %sg = func.call @helper() : () -> i32
  func.return
}

// -----

// Functions that are not entry points are left alone; a kernel without the
// entry-point value is not scheduled either.
// CHECK-LABEL: func.func @not_an_entry_point() attributes {mux.kernel} {
// CHECK-NOT:   mux-barrier-wrapper
func.func @not_an_entry_point() attributes {mux.kernel} {
  func.return
}

// -----

// A kernel run-vecz vectorised (mux.vecz_base): the loop over x calls the vectorised
// kernel for each whole packet of 8 work-items, then the scalar kernel for the rest
// (the spec's "Vector + Scalar" scheduling).
// CHECK-LABEL: func.func @"vk.mux-barrier-wrapper"
// CHECK:           mux.set_local_id %[[D1:.*]], %y
// CHECK-NEXT:      %[[W:.*]] = arith.constant 8 : index
// CHECK-NEXT:      %[[PEEL:.*]] = arith.remui %[[SX:.*]], %[[W]] : index
// CHECK-NEXT:      %peel_limit = arith.subi %[[SX]], %[[PEEL]] : index
// CHECK-NEXT:      scf.for %x = %[[ZERO:.*]] to %peel_limit step %[[W]] {
// CHECK-NEXT:        mux.set_local_id %[[D0:.*]], %x
// CHECK-NEXT:        func.call @__vecz_v8_vk(%out) : (memref<?xi32, 1 : i64>) -> ()
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.for %[[X:.*]] = %peel_limit to %[[SX]] step %{{.*}} {
// CHECK-NEXT:        mux.set_local_id %[[D0]], %[[X]]
// CHECK-NEXT:        func.call @vk(%out) : (memref<?xi32, 1 : i64>) -> ()
// CHECK-NEXT:      }
func.func @vk(%out: memref<?xi32, 1>)
    attributes {mux.kernel = "entry-point", mux.vecz_base = [8 : i32, "__vecz_v8_vk"]} {
  func.return
}
func.func private @__vecz_v8_vk(%out: memref<?xi32, 1>)
    attributes {mux.vecz_derived = [8 : i32, "vk"]} {
  func.return
}

// -----

// With a required work-group size whose x is a multiple of the width, every
// work-item is in a whole packet: the vectorised kernel alone (the spec's "Vector
// only"). A dimension of a required size 1 (z here) has no loop: its local id is set
// to 0 once.
// CHECK-LABEL: func.func @"vo.mux-barrier-wrapper"
// CHECK:         mux.set_local_id %{{.*}}, %[[ZERO:.*]]
// CHECK-NEXT:    scf.for %y = %[[ZERO]] to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      mux.set_local_id %[[D1:.*]], %y
// CHECK-NEXT:      %[[W:.*]] = arith.constant 8 : index
// CHECK-NEXT:      scf.for %x = %{{.*}} to %{{.*}} step %[[W]] {
// CHECK-NEXT:        mux.set_local_id %{{.*}}, %x
// CHECK-NEXT:        func.call @__vecz_v8_vo(%out) : (memref<?xi32, 1 : i64>) -> ()
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
func.func @vo(%out: memref<?xi32, 1>) attributes {mux.kernel = "entry-point",
    mux.reqd_work_group_size = array<i32: 16, 2, 1>,
    mux.vecz_base = [8 : i32, "__vecz_v8_vo"]} {
  func.return
}
func.func private @__vecz_v8_vo(%out: memref<?xi32, 1>)
    attributes {mux.vecz_derived = [8 : i32, "vo"]} {
  func.return
}

// -----

// A vectorised kernel of 2 rows (mux.vecz_rows) of 8 work-items: the loop over y
// steps by 2; for each pair of rows the vectorised kernel runs the whole packets,
// then the scalar kernel the rest of each of the 2 rows (x from 8 to 12).
// CHECK-LABEL: func.func @"vr.mux-barrier-wrapper"
// CHECK:           %peel_limit = arith.constant 8 : index
// CHECK-NEXT:      %[[ROWS:.*]] = arith.constant 2 : index
// CHECK-NEXT:      scf.for %y = %[[ZERO:.*]] to %{{.*}} step %[[ROWS]] {
// CHECK-NEXT:        mux.set_local_id %[[D1:.*]], %y
// CHECK-NEXT:        %[[W:.*]] = arith.constant 8 : index
// CHECK-NEXT:        scf.for %x = %[[ZERO]] to %peel_limit step %[[W]] {
// CHECK-NEXT:          mux.set_local_id %[[D0:.*]], %x
// CHECK-NEXT:          func.call @__vecz_v8x2_vr(%out) : (memref<?xi32, 1 : i64>) -> ()
// CHECK-NEXT:        }
// CHECK-NEXT:        %[[R:.*]] = arith.constant 2 : index
// CHECK-NEXT:        %[[END:.*]] = arith.addi %y, %[[R]] : index
// CHECK-NEXT:        scf.for %[[Y:.*]] = %y to %[[END]] step %[[ONE:.*]] {
// CHECK-NEXT:          mux.set_local_id %[[D1]], %[[Y]]
// CHECK-NEXT:          scf.for %[[X:.*]] = %peel_limit to %[[SX:.*]] step %[[ONE]] {
// CHECK-NEXT:            mux.set_local_id %[[D0]], %[[X]]
// CHECK-NEXT:            func.call @vr(%out) : (memref<?xi32, 1 : i64>) -> ()
// CHECK-NEXT:          }
// CHECK-NEXT:        }
// CHECK-NEXT:      }
func.func @vr(%out: memref<?xi32, 1>) attributes {mux.kernel = "entry-point",
    mux.reqd_work_group_size = array<i32: 12, 4, 1>,
    mux.vecz_base = [8 : i32, "__vecz_v8x2_vr"]} {
  func.return
}
func.func private @__vecz_v8x2_vr(%out: memref<?xi32, 1>)
    attributes {mux.vecz_derived = [8 : i32, "vr"], mux.vecz_rows = 2 : i32} {
  func.return
}
