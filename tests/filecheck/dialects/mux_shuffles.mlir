// RUN: mux-opt --split-input-file %s | filecheck %s
// RUN: %roundtrip | filecheck %s
//
// The four sub-group shuffles of the spec ("Group operation builtins"), in the custom
// form, on scalars of several types; the second RUN line goes through the generic form
// and back. The lane operand (`%lid`, `%delta`, `%xor_val`) is always an i32.

// CHECK-LABEL: func.func @shuffle
func.func @shuffle(%i1: i1, %i8: i8, %i32: i32, %i64: i64, %idx: index, %f16: f16, %f32: f32, %f64: f64, %lid: i32) {
  // CHECK-NEXT: %{{.*}} = mux.sub_group_shuffle %i1, %lid : i1
  // CHECK-NEXT: %{{.*}} = mux.sub_group_shuffle %i8, %lid : i8
  // CHECK-NEXT: %{{.*}} = mux.sub_group_shuffle %i32, %lid : i32
  // CHECK-NEXT: %{{.*}} = mux.sub_group_shuffle %i64, %lid : i64
  // CHECK-NEXT: %{{.*}} = mux.sub_group_shuffle %idx, %lid : index
  // CHECK-NEXT: %{{.*}} = mux.sub_group_shuffle %f16, %lid : f16
  // CHECK-NEXT: %{{.*}} = mux.sub_group_shuffle %f32, %lid : f32
  // CHECK-NEXT: %{{.*}} = mux.sub_group_shuffle %f64, %lid : f64
  // CHECK-NEXT: func.return
  %0 = mux.sub_group_shuffle %i1, %lid : i1
  %1 = mux.sub_group_shuffle %i8, %lid : i8
  %2 = mux.sub_group_shuffle %i32, %lid : i32
  %3 = mux.sub_group_shuffle %i64, %lid : i64
  %4 = mux.sub_group_shuffle %idx, %lid : index
  %5 = mux.sub_group_shuffle %f16, %lid : f16
  %6 = mux.sub_group_shuffle %f32, %lid : f32
  %7 = mux.sub_group_shuffle %f64, %lid : f64
  func.return
}

// -----

// shuffle_up takes the previous and the current values, of one type.
// CHECK-LABEL: func.func @shuffle_up
func.func @shuffle_up(%a: i32, %b: i32, %x: i64, %h: f16, %d: f64, %delta: i32) {
  // CHECK-NEXT: %{{.*}} = mux.sub_group_shuffle_up %a, %b, %delta : i32
  // CHECK-NEXT: %{{.*}} = mux.sub_group_shuffle_up %x, %x, %delta : i64
  // CHECK-NEXT: %{{.*}} = mux.sub_group_shuffle_up %h, %h, %delta : f16
  // CHECK-NEXT: %{{.*}} = mux.sub_group_shuffle_up %d, %d, %delta : f64
  // CHECK-NEXT: func.return
  %0 = mux.sub_group_shuffle_up %a, %b, %delta : i32
  %1 = mux.sub_group_shuffle_up %x, %x, %delta : i64
  %2 = mux.sub_group_shuffle_up %h, %h, %delta : f16
  %3 = mux.sub_group_shuffle_up %d, %d, %delta : f64
  func.return
}

// -----

// shuffle_down takes the current and the next values, of one type.
// CHECK-LABEL: func.func @shuffle_down
func.func @shuffle_down(%a: f32, %b: f32, %x: i8, %i: index, %c: i1, %delta: i32) {
  // CHECK-NEXT: %{{.*}} = mux.sub_group_shuffle_down %a, %b, %delta : f32
  // CHECK-NEXT: %{{.*}} = mux.sub_group_shuffle_down %x, %x, %delta : i8
  // CHECK-NEXT: %{{.*}} = mux.sub_group_shuffle_down %i, %i, %delta : index
  // CHECK-NEXT: %{{.*}} = mux.sub_group_shuffle_down %c, %c, %delta : i1
  // CHECK-NEXT: func.return
  %0 = mux.sub_group_shuffle_down %a, %b, %delta : f32
  %1 = mux.sub_group_shuffle_down %x, %x, %delta : i8
  %2 = mux.sub_group_shuffle_down %i, %i, %delta : index
  %3 = mux.sub_group_shuffle_down %c, %c, %delta : i1
  func.return
}

