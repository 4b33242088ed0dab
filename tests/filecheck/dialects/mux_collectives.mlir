// RUN: mux-opt --split-input-file %s | filecheck %s
// RUN: %roundtrip | filecheck %s
//
// The group collectives of the spec ("Group operation builtins") for the three kinds
// of group, in the custom form; the second RUN line goes through the generic form and
// back. Work-group ops carry the barrier id as `id(N)`.

// any/all: i1 for sub-groups and work-groups; an i1 or a vector of i1 for vec-groups.
// CHECK-LABEL: func.func @any_all
func.func @any_all(%b: i1, %v4: vector<4xi1>, %v16: vector<16xi1>) -> (i1, i1, i1, i1, i1, i1, i1, i1) {
  // CHECK-NEXT: %[[A:.*]] = mux.sub_group_any %b
  // CHECK-NEXT: %[[B:.*]] = mux.sub_group_all %b
  // CHECK-NEXT: %[[C:.*]] = mux.work_group_any id(0) %b
  // CHECK-NEXT: %[[D:.*]] = mux.work_group_all id(1) %b
  // CHECK-NEXT: %[[E:.*]] = mux.vec_group_any %v4 : vector<4xi1>
  // CHECK-NEXT: %[[F:.*]] = mux.vec_group_all %v16 : vector<16xi1>
  // CHECK-NEXT: %[[G:.*]] = mux.vec_group_any %b : i1
  // CHECK-NEXT: %[[H:.*]] = mux.vec_group_all %b : i1
  // CHECK-NEXT: func.return %[[A]], %[[B]], %[[C]], %[[D]], %[[E]], %[[F]], %[[G]], %[[H]] : i1, i1, i1, i1, i1, i1, i1, i1
  %0 = mux.sub_group_any %b
  %1 = mux.sub_group_all %b
  %2 = mux.work_group_any id(0) %b
  %3 = mux.work_group_all id(1) %b
  %4 = mux.vec_group_any %v4 : vector<4xi1>
  %5 = mux.vec_group_all %v16 : vector<16xi1>
  %6 = mux.vec_group_any %b : i1
  %7 = mux.vec_group_all %b : i1
  func.return %0, %1, %2, %3, %4, %5, %6, %7 : i1, i1, i1, i1, i1, i1, i1, i1
}

// -----

// Sub-group broadcast: any scalar value, an i32 sub-group local id.
// CHECK-LABEL: func.func @sub_group_broadcast
func.func @sub_group_broadcast(%i32: i32, %i64: i64, %idx: index, %f16: f16, %f64: f64, %i1: i1, %lid: i32) {
  // CHECK-NEXT: %{{.*}} = mux.sub_group_broadcast %i32, %lid : i32
  // CHECK-NEXT: %{{.*}} = mux.sub_group_broadcast %i64, %lid : i64
  // CHECK-NEXT: %{{.*}} = mux.sub_group_broadcast %idx, %lid : index
  // CHECK-NEXT: %{{.*}} = mux.sub_group_broadcast %f16, %lid : f16
  // CHECK-NEXT: %{{.*}} = mux.sub_group_broadcast %f64, %lid : f64
  // CHECK-NEXT: %{{.*}} = mux.sub_group_broadcast %i1, %lid : i1
  // CHECK-NEXT: func.return
  %0 = mux.sub_group_broadcast %i32, %lid : i32
  %1 = mux.sub_group_broadcast %i64, %lid : i64
  %2 = mux.sub_group_broadcast %idx, %lid : index
  %3 = mux.sub_group_broadcast %f16, %lid : f16
  %4 = mux.sub_group_broadcast %f64, %lid : f64
  %5 = mux.sub_group_broadcast %i1, %lid : i1
  func.return
}

// -----

// Work-group broadcast: any scalar value, three `index` local ids (x, y, z).
// CHECK-LABEL: func.func @work_group_broadcast
func.func @work_group_broadcast(%i32: i32, %i64: i64, %f32: f32, %f64: f64, %x: index, %y: index) -> f32 {
  // CHECK: %[[ZERO:.*]] = arith.constant 0 : index
  // CHECK-NEXT: %{{.*}} = mux.work_group_broadcast id(0) %i32, %x, %[[ZERO]], %[[ZERO]] : i32
  // CHECK-NEXT: %{{.*}} = mux.work_group_broadcast id(1) %i64, %x, %y, %[[ZERO]] : i64
  // CHECK-NEXT: %{{.*}} = mux.work_group_broadcast id(2) %f64, %x, %y, %y : f64
  // CHECK-NEXT: %[[F:.*]] = mux.work_group_broadcast id(3) %f32, %[[ZERO]], %[[ZERO]], %[[ZERO]] : f32
  // CHECK-NEXT: func.return %[[F]] : f32
  %zero = arith.constant 0 : index
  %0 = mux.work_group_broadcast id(0) %i32, %x, %zero, %zero : i32
  %1 = mux.work_group_broadcast id(1) %i64, %x, %y, %zero : i64
  %2 = mux.work_group_broadcast id(2) %f64, %x, %y, %y : f64
  %3 = mux.work_group_broadcast id(3) %f32, %zero, %zero, %zero : f32
  func.return %3 : f32
}

