// Entry points whose required sub-group size was not met, one per split.
func.func @wrong() attributes {mux.kernel = "entry-point", mux.reqd_sub_group_size = 8 : i32, mux.sub_group_size = 4 : i32} {
  func.return
}

// -----

func.func @unscheduled() attributes {mux.kernel = "entry-point", mux.reqd_sub_group_size = 8 : i32} {
  func.return
}

// -----

func.func @degenerate() attributes {mux.kernel = "entry-point", mux.degenerate_subgroups, mux.reqd_sub_group_size = 8 : i32} {
  func.return
}

// -----

func.func @degenerate_other_size() attributes {mux.kernel = "entry-point", mux.reqd_work_group_size = array<i32: 4, 1, 1>, mux.degenerate_subgroups, mux.reqd_sub_group_size = 8 : i32} {
  func.return
}
