typedef unsigned int uint; typedef unsigned long size_t; typedef uint cl_mem_fence_flags;
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void local_rev(__global const float *in, __global float *out) {
  __local float tile[64];
  size_t l = get_local_id(0), g = get_global_id(0);
  tile[l] = in[g];
  barrier(1);
  out[g] = tile[63 - l];
}
