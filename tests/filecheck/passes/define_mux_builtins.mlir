// RUN: mux-opt --split-input-file %s -p add-sched-params,define-mux-builtins | filecheck %s
//
// define-mux-builtins: work-item queries become loads of the scheduling structs.

// __mux_get_local_id(i) = i >= 3 ? 0 : wi->local_id[i]: a constant dimension in
// range is one load of MuxWorkItemInfo field 0 (local_id), element 1.
// CHECK-LABEL: func.func @local_id(%wi: !llvm.ptr, %wg: !llvm.ptr) -> index
// CHECK-NEXT:    %d = arith.constant 1 : i32
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %wi[0, 0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<"MuxWorkItemInfo", (!llvm.array<3 x i64>, i32, i32, i32, i32)>
// CHECK-NEXT:    %[[V:.*]] = llvm.load %[[P]] : !llvm.ptr -> i64
// CHECK-NEXT:    %id = arith.index_cast %[[V]] : i64 to index
// CHECK-NEXT:    func.return %id : index
func.func @local_id() -> index {
  %d = arith.constant 1 : i32
  %id = mux.get_local_id %d
  func.return %id : index
}

// -----

// A constant dimension out of range gives the spec's default: 0 for ids, 1 for sizes.
// CHECK-LABEL: func.func @out_of_range
// CHECK-NEXT:    %d = arith.constant 3 : i32
// CHECK-NEXT:    %id = arith.constant 0 : index
// CHECK-NEXT:    %size = arith.constant 1 : index
// CHECK-NEXT:    func.return %id, %size
func.func @out_of_range() -> (index, index) {
  %d = arith.constant 3 : i32
  %id = mux.get_group_id %d
  %size = mux.get_local_size %d
  func.return %id, %size : index, index
}

// -----

// A runtime dimension is checked: the load reads element 0 when out of range, and
// the result is the default then.
// CHECK-LABEL: func.func @runtime_dimension(%d: i32, %wi: !llvm.ptr, %wg: !llvm.ptr)
// CHECK-NEXT:    %[[THREE:.*]] = arith.constant 3 : i32
// CHECK-NEXT:    %[[IN:.*]] = arith.cmpi ult, %d, %[[THREE]] : i32
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[SAFE:.*]] = arith.select %[[IN]], %d, %[[ZERO]] : i32
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %wg[0, 1, %[[SAFE]]] : (!llvm.ptr, i32) -> !llvm.ptr
// CHECK-NEXT:    %[[V:.*]] = llvm.load %[[P]] : !llvm.ptr -> i64
// CHECK-NEXT:    %[[VI:.*]] = arith.index_cast %[[V]] : i64 to index
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %n = arith.select %[[IN]], %[[VI]], %[[ONE]] : index
func.func @runtime_dimension(%d: i32) -> index {
  %n = mux.get_num_groups %d
  func.return %n : index
}

// -----

// The spec's definition of __mux_get_global_id, through the other builtins:
// group_id * enqueued_local_size + local_id + global_offset
// (fields 0 and 5 of MuxWorkGroupInfo, 0 of MuxWorkItemInfo, 2 of MuxWorkGroupInfo).
// CHECK-LABEL: func.func @global_id
// CHECK:         llvm.getelementptr inbounds %wg[0, 0, 0]
// CHECK:         %[[GROUP:.*]] = arith.index_cast
// CHECK:         llvm.getelementptr inbounds %wg[0, 5, 0]
// CHECK:         %[[SIZE:.*]] = arith.index_cast
// CHECK:         llvm.getelementptr inbounds %wi[0, 0, 0]
// CHECK:         %[[LOCAL:.*]] = arith.index_cast
// CHECK:         llvm.getelementptr inbounds %wg[0, 2, 0]
// CHECK:         %[[OFFSET:.*]] = arith.index_cast
// CHECK-NEXT:    %[[START:.*]] = arith.muli %[[GROUP]], %[[SIZE]] : index
// CHECK-NEXT:    %[[SUM:.*]] = arith.addi %[[START]], %[[LOCAL]] : index
// CHECK-NEXT:    %id = arith.addi %[[SUM]], %[[OFFSET]] : index
// CHECK-NEXT:    func.return %id : index
func.func @global_id() -> index {
  %d = arith.constant 0 : i32
  %id = mux.get_global_id %d
  func.return %id : index
}

// -----

// The linear ids follow the spec's formulas; the i32 queries read their fields.
// CHECK-LABEL: func.func @linear_and_i32
// CHECK-NOT:     mux.get
// CHECK:         llvm.getelementptr inbounds %wg[0, 4] {{.*}}MuxWorkGroupInfo
// CHECK-NEXT:    %dim = llvm.load {{.*}} -> i32
// CHECK:         llvm.getelementptr inbounds %wi[0, 1] {{.*}}MuxWorkItemInfo
// CHECK-NEXT:    %sg = llvm.load {{.*}} -> i32
// CHECK:         %size = arith.constant 1 : i32
// CHECK-NEXT:    %lid = arith.constant 0 : i32
func.func @linear_and_i32() -> (index, index, i32, i32, i32, i32) {
  %l = mux.get_local_linear_id
  %g = mux.get_global_linear_id
  %dim = mux.get_work_dim
  %sg = mux.get_sub_group_id
  %size = mux.get_sub_group_size
  %lid = mux.get_sub_group_local_id
  func.return %l, %g, %dim, %sg, %size, %lid : index, index, i32, i32, i32, i32
}

// -----

