// RUN: mux-opt %s -p lower-to-mux-builtins | filecheck %s
//
// lower-to-mux-builtins: OpenCL 2.0's work-group functions and cl_khr_subgroups'
// sub-group functions become the mux collectives. The value's type picks the
// operation (uint min: umin, float max: fmax, ...); all, any and the logical
// operations take an int predicate (non-zero: true) and return an int;
// work_group_broadcast's missing local ids are 0.
// CHECK-LABEL: func.func @groups
// CHECK: %{{[0-9]+}} = arith.constant 0 : i32
// CHECK-NEXT: %{{[0-9]+}} = arith.cmpi ne, %p, %{{[0-9]+}} : i32
// CHECK-NEXT: %{{[0-9]+}} = mux.work_group_all id(0) %{{[0-9]+}}
// CHECK-NEXT: %{{[0-9]+}} = arith.extui %{{[0-9]+}} : i1 to i32
// CHECK-NEXT: %{{[0-9]+}} = arith.constant 0 : i32
// CHECK-NEXT: %{{[0-9]+}} = arith.cmpi ne, %p, %{{[0-9]+}} : i32
// CHECK-NEXT: %{{[0-9]+}} = mux.work_group_any id(0) %{{[0-9]+}}
// CHECK-NEXT: %{{[0-9]+}} = arith.extui %{{[0-9]+}} : i1 to i32
// CHECK-NEXT: %{{[0-9]+}} = arith.index_cast %x : i64 to index
// CHECK-NEXT: %{{[0-9]+}} = arith.constant 0 : index
// CHECK-NEXT: %{{[0-9]+}} = mux.work_group_broadcast id(0) %f, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : f32
// CHECK-NEXT: %{{[0-9]+}} = arith.index_cast %x : i64 to index
// CHECK-NEXT: %{{[0-9]+}} = arith.index_cast %y : i64 to index
// CHECK-NEXT: %{{[0-9]+}} = arith.constant 0 : index
// CHECK-NEXT: %{{[0-9]+}} = mux.work_group_broadcast id(0) %p, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : i32
// CHECK-NEXT: %{{[0-9]+}} = mux.work_group_reduce add id(0) %p : i32
// CHECK-NEXT: %{{[0-9]+}} = mux.work_group_reduce umin id(0) %p : i32
// CHECK-NEXT: %{{[0-9]+}} = mux.work_group_reduce fmax id(0) %f : f32
// CHECK-NEXT: %{{[0-9]+}} = mux.work_group_scan_inclusive add id(0) %l : i64
// CHECK-NEXT: %{{[0-9]+}} = mux.work_group_scan_exclusive fmin id(0) %d : f64
// CHECK-NEXT: %{{[0-9]+}} = arith.constant 0 : i32
// CHECK-NEXT: %{{[0-9]+}} = arith.cmpi ne, %p, %{{[0-9]+}} : i32
// CHECK-NEXT: %{{[0-9]+}} = mux.sub_group_all %{{[0-9]+}}
// CHECK-NEXT: %{{[0-9]+}} = arith.extui %{{[0-9]+}} : i1 to i32
// CHECK-NEXT: %{{[0-9]+}} = mux.sub_group_broadcast %f, %lane : f32
// CHECK-NEXT: %{{[0-9]+}} = mux.sub_group_reduce umax %l : i64
// CHECK-NEXT: %{{[0-9]+}} = mux.sub_group_scan_inclusive fadd %f : f32
// CHECK-NEXT: %{{[0-9]+}} = arith.constant 0 : i32
// CHECK-NEXT: %{{[0-9]+}} = arith.cmpi ne, %p, %{{[0-9]+}} : i32
// CHECK-NEXT: %{{[0-9]+}} = mux.sub_group_scan_exclusive logical_xor %{{[0-9]+}} : i1
// CHECK-NEXT: %{{[0-9]+}} = arith.extui %{{[0-9]+}} : i1 to i32
// CHECK-NEXT: %{{[0-9]+}} = mux.sub_group_shuffle %p, %lane : i32
// CHECK-NEXT: %{{[0-9]+}} = mux.sub_group_shuffle_xor %f, %lane : f32
// CHECK-NEXT: func.return

func.func private @_Z14work_group_alli(i32) -> i32
func.func private @_Z14work_group_anyi(i32) -> i32
func.func private @_Z20work_group_broadcastfm(f32, i64) -> f32
func.func private @_Z20work_group_broadcastimm(i32, i64, i64) -> i32
func.func private @_Z21work_group_reduce_addi(i32) -> i32
func.func private @_Z21work_group_reduce_minj(i32) -> i32
func.func private @_Z21work_group_reduce_maxf(f32) -> f32
func.func private @_Z29work_group_scan_inclusive_addl(i64) -> i64
func.func private @_Z29work_group_scan_exclusive_mind(f64) -> f64
func.func private @_Z13sub_group_alli(i32) -> i32
func.func private @_Z19sub_group_broadcastfj(f32, i32) -> f32
func.func private @_Z20sub_group_reduce_maxm(i64) -> i64
func.func private @_Z28sub_group_scan_inclusive_addf(f32) -> f32
func.func private @_Z36sub_group_scan_exclusive_logical_xori(i32) -> i32
func.func private @_Z17sub_group_shuffleij(i32, i32) -> i32
func.func private @_Z21sub_group_shuffle_xorfj(f32, i32) -> f32

func.func @groups(%p: i32, %f: f32, %l: i64, %d: f64, %x: i64, %y: i64, %lane: i32) attributes {mux.kernel = "entry-point"} {
  %0 = func.call @_Z14work_group_alli(%p) : (i32) -> i32
  %1 = func.call @_Z14work_group_anyi(%p) : (i32) -> i32
  %2 = func.call @_Z20work_group_broadcastfm(%f, %x) : (f32, i64) -> f32
  %3 = func.call @_Z20work_group_broadcastimm(%p, %x, %y) : (i32, i64, i64) -> i32
  %4 = func.call @_Z21work_group_reduce_addi(%p) : (i32) -> i32
  %5 = func.call @_Z21work_group_reduce_minj(%p) : (i32) -> i32
  %6 = func.call @_Z21work_group_reduce_maxf(%f) : (f32) -> f32
  %7 = func.call @_Z29work_group_scan_inclusive_addl(%l) : (i64) -> i64
  %8 = func.call @_Z29work_group_scan_exclusive_mind(%d) : (f64) -> f64
  %9 = func.call @_Z13sub_group_alli(%p) : (i32) -> i32
  %10 = func.call @_Z19sub_group_broadcastfj(%f, %lane) : (f32, i32) -> f32
  %11 = func.call @_Z20sub_group_reduce_maxm(%l) : (i64) -> i64
  %12 = func.call @_Z28sub_group_scan_inclusive_addf(%f) : (f32) -> f32
  %13 = func.call @_Z36sub_group_scan_exclusive_logical_xori(%p) : (i32) -> i32
  %14 = func.call @_Z17sub_group_shuffleij(%p, %lane) : (i32, i32) -> i32
  %15 = func.call @_Z21sub_group_shuffle_xorfj(%f, %lane) : (f32, i32) -> f32
  func.return
}