// -----

// Vec-group broadcast: a lane of a 1-D vector (the element type), or a scalar.
// CHECK-LABEL: func.func @vec_group_broadcast
func.func @vec_group_broadcast(%v2i64: vector<2xi64>, %v4f32: vector<4xf32>, %v8i1: vector<8xi1>, %f16: f16, %lane: i32) {
  // CHECK-NEXT: %{{.*}} = mux.vec_group_broadcast %v2i64, %lane : vector<2xi64> -> i64
  // CHECK-NEXT: %{{.*}} = mux.vec_group_broadcast %v4f32, %lane : vector<4xf32> -> f32
  // CHECK-NEXT: %{{.*}} = mux.vec_group_broadcast %v8i1, %lane : vector<8xi1> -> i1
  // CHECK-NEXT: %{{.*}} = mux.vec_group_broadcast %f16, %lane : f16 -> f16
  // CHECK-NEXT: func.return
  %0 = mux.vec_group_broadcast %v2i64, %lane : vector<2xi64> -> i64
  %1 = mux.vec_group_broadcast %v4f32, %lane : vector<4xf32> -> f32
  %2 = mux.vec_group_broadcast %v8i1, %lane : vector<8xi1> -> i1
  %3 = mux.vec_group_broadcast %f16, %lane : f16 -> f16
  func.return
}

// -----

// Sub-group reduce with every operation: the integer ones on i32, i64 and index, the
// floating-point ones on f16, f32 and f64, the logical ones on i1.
// CHECK-LABEL: func.func @sub_group_reduce
func.func @sub_group_reduce(%i32: i32, %i64: i64, %idx: index, %f16: f16, %f32: f32, %f64: f64, %i1: i1) {
  // CHECK-NEXT: %{{.*}} = mux.sub_group_reduce add %i32 : i32
  // CHECK-NEXT: %{{.*}} = mux.sub_group_reduce mul %i64 : i64
  // CHECK-NEXT: %{{.*}} = mux.sub_group_reduce smin %idx : index
  // CHECK-NEXT: %{{.*}} = mux.sub_group_reduce umin %i32 : i32
  // CHECK-NEXT: %{{.*}} = mux.sub_group_reduce smax %i64 : i64
  // CHECK-NEXT: %{{.*}} = mux.sub_group_reduce umax %idx : index
  // CHECK-NEXT: %{{.*}} = mux.sub_group_reduce and %i32 : i32
  // CHECK-NEXT: %{{.*}} = mux.sub_group_reduce or %i64 : i64
  // CHECK-NEXT: %{{.*}} = mux.sub_group_reduce xor %idx : index
  // CHECK-NEXT: %{{.*}} = mux.sub_group_reduce fadd %f16 : f16
  // CHECK-NEXT: %{{.*}} = mux.sub_group_reduce fmul %f32 : f32
  // CHECK-NEXT: %{{.*}} = mux.sub_group_reduce fmin %f64 : f64
  // CHECK-NEXT: %{{.*}} = mux.sub_group_reduce fmax %f16 : f16
  // CHECK-NEXT: %{{.*}} = mux.sub_group_reduce logical_and %i1 : i1
  // CHECK-NEXT: %{{.*}} = mux.sub_group_reduce logical_or %i1 : i1
  // CHECK-NEXT: %{{.*}} = mux.sub_group_reduce logical_xor %i1 : i1
  // CHECK-NEXT: func.return
  %0 = mux.sub_group_reduce add %i32 : i32
  %1 = mux.sub_group_reduce mul %i64 : i64
  %2 = mux.sub_group_reduce smin %idx : index
  %3 = mux.sub_group_reduce umin %i32 : i32
  %4 = mux.sub_group_reduce smax %i64 : i64
  %5 = mux.sub_group_reduce umax %idx : index
  %6 = mux.sub_group_reduce and %i32 : i32
  %7 = mux.sub_group_reduce or %i64 : i64
  %8 = mux.sub_group_reduce xor %idx : index
  %9 = mux.sub_group_reduce fadd %f16 : f16
  %10 = mux.sub_group_reduce fmul %f32 : f32
  %11 = mux.sub_group_reduce fmin %f64 : f64
  %12 = mux.sub_group_reduce fmax %f16 : f16
  %13 = mux.sub_group_reduce logical_and %i1 : i1
  %14 = mux.sub_group_reduce logical_or %i1 : i1
  %15 = mux.sub_group_reduce logical_xor %i1 : i1
  func.return
}

// -----