// Setters are stores into MuxWorkItemInfo.
// CHECK-LABEL: func.func @setters(%v: index, %n: i32, %wi: !llvm.ptr, %wg: !llvm.ptr)
// CHECK-NEXT:    %d = arith.constant 2 : i32
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %wi[0, 0, 2]
// CHECK-NEXT:    %[[V:.*]] = arith.index_cast %v : index to i64
// CHECK-NEXT:    llvm.store %[[V]], %[[P]] : i64, !llvm.ptr
// CHECK-NEXT:    %[[Q:.*]] = llvm.getelementptr inbounds %wi[0, 3]
// CHECK-NEXT:    llvm.store %n, %[[Q]] : i32, !llvm.ptr
// CHECK-NEXT:    func.return
func.func @setters(%v: index, %n: i32) {
  %d = arith.constant 2 : i32
  mux.set_local_id %d, %v
  mux.set_num_sub_groups %n
  func.return
}

// -----

// mux.mem_barrier is a fence of its ordering (mux-compiler-spec.rst, "Memory and
// Control Barriers"), whatever memory it names and whatever its scope beyond the
// work-item.
// CHECK-LABEL: func.func @fences()
// CHECK-NEXT:    llvmx.fence acquire
// CHECK-NEXT:    llvmx.fence release
// CHECK-NEXT:    llvmx.fence acq_rel
// CHECK-NEXT:    llvmx.fence seq_cst
// CHECK-NEXT:    llvmx.fence acq_rel
// CHECK-NEXT:    func.return
func.func @fences() {
  mux.mem_barrier scope(work_group) semantics(acquire | work_group_memory)
  mux.mem_barrier scope(device) semantics(release | cross_work_group_memory)
  mux.mem_barrier scope(sub_group) semantics(acq_rel | sub_group_memory)
  mux.mem_barrier scope(cross_device) semantics(seq_cst | work_group_memory | cross_work_group_memory)
  mux.mem_barrier scope(work_group) semantics(acq_rel)
  func.return
}

// -----

// No ordering (relaxed) is no fence; nor is the work-item scope, where only this
// invocation observes its accesses.
// CHECK-LABEL: func.func @no_fences()
// CHECK-NEXT:    func.return
func.func @no_fences() {
  mux.mem_barrier scope(work_group) semantics(relaxed)
  mux.mem_barrier scope(device) semantics(work_group_memory | cross_work_group_memory)
  mux.mem_barrier scope(work_item) semantics(seq_cst | work_group_memory)
  mux.mem_barrier scope(work_item) semantics(acquire)
  func.return
}

// -----

// A sub-group barrier, with the spec's default sub-group size 1, has no other
// invocation to wait for: its memory part alone is left, by the same rule.
// CHECK-LABEL: func.func @sub_group_barriers()
// CHECK-NEXT:    llvmx.fence acq_rel
// CHECK-NEXT:    llvmx.fence release
// CHECK-NEXT:    func.return
func.func @sub_group_barriers() {
  mux.sub_group_barrier id(0) scope(sub_group) semantics(acq_rel | sub_group_memory)
  mux.sub_group_barrier id(1) scope(work_group) semantics(relaxed | work_group_memory)
  mux.sub_group_barrier id(2) scope(work_item) semantics(seq_cst)
  mux.sub_group_barrier id(3) scope(device) semantics(release | cross_work_group_memory) schedule(once)
  func.return
}

// -----

// With work-item queries around them, in a function with the scheduling parameters.
// CHECK-LABEL: func.func @mixed(%wi: !llvm.ptr, %wg: !llvm.ptr) -> index
// CHECK:         llvm.load
// CHECK-NEXT:    %id = arith.index_cast
// CHECK-NEXT:    llvmx.fence seq_cst
// CHECK-NEXT:    func.return %id : index
func.func @mixed() -> index {
  %d = arith.constant 0 : i32
  %id = mux.get_local_id %d
  mux.mem_barrier scope(work_group) semantics(seq_cst | work_group_memory)
  func.return %id : index
}

// -----

// In a function that only kernels with one required work-group size reach (here the
// kernel and its helper), the local sizes of a constant dimension are constants; a
// function another kernel without one also reaches keeps its loads.
// CHECK-LABEL: func.func @sized(%wi: !llvm.ptr, %wg: !llvm.ptr) -> (index, index)
// CHECK-NEXT:    %d = arith.constant 1 : i32
// CHECK-NEXT:    %size = arith.constant 4 : index
// CHECK-NEXT:    %enqueued = arith.constant 4 : index
// CHECK-LABEL: func.func private @helper(%wi: !llvm.ptr, %wg: !llvm.ptr) -> index
// CHECK-NEXT:    %d = arith.constant 0 : i32
// CHECK-NEXT:    %size = arith.constant 8 : index
// CHECK-LABEL: func.func private @shared(%wi: !llvm.ptr, %wg: !llvm.ptr) -> index
// CHECK:         llvm.getelementptr inbounds %wg[0, 3, 0]
// CHECK-LABEL: func.func @unsized
func.func @sized() -> (index, index) attributes {mux.kernel = "entry-point", mux.reqd_work_group_size = array<i32: 8, 4, 1>} {
  %d = arith.constant 1 : i32
  %size = mux.get_local_size %d
  %enqueued = mux.get_enqueued_local_size %d
  %x = func.call @helper() : () -> index
  %y = func.call @shared() : () -> index
  func.return %size, %enqueued : index, index
}
func.func private @helper() -> index {
  %d = arith.constant 0 : i32
  %size = mux.get_local_size %d
  func.return %size : index
}
func.func private @shared() -> index {
  %d = arith.constant 0 : i32
  %size = mux.get_local_size %d
  func.return %size : index
}
func.func @unsized() -> index attributes {mux.kernel = "entry-point"} {
  %y = func.call @shared() : () -> index
  func.return %y : index
}
