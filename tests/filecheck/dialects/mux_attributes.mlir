// RUN: mux-opt --split-input-file %s | filecheck %s
// RUN: %roundtrip | filecheck %s
//
// The `mux.` function and module attributes of dialects/attributes.py (the spec's
// "Metadata" and "Function Attributes"), in valid form: mux-opt checks every one of
// them on the modules it reads, and prints them back unchanged.

// mux.kernel: a unit attribute marks a kernel, "entry-point" a kernel entry point.
// CHECK-LABEL: func.func @kernel() attributes {mux.kernel} {
// CHECK-NEXT: func.return
// CHECK-LABEL: func.func @entry_point() attributes {mux.kernel = "entry-point"} {
// CHECK-NEXT: func.return
func.func @kernel() attributes {mux.kernel} {
  func.return
}
func.func @entry_point() attributes {mux.kernel = "entry-point"} {
  func.return
}

// -----

// mux.reqd_work_group_size: three positive i32 sizes.
// CHECK-LABEL: func.func @reqd_work_group_size() attributes {mux.kernel = "entry-point", mux.reqd_work_group_size = array<i32: 8, 4, 1>} {
// CHECK-LABEL: func.func @reqd_work_group_size_ones() attributes {mux.reqd_work_group_size = array<i32: 1, 1, 1>} {
// CHECK-LABEL: func.func @reqd_work_group_size_large() attributes {mux.reqd_work_group_size = array<i32: 1024, 2147483647, 3>} {
func.func @reqd_work_group_size() attributes {mux.kernel = "entry-point", mux.reqd_work_group_size = array<i32: 8, 4, 1>} {
  func.return
}
func.func @reqd_work_group_size_ones() attributes {mux.reqd_work_group_size = array<i32: 1, 1, 1>} {
  func.return
}
func.func @reqd_work_group_size_large() attributes {mux.reqd_work_group_size = array<i32: 1024, 2147483647, 3>} {
  func.return
}

// -----

// mux.max_work_dim: 1, 2 or 3.
// CHECK-LABEL: func.func @max_work_dim_1() attributes {mux.max_work_dim = 1 : i32} {
// CHECK-LABEL: func.func @max_work_dim_2() attributes {mux.max_work_dim = 2 : i32} {
// CHECK-LABEL: func.func @max_work_dim_3() attributes {mux.max_work_dim = 3 : i32} {
func.func @max_work_dim_1() attributes {mux.max_work_dim = 1 : i32} {
  func.return
}
func.func @max_work_dim_2() attributes {mux.max_work_dim = 2 : i32} {
  func.return
}
func.func @max_work_dim_3() attributes {mux.max_work_dim = 3 : i32} {
  func.return
}

// -----

// mux.work_item_order: the six orders of the dimensions.
// CHECK-LABEL: func.func @order_xyz() attributes {mux.work_item_order = #mux<work_item_order xyz>} {
// CHECK-LABEL: func.func @order_xzy() attributes {mux.work_item_order = #mux<work_item_order xzy>} {
// CHECK-LABEL: func.func @order_yxz() attributes {mux.work_item_order = #mux<work_item_order yxz>} {
// CHECK-LABEL: func.func @order_yzx() attributes {mux.work_item_order = #mux<work_item_order yzx>} {
// CHECK-LABEL: func.func @order_zxy() attributes {mux.work_item_order = #mux<work_item_order zxy>} {
// CHECK-LABEL: func.func @order_zyx() attributes {mux.work_item_order = #mux<work_item_order zyx>} {
func.func @order_xyz() attributes {mux.work_item_order = #mux<work_item_order xyz>} {
  func.return
}
func.func @order_xzy() attributes {mux.work_item_order = #mux<work_item_order xzy>} {
  func.return
}
func.func @order_yxz() attributes {mux.work_item_order = #mux<work_item_order yxz>} {
  func.return
}
func.func @order_yzx() attributes {mux.work_item_order = #mux<work_item_order yzx>} {
  func.return
}
func.func @order_zxy() attributes {mux.work_item_order = #mux<work_item_order zxy>} {
  func.return
}
func.func @order_zyx() attributes {mux.work_item_order = #mux<work_item_order zyx>} {
  func.return
}

// -----

// mux.local_mem_usage: a non-negative number of bytes (0 too: see attributes.py).
// CHECK-LABEL: func.func @local_mem_usage() attributes {mux.local_mem_usage = 1024 : i64} {
// CHECK-LABEL: func.func @local_mem_usage_zero() attributes {mux.local_mem_usage = 0 : i64} {
func.func @local_mem_usage() attributes {mux.local_mem_usage = 1024 : i64} {
  func.return
}
func.func @local_mem_usage_zero() attributes {mux.local_mem_usage = 0 : i64} {
  func.return
}

// -----

// mux.no_subgroups, mux.degenerate_subgroups: unit attributes.
// CHECK-LABEL: func.func @no_subgroups() attributes {mux.no_subgroups} {
// CHECK-LABEL: func.func @degenerate_subgroups() attributes {mux.degenerate_subgroups} {
func.func @no_subgroups() attributes {mux.no_subgroups} {
  func.return
}
func.func @degenerate_subgroups() attributes {mux.degenerate_subgroups} {
  func.return
}

// -----

// mux.reqd_sub_group_size: a positive i32.
// CHECK-LABEL: func.func @reqd_sub_group_size_1() attributes {mux.reqd_sub_group_size = 1 : i32} {
// CHECK-LABEL: func.func @reqd_sub_group_size_8() attributes {mux.reqd_sub_group_size = 8 : i32} {
func.func @reqd_sub_group_size_1() attributes {mux.reqd_sub_group_size = 1 : i32} {
  func.return
}
func.func @reqd_sub_group_size_8() attributes {mux.reqd_sub_group_size = 8 : i32} {
  func.return
}

