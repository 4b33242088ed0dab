func.func @set(%d: i32, %v: index) {
  mux.set_local_id %d, %v
  func.return
}
