// A vectorised kernel of 2 rows whose required work-group size has 3 rows in y.
func.func @odd(%out: memref<?xi32, 1>) attributes {mux.kernel = "entry-point",
    mux.reqd_work_group_size = array<i32: 8, 3, 1>,
    mux.vecz_base = [8 : i32, "__vecz_v8x2_odd"]} {
  func.return
}
func.func private @__vecz_v8x2_odd(%out: memref<?xi32, 1>)
    attributes {mux.vecz_derived = [8 : i32, "odd"], mux.vecz_rows = 2 : i32} {
  func.return
}
