// RUN: mux-opt --split-input-file %s -p 'work-item-loops{checked=true}' | filecheck %s
//
// work-item-loops in checked mode (lowering/scheduling/divergence.py): the wrapper
// keeps the least and the greatest region id the work-items return, and the first
// work-item returning each; after the loops different ids are a divergent barrier,
// written to the check record (the kernel's `mux.check_record` parameter, appended
// here) with the sites of both barriers (the module's `mux.check_sites`) and both
// work-items, and the group stops. Without `checked` the output is that of the
// other work_item_loops*.mlir tests.

// A barrier only work-items 0 and 1 reach. Site 0 is the kernel's return (region id
// 0), site i the barrier region i follows: site = region id + 0.
// CHECK:       builtin.module attributes {mux.check_sites = ["the return of kernel 'part'", "the barrier at {{.*}}work_item_loops_checked.mlir:[[# @LINE + 51]]:5"]}
// CHECK-LABEL: func.func @"part.mux-barrier-wrapper"
// CHECK-SAME:      (%out: memref<?xi32, 1 : i64>, %[[REC:[0-9a-z_]+]]: memref<?xi64, 1 : i64>)
// CHECK-SAME:      mux.check_record = 1 : i64
// CHECK:         %least_region = llvm.alloca
// CHECK:         %least_item = llvm.alloca
// CHECK:         %greatest_region = llvm.alloca
// CHECK:         %greatest_item = llvm.alloca
// Before the loops: the least id above every id, the greatest below.
// CHECK:         %[[MAX:.*]] = arith.constant 2147483647 : i32
// CHECK-NEXT:    llvm.store %[[MAX]], %least_region : i32, !llvm.ptr
// CHECK-NEXT:    %[[M1:.*]] = arith.constant -1 : i32
// CHECK-NEXT:    llvm.store %[[M1]], %greatest_region : i32, !llvm.ptr
// Per work-item, without a branch: the least and greatest ids and their work-items.
// CHECK:           %[[ITEM:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK-NEXT:      %[[R:.*]] = func.call @"part.mux-barrier-region.0"(%out, %[[REC]], %live, %[[ITEM]], %{{.*}})
// CHECK-NEXT:      llvm.store %[[R]], %next_region : i32, !llvm.ptr
// CHECK-NEXT:      %[[L:.*]] = llvm.load %least_region : !llvm.ptr -> i32
// CHECK-NEXT:      %[[LI:.*]] = llvm.load %least_item : !llvm.ptr -> i64
// CHECK-NEXT:      %[[LESS:.*]] = arith.cmpi slt, %[[R]], %[[L]] : i32
// CHECK-NEXT:      %[[L2:.*]] = arith.select %[[LESS]], %[[R]], %[[L]] : i32
// CHECK-NEXT:      %[[LI2:.*]] = arith.select %[[LESS]], %[[ITEM]], %[[LI]] : i64
// CHECK-NEXT:      llvm.store %[[L2]], %least_region : i32, !llvm.ptr
// CHECK-NEXT:      llvm.store %[[LI2]], %least_item : i64, !llvm.ptr
// CHECK-NEXT:      %[[G:.*]] = llvm.load %greatest_region : !llvm.ptr -> i32
// CHECK-NEXT:      %[[GI:.*]] = llvm.load %greatest_item : !llvm.ptr -> i64
// CHECK-NEXT:      %[[MORE:.*]] = arith.cmpi sgt, %[[R]], %[[G]] : i32
// CHECK:         }
// After the loops: a report if the ids differ (the sites are the ids + 0), and the
// group stops.
// CHECK:         %[[NEXT:.*]] = llvm.load %next_region : !llvm.ptr -> i32
// CHECK-NEXT:    %[[LEAST:.*]] = llvm.load %least_region : !llvm.ptr -> i32
// CHECK-NEXT:    %{{.*}} = llvm.load %least_item : !llvm.ptr -> i64
// CHECK-NEXT:    %[[GREATEST:.*]] = llvm.load %greatest_region : !llvm.ptr -> i32
// CHECK-NEXT:    %{{.*}} = llvm.load %greatest_item : !llvm.ptr -> i64
// CHECK-NEXT:    %[[DIVERGED:.*]] = arith.cmpi ne, %[[LEAST]], %[[GREATEST]] : i32
// CHECK-NEXT:    scf.if %[[DIVERGED]] {
// CHECK:           %[[SITE:.*]] = arith.extui %[[LEAST]] : i32 to i64
// CHECK:           %[[SITE2:.*]] = arith.extui %[[GREATEST]] : i32 to i64
// CHECK:           %[[KIND:.*]] = arith.constant 2 : i64
// CHECK:           atomic.cmpxchg monotonic monotonic %[[REC]][%{{.*}}], %{{.*}}, %[[KIND]]
// CHECK:         }
// CHECK-NEXT:    %[[STOP:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[FOLLOW:.*]] = arith.select %[[DIVERGED]], %[[STOP]], %[[NEXT]] : i32
// CHECK-NEXT:    cf.switch %[[FOLLOW]] : i32, [
func.func @part(%out: memref<?xi32, 1>) attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %lid = mux.get_local_id %d0
  %c2 = arith.constant 2 : index
  %lt = arith.cmpi ult, %lid, %c2 : index
  scf.if %lt {
    mux.work_group_barrier id(7) scope(work_group) semantics(acq_rel | work_group_memory)
  }
  %c = arith.constant 1 : i32
  memref.store %c, %out[%lid] : memref<?xi32, 1>
  func.return
}

