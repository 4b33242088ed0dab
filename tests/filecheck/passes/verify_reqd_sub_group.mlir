// verify-reqd-sub-group-legal accepts the sizes the device offers (powers of two
// from 1 to 64) and leaves the module as it is; verify-reqd-sub-group-satisfied
// accepts entry points scheduled with their required size (work-item-loops uses
// it whatever its own option), degenerate ones whose fixed work-group size is the
// required size, and kernels that require nothing.
//
// RUN: mux-opt %s -p verify-reqd-sub-group-legal | filecheck %s --check-prefix=LEGAL
// LEGAL: func.func @eight() attributes {mux.kernel = "entry-point", mux.reqd_sub_group_size = 8 : i32}
// LEGAL: func.func @helper() attributes {mux.kernel, mux.reqd_sub_group_size = 64 : i32}
//
// RUN: mux-opt %s -p 'work-item-loops{sub_group_size=4},verify-reqd-sub-group-satisfied' | filecheck %s --check-prefix=SATISFIED
// SATISFIED: func.func @"eight.mux-barrier-wrapper"() attributes {mux.kernel = "entry-point", mux.reqd_sub_group_size = 8 : i32, {{.*}}, mux.sub_group_size = 8 : i32}
// SATISFIED: func.func @"free.mux-barrier-wrapper"() attributes {mux.kernel = "entry-point", {{.*}}, mux.sub_group_size = 4 : i32}
// SATISFIED: func.func @"whole.mux-barrier-wrapper"() attributes {mux.kernel = "entry-point", mux.reqd_work_group_size = array<i32: 4, 2, 1>, mux.degenerate_subgroups, mux.reqd_sub_group_size = 8 : i32
func.func @eight() attributes {mux.kernel = "entry-point", mux.reqd_sub_group_size = 8 : i32} {
  func.return
}
func.func @helper() attributes {mux.kernel, mux.reqd_sub_group_size = 64 : i32} {
  func.return
}
func.func @free() attributes {mux.kernel = "entry-point"} {
  func.return
}
func.func @whole() attributes {mux.kernel = "entry-point", mux.reqd_work_group_size = array<i32: 4, 2, 1>, mux.degenerate_subgroups, mux.reqd_sub_group_size = 8 : i32} {
  func.return
}
