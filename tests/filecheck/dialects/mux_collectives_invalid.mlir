// RUN: mux-opt --split-input-file --parsing-diagnostics --verify-diagnostics %s | filecheck %s
//
// The collectives' rules, one case per rule and kind of group. Each case checks the
// message, the function it is in and the op it is reported on.

// A vector operand to a work-group reduce (RULE_SCALAR_OPERAND).
func.func @work_group_reduce_vector(%v: vector<4xi32>) {
  %0 = mux.work_group_reduce add id(0) %v : vector<4xi32>
  func.return
}
// CHECK: work-group and sub-group builtins only take scalar values, got vector<4xi32>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "work_group_reduce_vector"
// CHECK: %0 = "mux.work_group_reduce"(%v) <{op = #mux<group_op add>, id = 0 : i32}>
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: work-group and sub-group builtins only take scalar values, got vector<4xi32>

// -----

// A vector operand to a work-group exclusive scan (RULE_SCALAR_OPERAND).
func.func @work_group_scan_vector(%v: vector<2xf64>) {
  %0 = mux.work_group_scan_exclusive fmul id(1) %v : vector<2xf64>
  func.return
}
// CHECK: work-group and sub-group builtins only take scalar values, got vector<2xf64>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "work_group_scan_vector"
// CHECK: %0 = "mux.work_group_scan_exclusive"(%v) <{op = #mux<group_op fmul>, id = 1 : i32}>
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: work-group and sub-group builtins only take scalar values, got vector<2xf64>

// -----

// A vector operand to a work-group broadcast (RULE_SCALAR_OPERAND).
func.func @work_group_broadcast_vector(%v: vector<4xf32>, %i: index) {
  %0 = mux.work_group_broadcast id(2) %v, %i, %i, %i : vector<4xf32>
  func.return
}
// CHECK: work-group and sub-group builtins only take scalar values, got vector<4xf32>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "work_group_broadcast_vector"
// CHECK: %0 = "mux.work_group_broadcast"(%v, %i, %i, %i) <{id = 2 : i32}>
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: work-group and sub-group builtins only take scalar values, got vector<4xf32>

// -----

// A vector operand to a sub-group inclusive scan (RULE_SCALAR_OPERAND).
func.func @sub_group_scan_vector(%v: vector<4xf32>) {
  %0 = mux.sub_group_scan_inclusive fadd %v : vector<4xf32>
  func.return
}
// CHECK: work-group and sub-group builtins only take scalar values, got vector<4xf32>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "sub_group_scan_vector"
// CHECK: %0 = "mux.sub_group_scan_inclusive"(%v) <{op = #mux<group_op fadd>}>
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: work-group and sub-group builtins only take scalar values, got vector<4xf32>

// -----

// A vector operand to a sub-group reduce (RULE_SCALAR_OPERAND).
func.func @sub_group_reduce_vector(%v: vector<8xi1>) {
  %0 = mux.sub_group_reduce logical_or %v : vector<8xi1>
  func.return
}
// CHECK: work-group and sub-group builtins only take scalar values, got vector<8xi1>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "sub_group_reduce_vector"
// CHECK: %0 = "mux.sub_group_reduce"(%v) <{op = #mux<group_op logical_or>}>
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: work-group and sub-group builtins only take scalar values, got vector<8xi1>

// -----

// A vector operand to a sub-group broadcast (RULE_SCALAR_OPERAND).
func.func @sub_group_broadcast_vector(%v: vector<2xi64>, %lid: i32) {
  %0 = mux.sub_group_broadcast %v, %lid : vector<2xi64>
  func.return
}
// CHECK: work-group and sub-group builtins only take scalar values, got vector<2xi64>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "sub_group_broadcast_vector"
// CHECK: %0 = "mux.sub_group_broadcast"(%v, %lid)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: work-group and sub-group builtins only take scalar values, got vector<2xi64>

// -----

// A pointer is not a scalar value either (RULE_SCALAR_OPERAND).
func.func @sub_group_reduce_pointer(%p: !llvm.ptr) {
  %0 = mux.sub_group_reduce add %p : !llvm.ptr
  func.return
}
// CHECK: work-group and sub-group builtins only take scalar values, got !llvm.ptr
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "sub_group_reduce_pointer"
// CHECK: %0 = "mux.sub_group_reduce"(%p) <{op = #mux<group_op add>}>
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: work-group and sub-group builtins only take scalar values, got !llvm.ptr

