// RUN: mux-opt %s --split-input-file --verify-diagnostics -p lower-to-mux-builtins | filecheck %s
//
// lower-to-mux-builtins rejects a builtin it knows but cannot lower: a declaration
// without the builtin's types, an operation the value's type does not have, and a
// call whose flags, memory order or scope is not a constant of its enum.

// A size_t result must be i32 or i64.
func.func private @_Z13get_global_idj(i32) -> f32
// CHECK: lower-to-mux-builtins: @_Z13get_global_idj is get_global_id(uint): its declaration must have an i32 or i64 result (size_t), got (i32) -> f32

// -----

// The dimension is a uint, i32.
func.func private @_Z12get_local_idj(i64) -> i64
// CHECK-NEXT: {{^}}//{{ }}-----
// CHECK-NEXT: lower-to-mux-builtins: @_Z12get_local_idj is get_local_id(uint): its declaration must have the parameters (i32), got (i64) -> i64

// -----

// A barrier returns nothing.
func.func private @_Z7barrierj(i32) -> i32
// CHECK-NEXT: {{^}}//{{ }}-----
// CHECK-NEXT: lower-to-mux-builtins: @_Z7barrierj is barrier(uint): its declaration must have no result, got (i32) -> i32

// -----

// A reduction returns its value's type.
func.func private @_Z21work_group_reduce_addf(f32) -> i32
// CHECK-NEXT: {{^}}//{{ }}-----
// CHECK-NEXT: lower-to-mux-builtins: @_Z21work_group_reduce_addf is work_group_reduce_add(float): its declaration must have the result f32, got (f32) -> i32

// -----

// No bitwise and of floats.
func.func private @_Z20sub_group_reduce_andf(f32) -> f32
// CHECK-NEXT: {{^}}//{{ }}-----
// CHECK-NEXT: lower-to-mux-builtins: @_Z20sub_group_reduce_andf is sub_group_reduce_and(float): and is not an operation on float

// -----

// The work-group functions take scalars.
func.func private @_Z21work_group_reduce_maxDv4_f(vector<4xf32>) -> vector<4xf32>
// CHECK-NEXT: {{^}}//{{ }}-----
// CHECK-NEXT: lower-to-mux-builtins: @_Z21work_group_reduce_maxDv4_f is work_group_reduce_max(float4): the group functions take a scalar value

// -----

// The flags of a barrier must be a constant: the barrier's memory is static.
func.func private @_Z7barrierj(i32)
func.func @dynamic_flags(%flags: i32) attributes {mux.kernel = "entry-point"} {
  func.call @_Z7barrierj(%flags) : (i32) -> ()
  func.return
}
// CHECK-NEXT: {{^}}//{{ }}-----
// CHECK-NEXT: lower-to-mux-builtins: call of barrier(uint) in 'dynamic_flags': the cl_mem_fence_flags argument must be a constant

// -----

// Flags beyond CLK_IMAGE_MEM_FENCE.
func.func private @_Z9mem_fencej(i32)
func.func @bad_flags() {
  %flags = llvm.mlir.constant(8 : i32) : i32
  func.call @_Z9mem_fencej(%flags) : (i32) -> ()
  func.return
}
// CHECK-NEXT: {{^}}//{{ }}-----
// CHECK-NEXT: lower-to-mux-builtins: call of mem_fence(uint) in 'bad_flags': 8 is not a cl_mem_fence_flags (a combination of CLK_LOCAL_MEM_FENCE 1, CLK_GLOBAL_MEM_FENCE 2, CLK_IMAGE_MEM_FENCE 4)

// -----

// A memory_scope that is not one.
func.func private @_Z18work_group_barrierj12memory_scope(i32, i32)
func.func @bad_scope() {
  %flags = llvm.mlir.constant(1 : i32) : i32
  %scope = llvm.mlir.constant(7 : i32) : i32
  func.call @_Z18work_group_barrierj12memory_scope(%flags, %scope) : (i32, i32) -> ()
  func.return
}
// CHECK-NEXT: {{^}}//{{ }}-----
// CHECK-NEXT: lower-to-mux-builtins: call of work_group_barrier(uint, memory_scope) in 'bad_scope': 7 is not a memory_scope (0, 1, 2, 3, 4)

// -----

// A memory_order that is not a constant.
func.func private @_Z22atomic_work_item_fencej12memory_order12memory_scope(i32, i32, i32)
func.func @dynamic_order(%order: i32) {
  %flags = llvm.mlir.constant(2 : i32) : i32
  %scope = llvm.mlir.constant(1 : i32) : i32
  func.call @_Z22atomic_work_item_fencej12memory_order12memory_scope(%flags, %order, %scope) : (i32, i32, i32) -> ()
  func.return
}
// CHECK-NEXT: {{^}}//{{ }}-----
// CHECK-NEXT: lower-to-mux-builtins: call of atomic_work_item_fence(uint, memory_order, memory_scope) in 'dynamic_order': the memory_order argument must be a constant

// -----

// wait_group_events names each event it waits on: num_events must be a constant.
func.func private @_Z17wait_group_eventsiP9ocl_event(i32, !llvm.ptr)
func.func @dynamic_events(%n: i32, %events: !llvm.ptr) {
  func.call @_Z17wait_group_eventsiP9ocl_event(%n, %events) : (i32, !llvm.ptr) -> ()
  func.return
}
// CHECK-NEXT: {{^}}//{{ }}-----
// CHECK-NEXT: lower-to-mux-builtins: call of wait_group_events(int, event_t *) in 'dynamic_events': num_events must be a constant (mux.dma_wait names each event it waits on)

// -----

// An async copy is between global and local memory.
func.func private @_Z21async_work_group_copyPU3AS1fPU3AS1Kfm9ocl_event(!llvm.ptr<1>, !llvm.ptr<1>, i64, !llvm.ptr) -> !llvm.ptr
// CHECK-NEXT: {{^}}//{{ }}-----
// CHECK-NEXT: lower-to-mux-builtins: @_Z21async_work_group_copyPU3AS1fPU3AS1Kfm9ocl_event is async_work_group_copy(__global float *, __global const float *, ulong, event_t): a copy is from __global to __local memory or back

// -----

// An event is an !llvm.ptr (as the importer types event_t).
func.func private @_Z21async_work_group_copyPU3AS3fPU3AS1Kfm9ocl_event(!llvm.ptr<3>, !llvm.ptr<1>, i64, i32) -> i32
// CHECK-NEXT: {{^}}//{{ }}-----
// CHECK-NEXT: lower-to-mux-builtins: @_Z21async_work_group_copyPU3AS3fPU3AS1Kfm9ocl_event is async_work_group_copy(__local float *, __global const float *, ulong, event_t): its declaration must have the parameters (!llvm.ptr<3>, !llvm.ptr<1>, i64, !llvm.ptr), got (!llvm.ptr<3>, !llvm.ptr<1>, i64, i32) -> i32
