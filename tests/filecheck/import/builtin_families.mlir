// From OpenCL C 2.0 through clang, the importer, lower-to-mux-builtins and
// replace-atomic-funcs: one call of each family becomes its mux (or atomic) op.
// RUN: mux-opt %S/Inputs/builtin_families.cl --build-options=-cl-std=CL2.0 -p lower-to-mux-builtins,replace-atomic-funcs | filecheck %s
// A call lower-to-mux-builtins cannot map is refused at its OpenCL C line.
// RUN: not mux-opt %S/Inputs/wait_variable.cl -p lower-to-mux-builtins 2>&1 | filecheck %s --check-prefix=REFUSED

// Work-item functions.
// CHECK: mux.get_global_id
// CHECK: mux.get_local_id
// CHECK: mux.get_group_id
// CHECK: mux.get_num_groups
// CHECK: mux.get_global_size
// CHECK: mux.get_local_size
// CHECK: mux.get_work_dim
// CHECK: mux.get_global_offset
// CHECK: mux.get_enqueued_local_size
// CHECK: mux.get_global_linear_id
// CHECK: mux.get_local_linear_id
// Barriers and fences: flags and scopes become the spec's scope and semantics.
// CHECK: mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
// CHECK: mux.work_group_barrier id(0) scope(device) semantics(acq_rel | cross_work_group_memory)
// CHECK: mux.mem_barrier scope(work_group) semantics(acq_rel | cross_work_group_memory)
// CHECK: mux.mem_barrier scope(work_group) semantics(release | work_group_memory)
// Work-group functions.
// CHECK: mux.work_group_reduce add
// CHECK: mux.work_group_scan_inclusive smax
// CHECK: mux.work_group_broadcast
// CHECK: mux.work_group_any
// CHECK: mux.work_group_all
// Sub-group functions.
// CHECK: mux.sub_group_reduce smin
// CHECK: mux.sub_group_scan_exclusive add
// CHECK: mux.sub_group_broadcast
// CHECK: mux.get_sub_group_id
// CHECK: mux.get_sub_group_local_id
// CHECK: mux.get_sub_group_size
// CHECK: mux.sub_group_barrier id(0) scope(sub_group) semantics(acq_rel | work_group_memory)
// DMA: a copy into local memory and the wait on its event.
// CHECK: mux.dma_read_1d
// CHECK: mux.dma_wait
// Atomics: OpenCL 1.x's atomic_inc and 2.0's atomic_fetch_add_explicit (a generic
// pointer), by replace-atomic-funcs.
// CHECK: atomic.rmw add monotonic %{{.*}}, %{{.*}} : !llvm.ptr<1>, i32
// CHECK: atomic.rmw add monotonic %{{.*}}, %{{.*}} : !llvm.ptr<4>, i32
// CHECK-NOT: func.call @_Z

// REFUSED: wait_variable.cl:6:3: error: func.call: lower-to-mux-builtins: call of wait_group_events(int, event_t *) in 'k': num_events must be a constant
// REFUSED-NEXT: wait_group_events(n, e);
