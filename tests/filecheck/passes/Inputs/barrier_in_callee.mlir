func.func @helper() {
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  func.return
}
func.func @calls() attributes {mux.kernel = "entry-point"} {
  mux.work_group_barrier id(1) scope(work_group) semantics(acq_rel | work_group_memory)
  func.call @helper() : () -> ()
  func.return
}