// Sub-group inclusive scans, every operation on other types than the reduce above.
// CHECK-LABEL: func.func @sub_group_scan_inclusive
func.func @sub_group_scan_inclusive(%i32: i32, %i64: i64, %idx: index, %f16: f16, %f32: f32, %f64: f64, %i1: i1) {
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_inclusive add %i64 : i64
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_inclusive mul %idx : index
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_inclusive smin %i32 : i32
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_inclusive umin %i64 : i64
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_inclusive smax %idx : index
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_inclusive umax %i32 : i32
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_inclusive and %i64 : i64
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_inclusive or %idx : index
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_inclusive xor %i32 : i32
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_inclusive fadd %f32 : f32
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_inclusive fmul %f64 : f64
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_inclusive fmin %f16 : f16
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_inclusive fmax %f32 : f32
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_inclusive logical_and %i1 : i1
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_inclusive logical_or %i1 : i1
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_inclusive logical_xor %i1 : i1
  // CHECK-NEXT: func.return
  %0 = mux.sub_group_scan_inclusive add %i64 : i64
  %1 = mux.sub_group_scan_inclusive mul %idx : index
  %2 = mux.sub_group_scan_inclusive smin %i32 : i32
  %3 = mux.sub_group_scan_inclusive umin %i64 : i64
  %4 = mux.sub_group_scan_inclusive smax %idx : index
  %5 = mux.sub_group_scan_inclusive umax %i32 : i32
  %6 = mux.sub_group_scan_inclusive and %i64 : i64
  %7 = mux.sub_group_scan_inclusive or %idx : index
  %8 = mux.sub_group_scan_inclusive xor %i32 : i32
  %9 = mux.sub_group_scan_inclusive fadd %f32 : f32
  %10 = mux.sub_group_scan_inclusive fmul %f64 : f64
  %11 = mux.sub_group_scan_inclusive fmin %f16 : f16
  %12 = mux.sub_group_scan_inclusive fmax %f32 : f32
  %13 = mux.sub_group_scan_inclusive logical_and %i1 : i1
  %14 = mux.sub_group_scan_inclusive logical_or %i1 : i1
  %15 = mux.sub_group_scan_inclusive logical_xor %i1 : i1
  func.return
}

// -----

// Sub-group exclusive scans, every operation on the remaining types.
// CHECK-LABEL: func.func @sub_group_scan_exclusive
func.func @sub_group_scan_exclusive(%i32: i32, %i64: i64, %idx: index, %f16: f16, %f32: f32, %f64: f64, %i1: i1) {
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_exclusive add %idx : index
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_exclusive mul %i32 : i32
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_exclusive smin %i64 : i64
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_exclusive umin %idx : index
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_exclusive smax %i32 : i32
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_exclusive umax %i64 : i64
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_exclusive and %idx : index
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_exclusive or %i32 : i32
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_exclusive xor %i64 : i64
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_exclusive fadd %f64 : f64
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_exclusive fmul %f16 : f16
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_exclusive fmin %f32 : f32
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_exclusive fmax %f64 : f64
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_exclusive logical_and %i1 : i1
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_exclusive logical_or %i1 : i1
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_exclusive logical_xor %i1 : i1
  // CHECK-NEXT: func.return
  %0 = mux.sub_group_scan_exclusive add %idx : index
  %1 = mux.sub_group_scan_exclusive mul %i32 : i32
  %2 = mux.sub_group_scan_exclusive smin %i64 : i64
  %3 = mux.sub_group_scan_exclusive umin %idx : index
  %4 = mux.sub_group_scan_exclusive smax %i32 : i32
  %5 = mux.sub_group_scan_exclusive umax %i64 : i64
  %6 = mux.sub_group_scan_exclusive and %idx : index
  %7 = mux.sub_group_scan_exclusive or %i32 : i32
  %8 = mux.sub_group_scan_exclusive xor %i64 : i64
  %9 = mux.sub_group_scan_exclusive fadd %f64 : f64
  %10 = mux.sub_group_scan_exclusive fmul %f16 : f16
  %11 = mux.sub_group_scan_exclusive fmin %f32 : f32
  %12 = mux.sub_group_scan_exclusive fmax %f64 : f64
  %13 = mux.sub_group_scan_exclusive logical_and %i1 : i1
  %14 = mux.sub_group_scan_exclusive logical_or %i1 : i1
  %15 = mux.sub_group_scan_exclusive logical_xor %i1 : i1
  func.return
}

// -----