// -----

// mux.orig_fn, mux.base_fn_name: strings (the original function need not exist).
// CHECK-LABEL: func.func @wrapper() attributes {mux.orig_fn = "kernel", mux.base_fn_name = "kernel"} {
// CHECK-LABEL: func.func @vectorized() attributes {mux.orig_fn = "missing", mux.base_fn_name = ""} {
func.func @wrapper() attributes {mux.orig_fn = "kernel", mux.base_fn_name = "kernel"} {
  func.return
}
func.func @vectorized() attributes {mux.orig_fn = "missing", mux.base_fn_name = ""} {
  func.return
}

// -----

// mux.scheduled_fn: 2 to 4 parameter indices, -1 for none.
// CHECK-LABEL: func.func @scheduled_2(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) attributes {mux.scheduled_fn = array<i32: 0, 1>} {
// CHECK-LABEL: func.func @scheduled_none() attributes {mux.scheduled_fn = array<i32: -1, -1>} {
// CHECK-LABEL: func.func @scheduled_3(%{{.*}}: !llvm.ptr) attributes {mux.scheduled_fn = array<i32: -1, 0, 2>} {
// CHECK-LABEL: func.func @scheduled_4() attributes {mux.scheduled_fn = array<i32: 3, 2, 1, 0>} {
func.func @scheduled_2(%wi: !llvm.ptr, %wg: !llvm.ptr) attributes {mux.scheduled_fn = array<i32: 0, 1>} {
  func.return
}
func.func @scheduled_none() attributes {mux.scheduled_fn = array<i32: -1, -1>} {
  func.return
}
func.func @scheduled_3(%wg: !llvm.ptr) attributes {mux.scheduled_fn = array<i32: -1, 0, 2>} {
  func.return
}
func.func @scheduled_4() attributes {mux.scheduled_fn = array<i32: 3, 2, 1, 0>} {
  func.return
}

// -----

// mux.scheduling_params is a module attribute: a list of names, maybe empty.
// CHECK-LABEL: builtin.module attributes {mux.scheduling_params = ["MuxWorkItemInfo", "MuxWorkGroupInfo"]} {
// CHECK-NEXT: func.func @scheduled(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr) attributes {mux.kernel = "entry-point", mux.scheduled_fn = array<i32: 0, 1>} {
// CHECK-NEXT: func.return
// CHECK-NEXT: }
// CHECK-NEXT: }
builtin.module attributes {mux.scheduling_params = ["MuxWorkItemInfo", "MuxWorkGroupInfo"]} {
  func.func @scheduled(%wi: !llvm.ptr, %wg: !llvm.ptr) attributes {mux.kernel = "entry-point", mux.scheduled_fn = array<i32: 0, 1>} {
    func.return
  }
}

// -----

// CHECK-LABEL: builtin.module attributes {mux.scheduling_params = []} {
// CHECK-NEXT: }
builtin.module attributes {mux.scheduling_params = []} {
}

// -----

// Every function attribute at once, and one that is not a kernel next to it.
// CHECK-LABEL: func.func @everything() attributes {mux.kernel = "entry-point", mux.reqd_work_group_size = array<i32: 16, 2, 1>, mux.max_work_dim = 2 : i32, mux.work_item_order = #mux<work_item_order zyx>, mux.local_mem_usage = 4096 : i64, mux.no_subgroups, mux.degenerate_subgroups, mux.reqd_sub_group_size = 4 : i32, mux.orig_fn = "orig", mux.base_fn_name = "base", mux.scheduled_fn = array<i32: -1, -1>} {
// CHECK-NEXT: func.return
// CHECK-NEXT: }
// CHECK-NEXT: func.func @helper(%{{.*}}: f32) -> f32 {
func.func @everything() attributes {mux.kernel = "entry-point", mux.reqd_work_group_size = array<i32: 16, 2, 1>, mux.max_work_dim = 2 : i32, mux.work_item_order = #mux<work_item_order zyx>, mux.local_mem_usage = 4096 : i64, mux.no_subgroups, mux.degenerate_subgroups, mux.reqd_sub_group_size = 4 : i32, mux.orig_fn = "orig", mux.base_fn_name = "base", mux.scheduled_fn = array<i32: -1, -1>} {
  func.return
}
func.func @helper(%x: f32) -> f32 {
  func.return %x : f32
}

// -----

// An llvm.func is a function too.
// CHECK-LABEL: llvm.func @llvm_kernel() attributes {mux.kernel = "entry-point", mux.max_work_dim = 1 : i32, mux.local_mem_usage = 0 : i64} {
// CHECK-NEXT: llvm.return
llvm.func @llvm_kernel() attributes {mux.kernel = "entry-point", mux.max_work_dim = 1 : i32, mux.local_mem_usage = 0 : i64} {
  llvm.return
}

// -----

// The generic form, attributes in the attribute dictionary, prints in the custom
// form.
// CHECK-LABEL: builtin.module attributes {mux.scheduling_params = ["MuxWorkItemInfo"]} {
// CHECK-NEXT: func.func @generic() attributes {mux.kernel, mux.work_item_order = #mux<work_item_order yxz>, mux.reqd_sub_group_size = 16 : i32} {
// CHECK-NEXT: func.return
"builtin.module"() ({
  "func.func"() <{sym_name = "generic", function_type = () -> ()}> ({
    "func.return"() : () -> ()
  }) {mux.kernel, mux.work_item_order = #mux<work_item_order yxz>, mux.reqd_sub_group_size = 16 : i32} : () -> ()
}) {mux.scheduling_params = ["MuxWorkItemInfo"]} : () -> ()
