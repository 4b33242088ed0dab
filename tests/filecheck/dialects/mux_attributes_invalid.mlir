// RUN: mux-opt --split-input-file --parsing-diagnostics --verify-diagnostics %s | filecheck %s
//
// mux-opt checks every `mux.` attribute of the modules it reads
// (dialects/attributes.py, verify_mux_attributes): known, well-formed, and on a
// function (or, for mux.scheduling_params, on the module). Each case checks the
// message and the op it is reported on.

// reqd_work_group_size with two sizes instead of three.
func.func @reqd_work_group_size_two() attributes {mux.reqd_work_group_size = array<i32: 8, 4>} {
  func.return
}
// CHECK: 'mux.reqd_work_group_size' is three positive i32 sizes X, Y, Z: array<i32: x, y, z>, got array<i32: 8, 4>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "reqd_work_group_size_two"
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.reqd_work_group_size' is three positive i32 sizes X, Y, Z: array<i32: x, y, z>, got array<i32: 8, 4>

// -----

// reqd_work_group_size with four sizes.
func.func @reqd_work_group_size_four() attributes {mux.reqd_work_group_size = array<i32: 8, 4, 1, 1>} {
  func.return
}
// CHECK: 'mux.reqd_work_group_size' is three positive i32 sizes X, Y, Z: array<i32: x, y, z>, got array<i32: 8, 4, 1, 1>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "reqd_work_group_size_four"
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.reqd_work_group_size' is three positive i32 sizes X, Y, Z: array<i32: x, y, z>, got array<i32: 8, 4, 1, 1>

// -----

// reqd_work_group_size with a size of 0.
func.func @reqd_work_group_size_zero() attributes {mux.reqd_work_group_size = array<i32: 8, 0, 1>} {
  func.return
}
// CHECK: 'mux.reqd_work_group_size' is three positive i32 sizes X, Y, Z: array<i32: x, y, z>, got array<i32: 8, 0, 1>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "reqd_work_group_size_zero"
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.reqd_work_group_size' is three positive i32 sizes X, Y, Z: array<i32: x, y, z>, got array<i32: 8, 0, 1>

// -----

// reqd_work_group_size with a negative size.
func.func @reqd_work_group_size_negative() attributes {mux.reqd_work_group_size = array<i32: -8, 1, 1>} {
  func.return
}
// CHECK: 'mux.reqd_work_group_size' is three positive i32 sizes X, Y, Z: array<i32: x, y, z>, got array<i32: -8, 1, 1>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "reqd_work_group_size_negative"
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.reqd_work_group_size' is three positive i32 sizes X, Y, Z: array<i32: x, y, z>, got array<i32: -8, 1, 1>

// -----

// reqd_work_group_size of i64 sizes.
func.func @reqd_work_group_size_i64() attributes {mux.reqd_work_group_size = array<i64: 8, 1, 1>} {
  func.return
}
// CHECK: 'mux.reqd_work_group_size' is three positive i32 sizes X, Y, Z: array<i32: x, y, z>, got array<i64: 8, 1, 1>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "reqd_work_group_size_i64"
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.reqd_work_group_size' is three positive i32 sizes X, Y, Z: array<i32: x, y, z>, got array<i64: 8, 1, 1>

// -----

// reqd_work_group_size as a list instead of an array.
func.func @reqd_work_group_size_list() attributes {mux.reqd_work_group_size = [8 : i32, 1 : i32, 1 : i32]} {
  func.return
}
// CHECK: 'mux.reqd_work_group_size' is three positive i32 sizes X, Y, Z: array<i32: x, y, z>, got [8 : i32, 1 : i32, 1 : i32]
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "reqd_work_group_size_list"
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.reqd_work_group_size' is three positive i32 sizes X, Y, Z: array<i32: x, y, z>, got [8 : i32, 1 : i32, 1 : i32]

// -----

// max_work_dim of 4.
func.func @max_work_dim_4() attributes {mux.max_work_dim = 4 : i32} {
  func.return
}
// CHECK: 'mux.max_work_dim' is an i32 from 1 to 3, got 4 : i32
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "max_work_dim_4"
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.max_work_dim' is an i32 from 1 to 3, got 4 : i32

// -----

// max_work_dim of 0.
func.func @max_work_dim_0() attributes {mux.max_work_dim = 0 : i32} {
  func.return
}
// CHECK: 'mux.max_work_dim' is an i32 from 1 to 3, got 0 : i32
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "max_work_dim_0"
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.max_work_dim' is an i32 from 1 to 3, got 0 : i32

// -----

