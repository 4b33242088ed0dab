// RUN: mux-opt --split-input-file %s -p work-item-loops | filecheck %s
//
// work-item-loops with barriers: each barrier region becomes a function that runs it
// for one work-item and returns the region to run next (0: the kernel returned); the
// wrapper runs every region for all work-items, with the barrier's fence in between.
// Region functions take the live storage of the work-group (`%live`, a struct of
// arrays: one array per live value, one element per work-item), the work-item's
// local linear id (`%item`) and the number of work-items (`%items`).

// The spec's first barrier example (compiler-utils-passes.rst, WorkItemLoopsPass):
//   id = get_local_linear_id(); out[id * 2] = in[id]; barrier; out[id * 2 + 1] = in[id] * 4;
// `id` is a work-item query: recomputed after the barrier, nothing is stored.
// CHECK-LABEL: func.func private @"old_kernel.mux-barrier-region.0"(%in: memref<?xi32, 1 : i64>, %out: memref<?xi32, 1 : i64>, %live: !llvm.ptr, %item: i64, %items: i64) -> i32 {
// CHECK-NEXT:    %id = mux.get_local_linear_id
// CHECK-NEXT:    %v = memref.load %in[%id]
// CHECK:         memref.store %v, %out[%i0]
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    func.return %[[ONE]] : i32
// Values recomputed rather than stored (`id`, the constant 2) are computed once, at
// the start of the region's function.
// CHECK-LABEL: func.func private @"old_kernel.mux-barrier-region.1"(%in: memref<?xi32, 1 : i64>, %out: memref<?xi32, 1 : i64>, %live: !llvm.ptr, %item: i64, %items: i64) -> i32 {
// CHECK-NEXT:    %id = mux.get_local_linear_id
// CHECK-NEXT:    %c2 = arith.constant 2 : index
// CHECK-NEXT:    %w = memref.load %in[%id]
// CHECK-NOT:     llvm.load
// CHECK:         %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    func.return %[[ZERO]] : i32
// The wrapper: the live storage (0 bytes per work-item here), region 0's loops, then
// a switch on the region returned; region 1 starts with the barrier's fence.
// CHECK-LABEL: func.func @"old_kernel.mux-barrier-wrapper"
// CHECK:         %[[ITEMS:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK-NEXT:    %[[PER_ITEM:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[BYTES:.*]] = arith.muli %[[ITEMS]], %[[PER_ITEM]] : i64
// CHECK-NEXT:    %live = llvm.alloca %[[BYTES]] x i8 {alignment = 64 : i64}
// CHECK:         %next_region = llvm.alloca
// CHECK-NEXT:    cf.br ^[[R0:.*]]
// CHECK-NEXT:  ^[[R0]]:
// CHECK:               %[[ITEM:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK-NEXT:          %[[NEXT:.*]] = func.call @"old_kernel.mux-barrier-region.0"(%in, %out, %live, %[[ITEM]], %[[ITEMS]])
// CHECK-NEXT:          llvm.store %[[NEXT]], %next_region : i32, !llvm.ptr
// CHECK:         %[[N:.*]] = llvm.load %next_region : !llvm.ptr -> i32
// CHECK-NEXT:    cf.switch %[[N]] : i32, [
// CHECK-NEXT:    default: ^[[EXIT:.*]],
// CHECK-NEXT:      1: ^[[R1:.*]]
// CHECK-NEXT:    ]
// CHECK-NEXT:  ^[[R1]]:
// CHECK-NEXT:    mux.mem_barrier scope(work_group) semantics(acq_rel | cross_work_group_memory)
// CHECK:             func.call @"old_kernel.mux-barrier-region.1"
// CHECK:       ^[[EXIT]]:
// CHECK-NEXT:    func.return
func.func @old_kernel(%in: memref<?xi32, 1>, %out: memref<?xi32, 1>) attributes {mux.kernel = "entry-point"} {
  %id = mux.get_local_linear_id
  %v = memref.load %in[%id] : memref<?xi32, 1>
  %c2 = arith.constant 2 : index
  %i0 = arith.muli %id, %c2 : index
  memref.store %v, %out[%i0] : memref<?xi32, 1>
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | cross_work_group_memory)
  %w = memref.load %in[%id] : memref<?xi32, 1>
  %c4 = arith.constant 4 : i32
  %w4 = arith.muli %w, %c4 : i32
  %i1a = arith.muli %id, %c2 : index
  %c1 = arith.constant 1 : index
  %i1 = arith.addi %i1a, %c1 : index
  memref.store %w4, %out[%i1] : memref<?xi32, 1>
  func.return
}