// -----

// CHECK-LABEL: func.func @shuffle_xor
func.func @shuffle_xor(%i16: i16, %i32: i32, %i64: i64, %f32: f32, %f64: f64, %mask: i32) {
  // CHECK-NEXT: %{{.*}} = mux.sub_group_shuffle_xor %i16, %mask : i16
  // CHECK-NEXT: %{{.*}} = mux.sub_group_shuffle_xor %i32, %mask : i32
  // CHECK-NEXT: %{{.*}} = mux.sub_group_shuffle_xor %i64, %mask : i64
  // CHECK-NEXT: %{{.*}} = mux.sub_group_shuffle_xor %f32, %mask : f32
  // CHECK-NEXT: %{{.*}} = mux.sub_group_shuffle_xor %f64, %mask : f64
  // CHECK-NEXT: func.return
  %0 = mux.sub_group_shuffle_xor %i16, %mask : i16
  %1 = mux.sub_group_shuffle_xor %i32, %mask : i32
  %2 = mux.sub_group_shuffle_xor %i64, %mask : i64
  %3 = mux.sub_group_shuffle_xor %f32, %mask : f32
  %4 = mux.sub_group_shuffle_xor %f64, %mask : f64
  func.return
}

// -----

// A butterfly: the result of one shuffle feeds the next; the lane is a constant or
// a query's result.
// CHECK-LABEL: func.func @butterfly
func.func @butterfly(%x: f32) -> f32 {
  // CHECK: %[[ONE:.*]] = arith.constant 1 : i32
  // CHECK-NEXT: %[[LID:.*]] = mux.get_sub_group_local_id
  // CHECK-NEXT: %[[A:.*]] = mux.sub_group_shuffle_xor %x, %[[ONE]] : f32
  // CHECK-NEXT: %[[B:.*]] = mux.sub_group_shuffle %[[A]], %[[LID]] : f32
  // CHECK-NEXT: %[[C:.*]] = mux.sub_group_shuffle_up %[[A]], %[[B]], %[[ONE]] : f32
  // CHECK-NEXT: %[[D:.*]] = mux.sub_group_shuffle_down %[[C]], %[[B]], %[[ONE]] : f32
  // CHECK-NEXT: func.return %[[D]] : f32
  %one = arith.constant 1 : i32
  %lid = mux.get_sub_group_local_id
  %0 = mux.sub_group_shuffle_xor %x, %one : f32
  %1 = mux.sub_group_shuffle %0, %lid : f32
  %2 = mux.sub_group_shuffle_up %0, %1, %one : f32
  %3 = mux.sub_group_shuffle_down %2, %1, %one : f32
  func.return %3 : f32
}

// -----

// The generic form prints in the custom form.
// CHECK-LABEL: func.func @generic_form
func.func @generic_form(%x: i32, %y: f64, %l: i32) {
  // CHECK-NEXT: %{{.*}} = mux.sub_group_shuffle %x, %l : i32
  // CHECK-NEXT: %{{.*}} = mux.sub_group_shuffle_up %y, %y, %l : f64
  // CHECK-NEXT: %{{.*}} = mux.sub_group_shuffle_down %x, %x, %l : i32
  // CHECK-NEXT: %{{.*}} = mux.sub_group_shuffle_xor %y, %l : f64
  // CHECK-NEXT: func.return
  %0 = "mux.sub_group_shuffle"(%x, %l) : (i32, i32) -> i32
  %1 = "mux.sub_group_shuffle_up"(%y, %y, %l) : (f64, f64, i32) -> f64
  %2 = "mux.sub_group_shuffle_down"(%x, %x, %l) : (i32, i32, i32) -> i32
  %3 = "mux.sub_group_shuffle_xor"(%y, %l) : (f64, i32) -> f64
  func.return
}
