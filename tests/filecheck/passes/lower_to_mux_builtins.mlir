// RUN: mux-opt %s -p lower-to-mux-builtins | filecheck %s
//
// lower-to-mux-builtins: OpenCL's work-item functions, by their mangled names,
// become mux queries; a size_t result (i64 on spir64, i32 on spir) is cast from the
// op's index. get_enqueued_num_sub_groups has no op: the enqueued work-group's
// items over the maximum sub-group size, rounded up. A function the pass does not
// know (sqrt: the maths library's) stays a call, with its declaration; the others'
// declarations go.
// CHECK:      builtin.module {
// CHECK-NEXT:   func.func private @_Z4sqrtf(f32) -> f32
// CHECK-NEXT:   func.func @queries
// CHECK: %c0 = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: %{{[0-9]+}} = mux.get_global_id %c0
// CHECK-NEXT: %{{[0-9]+}} = arith.index_cast %{{[0-9]+}} : index to i64
// CHECK-NEXT: %{{[0-9]+}} = mux.get_local_id %dim
// CHECK-NEXT: %{{[0-9]+}} = arith.index_cast %{{[0-9]+}} : index to i64
// CHECK-NEXT: %{{[0-9]+}} = mux.get_group_id %c0
// CHECK-NEXT: %{{[0-9]+}} = arith.index_cast %{{[0-9]+}} : index to i64
// CHECK-NEXT: %{{[0-9]+}} = mux.get_global_size %c0
// CHECK-NEXT: %{{[0-9]+}} = arith.index_cast %{{[0-9]+}} : index to i64
// CHECK-NEXT: %{{[0-9]+}} = mux.get_local_size %c0
// CHECK-NEXT: %{{[0-9]+}} = arith.index_cast %{{[0-9]+}} : index to i32
// CHECK-NEXT: %{{[0-9]+}} = mux.get_enqueued_local_size %c0
// CHECK-NEXT: %{{[0-9]+}} = arith.index_cast %{{[0-9]+}} : index to i64
// CHECK-NEXT: %{{[0-9]+}} = mux.get_num_groups %c0
// CHECK-NEXT: %{{[0-9]+}} = arith.index_cast %{{[0-9]+}} : index to i64
// CHECK-NEXT: %{{[0-9]+}} = mux.get_global_offset %c0
// CHECK-NEXT: %{{[0-9]+}} = arith.index_cast %{{[0-9]+}} : index to i64
// CHECK-NEXT: %{{[0-9]+}} = mux.get_work_dim
// CHECK-NEXT: %{{[0-9]+}} = mux.get_global_linear_id
// CHECK-NEXT: %{{[0-9]+}} = arith.index_cast %{{[0-9]+}} : index to i64
// CHECK-NEXT: %{{[0-9]+}} = mux.get_local_linear_id
// CHECK-NEXT: %{{[0-9]+}} = arith.index_cast %{{[0-9]+}} : index to i64
// CHECK-NEXT: %{{[0-9]+}} = mux.get_sub_group_size
// CHECK-NEXT: %{{[0-9]+}} = mux.get_max_sub_group_size
// CHECK-NEXT: %{{[0-9]+}} = mux.get_num_sub_groups
// CHECK-NEXT: %{{[0-9]+}} = arith.constant 1 : index
// CHECK-NEXT: %{{[0-9]+}} = arith.constant 0 : i32
// CHECK-NEXT: %{{[0-9]+}} = mux.get_enqueued_local_size %{{[0-9]+}}
// CHECK-NEXT: %{{[0-9]+}} = arith.muli %{{[0-9]+}}, %{{[0-9]+}} : index
// CHECK-NEXT: %{{[0-9]+}} = arith.constant 1 : i32
// CHECK-NEXT: %{{[0-9]+}} = mux.get_enqueued_local_size %{{[0-9]+}}
// CHECK-NEXT: %{{[0-9]+}} = arith.muli %{{[0-9]+}}, %{{[0-9]+}} : index
// CHECK-NEXT: %{{[0-9]+}} = arith.constant 2 : i32
// CHECK-NEXT: %{{[0-9]+}} = mux.get_enqueued_local_size %{{[0-9]+}}
// CHECK-NEXT: %{{[0-9]+}} = arith.muli %{{[0-9]+}}, %{{[0-9]+}} : index
// CHECK-NEXT: %{{[0-9]+}} = arith.index_cast %{{[0-9]+}} : index to i32
// CHECK-NEXT: %{{[0-9]+}} = mux.get_max_sub_group_size
// CHECK-NEXT: %{{[0-9]+}} = arith.addi %{{[0-9]+}}, %{{[0-9]+}} : i32
// CHECK-NEXT: %{{[0-9]+}} = arith.constant 1 : i32
// CHECK-NEXT: %{{[0-9]+}} = arith.subi %{{[0-9]+}}, %{{[0-9]+}} : i32
// CHECK-NEXT: %{{[0-9]+}} = arith.divui %{{[0-9]+}}, %{{[0-9]+}} : i32
// CHECK-NEXT: %{{[0-9]+}} = mux.get_sub_group_id
// CHECK-NEXT: %{{[0-9]+}} = mux.get_sub_group_local_id
// CHECK-NEXT: %{{[0-9]+}} = func.call @_Z4sqrtf(%x) : (f32) -> f32
// CHECK-NEXT: func.return