// -----

// The spec's live-variable example: x = in[id] * 4; barrier; out[id] = x.
// x is stored into the work-item's element of its array (the only one: it starts at
// %live) right after its definition, and loaded in the region after the barrier.
// CHECK-LABEL: func.func private @"live.mux-barrier-region.0"
// CHECK:         %x = arith.muli %v, %{{.*}} : i32
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %live[%item] : (!llvm.ptr, i64) -> !llvm.ptr, i32
// CHECK-NEXT:    llvm.store %x, %[[P]] : i32, !llvm.ptr
// CHECK-LABEL: func.func private @"live.mux-barrier-region.1"
// CHECK-NEXT:    %id = mux.get_local_linear_id
// CHECK-NEXT:    %[[Q:.*]] = llvm.getelementptr inbounds %live[%item] : (!llvm.ptr, i64) -> !llvm.ptr, i32
// CHECK-NEXT:    %x = llvm.load %[[Q]] : !llvm.ptr -> i32
// CHECK-NEXT:    memref.store %x, %out[%id]
func.func @live(%in: memref<?xi32, 1>, %out: memref<?xi32, 1>) attributes {mux.kernel = "entry-point"} {
  %id = mux.get_local_linear_id
  %v = memref.load %in[%id] : memref<?xi32, 1>
  %c4 = arith.constant 4 : i32
  %x = arith.muli %v, %c4 : i32
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | cross_work_group_memory)
  memref.store %x, %out[%id] : memref<?xi32, 1>
  func.return
}

// -----

// Barrier tidying: integer arithmetic on rematerialisable values (here the global id
// times 2, minus 1, compared with n) is recomputed after the barrier, not stored; a
// division is stored (the struct holds the quotient only). The values recomputed are
// computed once, at the start of the region's function.
// CHECK-LABEL: func.func private @"tidy.mux-barrier-region.1"
// CHECK-NEXT:    %{{.*}} = arith.constant 0 : i32
// CHECK-NEXT:    %[[GID:.*]] = mux.get_global_id %{{.*}}
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[TWICE:.*]] = arith.muli %[[GID]], %[[TWO]] : index
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[ODD:.*]] = arith.subi %[[TWICE]], %[[ONE]] : index
// CHECK-NEXT:    %[[Q:.*]] = llvm.getelementptr inbounds %live[%item] : (!llvm.ptr, i64) -> !llvm.ptr, i64
// CHECK-NEXT:    %[[L:.*]] = llvm.load %[[Q]] : !llvm.ptr -> i64
// CHECK-NEXT:    %half = arith.index_cast %[[L]] : i64 to index
// CHECK-NEXT:    memref.store %half, %out[%[[GID]]]
// CHECK-NEXT:    %inside = arith.cmpi ult, %[[ODD]], %n : index
// CHECK-LABEL: func.func @"tidy.mux-barrier-wrapper"
func.func @tidy(%out: memref<?xindex, 1>, %n: index) attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %gid = mux.get_global_id %d0
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %twice = arith.muli %gid, %c2 : index
  %odd = arith.subi %twice, %c1 : index
  %half = arith.divui %n, %gid : index
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  memref.store %half, %out[%gid] : memref<?xindex, 1>
  %inside = arith.cmpi ult, %odd, %n : index
  scf.if %inside {
    memref.store %odd, %out[%odd] : memref<?xindex, 1>
  }
  func.return
}