// Work-group reduce with every operation: the integer ones on i32, i64 and index, the
// floating-point ones on f16, f32 and f64, the logical ones on i1.
// CHECK-LABEL: func.func @work_group_reduce
func.func @work_group_reduce(%i32: i32, %i64: i64, %idx: index, %f16: f16, %f32: f32, %f64: f64, %i1: i1) {
  // CHECK-NEXT: %{{.*}} = mux.work_group_reduce add id(0) %i32 : i32
  // CHECK-NEXT: %{{.*}} = mux.work_group_reduce mul id(1) %i64 : i64
  // CHECK-NEXT: %{{.*}} = mux.work_group_reduce smin id(2) %idx : index
  // CHECK-NEXT: %{{.*}} = mux.work_group_reduce umin id(3) %i32 : i32
  // CHECK-NEXT: %{{.*}} = mux.work_group_reduce smax id(4) %i64 : i64
  // CHECK-NEXT: %{{.*}} = mux.work_group_reduce umax id(5) %idx : index
  // CHECK-NEXT: %{{.*}} = mux.work_group_reduce and id(6) %i32 : i32
  // CHECK-NEXT: %{{.*}} = mux.work_group_reduce or id(7) %i64 : i64
  // CHECK-NEXT: %{{.*}} = mux.work_group_reduce xor id(8) %idx : index
  // CHECK-NEXT: %{{.*}} = mux.work_group_reduce fadd id(9) %f16 : f16
  // CHECK-NEXT: %{{.*}} = mux.work_group_reduce fmul id(10) %f32 : f32
  // CHECK-NEXT: %{{.*}} = mux.work_group_reduce fmin id(11) %f64 : f64
  // CHECK-NEXT: %{{.*}} = mux.work_group_reduce fmax id(12) %f16 : f16
  // CHECK-NEXT: %{{.*}} = mux.work_group_reduce logical_and id(13) %i1 : i1
  // CHECK-NEXT: %{{.*}} = mux.work_group_reduce logical_or id(14) %i1 : i1
  // CHECK-NEXT: %{{.*}} = mux.work_group_reduce logical_xor id(15) %i1 : i1
  // CHECK-NEXT: func.return
  %0 = mux.work_group_reduce add id(0) %i32 : i32
  %1 = mux.work_group_reduce mul id(1) %i64 : i64
  %2 = mux.work_group_reduce smin id(2) %idx : index
  %3 = mux.work_group_reduce umin id(3) %i32 : i32
  %4 = mux.work_group_reduce smax id(4) %i64 : i64
  %5 = mux.work_group_reduce umax id(5) %idx : index
  %6 = mux.work_group_reduce and id(6) %i32 : i32
  %7 = mux.work_group_reduce or id(7) %i64 : i64
  %8 = mux.work_group_reduce xor id(8) %idx : index
  %9 = mux.work_group_reduce fadd id(9) %f16 : f16
  %10 = mux.work_group_reduce fmul id(10) %f32 : f32
  %11 = mux.work_group_reduce fmin id(11) %f64 : f64
  %12 = mux.work_group_reduce fmax id(12) %f16 : f16
  %13 = mux.work_group_reduce logical_and id(13) %i1 : i1
  %14 = mux.work_group_reduce logical_or id(14) %i1 : i1
  %15 = mux.work_group_reduce logical_xor id(15) %i1 : i1
  func.return
}

// -----

// Work-group inclusive scans, every operation on other types than the reduce above.
// CHECK-LABEL: func.func @work_group_scan_inclusive
func.func @work_group_scan_inclusive(%i32: i32, %i64: i64, %idx: index, %f16: f16, %f32: f32, %f64: f64, %i1: i1) {
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_inclusive add id(1) %i64 : i64
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_inclusive mul id(2) %idx : index
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_inclusive smin id(3) %i32 : i32
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_inclusive umin id(4) %i64 : i64
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_inclusive smax id(5) %idx : index
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_inclusive umax id(6) %i32 : i32
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_inclusive and id(7) %i64 : i64
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_inclusive or id(8) %idx : index
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_inclusive xor id(9) %i32 : i32
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_inclusive fadd id(10) %f32 : f32
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_inclusive fmul id(11) %f64 : f64
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_inclusive fmin id(12) %f16 : f16
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_inclusive fmax id(13) %f32 : f32
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_inclusive logical_and id(14) %i1 : i1
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_inclusive logical_or id(15) %i1 : i1
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_inclusive logical_xor id(16) %i1 : i1
  // CHECK-NEXT: func.return
  %0 = mux.work_group_scan_inclusive add id(1) %i64 : i64
  %1 = mux.work_group_scan_inclusive mul id(2) %idx : index
  %2 = mux.work_group_scan_inclusive smin id(3) %i32 : i32
  %3 = mux.work_group_scan_inclusive umin id(4) %i64 : i64
  %4 = mux.work_group_scan_inclusive smax id(5) %idx : index
  %5 = mux.work_group_scan_inclusive umax id(6) %i32 : i32
  %6 = mux.work_group_scan_inclusive and id(7) %i64 : i64
  %7 = mux.work_group_scan_inclusive or id(8) %idx : index
  %8 = mux.work_group_scan_inclusive xor id(9) %i32 : i32
  %9 = mux.work_group_scan_inclusive fadd id(10) %f32 : f32
  %10 = mux.work_group_scan_inclusive fmul id(11) %f64 : f64
  %11 = mux.work_group_scan_inclusive fmin id(12) %f16 : f16
  %12 = mux.work_group_scan_inclusive fmax id(13) %f32 : f32
  %13 = mux.work_group_scan_inclusive logical_and id(14) %i1 : i1
  %14 = mux.work_group_scan_inclusive logical_or id(15) %i1 : i1
  %15 = mux.work_group_scan_inclusive logical_xor id(16) %i1 : i1
  func.return
}

