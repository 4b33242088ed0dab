// RUN: mux-opt --split-input-file %s -p work-item-loops | filecheck %s
//
// Work-group collectives are scheduled natively, as barriers: the region before a
// collective ends with its operand stored in the work-item's element of a slot in
// the live storage; between the work-item loops of the two regions the wrapper folds
// the operands of the whole work-group in local linear order and writes every
// work-item's result into another slot, which the next region loads.

// An exclusive scan: the kernel's collective is now stores, a relaxed barrier and a
// load; the wrapper threads an accumulator from the identity (0 for add) through
// the work-items, each getting it before its own operand is added.
// CHECK-LABEL: func.func private @scan(
// CHECK-NEXT:    %v.slot = memref.alloca() : memref<1xi32>
// CHECK-NEXT:    %r.slot = memref.alloca() : memref<1xi32>
// CHECK:         %v = memref.load %in[%id]
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT:    memref.store %v, %v.slot[%[[Z]]] : memref<1xi32>
// CHECK-NEXT:    mux.work_group_barrier id(0) scope(work_group) semantics(relaxed)
// CHECK-NEXT:    cf.br ^[[AFTER:.*]]
// CHECK-NEXT:  ^[[AFTER]]:
// CHECK-NEXT:    %[[Z2:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %r = memref.load %r.slot[%[[Z2]]] : memref<1xi32>
// CHECK-NEXT:    memref.store %r, %out[%id]
// Region 0 stores the operand through the slot, whose storage is the work-item's
// element of its array in the live storage.
// CHECK-LABEL: func.func private @"scan.mux-barrier-region.0"
// CHECK:         %[[E:.*]] = llvm.getelementptr inbounds %field1[%item] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<1 x i32>
// CHECK-NEXT:    %v.slot = builtin.unrealized_conversion_cast %[[E]] : !llvm.ptr to memref<1xi32>
// CHECK:         memref.store %v, %v.slot[%{{.*}}] : memref<1xi32>
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    func.return %[[ONE]] : i32
// CHECK-LABEL: func.func private @"scan.mux-barrier-region.1"
// CHECK:         %r = memref.load %r.slot[%{{.*}}] : memref<1xi32>
// CHECK-LABEL: func.func @"scan.mux-barrier-wrapper"
// CHECK:         %[[XY:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK-NEXT:    %[[COUNT:.*]] = arith.muli %[[XY]], %{{.*}} : index
// CHECK-NEXT:    %{{.*}} = arith.index_cast %[[COUNT]] : index to i64
// CHECK:         func.call @"scan.mux-barrier-region.0"
// CHECK:         cf.switch
// The region after the collective: the fold, then the work-item loops.
// CHECK:         mux.mem_barrier scope(work_group) semantics(relaxed)
// The results' array is the first of the live storage (%live itself), the
// operands' one further on.
// CHECK:         %[[OPERANDS:.*]] = llvm.getelementptr inbounds %live[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK-NEXT:    scf.for %[[START:.*]] = %{{.*}} to %[[COUNT]] step %[[COUNT]] {
// CHECK:           %[[IDENTITY:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      %{{.*}} = scf.for %[[I:.*]] = %[[START]] to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[IDENTITY]]) -> (i32) {
// CHECK:             %[[P:.*]] = llvm.getelementptr inbounds %[[OPERANDS]][%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i32
// CHECK-NEXT:        %[[X:.*]] = llvm.load %[[P]] : !llvm.ptr -> i32
// CHECK-NEXT:        %[[NEXT:.*]] = arith.addi %[[ACC]], %[[X]] : i32
// CHECK:             %[[Q:.*]] = llvm.getelementptr inbounds %live[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i32
// CHECK-NEXT:        llvm.store %[[ACC]], %[[Q]] : i32, !llvm.ptr
// CHECK-NEXT:        scf.yield %[[NEXT]] : i32
// CHECK:         func.call @"scan.mux-barrier-region.1"
func.func @scan(%in: memref<?xi32, 1>, %out: memref<?xi32, 1>) attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %id = mux.get_global_id %d0
  %v = memref.load %in[%id] : memref<?xi32, 1>
  %r = mux.work_group_scan_exclusive add id(0) %v : i32
  memref.store %r, %out[%id] : memref<?xi32, 1>
  func.return
}

// -----

// A broadcast: its ids are slots too; the wrapper reads them from the first
// work-item's, linearises them with the work-group's sizes, and gives every
// work-item the operand at that linear id. A reduce of floats folds from -0.0 with
// arith.addf, then writes the one result to every work-item's slot.
// CHECK-LABEL: func.func @"two.mux-barrier-wrapper"
// CHECK:         mux.mem_barrier scope(work_group) semantics(relaxed)
// CHECK:         scf.for
// CHECK:           %[[X:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK:           %[[Y:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK:           %[[Z:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK:           %[[ZI:.*]] = arith.index_cast %[[Z]] : i64 to index
// CHECK-NEXT:      %[[L1:.*]] = arith.muli %[[ZI]], %{{.*}} : index
// CHECK-NEXT:      %[[L2:.*]] = arith.addi %[[L1]], %{{.*}} : index
// CHECK-NEXT:      %[[L3:.*]] = arith.muli %[[L2]], %{{.*}} : index
// CHECK-NEXT:      %[[L4:.*]] = arith.addi %[[L3]], %{{.*}} : index
// CHECK:           %[[SRC:.*]] = arith.minui %{{.*}}, %{{.*}} : index
// CHECK:           %[[V:.*]] = llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK:           scf.for
// CHECK:             llvm.store %[[V]], %{{.*}} : f32, !llvm.ptr
// CHECK:         func.call @"two.mux-barrier-region.1"
// CHECK:         mux.mem_barrier scope(work_group) semantics(relaxed)
// CHECK:           %[[NEG0:.*]] = arith.constant -0.000000e+00 : f32
// CHECK-NEXT:      %[[SUM:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[A:.*]] = %[[NEG0]]) -> (f32) {
// CHECK:             %[[S:.*]] = arith.addf %[[A]], %{{.*}} : f32
// CHECK-NEXT:        scf.yield %[[S]] : f32
// CHECK:           scf.for
// CHECK:             llvm.store %[[SUM]], %{{.*}} : f32, !llvm.ptr
// CHECK:         func.call @"two.mux-barrier-region.2"
func.func @two(%in: memref<?xf32, 1>, %out: memref<?xf32, 1>, %x: index, %y: index, %z: index) attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %id = mux.get_global_id %d0
  %v = memref.load %in[%id] : memref<?xf32, 1>
  %b = mux.work_group_broadcast id(0) %v, %x, %y, %z : f32
  %s = mux.work_group_reduce fadd id(1) %b : f32
  memref.store %s, %out[%id] : memref<?xf32, 1>
  func.return
}
