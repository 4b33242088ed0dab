// reduce(input, partial, scratch): one partial sum of f32 per work-group.
//
// Each work-item copies its element into local memory (`scratch`, address space 3,
// one f32 per work-item), then a tree reduction halves the number of active
// work-items at each step, with a work-group barrier between steps. Work-item 0 writes
// the group's sum to partial[group_id]. Any local size works, including one that does
// not divide the global size (the last work-group is smaller).
//
// Preconditions (a work-group is never larger than the range):
//   input: global_offset(0) + global_size(0) elements
//   partial: ceil(global_size(0) / local_size(0)) elements, one per work-group in x
//   scratch: 4 * min(local_size(0), global_size(0)) bytes
func.func @reduce(%input: memref<?xf32, 1>, %partial: memref<?xf32, 1>,
                  %scratch: memref<?xf32, 3>)
    attributes {mux.kernel = "entry-point"} {
  %x_dim = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %gid = mux.get_global_id %x_dim
  %lid = mux.get_local_id %x_dim
  %lsize = mux.get_local_size %x_dim
  %value = memref.load %input[%gid] : memref<?xf32, 1>
  memref.store %value, %scratch[%lid] : memref<?xf32, 3>
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  // for (stride = 1; stride < lsize; stride *= 2)
  //   if (lid % (2 * stride) == 0 && lid + stride < lsize)
  //     scratch[lid] += scratch[lid + stride];
  //   barrier;
  %last = scf.while (%stride = %c1) : (index) -> index {
    %more = arith.cmpi ult, %stride, %lsize : index
    scf.condition(%more) %stride : index
  } do {
  ^bb0(%s: index):
    %step = arith.muli %s, %c2 : index
    %rem = arith.remui %lid, %step : index
    %head = arith.cmpi eq, %rem, %c0 : index
    %other = arith.addi %lid, %s : index
    %inside = arith.cmpi ult, %other, %lsize : index
    %active = arith.andi %head, %inside : i1
    scf.if %active {
      %mine = memref.load %scratch[%lid] : memref<?xf32, 3>
      %theirs = memref.load %scratch[%other] : memref<?xf32, 3>
      %sum = arith.addf %mine, %theirs : f32
      memref.store %sum, %scratch[%lid] : memref<?xf32, 3>
    }
    mux.work_group_barrier id(1) scope(work_group) semantics(acq_rel | work_group_memory)
    scf.yield %step : index
  }
  %first = arith.cmpi eq, %lid, %c0 : index
  scf.if %first {
    %group = mux.get_group_id %x_dim
    %total = memref.load %scratch[%c0] : memref<?xf32, 3>
    memref.store %total, %partial[%group] : memref<?xf32, 1>
  }
  func.return
}