// -----

// Work-group exclusive scans, every operation on the remaining types.
// CHECK-LABEL: func.func @work_group_scan_exclusive
func.func @work_group_scan_exclusive(%i32: i32, %i64: i64, %idx: index, %f16: f16, %f32: f32, %f64: f64, %i1: i1) {
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_exclusive add id(2) %idx : index
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_exclusive mul id(3) %i32 : i32
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_exclusive smin id(4) %i64 : i64
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_exclusive umin id(5) %idx : index
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_exclusive smax id(6) %i32 : i32
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_exclusive umax id(7) %i64 : i64
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_exclusive and id(8) %idx : index
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_exclusive or id(9) %i32 : i32
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_exclusive xor id(10) %i64 : i64
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_exclusive fadd id(11) %f64 : f64
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_exclusive fmul id(12) %f16 : f16
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_exclusive fmin id(13) %f32 : f32
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_exclusive fmax id(14) %f64 : f64
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_exclusive logical_and id(15) %i1 : i1
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_exclusive logical_or id(16) %i1 : i1
  // CHECK-NEXT: %{{.*}} = mux.work_group_scan_exclusive logical_xor id(17) %i1 : i1
  // CHECK-NEXT: func.return
  %0 = mux.work_group_scan_exclusive add id(2) %idx : index
  %1 = mux.work_group_scan_exclusive mul id(3) %i32 : i32
  %2 = mux.work_group_scan_exclusive smin id(4) %i64 : i64
  %3 = mux.work_group_scan_exclusive umin id(5) %idx : index
  %4 = mux.work_group_scan_exclusive smax id(6) %i32 : i32
  %5 = mux.work_group_scan_exclusive umax id(7) %i64 : i64
  %6 = mux.work_group_scan_exclusive and id(8) %idx : index
  %7 = mux.work_group_scan_exclusive or id(9) %i32 : i32
  %8 = mux.work_group_scan_exclusive xor id(10) %i64 : i64
  %9 = mux.work_group_scan_exclusive fadd id(11) %f64 : f64
  %10 = mux.work_group_scan_exclusive fmul id(12) %f16 : f16
  %11 = mux.work_group_scan_exclusive fmin id(13) %f32 : f32
  %12 = mux.work_group_scan_exclusive fmax id(14) %f64 : f64
  %13 = mux.work_group_scan_exclusive logical_and id(15) %i1 : i1
  %14 = mux.work_group_scan_exclusive logical_or id(16) %i1 : i1
  %15 = mux.work_group_scan_exclusive logical_xor id(17) %i1 : i1
  func.return
}

// -----

// Vec-group reduce on 1-D vectors, every operation: the result is the element type.
// CHECK-LABEL: func.func @vec_group_reduce
func.func @vec_group_reduce(%v4i32: vector<4xi32>, %v2i64: vector<2xi64>, %v4idx: vector<4xindex>, %v8f16: vector<8xf16>, %v4f32: vector<4xf32>, %v2f64: vector<2xf64>, %v16i1: vector<16xi1>) {
  // CHECK-NEXT: %{{.*}} = mux.vec_group_reduce add %v4i32 : vector<4xi32> -> i32
  // CHECK-NEXT: %{{.*}} = mux.vec_group_reduce mul %v2i64 : vector<2xi64> -> i64
  // CHECK-NEXT: %{{.*}} = mux.vec_group_reduce smin %v4idx : vector<4xindex> -> index
  // CHECK-NEXT: %{{.*}} = mux.vec_group_reduce umin %v4i32 : vector<4xi32> -> i32
  // CHECK-NEXT: %{{.*}} = mux.vec_group_reduce smax %v2i64 : vector<2xi64> -> i64
  // CHECK-NEXT: %{{.*}} = mux.vec_group_reduce umax %v4idx : vector<4xindex> -> index
  // CHECK-NEXT: %{{.*}} = mux.vec_group_reduce and %v4i32 : vector<4xi32> -> i32
  // CHECK-NEXT: %{{.*}} = mux.vec_group_reduce or %v2i64 : vector<2xi64> -> i64
  // CHECK-NEXT: %{{.*}} = mux.vec_group_reduce xor %v4idx : vector<4xindex> -> index
  // CHECK-NEXT: %{{.*}} = mux.vec_group_reduce fadd %v8f16 : vector<8xf16> -> f16
  // CHECK-NEXT: %{{.*}} = mux.vec_group_reduce fmul %v4f32 : vector<4xf32> -> f32
  // CHECK-NEXT: %{{.*}} = mux.vec_group_reduce fmin %v2f64 : vector<2xf64> -> f64
  // CHECK-NEXT: %{{.*}} = mux.vec_group_reduce fmax %v8f16 : vector<8xf16> -> f16
  // CHECK-NEXT: %{{.*}} = mux.vec_group_reduce logical_and %v16i1 : vector<16xi1> -> i1
  // CHECK-NEXT: %{{.*}} = mux.vec_group_reduce logical_or %v16i1 : vector<16xi1> -> i1
  // CHECK-NEXT: %{{.*}} = mux.vec_group_reduce logical_xor %v16i1 : vector<16xi1> -> i1
  // CHECK-NEXT: func.return
  %0 = mux.vec_group_reduce add %v4i32 : vector<4xi32> -> i32
  %1 = mux.vec_group_reduce mul %v2i64 : vector<2xi64> -> i64
  %2 = mux.vec_group_reduce smin %v4idx : vector<4xindex> -> index
  %3 = mux.vec_group_reduce umin %v4i32 : vector<4xi32> -> i32
  %4 = mux.vec_group_reduce smax %v2i64 : vector<2xi64> -> i64
  %5 = mux.vec_group_reduce umax %v4idx : vector<4xindex> -> index
  %6 = mux.vec_group_reduce and %v4i32 : vector<4xi32> -> i32
  %7 = mux.vec_group_reduce or %v2i64 : vector<2xi64> -> i64
  %8 = mux.vec_group_reduce xor %v4idx : vector<4xindex> -> index
  %9 = mux.vec_group_reduce fadd %v8f16 : vector<8xf16> -> f16
  %10 = mux.vec_group_reduce fmul %v4f32 : vector<4xf32> -> f32
  %11 = mux.vec_group_reduce fmin %v2f64 : vector<2xf64> -> f64
  %12 = mux.vec_group_reduce fmax %v8f16 : vector<8xf16> -> f16
  %13 = mux.vec_group_reduce logical_and %v16i1 : vector<16xi1> -> i1
  %14 = mux.vec_group_reduce logical_or %v16i1 : vector<16xi1> -> i1
  %15 = mux.vec_group_reduce logical_xor %v16i1 : vector<16xi1> -> i1
  func.return
}

