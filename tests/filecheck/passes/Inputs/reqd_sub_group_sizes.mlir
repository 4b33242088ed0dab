func.func @four() attributes {mux.kernel = "entry-point", mux.reqd_sub_group_size = 4 : i32} {
  func.return
}
func.func @not_an_entry_point() attributes {mux.kernel, mux.reqd_sub_group_size = 8 : i32} {
  func.return
}