// -----

// A 2-D vector to a vec-group reduce (RULE_VEC_OPERAND).
func.func @vec_group_reduce_2d(%v: vector<2x4xf32>) {
  %0 = mux.vec_group_reduce fadd %v : vector<2x4xf32> -> f32
  func.return
}
// CHECK: vec-group builtins take a scalar or a 1-D vector, got vector<2x4xf32>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "vec_group_reduce_2d"
// CHECK: %0 = "mux.vec_group_reduce"(%v) <{op = #mux<group_op fadd>}>
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: vec-group builtins take a scalar or a 1-D vector, got vector<2x4xf32>

// -----

// A 2-D vector to a vec-group inclusive scan (RULE_VEC_OPERAND).
func.func @vec_group_scan_2d(%v: vector<2x2xi32>) {
  %0 = mux.vec_group_scan_inclusive add %v : vector<2x2xi32> -> vector<2x2xi32>
  func.return
}
// CHECK: vec-group builtins take a scalar or a 1-D vector, got vector<2x2xi32>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "vec_group_scan_2d"
// CHECK: %0 = "mux.vec_group_scan_inclusive"(%v) <{op = #mux<group_op add>}>
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: vec-group builtins take a scalar or a 1-D vector, got vector<2x2xi32>

// -----

// A 0-D vector to a vec-group exclusive scan (RULE_VEC_OPERAND).
func.func @vec_group_scan_0d(%v: vector<f32>) {
  %0 = mux.vec_group_scan_exclusive fadd %v : vector<f32> -> vector<f32>
  func.return
}
// CHECK: vec-group builtins take a scalar or a 1-D vector, got vector<f32>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "vec_group_scan_0d"
// CHECK: %0 = "mux.vec_group_scan_exclusive"(%v) <{op = #mux<group_op fadd>}>
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: vec-group builtins take a scalar or a 1-D vector, got vector<f32>

// -----

// A 2-D vector to a vec-group any (RULE_VEC_OPERAND).
func.func @vec_group_any_2d(%v: vector<2x2xi1>) {
  %0 = mux.vec_group_any %v : vector<2x2xi1>
  func.return
}
// CHECK: vec-group builtins take a scalar or a 1-D vector, got vector<2x2xi1>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "vec_group_any_2d"
// CHECK: %0 = "mux.vec_group_any"(%v)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: vec-group builtins take a scalar or a 1-D vector, got vector<2x2xi1>

// -----

// A 2-D vector to a vec-group broadcast (RULE_VEC_OPERAND).
func.func @vec_group_broadcast_2d(%v: vector<2x4xi32>, %lane: i32) {
  %0 = mux.vec_group_broadcast %v, %lane : vector<2x4xi32> -> i32
  func.return
}
// CHECK: vec-group builtins take a scalar or a 1-D vector, got vector<2x4xi32>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "vec_group_broadcast_2d"
// CHECK: %0 = "mux.vec_group_broadcast"(%v, %lane)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: vec-group builtins take a scalar or a 1-D vector, got vector<2x4xi32>

// -----

// `fadd` on i32, sub-group (RULE_OP_FITS_TYPE).
func.func @sub_group_fadd_i32(%x: i32) {
  %0 = mux.sub_group_reduce fadd %x : i32
  func.return
}
// CHECK: the group operation fits the element type (integer operations on integers, floating-point operations on floats, logical operations on i1): 'fadd' on i32
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "sub_group_fadd_i32"
// CHECK: %0 = "mux.sub_group_reduce"(%x) <{op = #mux<group_op fadd>}>
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: the group operation fits the element type (integer operations on integers, floating-point operations on floats, logical operations on i1): 'fadd' on i32

// -----

// `and` on f32, work-group (RULE_OP_FITS_TYPE).
func.func @work_group_and_f32(%x: f32) {
  %0 = mux.work_group_reduce and id(1) %x : f32
  func.return
}
// CHECK: the group operation fits the element type (integer operations on integers, floating-point operations on floats, logical operations on i1): 'and' on f32
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "work_group_and_f32"
// CHECK: %0 = "mux.work_group_reduce"(%x) <{op = #mux<group_op and>, id = 1 : i32}>
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: the group operation fits the element type (integer operations on integers, floating-point operations on floats, logical operations on i1): 'and' on f32