// -----

// Vec-group inclusive scans on 1-D vectors, every operation: the result is the
// vector type.
// CHECK-LABEL: func.func @vec_group_scan_inclusive
func.func @vec_group_scan_inclusive(%v4i32: vector<4xi32>, %v2i64: vector<2xi64>, %v4idx: vector<4xindex>, %v8f16: vector<8xf16>, %v4f32: vector<4xf32>, %v2f64: vector<2xf64>, %v16i1: vector<16xi1>) {
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_inclusive add %v2i64 : vector<2xi64> -> vector<2xi64>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_inclusive mul %v4idx : vector<4xindex> -> vector<4xindex>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_inclusive smin %v4i32 : vector<4xi32> -> vector<4xi32>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_inclusive umin %v2i64 : vector<2xi64> -> vector<2xi64>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_inclusive smax %v4idx : vector<4xindex> -> vector<4xindex>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_inclusive umax %v4i32 : vector<4xi32> -> vector<4xi32>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_inclusive and %v2i64 : vector<2xi64> -> vector<2xi64>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_inclusive or %v4idx : vector<4xindex> -> vector<4xindex>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_inclusive xor %v4i32 : vector<4xi32> -> vector<4xi32>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_inclusive fadd %v4f32 : vector<4xf32> -> vector<4xf32>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_inclusive fmul %v2f64 : vector<2xf64> -> vector<2xf64>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_inclusive fmin %v8f16 : vector<8xf16> -> vector<8xf16>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_inclusive fmax %v4f32 : vector<4xf32> -> vector<4xf32>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_inclusive logical_and %v16i1 : vector<16xi1> -> vector<16xi1>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_inclusive logical_or %v16i1 : vector<16xi1> -> vector<16xi1>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_inclusive logical_xor %v16i1 : vector<16xi1> -> vector<16xi1>
  // CHECK-NEXT: func.return
  %0 = mux.vec_group_scan_inclusive add %v2i64 : vector<2xi64> -> vector<2xi64>
  %1 = mux.vec_group_scan_inclusive mul %v4idx : vector<4xindex> -> vector<4xindex>
  %2 = mux.vec_group_scan_inclusive smin %v4i32 : vector<4xi32> -> vector<4xi32>
  %3 = mux.vec_group_scan_inclusive umin %v2i64 : vector<2xi64> -> vector<2xi64>
  %4 = mux.vec_group_scan_inclusive smax %v4idx : vector<4xindex> -> vector<4xindex>
  %5 = mux.vec_group_scan_inclusive umax %v4i32 : vector<4xi32> -> vector<4xi32>
  %6 = mux.vec_group_scan_inclusive and %v2i64 : vector<2xi64> -> vector<2xi64>
  %7 = mux.vec_group_scan_inclusive or %v4idx : vector<4xindex> -> vector<4xindex>
  %8 = mux.vec_group_scan_inclusive xor %v4i32 : vector<4xi32> -> vector<4xi32>
  %9 = mux.vec_group_scan_inclusive fadd %v4f32 : vector<4xf32> -> vector<4xf32>
  %10 = mux.vec_group_scan_inclusive fmul %v2f64 : vector<2xf64> -> vector<2xf64>
  %11 = mux.vec_group_scan_inclusive fmin %v8f16 : vector<8xf16> -> vector<8xf16>
  %12 = mux.vec_group_scan_inclusive fmax %v4f32 : vector<4xf32> -> vector<4xf32>
  %13 = mux.vec_group_scan_inclusive logical_and %v16i1 : vector<16xi1> -> vector<16xi1>
  %14 = mux.vec_group_scan_inclusive logical_or %v16i1 : vector<16xi1> -> vector<16xi1>
  %15 = mux.vec_group_scan_inclusive logical_xor %v16i1 : vector<16xi1> -> vector<16xi1>
  func.return
}

