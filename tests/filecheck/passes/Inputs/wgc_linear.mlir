// A 2-D scan in a kernel whose work-items loop y innermost (order zyx).
func.func @scan(%x: memref<?xi32, 1>) attributes {mux.kernel = "entry-point", mux.work_item_order = #mux<work_item_order zyx>, mux.max_work_dim = 2 : i32} {
  %gl = mux.get_global_linear_id
  %v = memref.load %x[%gl] : memref<?xi32, 1>
  %s = mux.work_group_scan_inclusive add id(0) %v : i32
  memref.store %s, %x[%gl] : memref<?xi32, 1>
  func.return
}