// -----

// `logical_or` on i32, vec-group (RULE_OP_FITS_TYPE).
func.func @vec_group_logical_or_i32(%x: i32) {
  %0 = mux.vec_group_scan_inclusive logical_or %x : i32 -> i32
  func.return
}
// CHECK: the group operation fits the element type (integer operations on integers, floating-point operations on floats, logical operations on i1): 'logical_or' on i32
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "vec_group_logical_or_i32"
// CHECK: %0 = "mux.vec_group_scan_inclusive"(%x) <{op = #mux<group_op logical_or>}>
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: the group operation fits the element type (integer operations on integers, floating-point operations on floats, logical operations on i1): 'logical_or' on i32

// -----

// `smin` on f64, work-group scan (RULE_OP_FITS_TYPE).
func.func @work_group_smin_f64(%x: f64) {
  %0 = mux.work_group_scan_exclusive smin id(3) %x : f64
  func.return
}
// CHECK: the group operation fits the element type (integer operations on integers, floating-point operations on floats, logical operations on i1): 'smin' on f64
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "work_group_smin_f64"
// CHECK: %0 = "mux.work_group_scan_exclusive"(%x) <{op = #mux<group_op smin>, id = 3 : i32}>
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: the group operation fits the element type (integer operations on integers, floating-point operations on floats, logical operations on i1): 'smin' on f64

// -----

// `logical_and` on i8: logical operations are on i1 only (RULE_OP_FITS_TYPE).
func.func @sub_group_logical_and_i8(%x: i8) {
  %0 = mux.sub_group_scan_inclusive logical_and %x : i8
  func.return
}
// CHECK: the group operation fits the element type (integer operations on integers, floating-point operations on floats, logical operations on i1): 'logical_and' on i8
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "sub_group_logical_and_i8"
// CHECK: %0 = "mux.sub_group_scan_inclusive"(%x) <{op = #mux<group_op logical_and>}>
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: the group operation fits the element type (integer operations on integers, floating-point operations on floats, logical operations on i1): 'logical_and' on i8

// -----

// `fmax` on a vector of integers: the element type counts (RULE_OP_FITS_TYPE).
func.func @vec_group_fmax_vector_i32(%v: vector<4xi32>) {
  %0 = mux.vec_group_reduce fmax %v : vector<4xi32> -> i32
  func.return
}
// CHECK: the group operation fits the element type (integer operations on integers, floating-point operations on floats, logical operations on i1): 'fmax' on vector<4xi32>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "vec_group_fmax_vector_i32"
// CHECK: %0 = "mux.vec_group_reduce"(%v) <{op = #mux<group_op fmax>}>
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: the group operation fits the element type (integer operations on integers, floating-point operations on floats, logical operations on i1): 'fmax' on vector<4xi32>

// -----

// `xor` on a vector of floats, vec-group scan (RULE_OP_FITS_TYPE).
func.func @vec_group_xor_vector_f16(%v: vector<8xf16>) {
  %0 = mux.vec_group_scan_exclusive xor %v : vector<8xf16> -> vector<8xf16>
  func.return
}
// CHECK: the group operation fits the element type (integer operations on integers, floating-point operations on floats, logical operations on i1): 'xor' on vector<8xf16>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "vec_group_xor_vector_f16"
// CHECK: %0 = "mux.vec_group_scan_exclusive"(%v) <{op = #mux<group_op xor>}>
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: the group operation fits the element type (integer operations on integers, floating-point operations on floats, logical operations on i1): 'xor' on vector<8xf16>

// -----

// vec-group any on a vector of i8 (RULE_BOOL_OPERAND).
func.func @vec_group_any_i8(%v: vector<4xi8>) {
  %0 = mux.vec_group_any %v : vector<4xi8>
  func.return
}
// CHECK: any/all builtins take i1 operands, got vector<4xi8>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "vec_group_any_i8"
// CHECK: %0 = "mux.vec_group_any"(%v)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: any/all builtins take i1 operands, got vector<4xi8>