// max_work_dim as a string.
func.func @max_work_dim_string() attributes {mux.max_work_dim = "2"} {
  func.return
}
// CHECK: 'mux.max_work_dim' is an i32 from 1 to 3, got "2"
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "max_work_dim_string"
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.max_work_dim' is an i32 from 1 to 3, got "2"

// -----

// An unknown work-item order, caught by the parser.
func.func @work_item_order_unknown() attributes {mux.work_item_order = #mux<work_item_order xxy>} {
  func.return
}
// CHECK: mux_attributes_invalid.mlir:[[# @LINE - 3]]:93
// CHECK-NEXT: func.func @work_item_order_unknown() attributes {mux.work_item_order = #mux<work_item_order xxy>} {
// CHECK-NEXT: ^^^
// CHECK-NEXT: Expected `xyz`, `xzy`, `yxz`, `yzx`, `zxy`, or `zyx`.

// -----

// A work-item order as a string instead of #mux<work_item_order ...>.
func.func @work_item_order_string() attributes {mux.work_item_order = "zyx"} {
  func.return
}
// CHECK: 'mux.work_item_order' is a work-item order such as #mux<work_item_order zyx>, got "zyx"
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "work_item_order_string"
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.work_item_order' is a work-item order such as #mux<work_item_order zyx>, got "zyx"

// -----

// A negative local_mem_usage.
func.func @local_mem_usage_negative() attributes {mux.local_mem_usage = -1 : i64} {
  func.return
}
// CHECK: 'mux.local_mem_usage' is a non-negative i64 number of bytes, got -1 : i64
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "local_mem_usage_negative"
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.local_mem_usage' is a non-negative i64 number of bytes, got -1 : i64

// -----

// local_mem_usage as a float.
func.func @local_mem_usage_float() attributes {mux.local_mem_usage = 1.0 : f32} {
  func.return
}
// CHECK: 'mux.local_mem_usage' is a non-negative i64 number of bytes, got 1.000000e+00 : f32
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "local_mem_usage_float"
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.local_mem_usage' is a non-negative i64 number of bytes, got 1.000000e+00 : f32

// -----

// no_subgroups is a unit attribute, not a boolean.
func.func @no_subgroups_bool() attributes {mux.no_subgroups = true} {
  func.return
}
// CHECK: 'mux.no_subgroups' is a unit attribute, got true
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "no_subgroups_bool"
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.no_subgroups' is a unit attribute, got true

// -----

// degenerate_subgroups is a unit attribute, not a string.
func.func @degenerate_subgroups_string() attributes {mux.degenerate_subgroups = "yes"} {
  func.return
}
// CHECK: 'mux.degenerate_subgroups' is a unit attribute, got "yes"
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "degenerate_subgroups_string"
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.degenerate_subgroups' is a unit attribute, got "yes"

// -----

// reqd_sub_group_size of 0.
func.func @reqd_sub_group_size_zero() attributes {mux.reqd_sub_group_size = 0 : i32} {
  func.return
}
// CHECK: 'mux.reqd_sub_group_size' is a positive i32, got 0 : i32
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "reqd_sub_group_size_zero"
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.reqd_sub_group_size' is a positive i32, got 0 : i32

// -----

// A negative reqd_sub_group_size.
func.func @reqd_sub_group_size_negative() attributes {mux.reqd_sub_group_size = -4 : i32} {
  func.return
}
// CHECK: 'mux.reqd_sub_group_size' is a positive i32, got -4 : i32
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "reqd_sub_group_size_negative"
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.reqd_sub_group_size' is a positive i32, got -4 : i32

// -----

// orig_fn is a string, not a symbol reference.
func.func @orig_fn_symbol() attributes {mux.orig_fn = @orig_fn_symbol} {
  func.return
}
// CHECK: 'mux.orig_fn' is a string, got @orig_fn_symbol
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "orig_fn_symbol"
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.orig_fn' is a string, got @orig_fn_symbol

// -----

// base_fn_name is a string, not an integer.
func.func @base_fn_name_integer() attributes {mux.base_fn_name = 3 : i32} {
  func.return
}
// CHECK: 'mux.base_fn_name' is a string, got 3 : i32
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "base_fn_name_integer"
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.base_fn_name' is a string, got 3 : i32

// -----

// scheduled_fn with one entry.
func.func @scheduled_fn_one() attributes {mux.scheduled_fn = array<i32: 0>} {
  func.return
}
// CHECK: 'mux.scheduled_fn' is 2 to 4 parameter indices, -1 for none: array<i32: wi, wg>, got array<i32: 0>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "scheduled_fn_one"
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.scheduled_fn' is 2 to 4 parameter indices, -1 for none: array<i32: wi, wg>, got array<i32: 0>

// -----