// -----

// A value the same for every work-item (here n / 4: uniform, but a division, so it is
// stored) is kept once for the work-group, in element 0 of its array; a varying one
// (in[id]) once per work-item.
// CHECK-LABEL: func.func private @"uniform.mux-barrier-region.0"
// CHECK:         %quarter = arith.divui %n, %{{.*}} : index
// CHECK-NEXT:    %[[Q:.*]] = arith.index_cast %quarter : index to i64
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %{{.*}}[0] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:    llvm.store %[[Q]], %[[P]] : i64, !llvm.ptr
// CHECK:         %v = memref.load
// CHECK-NEXT:    %[[V:.*]] = llvm.getelementptr inbounds %{{.*}}[%item] : (!llvm.ptr, i64) -> !llvm.ptr, i32
// CHECK-NEXT:    llvm.store %v, %[[V]] : i32, !llvm.ptr
func.func @uniform(%in: memref<?xi32, 1>, %out: memref<?xi32, 1>, %n: index) attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : index
  %quarter = arith.divui %n, %c4 : index
  %id = mux.get_global_id %d0
  %v = memref.load %in[%id] : memref<?xi32, 1>
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %i = arith.addi %id, %quarter : index
  memref.store %v, %out[%i] : memref<?xi32, 1>
  func.return
}

// -----

// A barrier in a loop with a loop-carried value whose trip count is a kernel argument:
// the scf.for becomes blocks; the region after the barrier loops back to the header
// before the barrier, so the loop-carried sum (defined before the barrier in the
// body, used after it) and the next induction value go through the struct.
// The induction value is uniform: one copy per work-group (element 0), read at the
// region's start and written to a second copy (`next`, field 2) in the header, so
// that no work-item reads the value another one already advanced; the wrapper
// copies it back after the region's loops. The sum is per work-item (%item).
// CHECK-LABEL: func.func private @"loop.mux-barrier-region.0"
// CHECK:         func.return %{{.*}} : i32
// CHECK-LABEL: func.func private @"loop.mux-barrier-region.1"
// CHECK:         %[[NEXT:.*]] = llvm.getelementptr inbounds %live[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK:         %[[SUMS:.*]] = llvm.getelementptr inbounds %live[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK:         %[[CUR:.*]] = llvm.getelementptr inbounds %live[0] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:    llvm.load %[[CUR]] : !llvm.ptr -> i64
// CHECK:         llvm.getelementptr inbounds %[[SUMS]][%item] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK:       ^bb1(%{{.*}}: index, %{{.*}}: f32):
// CHECK:         %[[TO:.*]] = llvm.getelementptr inbounds %[[NEXT]][0] : (!llvm.ptr) -> !llvm.ptr, i64
// CHECK-NEXT:    llvm.store %{{.*}}, %[[TO]] : i64, !llvm.ptr
// CHECK:         func.return
// CHECK-LABEL: func.func @"loop.mux-barrier-wrapper"
// CHECK:         %[[PER_ITEM:.*]] = arith.constant 20 : i64
// CHECK-NEXT:    %[[BYTES:.*]] = arith.muli %{{.*}}, %[[PER_ITEM]] : i64
// CHECK-NEXT:    %live = llvm.alloca %[[BYTES]] x i8
// CHECK:         func.call @"loop.mux-barrier-region.0"
// CHECK:         %[[FROM:.*]] = llvm.getelementptr inbounds %live[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK-NEXT:    %[[V:.*]] = llvm.load %[[FROM]] : !llvm.ptr -> i64
// CHECK-NEXT:    llvm.store %[[V]], %live : i64, !llvm.ptr
// CHECK:         cf.switch %{{.*}} : i32, [
// CHECK-NEXT:    default: ^{{.*}},
// CHECK-NEXT:      1: ^{{.*}}
// CHECK-NEXT:    ]
func.func @loop(%data: memref<?xf32, 1>, %n: index) attributes {mux.kernel = "entry-point"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %d = arith.constant 0 : i32
  %gid = mux.get_global_id %d
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    %v = memref.load %data[%gid] : memref<?xf32, 1>
    %next = arith.addf %acc, %v : f32
    mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
    scf.yield %next : f32
  }
  memref.store %sum, %data[%gid] : memref<?xf32, 1>
  func.return
}