// -----

// vec-group all on a scalar f32 (RULE_BOOL_OPERAND).
func.func @vec_group_all_f32(%x: f32) {
  %0 = mux.vec_group_all %x : f32
  func.return
}
// CHECK: any/all builtins take i1 operands, got f32
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "vec_group_all_f32"
// CHECK: %0 = "mux.vec_group_all"(%x)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: any/all builtins take i1 operands, got f32

// -----

// sub-group any on an i32 (the operand's constraint is i1).
func.func @sub_group_any_i32(%x: i32) {
  %0 = "mux.sub_group_any"(%x) : (i32) -> i1
  func.return
}
// CHECK: operand 'value' at position 0 does not verify:
// CHECK-NEXT: Expected attribute i1 but got i32
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "sub_group_any_i32"
// CHECK: %0 = "mux.sub_group_any"(%x)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: operand 'value' at position 0 does not verify:

// -----

// work-group all on an i32 (the operand's constraint is i1).
func.func @work_group_all_i32(%x: i32) {
  %0 = "mux.work_group_all"(%x) <{id = 0 : i32}> : (i32) -> i1
  func.return
}
// CHECK: operand 'value' at position 0 does not verify:
// CHECK-NEXT: Expected attribute i1 but got i32
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "work_group_all_i32"
// CHECK: %0 = "mux.work_group_all"(%x) <{id = 0 : i32}>
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: operand 'value' at position 0 does not verify:

// -----

// In the custom form the operand of sub-group all is an i1, so an i32 is a type
// mismatch.
func.func @sub_group_all_i32_custom(%x: i32) {
  %0 = mux.sub_group_all %x
  func.return
}
// CHECK: mux_collectives_invalid.mlir:[[# @LINE - 3]]:26
// CHECK-NEXT: %0 = mux.sub_group_all %x
// CHECK-NEXT: ^^
// CHECK-NEXT: operand is used with type i1, but has been previously used or defined with type i32

// -----

// A vec-group reduce returning the vector type (RULE_VEC_RESULT).
func.func @vec_group_reduce_vector_result(%v: vector<4xi32>) {
  %0 = mux.vec_group_reduce add %v : vector<4xi32> -> vector<4xi32>
  func.return
}
// CHECK: a vec-group reduce or broadcast returns the element type, a vec-group scan returns the operand type: expected i32, got vector<4xi32>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "vec_group_reduce_vector_result"
// CHECK: %0 = "mux.vec_group_reduce"(%v) <{op = #mux<group_op add>}>
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: a vec-group reduce or broadcast returns the element type, a vec-group scan returns the operand type: expected i32, got vector<4xi32>

// -----

// A vec-group broadcast returning the vector type (RULE_VEC_RESULT).
func.func @vec_group_broadcast_vector_result(%v: vector<4xf32>, %lane: i32) {
  %0 = mux.vec_group_broadcast %v, %lane : vector<4xf32> -> vector<4xf32>
  func.return
}
// CHECK: a vec-group reduce or broadcast returns the element type, a vec-group scan returns the operand type: expected f32, got vector<4xf32>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "vec_group_broadcast_vector_result"
// CHECK: %0 = "mux.vec_group_broadcast"(%v, %lane)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: a vec-group reduce or broadcast returns the element type, a vec-group scan returns the operand type: expected f32, got vector<4xf32>

// -----

// A vec-group exclusive scan returning the element type (RULE_VEC_RESULT).
func.func @vec_group_scan_exclusive_element_result(%v: vector<4xi32>) {
  %0 = mux.vec_group_scan_exclusive add %v : vector<4xi32> -> i32
  func.return
}
// CHECK: a vec-group reduce or broadcast returns the element type, a vec-group scan returns the operand type: expected vector<4xi32>, got i32
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "vec_group_scan_exclusive_element_result"
// CHECK: %0 = "mux.vec_group_scan_exclusive"(%v) <{op = #mux<group_op add>}>
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: a vec-group reduce or broadcast returns the element type, a vec-group scan returns the operand type: expected vector<4xi32>, got i32

// -----

