func.func @bad() {
  mux.mem_barrier scope(device) semantics(acquire | release)
  func.return
}