// -----

// A private array written before a barrier and read after it lives in the struct:
// its memref is the address of its field, in every region.
// CHECK-LABEL: func.func private @"private_array.mux-barrier-region.0"
// CHECK-NEXT:    %[[A:.*]] = llvm.getelementptr inbounds %live[%item] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<4 x f32>
// CHECK-NEXT:    %array = builtin.unrealized_conversion_cast %[[A]] : !llvm.ptr to memref<4xf32>
// CHECK-NOT:     memref.alloca
// CHECK:         memref.store %{{.*}}, %array[%{{.*}}] : memref<4xf32>
// CHECK-LABEL: func.func private @"private_array.mux-barrier-region.1"
// CHECK:         %[[B:.*]] = llvm.getelementptr inbounds %live[%item]
// CHECK-NEXT:    %array = builtin.unrealized_conversion_cast %[[B]] : !llvm.ptr to memref<4xf32>
// CHECK:         memref.load %array[%{{.*}}] : memref<4xf32>
func.func @private_array(%out: memref<?xf32, 1>) attributes {mux.kernel = "entry-point"} {
  %array = memref.alloca() : memref<4xf32>
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f32
  memref.store %one, %array[%c1] : memref<4xf32>
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %v = memref.load %array[%c1] : memref<4xf32>
  %d = arith.constant 0 : i32
  %gid = mux.get_global_id %d
  memref.store %v, %out[%gid] : memref<?xf32, 1>
  func.return
}

// -----

// An address into a private variable (an llvm.alloca: an OpenCL C variable whose
// address is taken, `&s.y`) taken before a barrier and used after it is recomputed
// after the barrier from the variable's field in the live storage, the work-item's
// copy; the variable lives there in both regions, its address made before the
// recomputed one.
// CHECK-LABEL: func.func private @"private_address.mux-barrier-region.0"
// CHECK-NEXT:    %s = llvm.getelementptr inbounds %live[%item] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<2 x vector<4xi8>>
// CHECK-NOT:     llvm.alloca
// CHECK:         %y = llvm.getelementptr inbounds %s[4] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT:    %v = arith.constant 7 : i32
// CHECK-NEXT:    llvm.store %v, %y : i32, !llvm.ptr
// CHECK-LABEL: func.func private @"private_address.mux-barrier-region.1"
// CHECK-NEXT:    %s = llvm.getelementptr inbounds %live[%item] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<2 x vector<4xi8>>
// CHECK-NEXT:    %y = llvm.getelementptr inbounds %s[4] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT:    %w = llvm.load %y : !llvm.ptr -> i32
func.func @private_address(%out: memref<?xi32, 1>) attributes {mux.kernel = "entry-point"} {
  %c1 = arith.constant 1 : i32
  %s = llvm.alloca %c1 x !llvm.struct<(i8, i32)> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  %y = llvm.getelementptr inbounds %s[4] : (!llvm.ptr) -> !llvm.ptr, i8
  %v = arith.constant 7 : i32
  llvm.store %v, %y : i32, !llvm.ptr
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %w = llvm.load %y : !llvm.ptr -> i32
  %d = arith.constant 0 : i32
  %gid = mux.get_global_id %d
  memref.store %w, %out[%gid] : memref<?xi32, 1>
  func.return
}

// -----