// scheduled_fn with five entries.
func.func @scheduled_fn_five() attributes {mux.scheduled_fn = array<i32: 0, 1, 2, 3, 4>} {
  func.return
}
// CHECK: 'mux.scheduled_fn' is 2 to 4 parameter indices, -1 for none: array<i32: wi, wg>, got array<i32: 0, 1, 2, 3, 4>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "scheduled_fn_five"
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.scheduled_fn' is 2 to 4 parameter indices, -1 for none: array<i32: wi, wg>, got array<i32: 0, 1, 2, 3, 4>

// -----

// scheduled_fn with -2: -1 is the only "no such parameter".
func.func @scheduled_fn_minus_two() attributes {mux.scheduled_fn = array<i32: 0, -2>} {
  func.return
}
// CHECK: 'mux.scheduled_fn' is 2 to 4 parameter indices, -1 for none: array<i32: wi, wg>, got array<i32: 0, -2>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "scheduled_fn_minus_two"
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.scheduled_fn' is 2 to 4 parameter indices, -1 for none: array<i32: wi, wg>, got array<i32: 0, -2>

// -----

// An empty scheduled_fn.
func.func @scheduled_fn_empty() attributes {mux.scheduled_fn = array<i32>} {
  func.return
}
// CHECK: 'mux.scheduled_fn' is 2 to 4 parameter indices, -1 for none: array<i32: wi, wg>, got array<i32>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "scheduled_fn_empty"
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.scheduled_fn' is 2 to 4 parameter indices, -1 for none: array<i32: wi, wg>, got array<i32>

// -----

// mux.kernel is a unit attribute or a string, not an integer.
func.func @kernel_integer() attributes {mux.kernel = 1 : i32} {
  func.return
}
// CHECK: 'mux.kernel' is a unit attribute (a kernel) or a string ("entry-point": an entry point), got 1 : i32
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "kernel_integer"
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.kernel' is a unit attribute (a kernel) or a string ("entry-point": an entry point), got 1 : i32

// -----

// An unknown mux attribute.
func.func @unknown_attribute() attributes {mux.foo} {
  func.return
}
// CHECK: unknown mux attribute 'mux.foo' (known: mux.base_fn_name, mux.check_bookkeeping, mux.check_fault_word, mux.check_record, mux.check_sites, mux.check_unchecked, mux.degenerate_subgroups, mux.invariant_load, mux.kernel, mux.local_cell, mux.local_mem_usage, mux.local_shadow, mux.local_variable, mux.local_vars_param, mux.max_work_dim, mux.no_subgroups, mux.orig_fn, mux.reqd_sub_group_size, mux.reqd_work_group_size, mux.schedule_ordered, mux.scheduled_fn, mux.scheduling_params, mux.sub_group_size, mux.vecz_base, mux.vecz_derived, mux.vecz_fail, mux.vecz_lane, mux.vecz_rows, mux.work_item_order)
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "unknown_attribute"
// CHECK-NEXT: ^
// CHECK-NEXT: | unknown mux attribute 'mux.foo' (known: mux.base_fn_name, mux.check_bookkeeping, mux.check_fault_word, mux.check_record, mux.check_sites, mux.check_unchecked, mux.degenerate_subgroups, mux.invariant_load, mux.kernel, mux.local_cell, mux.local_mem_usage, mux.local_shadow, mux.local_variable, mux.local_vars_param, mux.max_work_dim, mux.no_subgroups, mux.orig_fn, mux.reqd_sub_group_size, mux.reqd_work_group_size, mux.schedule_ordered, mux.scheduled_fn, mux.scheduling_params, mux.sub_group_size, mux.vecz_base, mux.vecz_derived, mux.vecz_fail, mux.vecz_lane, mux.vecz_rows, mux.work_item_order)

// -----

