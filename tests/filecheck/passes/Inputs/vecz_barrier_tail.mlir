func.func @tail(%out: memref<?xi32, 3>)
    attributes {mux.kernel = "entry-point", mux.vecz_base = [8 : i32, "__vecz_v8_tail"]} {
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  func.return
}
func.func private @__vecz_v8_tail(%out: memref<?xi32, 3>)
    attributes {mux.vecz_derived = [8 : i32, "tail"]} {
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  func.return
}