// -----

// Vec-group exclusive scans on 1-D vectors, every operation: the result is the
// vector type.
// CHECK-LABEL: func.func @vec_group_scan_exclusive
func.func @vec_group_scan_exclusive(%v4i32: vector<4xi32>, %v2i64: vector<2xi64>, %v4idx: vector<4xindex>, %v8f16: vector<8xf16>, %v4f32: vector<4xf32>, %v2f64: vector<2xf64>, %v16i1: vector<16xi1>) {
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_exclusive add %v4idx : vector<4xindex> -> vector<4xindex>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_exclusive mul %v4i32 : vector<4xi32> -> vector<4xi32>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_exclusive smin %v2i64 : vector<2xi64> -> vector<2xi64>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_exclusive umin %v4idx : vector<4xindex> -> vector<4xindex>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_exclusive smax %v4i32 : vector<4xi32> -> vector<4xi32>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_exclusive umax %v2i64 : vector<2xi64> -> vector<2xi64>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_exclusive and %v4idx : vector<4xindex> -> vector<4xindex>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_exclusive or %v4i32 : vector<4xi32> -> vector<4xi32>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_exclusive xor %v2i64 : vector<2xi64> -> vector<2xi64>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_exclusive fadd %v2f64 : vector<2xf64> -> vector<2xf64>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_exclusive fmul %v8f16 : vector<8xf16> -> vector<8xf16>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_exclusive fmin %v4f32 : vector<4xf32> -> vector<4xf32>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_exclusive fmax %v2f64 : vector<2xf64> -> vector<2xf64>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_exclusive logical_and %v16i1 : vector<16xi1> -> vector<16xi1>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_exclusive logical_or %v16i1 : vector<16xi1> -> vector<16xi1>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_exclusive logical_xor %v16i1 : vector<16xi1> -> vector<16xi1>
  // CHECK-NEXT: func.return
  %0 = mux.vec_group_scan_exclusive add %v4idx : vector<4xindex> -> vector<4xindex>
  %1 = mux.vec_group_scan_exclusive mul %v4i32 : vector<4xi32> -> vector<4xi32>
  %2 = mux.vec_group_scan_exclusive smin %v2i64 : vector<2xi64> -> vector<2xi64>
  %3 = mux.vec_group_scan_exclusive umin %v4idx : vector<4xindex> -> vector<4xindex>
  %4 = mux.vec_group_scan_exclusive smax %v4i32 : vector<4xi32> -> vector<4xi32>
  %5 = mux.vec_group_scan_exclusive umax %v2i64 : vector<2xi64> -> vector<2xi64>
  %6 = mux.vec_group_scan_exclusive and %v4idx : vector<4xindex> -> vector<4xindex>
  %7 = mux.vec_group_scan_exclusive or %v4i32 : vector<4xi32> -> vector<4xi32>
  %8 = mux.vec_group_scan_exclusive xor %v2i64 : vector<2xi64> -> vector<2xi64>
  %9 = mux.vec_group_scan_exclusive fadd %v2f64 : vector<2xf64> -> vector<2xf64>
  %10 = mux.vec_group_scan_exclusive fmul %v8f16 : vector<8xf16> -> vector<8xf16>
  %11 = mux.vec_group_scan_exclusive fmin %v4f32 : vector<4xf32> -> vector<4xf32>
  %12 = mux.vec_group_scan_exclusive fmax %v2f64 : vector<2xf64> -> vector<2xf64>
  %13 = mux.vec_group_scan_exclusive logical_and %v16i1 : vector<16xi1> -> vector<16xi1>
  %14 = mux.vec_group_scan_exclusive logical_or %v16i1 : vector<16xi1> -> vector<16xi1>
  %15 = mux.vec_group_scan_exclusive logical_xor %v16i1 : vector<16xi1> -> vector<16xi1>
  func.return
}

// -----