// A vec-group inclusive scan returning the element type (RULE_VEC_RESULT).
func.func @vec_group_scan_inclusive_element_result(%v: vector<2xf64>) {
  %0 = mux.vec_group_scan_inclusive fmin %v : vector<2xf64> -> f64
  func.return
}
// CHECK: a vec-group reduce or broadcast returns the element type, a vec-group scan returns the operand type: expected vector<2xf64>, got f64
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "vec_group_scan_inclusive_element_result"
// CHECK: %0 = "mux.vec_group_scan_inclusive"(%v) <{op = #mux<group_op fmin>}>
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: a vec-group reduce or broadcast returns the element type, a vec-group scan returns the operand type: expected vector<2xf64>, got f64

// -----

// A vec-group scan returning a vector of another length (RULE_VEC_RESULT).
func.func @vec_group_scan_other_length(%v: vector<4xi32>) {
  %0 = mux.vec_group_scan_inclusive add %v : vector<4xi32> -> vector<8xi32>
  func.return
}
// CHECK: a vec-group reduce or broadcast returns the element type, a vec-group scan returns the operand type: expected vector<4xi32>, got vector<8xi32>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "vec_group_scan_other_length"
// CHECK: %0 = "mux.vec_group_scan_inclusive"(%v) <{op = #mux<group_op add>}>
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: a vec-group reduce or broadcast returns the element type, a vec-group scan returns the operand type: expected vector<4xi32>, got vector<8xi32>

// -----

// A vec-group reduce of a scalar returning another type (RULE_VEC_RESULT).
func.func @vec_group_reduce_scalar_other_type(%x: i32) {
  %0 = mux.vec_group_reduce add %x : i32 -> i64
  func.return
}
// CHECK: a vec-group reduce or broadcast returns the element type, a vec-group scan returns the operand type: expected i32, got i64
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "vec_group_reduce_scalar_other_type"
// CHECK: %0 = "mux.vec_group_reduce"(%x) <{op = #mux<group_op add>}>
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: a vec-group reduce or broadcast returns the element type, a vec-group scan returns the operand type: expected i32, got i64

// -----

// A negative id on a work-group reduce (RULE_BARRIER_ID).
func.func @work_group_reduce_negative_id(%x: i32) {
  %0 = mux.work_group_reduce add id(-1) %x : i32
  func.return
}
// CHECK: a barrier identifier is a non-negative i32, got -1
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "work_group_reduce_negative_id"
// CHECK: %0 = "mux.work_group_reduce"(%x) <{op = #mux<group_op add>, id = -1 : i32}>
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: a barrier identifier is a non-negative i32, got -1

// -----

// A negative id on a work-group inclusive scan (RULE_BARRIER_ID).
func.func @work_group_scan_negative_id(%x: f32) {
  %0 = mux.work_group_scan_inclusive fadd id(-1) %x : f32
  func.return
}
// CHECK: a barrier identifier is a non-negative i32, got -1
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "work_group_scan_negative_id"
// CHECK: %0 = "mux.work_group_scan_inclusive"(%x) <{op = #mux<group_op fadd>, id = -1 : i32}>
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: a barrier identifier is a non-negative i32, got -1

// -----

// A negative id on a work-group any (RULE_BARRIER_ID).
func.func @work_group_any_negative_id(%b: i1) {
  %0 = mux.work_group_any id(-1) %b
  func.return
}
// CHECK: a barrier identifier is a non-negative i32, got -1
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "work_group_any_negative_id"
// CHECK: %0 = "mux.work_group_any"(%b) <{id = -1 : i32}>
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: a barrier identifier is a non-negative i32, got -1

// -----

// A negative id on a work-group broadcast (RULE_BARRIER_ID).
func.func @work_group_broadcast_negative_id(%x: i64, %i: index) {
  %0 = mux.work_group_broadcast id(-2) %x, %i, %i, %i : i64
  func.return
}
// CHECK: a barrier identifier is a non-negative i32, got -2
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "work_group_broadcast_negative_id"
// CHECK: %0 = "mux.work_group_broadcast"(%x, %i, %i, %i) <{id = -2 : i32}>
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: a barrier identifier is a non-negative i32, got -2

// -----

