// scan(input, output): inclusive prefix sums of i32 within each work-group.
//
// output[i] = input[g] + input[g + 1] + ... + input[i], where g is the first global id
// of i's work-group: the scan restarts at each work-group. 1-D range, no global offset.
// `scratch` is a module-scope variable in local memory (address space 3): room for
// one i32 per work-item of the largest work-group the device runs, 1024.
//
// The work-efficient scan (Brent-Kung, the up-sweep of Blelloch's scan followed by an
// inclusive down-sweep), in `scratch`. Any local size up to 1024 works, powers of two
// or not, and so does a last work-group smaller than the others (get_local_size is the
// actual size of the group). With s = scratch and n = get_local_size(0):
//
//   0. Load: s[lid] = input[gid]. Barrier.
//   1. Up-sweep, a reduction tree: for d = 1, 2, 4, ... while d < n, the work-item
//      with i = 2d * (lid + 1) - 1 < n adds s[i - d] into s[i]. Barrier after each
//      step, so that the next step reads finished sums. Afterwards, s[i] holds the sum
//      of the last k elements up to i, k the largest power of two that divides i + 1
//      (s[0], s[1], s[3], s[7], ... are already complete prefix sums).
//   2. Down-sweep: for d = p/4, ..., 4, 2, 1 (p: the first power of two >= n, where
//      the up-sweep stopped; d = p/2 would have nothing to do), the work-item with
//      i = 2d * (lid + 1) - 1 adds s[i], a complete prefix sum, into s[i + d] if
//      i + d < n, which completes s[i + d]. Barrier after each step.
//   3. Store: output[gid] = s[lid].
//
// In each step the elements written and the elements read are different ones, so one
// barrier per step is enough.
//
// Preconditions (scratch is static: 1024 i32, the device's largest work-group):
//   input, output: global_offset(0) + global_size(0) elements
"memref.global"() <{sym_name = "scratch", type = memref<1024xi32, 3>, initial_value,
                    sym_visibility = "private"}> : () -> ()

func.func @scan(%input: memref<?xi32, 1>, %output: memref<?xi32, 1>)
    attributes {mux.kernel = "entry-point"} {
  %scratch = memref.get_global @scratch : memref<1024xi32, 3>
  %x_dim = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %gid = mux.get_global_id %x_dim
  %lid = mux.get_local_id %x_dim
  %n = mux.get_local_size %x_dim
  // 2 * (lid + 1): the steps below compute i = d * %lid2 - 1.
  %lid1 = arith.addi %lid, %c1 : index
  %lid2 = arith.muli %lid1, %c2 : index

  // 0. Load this work-item's element into local memory.
  %value = memref.load %input[%gid] : memref<?xi32, 1>
  memref.store %value, %scratch[%lid] : memref<1024xi32, 3>
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)

  // 1. Up-sweep: d = 1, 2, 4, ... while d < n. The loop returns p, the first power of
  //    two >= n.
  %p = scf.while (%d = %c1) : (index) -> index {
    %more = arith.cmpi ult, %d, %n : index
    scf.condition(%more) %d : index
  } do {
  ^bb0(%d: index):
    %end = arith.muli %d, %lid2 : index
    %i = arith.subi %end, %c1 : index
    %active = arith.cmpi ult, %i, %n : index
    scf.if %active {
      %j = arith.subi %i, %d : index
      %left = memref.load %scratch[%j] : memref<1024xi32, 3>
      %mine = memref.load %scratch[%i] : memref<1024xi32, 3>
      %sum = arith.addi %mine, %left : i32
      memref.store %sum, %scratch[%i] : memref<1024xi32, 3>
    }
    mux.work_group_barrier id(1) scope(work_group) semantics(acq_rel | work_group_memory)
    %next = arith.muli %d, %c2 : index
    scf.yield %next : index
  }

  // 2. Down-sweep: d = p/4, ..., 2, 1 while d > 0.
  %start = arith.divui %p, %c4 : index
  %done = scf.while (%d = %start) : (index) -> index {
    %more = arith.cmpi ugt, %d, %c0 : index
    scf.condition(%more) %d : index
  } do {
  ^bb0(%d: index):
    %end = arith.muli %d, %lid2 : index
    %i = arith.subi %end, %c1 : index
    %j = arith.addi %i, %d : index
    %active = arith.cmpi ult, %j, %n : index
    scf.if %active {
      %prefix = memref.load %scratch[%i] : memref<1024xi32, 3>
      %mine = memref.load %scratch[%j] : memref<1024xi32, 3>
      %sum = arith.addi %mine, %prefix : i32
      memref.store %sum, %scratch[%j] : memref<1024xi32, 3>
    }
    mux.work_group_barrier id(2) scope(work_group) semantics(acq_rel | work_group_memory)
    %next = arith.divui %d, %c2 : index
    scf.yield %next : index
  }

  // 3. Every prefix sum is complete: store this work-item's.
  %result = memref.load %scratch[%lid] : memref<1024xi32, 3>
  memref.store %result, %output[%gid] : memref<?xi32, 1>
  func.return
}