// A scalar is a vec-group of one: every collective returns the scalar type.
// CHECK-LABEL: func.func @vec_group_scalars
func.func @vec_group_scalars(%i32: i32, %idx: index, %f32: f32, %f64: f64, %i1: i1) {
  // CHECK-NEXT: %{{.*}} = mux.vec_group_reduce smax %i32 : i32 -> i32
  // CHECK-NEXT: %{{.*}} = mux.vec_group_reduce fadd %f32 : f32 -> f32
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_inclusive umin %idx : index -> index
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_inclusive logical_or %i1 : i1 -> i1
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_exclusive fmul %f64 : f64 -> f64
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_exclusive xor %i32 : i32 -> i32
  // CHECK-NEXT: func.return
  %0 = mux.vec_group_reduce smax %i32 : i32 -> i32
  %1 = mux.vec_group_reduce fadd %f32 : f32 -> f32
  %2 = mux.vec_group_scan_inclusive umin %idx : index -> index
  %3 = mux.vec_group_scan_inclusive logical_or %i1 : i1 -> i1
  %4 = mux.vec_group_scan_exclusive fmul %f64 : f64 -> f64
  %5 = mux.vec_group_scan_exclusive xor %i32 : i32 -> i32
  func.return
}

// -----

// Scalable vectors are 1-D vectors too (the spec's `<vscale x 1 x i64>` example).
// CHECK-LABEL: func.func @vec_group_scalable
func.func @vec_group_scalable(%v: vector<[1]xi64>, %f: vector<[4]xf32>, %b: vector<[4]xi1>, %lane: i32) {
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_exclusive mul %v : vector<[1]xi64> -> vector<[1]xi64>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_reduce fmax %f : vector<[4]xf32> -> f32
  // CHECK-NEXT: %{{.*}} = mux.vec_group_any %b : vector<[4]xi1>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_broadcast %v, %lane : vector<[1]xi64> -> i64
  // CHECK-NEXT: func.return
  %0 = mux.vec_group_scan_exclusive mul %v : vector<[1]xi64> -> vector<[1]xi64>
  %1 = mux.vec_group_reduce fmax %f : vector<[4]xf32> -> f32
  %2 = mux.vec_group_any %b : vector<[4]xi1>
  %3 = mux.vec_group_broadcast %v, %lane : vector<[1]xi64> -> i64
  func.return
}

// -----

// Results feed other collectives; the SSA names follow.
// CHECK-LABEL: func.func @chained
func.func @chained(%x: f32, %lid: i32) -> f32 {
  // CHECK-NEXT: %[[R:.*]] = mux.sub_group_reduce fadd %x : f32
  // CHECK-NEXT: %[[B:.*]] = mux.sub_group_broadcast %[[R]], %lid : f32
  // CHECK-NEXT: %[[W:.*]] = mux.work_group_scan_inclusive fmax id(4) %[[B]] : f32
  // CHECK-NEXT: func.return %[[W]] : f32
  %0 = mux.sub_group_reduce fadd %x : f32
  %1 = mux.sub_group_broadcast %0, %lid : f32
  %2 = mux.work_group_scan_inclusive fmax id(4) %1 : f32
  func.return %2 : f32
}

// -----

// The generic form prints in the custom form.
// CHECK-LABEL: func.func @generic_form
func.func @generic_form(%x: i32, %v: vector<4xf32>, %b: i1, %i: index, %lane: i32) {
  // CHECK-NEXT: %{{.*}} = mux.work_group_all id(2) %b
  // CHECK-NEXT: %{{.*}} = mux.work_group_broadcast id(3) %x, %i, %i, %i : i32
  // CHECK-NEXT: %{{.*}} = mux.sub_group_scan_exclusive umax %x : i32
  // CHECK-NEXT: %{{.*}} = mux.work_group_reduce smin id(5) %x : i32
  // CHECK-NEXT: %{{.*}} = mux.vec_group_reduce fmin %v : vector<4xf32> -> f32
  // CHECK-NEXT: %{{.*}} = mux.vec_group_scan_inclusive fadd %v : vector<4xf32> -> vector<4xf32>
  // CHECK-NEXT: %{{.*}} = mux.vec_group_broadcast %v, %lane : vector<4xf32> -> f32
  // CHECK-NEXT: func.return
  %0 = "mux.work_group_all"(%b) <{id = 2 : i32}> : (i1) -> i1
  %1 = "mux.work_group_broadcast"(%x, %i, %i, %i) <{id = 3 : i32}> : (i32, index, index, index) -> i32
  %2 = "mux.sub_group_scan_exclusive"(%x) <{op = #mux<group_op umax>}> : (i32) -> i32
  %3 = "mux.work_group_reduce"(%x) <{op = #mux<group_op smin>, id = 5 : i32}> : (i32) -> i32
  %4 = "mux.vec_group_reduce"(%v) <{op = #mux<group_op fmin>}> : (vector<4xf32>) -> f32
  %5 = "mux.vec_group_scan_inclusive"(%v) <{op = #mux<group_op fadd>}> : (vector<4xf32>) -> vector<4xf32>
  %6 = "mux.vec_group_broadcast"(%v, %lane) : (vector<4xf32>, i32) -> f32
  func.return
}
