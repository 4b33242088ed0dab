// RUN: mux-opt --split-input-file --parsing-diagnostics --verify-diagnostics %s | filecheck %s
//
// The sub-group shuffles' rules: scalar values only (RULE_SCALAR_OPERAND), one type
// for the values and the result, an i32 lane. Each case checks the message, the
// function it is in and the op it is reported on.

// A vector operand to a shuffle (RULE_SCALAR_OPERAND).
func.func @shuffle_vector(%v: vector<4xf32>, %l: i32) {
  %0 = mux.sub_group_shuffle %v, %l : vector<4xf32>
  func.return
}
// CHECK: work-group and sub-group builtins only take scalar values, got vector<4xf32>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "shuffle_vector"
// CHECK: %0 = "mux.sub_group_shuffle"(%v, %l)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: work-group and sub-group builtins only take scalar values, got vector<4xf32>

// -----

// A vector operand to a shuffle_up (RULE_SCALAR_OPERAND).
func.func @shuffle_up_vector(%v: vector<2xi64>, %l: i32) {
  %0 = mux.sub_group_shuffle_up %v, %v, %l : vector<2xi64>
  func.return
}
// CHECK: work-group and sub-group builtins only take scalar values, got vector<2xi64>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "shuffle_up_vector"
// CHECK: %0 = "mux.sub_group_shuffle_up"(%v, %v, %l)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: work-group and sub-group builtins only take scalar values, got vector<2xi64>

// -----

// A vector operand to a shuffle_down (RULE_SCALAR_OPERAND).
func.func @shuffle_down_vector(%v: vector<8xi1>, %l: i32) {
  %0 = mux.sub_group_shuffle_down %v, %v, %l : vector<8xi1>
  func.return
}
// CHECK: work-group and sub-group builtins only take scalar values, got vector<8xi1>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "shuffle_down_vector"
// CHECK: %0 = "mux.sub_group_shuffle_down"(%v, %v, %l)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: work-group and sub-group builtins only take scalar values, got vector<8xi1>

// -----

// A vector operand to a shuffle_xor (RULE_SCALAR_OPERAND).
func.func @shuffle_xor_vector(%v: vector<4xi32>, %l: i32) {
  %0 = mux.sub_group_shuffle_xor %v, %l : vector<4xi32>
  func.return
}
// CHECK: work-group and sub-group builtins only take scalar values, got vector<4xi32>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "shuffle_xor_vector"
// CHECK: %0 = "mux.sub_group_shuffle_xor"(%v, %l)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: work-group and sub-group builtins only take scalar values, got vector<4xi32>

// -----

// A memref is not a scalar value either (RULE_SCALAR_OPERAND).
func.func @shuffle_memref(%m: memref<4xf32>, %l: i32) {
  %0 = mux.sub_group_shuffle %m, %l : memref<4xf32>
  func.return
}
// CHECK: work-group and sub-group builtins only take scalar values, got memref<4xf32>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "shuffle_memref"
// CHECK: %0 = "mux.sub_group_shuffle"(%m, %l)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: work-group and sub-group builtins only take scalar values, got memref<4xf32>

// -----

// shuffle_up with prev and curr of different types.
func.func @shuffle_up_mismatched(%x: i32, %y: i64, %l: i32) {
  %0 = "mux.sub_group_shuffle_up"(%x, %y, %l) : (i32, i64, i32) -> i64
  func.return
}
// CHECK: operand 'curr' at position 1 does not verify:
// CHECK-NEXT: attribute i32 expected from variable 'T', but got i64
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "shuffle_up_mismatched"
// CHECK: %0 = "mux.sub_group_shuffle_up"(%x, %y, %l)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: operand 'curr' at position 1 does not verify:

// -----

// shuffle_down with curr and next of different types.
func.func @shuffle_down_mismatched(%x: f32, %y: f64, %l: i32) {
  %0 = "mux.sub_group_shuffle_down"(%x, %y, %l) : (f32, f64, i32) -> f32
  func.return
}
// CHECK: operand 'next' at position 1 does not verify:
// CHECK-NEXT: attribute f32 expected from variable 'T', but got f64
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "shuffle_down_mismatched"
// CHECK: %0 = "mux.sub_group_shuffle_down"(%x, %y, %l)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: operand 'next' at position 1 does not verify:

// -----

// In the custom form there is one type for prev and curr: an operand of another type
// is a type mismatch.
func.func @shuffle_up_mismatched_custom(%x: i32, %y: i64, %l: i32) {
  %0 = mux.sub_group_shuffle_up %x, %y, %l : i64
  func.return
}
// CHECK: mux_shuffles_invalid.mlir:[[# @LINE - 3]]:33
// CHECK-NEXT: %0 = mux.sub_group_shuffle_up %x, %y, %l : i64
// CHECK-NEXT: ^^
// CHECK-NEXT: operand is used with type i64, but has been previously used or defined with type i32

// -----

// A shuffle returns its value's type.
func.func @shuffle_result_type(%x: i32, %l: i32) {
  %0 = "mux.sub_group_shuffle"(%x, %l) : (i32, i32) -> i64
  func.return
}
// CHECK: result 'result' at position 0 does not verify:
// CHECK-NEXT: attribute i32 expected from variable 'T', but got i64
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "shuffle_result_type"
// CHECK: %0 = "mux.sub_group_shuffle"(%x, %l)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: result 'result' at position 0 does not verify:

// -----

// The shuffle_xor value is an i32, not an i64.
func.func @shuffle_xor_i64_value(%x: f32, %l: i64) {
  %0 = "mux.sub_group_shuffle_xor"(%x, %l) : (f32, i64) -> f32
  func.return
}
// CHECK: operand 'xor_value' at position 1 does not verify:
// CHECK-NEXT: Expected attribute i32 but got i64
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "shuffle_xor_i64_value"
// CHECK: %0 = "mux.sub_group_shuffle_xor"(%x, %l)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: operand 'xor_value' at position 1 does not verify:

// -----

// The shuffle_down delta is an i32, not an index.
func.func @shuffle_down_index_delta(%x: f32, %l: index) {
  %0 = "mux.sub_group_shuffle_down"(%x, %x, %l) : (f32, f32, index) -> f32
  func.return
}
// CHECK: operand 'delta' at position 2 does not verify:
// CHECK-NEXT: Expected attribute i32 but got index
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "shuffle_down_index_delta"
// CHECK: %0 = "mux.sub_group_shuffle_down"(%x, %x, %l)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: operand 'delta' at position 2 does not verify:

// -----

// The shuffle lane id is an i32, in the custom form too.
func.func @shuffle_i64_lid_custom(%x: f32, %l: i64) {
  %0 = mux.sub_group_shuffle %x, %l : f32
  func.return
}
// CHECK: mux_shuffles_invalid.mlir:[[# @LINE - 3]]:34
// CHECK-NEXT: %0 = mux.sub_group_shuffle %x, %l : f32
// CHECK-NEXT: ^^
// CHECK-NEXT: operand is used with type i32, but has been previously used or defined with type i64