// A work-group broadcast takes `index` local ids, not i32.
func.func @work_group_broadcast_i32_ids(%x: f32, %i: i32) {
  %0 = "mux.work_group_broadcast"(%x, %i, %i, %i) <{id = 0 : i32}> : (f32, i32, i32, i32) -> f32
  func.return
}
// CHECK: operand 'local_id_x' at position 1 does not verify:
// CHECK-NEXT: i32 should be of base attribute index
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "work_group_broadcast_i32_ids"
// CHECK: %0 = "mux.work_group_broadcast"(%x, %i, %i, %i) <{id = 0 : i32}>
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: operand 'local_id_x' at position 1 does not verify:

// -----

// A work-group broadcast with an i64 z local id.
func.func @work_group_broadcast_i64_z(%x: f32, %i: index, %z: i64) {
  %0 = "mux.work_group_broadcast"(%x, %i, %i, %z) <{id = 0 : i32}> : (f32, index, index, i64) -> f32
  func.return
}
// CHECK: operand 'local_id_z' at position 3 does not verify:
// CHECK-NEXT: i64 should be of base attribute index
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "work_group_broadcast_i64_z"
// CHECK: %0 = "mux.work_group_broadcast"(%x, %i, %i, %z) <{id = 0 : i32}>
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: operand 'local_id_z' at position 3 does not verify:

// -----

// In the custom form the local ids of a work-group broadcast are `index`.
func.func @work_group_broadcast_i32_ids_custom(%x: f32, %i: i32) {
  %0 = mux.work_group_broadcast id(0) %x, %i, %i, %i : f32
  func.return
}
// CHECK: mux_collectives_invalid.mlir:[[# @LINE - 3]]:43
// CHECK-NEXT: %0 = mux.work_group_broadcast id(0) %x, %i, %i, %i : f32
// CHECK-NEXT: ^^
// CHECK-NEXT: operand is used with type index, but has been previously used or defined with type i32

// -----

// A sub-group broadcast takes an i32 sub-group local id, not an index.
func.func @sub_group_broadcast_index_id(%x: f32, %i: index) {
  %0 = "mux.sub_group_broadcast"(%x, %i) : (f32, index) -> f32
  func.return
}
// CHECK: operand 'sub_group_local_id' at position 1 does not verify:
// CHECK-NEXT: Expected attribute i32 but got index
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "sub_group_broadcast_index_id"
// CHECK: %0 = "mux.sub_group_broadcast"(%x, %i)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: operand 'sub_group_local_id' at position 1 does not verify:

// -----

// A vec-group broadcast takes an i32 lane, not an i64.
func.func @vec_group_broadcast_i64_lane(%v: vector<4xf32>, %lane: i64) {
  %0 = "mux.vec_group_broadcast"(%v, %lane) : (vector<4xf32>, i64) -> f32
  func.return
}
// CHECK: operand 'lane' at position 1 does not verify:
// CHECK-NEXT: Expected attribute i32 but got i64
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "vec_group_broadcast_i64_lane"
// CHECK: %0 = "mux.vec_group_broadcast"(%v, %lane)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: operand 'lane' at position 1 does not verify:

// -----

// A sub-group reduce returns its operand's type.
func.func @sub_group_reduce_result_type(%x: i32) {
  %0 = "mux.sub_group_reduce"(%x) <{op = #mux<group_op add>}> : (i32) -> i64
  func.return
}
// CHECK: result 'result' at position 0 does not verify:
// CHECK-NEXT: attribute i32 expected from variable 'T', but got i64
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "sub_group_reduce_result_type"
// CHECK: %0 = "mux.sub_group_reduce"(%x) <{op = #mux<group_op add>}>
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: result 'result' at position 0 does not verify:

// -----

// An unknown group operation.
func.func @unknown_group_operation(%x: i32) {
  %0 = mux.sub_group_reduce min %x : i32
  func.return
}
// CHECK: mux_collectives_invalid.mlir:[[# @LINE - 3]]:29
// CHECK-NEXT: %0 = mux.sub_group_reduce min %x : i32
// CHECK-NEXT: ^^^
// CHECK-NEXT: Expected `add`, `fadd`, `mul`, `fmul`, `smin`, `umin`, `fmin`, `smax`, `umax`, `fmax`, `and`, `or`, `xor`, `logical_and`, `logical_or`, or `logical_xor`.