func.func private @_Z13get_global_idj(i32) -> i64
func.func private @_Z12get_local_idj(i32) -> i64
func.func private @_Z12get_group_idj(i32) -> i64
func.func private @_Z15get_global_sizej(i32) -> i64
func.func private @_Z14get_local_sizej(i32) -> i32
func.func private @_Z23get_enqueued_local_sizej(i32) -> i64
func.func private @_Z14get_num_groupsj(i32) -> i64
func.func private @_Z17get_global_offsetj(i32) -> i64
func.func private @_Z12get_work_dimv() -> i32
func.func private @_Z20get_global_linear_idv() -> i64
func.func private @_Z19get_local_linear_idv() -> i64
func.func private @_Z18get_sub_group_sizev() -> i32
func.func private @_Z22get_max_sub_group_sizev() -> i32
func.func private @_Z18get_num_sub_groupsv() -> i32
func.func private @_Z27get_enqueued_num_sub_groupsv() -> i32
func.func private @_Z16get_sub_group_idv() -> i32
func.func private @_Z22get_sub_group_local_idv() -> i32
func.func private @_Z4sqrtf(f32) -> f32

func.func @queries(%dim: i32, %x: f32) attributes {mux.kernel = "entry-point"} {
  %c0 = llvm.mlir.constant(0 : i32) : i32
  %0 = func.call @_Z13get_global_idj(%c0) : (i32) -> i64
  %1 = func.call @_Z12get_local_idj(%dim) : (i32) -> i64
  %2 = func.call @_Z12get_group_idj(%c0) : (i32) -> i64
  %3 = func.call @_Z15get_global_sizej(%c0) : (i32) -> i64
  %4 = func.call @_Z14get_local_sizej(%c0) : (i32) -> i32
  %5 = func.call @_Z23get_enqueued_local_sizej(%c0) : (i32) -> i64
  %6 = func.call @_Z14get_num_groupsj(%c0) : (i32) -> i64
  %7 = func.call @_Z17get_global_offsetj(%c0) : (i32) -> i64
  %8 = func.call @_Z12get_work_dimv() : () -> i32
  %9 = func.call @_Z20get_global_linear_idv() : () -> i64
  %10 = func.call @_Z19get_local_linear_idv() : () -> i64
  %11 = func.call @_Z18get_sub_group_sizev() : () -> i32
  %12 = func.call @_Z22get_max_sub_group_sizev() : () -> i32
  %13 = func.call @_Z18get_num_sub_groupsv() : () -> i32
  %14 = func.call @_Z27get_enqueued_num_sub_groupsv() : () -> i32
  %15 = func.call @_Z16get_sub_group_idv() : () -> i32
  %16 = func.call @_Z22get_sub_group_local_idv() : () -> i32
  %17 = func.call @_Z4sqrtf(%x) : (f32) -> f32
  func.return
}