// A misspelt mux attribute is unknown too.
func.func @misspelt_attribute() attributes {mux.reqd_work_group_sizes = array<i32: 1, 1, 1>} {
  func.return
}
// CHECK: unknown mux attribute 'mux.reqd_work_group_sizes' (known: mux.base_fn_name, mux.check_bookkeeping, mux.check_fault_word, mux.check_record, mux.check_sites, mux.check_unchecked, mux.degenerate_subgroups, mux.invariant_load, mux.kernel, mux.local_cell, mux.local_mem_usage, mux.local_shadow, mux.local_variable, mux.local_vars_param, mux.max_work_dim, mux.no_subgroups, mux.orig_fn, mux.reqd_sub_group_size, mux.reqd_work_group_size, mux.schedule_ordered, mux.scheduled_fn, mux.scheduling_params, mux.sub_group_size, mux.vecz_base, mux.vecz_derived, mux.vecz_fail, mux.vecz_lane, mux.vecz_rows, mux.work_item_order)
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "misspelt_attribute"
// CHECK-NEXT: ^
// CHECK-NEXT: | unknown mux attribute 'mux.reqd_work_group_sizes' (known: mux.base_fn_name, mux.check_bookkeeping, mux.check_fault_word, mux.check_record, mux.check_sites, mux.check_unchecked, mux.degenerate_subgroups, mux.invariant_load, mux.kernel, mux.local_cell, mux.local_mem_usage, mux.local_shadow, mux.local_variable, mux.local_vars_param, mux.max_work_dim, mux.no_subgroups, mux.orig_fn, mux.reqd_sub_group_size, mux.reqd_work_group_size, mux.schedule_ordered, mux.scheduled_fn, mux.scheduling_params, mux.sub_group_size, mux.vecz_base, mux.vecz_derived, mux.vecz_fail, mux.vecz_lane, mux.vecz_rows, mux.work_item_order)

// -----

// A function attribute on the module.
builtin.module attributes {mux.max_work_dim = 2 : i32} {
}
// CHECK: 'mux.max_work_dim' belongs on a function, not on builtin.module
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.max_work_dim' belongs on a function, not on builtin.module

// -----

// mux.kernel on the module.
builtin.module attributes {mux.kernel} {
  func.func @k() {
    func.return
  }
}
// CHECK: 'mux.kernel' belongs on a function, not on builtin.module
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.kernel' belongs on a function, not on builtin.module

// -----

// The module attribute on a function.
func.func @scheduling_params_on_function() attributes {mux.scheduling_params = ["MuxWorkItemInfo"]} {
  func.return
}
// CHECK: 'mux.scheduling_params' belongs on builtin.module, not on func.func
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "scheduling_params_on_function"
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.scheduling_params' belongs on builtin.module, not on func.func

// -----

// scheduling_params is a list of strings.
builtin.module attributes {mux.scheduling_params = ["MuxWorkItemInfo", 1 : i32]} {
}
// CHECK: 'mux.scheduling_params' is a list of scheduling parameter names, got ["MuxWorkItemInfo", 1 : i32]
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.scheduling_params' is a list of scheduling parameter names, got ["MuxWorkItemInfo", 1 : i32]

// -----

// scheduling_params as a single string.
builtin.module attributes {mux.scheduling_params = "MuxWorkItemInfo"} {
}
// CHECK: 'mux.scheduling_params' is a list of scheduling parameter names, got "MuxWorkItemInfo"
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.scheduling_params' is a list of scheduling parameter names, got "MuxWorkItemInfo"

// -----

// A mux attribute on an op that is not a function.
func.func @kernel_on_constant() {
  %0 = arith.constant {mux.kernel} 0 : i32
  func.return
}
// CHECK: 'mux.kernel' belongs on a function, not on arith.constant
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "kernel_on_constant"
// CHECK-NEXT: %0 = "arith.constant"() <{value = 0 : i32}>
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.kernel' belongs on a function, not on arith.constant

// -----

// A function attribute on a return.
func.func @attribute_on_return() {
  func.return {mux.reqd_sub_group_size = 8 : i32}
}
// CHECK: 'mux.reqd_sub_group_size' belongs on a function, not on func.return
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "attribute_on_return"
// CHECK-NEXT: "func.return"()
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.reqd_sub_group_size' belongs on a function, not on func.return

// -----

// A well-formed attribute on a function, a malformed one nested in its body: the
// nested op is reported.
func.func @nested(%x: f32) -> f32 attributes {mux.kernel = "entry-point"} {
  %0 = arith.addf %x, %x {mux.no_subgroups} : f32
  func.return %0 : f32
}
// CHECK: 'mux.no_subgroups' belongs on a function, not on arith.addf
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "nested"
// CHECK: %0 = "arith.addf"(%x, %x) <{fastmath = #arith.fastmath<none>}>
// CHECK-NEXT: ^
// CHECK-NEXT: | 'mux.no_subgroups' belongs on a function, not on arith.addf

// -----

// A symbol that is not a function (no function type) takes no function attribute.
"memref.global"() <{sym_name = "g", type = memref<4xf32>, initial_value, sym_visibility = "private"}> {mux.kernel} : () -> ()
// CHECK: 'mux.kernel' belongs on a function, not on memref.global

// -----

// The integer attributes have the spec's widths: max_work_dim is an i32.
func.func @i64_max_work_dim() attributes {mux.max_work_dim = 2 : i64} {
  func.return
}
// CHECK: 'mux.max_work_dim' is an i32 from 1 to 3, got 2 : i64
