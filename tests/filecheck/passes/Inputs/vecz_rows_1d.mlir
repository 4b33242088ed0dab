// A vectorised kernel of 2 rows in a kernel of one dimension.
func.func @flat(%out: memref<?xi32, 1>) attributes {mux.kernel = "entry-point",
    mux.reqd_work_group_size = array<i32: 8, 2, 1>, mux.max_work_dim = 1 : i32,
    mux.vecz_base = [8 : i32, "__vecz_v8x2_flat"]} {
  func.return
}
func.func private @__vecz_v8x2_flat(%out: memref<?xi32, 1>)
    attributes {mux.vecz_derived = [8 : i32, "flat"], mux.vecz_rows = 2 : i32} {
  func.return
}