// -----

// A scan's step keeps its bound function: every way from the guard returns to region
// 0 (the kernel's return), so the work-items it skips agree with the ones that run.
// CHECK-LABEL: func.func private @"step.mux-barrier-bound.1"
// CHECK-LABEL: func.func @"step.mux-barrier-wrapper"
// CHECK:         func.call @"step.mux-barrier-bound.1"
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

// A guard whose work-items reach a barrier the others do not: unchecked it has a
// bound function (work-item 0 alone, then the last one, whose region id 0 the
// wrapper follows: work-item 0's barrier is lost); checked it has none, so that
// every work-item's region id is compared. (Region 1, a return, keeps its bound:
// every work-item returns 0 there.)
// CHECK-NOT:     @"lost.mux-barrier-bound.0"
// CHECK-LABEL: func.func @"lost.mux-barrier-wrapper"
// CHECK-NOT:     @"lost.mux-barrier-bound.0"
func.func @lost(%s: memref<64xi32, 3>) attributes {mux.kernel = "entry-point", mux.reqd_work_group_size = array<i32: 64, 1, 1>, mux.max_work_dim = 1 : i32} {
  %x = arith.constant 0 : i32
  %lid = mux.get_local_id %x
  %c0 = arith.constant 0 : index
  %first = arith.cmpi eq, %lid, %c0 : index
  scf.if %first {
    %one = arith.constant 1 : i32
    memref.store %one, %s[%lid] : memref<64xi32, 3>
    mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  }
  func.return
}

// -----

// A collective scheduled as a barrier is named by its op and its place.
// CHECK:       builtin.module attributes {mux.check_sites = ["the return of kernel 'sum'", "work_group_reduce at {{.*}}work_item_loops_checked.mlir:[[# @LINE + 5]]:3"]}
func.func @sum(%in: memref<?xf32, 1>, %out: memref<?xf32, 1>) attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %lid = mux.get_local_id %d0
  %v = memref.load %in[%lid] : memref<?xf32, 1>
  %s = mux.work_group_reduce fadd id(1) %v : f32
  memref.store %s, %out[%lid] : memref<?xf32, 1>
  func.return
}

// -----

// Barriers in a loop of uniform trip count: every work-item of a region returns the
// same id (its branches that differ between work-items lead to one region), so no
// region compares: the loops are unchecked mode's.
// CHECK-LABEL: func.func @"uniform.mux-barrier-wrapper"
// CHECK-NOT:     llvm.store %{{.*}}, %least_item
// CHECK:         func.return
func.func @uniform(%s: memref<?xi32, 3>, %steps: index) attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %lid = mux.get_local_id %d0
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %steps step %c1 {
    %odd = arith.remui %lid, %c1 : index
    %is = arith.cmpi eq, %odd, %c0 : index
    scf.if %is {
      %one = arith.constant 1 : i32
      memref.store %one, %s[%lid] : memref<?xi32, 3>
    }
    mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  }
  func.return
}
