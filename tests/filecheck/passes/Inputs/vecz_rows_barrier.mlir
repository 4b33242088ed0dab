// A vectorised kernel of 2 rows with a barrier.
func.func @tiles(%out: memref<?xi32, 1>) attributes {mux.kernel = "entry-point",
    mux.reqd_work_group_size = array<i32: 8, 2, 1>,
    mux.vecz_base = [8 : i32, "__vecz_v8x2_tiles"]} {
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  func.return
}
func.func private @__vecz_v8x2_tiles(%out: memref<?xi32, 1>)
    attributes {mux.vecz_derived = [8 : i32, "tiles"], mux.vecz_rows = 2 : i32} {
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  func.return
}