// A pointer into a private variable that cannot be recomputed (its index is loaded)
// is kept in the live storage, and so is the variable it points into: the pointer
// stays valid after the region that took it returned.
// CHECK-LABEL: func.func private @"private_pointer.mux-barrier-region.0"
// CHECK:         %a = llvm.getelementptr inbounds %field1[%item] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.array<4 x vector<4xi8>>
// CHECK-NOT:     llvm.alloca
// CHECK:         %p = llvm.getelementptr inbounds %a[%k] : (!llvm.ptr, i64) -> !llvm.ptr, i32
// CHECK-NEXT:    %[[SLOT:.*]] = llvm.getelementptr inbounds %live[%item] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    llvm.store %p, %[[SLOT]] : !llvm.ptr, !llvm.ptr
// CHECK-LABEL: func.func private @"private_pointer.mux-barrier-region.1"
// CHECK:         %[[SLOT:.*]] = llvm.getelementptr inbounds %live[%item] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    %p = llvm.load %[[SLOT]] : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT:    %w = llvm.load %p : !llvm.ptr -> i32
func.func @private_pointer(%out: memref<?xi32, 1>, %in: memref<?xi64, 1>) attributes {mux.kernel = "entry-point"} {
  %c1 = arith.constant 1 : i32
  %a = llvm.alloca %c1 x !llvm.array<4 x i32> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  %d = arith.constant 0 : i32
  %gid = mux.get_global_id %d
  %k = memref.load %in[%gid] : memref<?xi64, 1>
  %p = llvm.getelementptr inbounds %a[%k] : (!llvm.ptr, i64) -> !llvm.ptr, i32
  %v = arith.constant 7 : i32
  llvm.store %v, %p : i32, !llvm.ptr
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %w = llvm.load %p : !llvm.ptr -> i32
  memref.store %w, %out[%gid] : memref<?xi32, 1>
  func.return
}

// -----

// A barrier first and last: the regions before and after are empty but still run.
// The `once` schedule runs the region after the barrier for work-item 0 alone: no
// loops, local ids 0, slot 0; `linear` loops with x innermost. With
// mux.max_work_dim = 2 there is no loop over z: its local id is 0.
// CHECK-LABEL: func.func private @"first_last.mux-barrier-region.0"
// CHECK-NEXT:    %[[C:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    func.return %[[C]] : i32
// CHECK-LABEL: func.func private @"first_last.mux-barrier-region.3"
// CHECK-NEXT:    %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    func.return %[[Z]] : i32
// CHECK-LABEL: func.func @"first_last.mux-barrier-wrapper"
// CHECK:         mux.mem_barrier scope(work_group) semantics(relaxed | work_group_memory)
// CHECK-NEXT:    mux.set_local_id %{{.*}}, %[[ZERO:[^ ]*]]
// CHECK-NEXT:    mux.set_local_id %{{.*}}, %[[ZERO]]
// CHECK-NEXT:    mux.set_local_id %{{.*}}, %[[ZERO]]
// CHECK-NOT:     scf.for
// CHECK:         func.call @"first_last.mux-barrier-region.1"
// CHECK:         mux.mem_barrier scope(work_group) semantics(acquire | work_group_memory)
// CHECK-NEXT:    mux.set_local_id %{{.*}}, %[[ZERO]]
// CHECK-NEXT:    scf.for %y{{.*}} = %[[ZERO]]
// CHECK-NEXT:      mux.set_local_id
// CHECK-NEXT:      scf.for %x{{.*}} = %[[ZERO]]
// CHECK:             func.call @"first_last.mux-barrier-region.2"
func.func @first_last(%out: memref<?xi32, 1>) attributes {mux.kernel = "entry-point", mux.work_item_order = #mux<work_item_order xyz>, mux.max_work_dim = 2 : i32} {
  mux.work_group_barrier id(0) scope(work_group) semantics(relaxed | work_group_memory) schedule(once)
  %d = arith.constant 0 : i32
  %gid = mux.get_global_id %d
  %v = arith.index_cast %gid : index to i32
  memref.store %v, %out[%gid] : memref<?xi32, 1>
  mux.work_group_barrier id(1) scope(work_group) semantics(acquire | work_group_memory) schedule(linear)
  memref.store %v, %out[%gid] : memref<?xi32, 1>
  mux.work_group_barrier id(2) scope(work_group) semantics(release | work_group_memory)
  func.return
}

