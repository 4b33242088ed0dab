func.func @linked(%out: memref<?xi32, 1>)
    attributes {mux.kernel = "entry-point", mux.vecz_base = [8 : i32, "__vecz_v8_linked"]} {
  func.return
}
