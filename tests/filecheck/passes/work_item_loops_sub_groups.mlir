// RUN: mux-opt %s -p 'work-item-loops{sub_group_size=4}' | filecheck %s
// RUN: mux-opt %s -p work-item-loops | filecheck %s --check-prefix=ONE
//
// Sub-groups of 4: consecutive local linear ids, the last one possibly partial.
// The wrapper sets the maximum sub-group size M = min(4, enqueued work-group size),
// the number of sub-groups ceil(work-group size / M) and each work-item's
// sub-group id (linear id / M); a sub-group collective is scheduled like a
// work-group one, folded per sub-group: a loop over the sub-groups' starts with
// step M, each folding [start, min(start + M, work-group size)).
// CHECK-LABEL: func.func @"k.mux-barrier-wrapper"
// CHECK-SAME:    mux.sub_group_size = 4 : i32
// CHECK:         %[[E01:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK-NEXT:    %[[E:.*]] = arith.muli %[[E01]], %{{.*}} : index
// CHECK-NEXT:    %[[FOUR:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %max_sub_group_size = arith.minui %[[E]], %[[FOUR]] : index
// CHECK:         %[[N:.*]] = arith.ceildivui %{{.*}}, %max_sub_group_size : index
// CHECK-NEXT:    %[[M32:.*]] = arith.index_cast %max_sub_group_size : index to i32
// CHECK-NEXT:    mux.set_max_sub_group_size %[[M32]]
// CHECK-NEXT:    %[[N32:.*]] = arith.index_cast %[[N]] : index to i32
// CHECK-NEXT:    mux.set_num_sub_groups %[[N32]]
// CHECK:         %[[LINEAR:.*]] = arith.addi %{{.*}}, %x : index
// CHECK-NEXT:    %[[SG:.*]] = arith.divui %[[LINEAR]], %max_sub_group_size : index
// CHECK-NEXT:    %[[SG32:.*]] = arith.index_cast %[[SG]] : index to i32
// CHECK-NEXT:    mux.set_sub_group_id %[[SG32]]
// CHECK:         func.call @"k.mux-barrier-region.0"
// CHECK:         mux.mem_barrier scope(work_group) semantics(relaxed)
// CHECK:         scf.for %[[START:.*]] = %{{.*}} to %[[COUNT:.*]] step %max_sub_group_size {
// CHECK-NEXT:      %[[END0:.*]] = arith.addi %[[START]], %max_sub_group_size : index
// CHECK-NEXT:      %[[END:.*]] = arith.minui %[[END0]], %[[COUNT]] : index
// CHECK:           scf.for %{{.*}} = %[[START]] to %[[END]] step %{{.*}} iter_args
// CHECK:             arith.addi
// CHECK:         func.call @"k.mux-barrier-region.1"
//
// With the spec's default size 1, nothing is split: the collective stays for
// define-mux-builtins, and each work-item is its own sub-group.
// ONE-LABEL: func.func private @k(
// ONE:         %r = mux.sub_group_reduce add %v : i32
// ONE-LABEL: func.func @"k.mux-barrier-wrapper"
// ONE-NOT:     mux.sub_group_size
// ONE:         mux.get_local_size
// ONE-NEXT:    mux.get_local_size
// ONE-NEXT:    mux.get_local_size
// ONE-NEXT:    %[[ONE:.*]] = arith.constant 1 : i32
// ONE-NEXT:    mux.set_max_sub_group_size %[[ONE]]
// ONE-NOT:     arith.divui
// ONE:         %[[L:.*]] = arith.addi %{{.*}}, %x : index
// ONE-NEXT:    %[[L32:.*]] = arith.index_cast %[[L]] : index to i32
// ONE-NEXT:    mux.set_sub_group_id %[[L32]]
// ONE-NEXT:    func.call @k(%in, %out)
func.func @k(%in: memref<?xi32, 1>, %out: memref<?xi32, 1>) attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %id = mux.get_global_id %d0
  %v = memref.load %in[%id] : memref<?xi32, 1>
  %r = mux.sub_group_reduce add %v : i32
  %n = mux.get_sub_group_id
  %t = arith.addi %r, %n : i32
  memref.store %t, %out[%id] : memref<?xi32, 1>
  func.return
}
