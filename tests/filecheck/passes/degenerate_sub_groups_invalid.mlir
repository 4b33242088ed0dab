// degenerate-sub-groups rejects a kernel that requires a sub-group size: its
// sub-groups have that size, not the work-group's.
//
// RUN: not mux-opt %s -p degenerate-sub-groups 2>&1 | filecheck %s
// CHECK: degenerate-sub-groups: kernel 'required' requires sub-group size 8: its sub-groups cannot span the work-group
func.func @required() attributes {mux.kernel = "entry-point", mux.reqd_sub_group_size = 8 : i32} {
  func.return
}