// -----

// Barriers in both branches of a uniform `if`: region 0 returns the region of the
// branch taken (1 or 2); the wrapper dispatches to either.
// CHECK-LABEL: func.func private @"uniform_if.mux-barrier-region.0"
// CHECK:         cf.cond_br %flag, ^[[THEN:.*]], ^[[ELSE:.*]]
// CHECK-NEXT:  ^[[ELSE]]:
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant 2 : i32
// CHECK-NEXT:    func.return %[[TWO]] : i32
// CHECK-NEXT:  ^[[THEN]]:
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    func.return %[[ONE]] : i32
// CHECK-LABEL: func.func @"uniform_if.mux-barrier-wrapper"
// CHECK:         cf.switch %{{.*}} : i32, [
// CHECK-NEXT:    default: ^[[EXIT:.*]],
// CHECK-NEXT:      1: ^[[R1:[^,]*]],
// CHECK-NEXT:      2: ^[[R2:.*]]
// CHECK-NEXT:    ]
// CHECK-NEXT:  ^[[R1]]:
// CHECK:         func.call @"uniform_if.mux-barrier-region.1"
// CHECK:       ^[[R2]]:
// CHECK:         func.call @"uniform_if.mux-barrier-region.2"
// CHECK:       ^[[EXIT]]:
// CHECK-NEXT:    func.return
func.func @uniform_if(%out: memref<?xi32, 1>, %flag: i1) attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %gid = mux.get_global_id %d
  %v = arith.index_cast %gid : index to i32
  scf.if %flag {
    mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
    memref.store %v, %out[%gid] : memref<?xi32, 1>
  } else {
    mux.work_group_barrier id(1) scope(work_group) semantics(acq_rel | work_group_memory)
  }
  func.return
}

// -----

// Nested loops with a barrier at each depth: the outer accumulator, the outer
// induction variable, the inner induction variable and the inner accumulator all
// cross a barrier. All four are uniform (counts from constants over kernel-argument
// trip counts), so each has one copy per work-group, element 0 of its array; the
// ones a region both loads and stores get a second copy their stores go to
// (`field7` for %b1, read back from `field3`), copied back by the wrapper after that region's loops. Seven
// arrays (4 + 8 + 8 + 4 bytes, and 8 + 8 + 4 for the second copies): 44 per item.
// CHECK-LABEL: func.func private @"nested.mux-barrier-region.0"
// CHECK:         llvm.store %a, %{{.*}} : i32, !llvm.ptr
// CHECK-LABEL: func.func private @"nested.mux-barrier-region.1"
// CHECK-NEXT:    %[[S7:.*]] = arith.constant 44 : i64
// CHECK-NEXT:    %[[O7:.*]] = arith.muli %items, %[[S7]] : i64
// CHECK-NEXT:    %field7 = llvm.getelementptr inbounds %live[%[[O7]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK:         %a = llvm.load %{{.*}} : !llvm.ptr -> i32
// CHECK:         %b1 = arith.addi %b, %one : i32
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %field7[0] : (!llvm.ptr) -> !llvm.ptr, i32
// CHECK-NEXT:    llvm.store %b1, %[[P]] : i32, !llvm.ptr
// CHECK-LABEL: func.func private @"nested.mux-barrier-region.2"
// CHECK:         %[[Q:.*]] = llvm.getelementptr inbounds %field3[0]
// CHECK-NEXT:    %b1 = llvm.load %[[Q]] : !llvm.ptr -> i32
// CHECK-LABEL: func.func @"nested.mux-barrier-wrapper"
// CHECK:         %[[PER_ITEM:.*]] = arith.constant 48 : i64
// CHECK-NEXT:    %[[BYTES:.*]] = arith.muli %{{.*}}, %[[PER_ITEM]] : i64
// CHECK-NEXT:    %live = llvm.alloca %[[BYTES]] x i8 {alignment = 64 : i64}
// CHECK:         cf.switch %{{.*}} : i32, [
// CHECK-NEXT:    default: ^{{.*}},
// CHECK-NEXT:      1: ^{{.*}},
// CHECK-NEXT:      2: ^{{.*}}
func.func @nested(%out: memref<?xi32, 1>, %n: index, %m: index) attributes {mux.kernel = "entry-point"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %total = scf.for %i = %c0 to %n step %c1 iter_args(%a = %zero) -> (i32) {
    mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
    %inner = scf.for %j = %c0 to %m step %c1 iter_args(%b = %a) -> (i32) {
      %one = arith.constant 1 : i32
      %b1 = arith.addi %b, %one : i32
      mux.work_group_barrier id(1) scope(work_group) semantics(acq_rel | work_group_memory)
      scf.yield %b1 : i32
    }
    scf.yield %inner : i32
  }
  %d = arith.constant 0 : i32
  %gid = mux.get_global_id %d
  memref.store %total, %out[%gid] : memref<?xi32, 1>
  func.return
}

