// Every family lower-to-mux-builtins maps, called from OpenCL C 2.0 with
// cl_khr_subgroups (tests/filecheck/import/builtin_families.mlir).
__kernel void families(__global int *out, __global const float *in,
                       __local float *tile, __global int *counter) {
  size_t i = get_global_id(0);
  out[i] = (int)(get_local_id(0) + get_group_id(1) + get_num_groups(2)
                 + get_global_size(0) + get_local_size(1) + get_work_dim()
                 + get_global_offset(0) + get_enqueued_local_size(0)
                 + get_global_linear_id() + get_local_linear_id());
  barrier(CLK_LOCAL_MEM_FENCE);
  work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_device);
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_release,
                         memory_scope_work_group);
  int v = out[i];
  out[i] += work_group_reduce_add(v) + work_group_scan_inclusive_max(v)
            + work_group_broadcast(v, 0) + work_group_any(v) + work_group_all(v);
  out[i] += sub_group_reduce_min(v) + sub_group_scan_exclusive_add(v)
            + sub_group_broadcast(v, 1) + (int)get_sub_group_id()
            + (int)get_sub_group_local_id() + (int)get_sub_group_size();
  sub_group_barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(tile, in, 16, 0);
  wait_group_events(1, &e);
  atomic_inc(counter);
  atomic_fetch_add_explicit((volatile __global atomic_int *)counter, 2,
                            memory_order_relaxed, memory_scope_device);
}