// -----

// An early return before the barrier: that path returns 0, the kernel is done.
// CHECK-LABEL: func.func private @"early_return.mux-barrier-region.0"
// CHECK-NEXT:    cf.cond_br %stop, ^[[DONE:.*]], ^[[WORK:.*]]
// CHECK-NEXT:  ^[[WORK]]:
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    func.return %[[ONE]] : i32
// CHECK-NEXT:  ^[[DONE]]:
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    func.return %[[ZERO]] : i32
func.func @early_return(%out: memref<?xi32, 1>, %stop: i1) attributes {mux.kernel = "entry-point"} {
  cf.cond_br %stop, ^done, ^work
^work:
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %d = arith.constant 0 : i32
  %gid = mux.get_global_id %d
  %one = arith.constant 1 : i32
  memref.store %one, %out[%gid] : memref<?xi32, 1>
  func.return
^done:
  func.return
}

// -----

// A uniform value that one run of a region both stores and then loads: region 1
// (after the barrier) can go ^again -> ^use, storing %half in ^again and loading it
// in ^use (not dominated: region 1 can also reach ^use from its start). A shared
// copy would give the work-items after the first the value another one stored;
// each work-item needs its own, so %half stays per work-item (indexed by %item).
// CHECK-LABEL: func.func private @"store_then_load.mux-barrier-region.1"
// CHECK:         %half = arith.divui
// CHECK-NEXT:    %[[S:.*]] = llvm.getelementptr inbounds %live[%item] : (!llvm.ptr, i64) -> !llvm.ptr, i32
// CHECK-NEXT:    llvm.store %half, %[[S]] : i32, !llvm.ptr
// CHECK:         %[[L:.*]] = llvm.getelementptr inbounds %live[%item] : (!llvm.ptr, i64) -> !llvm.ptr, i32
// CHECK-NEXT:    %{{.*}} = llvm.load %[[L]] : !llvm.ptr -> i32
func.func @store_then_load(%out: memref<?xi32, 1>, %n: i32, %first: i1, %second: i1) attributes {mux.kernel = "entry-point"} {
  %two = arith.constant 2 : i32
  cf.br ^again
^again:
  %half = arith.divui %n, %two : i32
  cf.cond_br %first, ^wait, ^use
^wait:
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  cf.cond_br %second, ^again, ^use
^use:
  %d = arith.constant 0 : i32
  %gid = mux.get_global_id %d
  memref.store %half, %out[%gid] : memref<?xi32, 1>
  func.return
}
