// reduce: one partial sum per work-group, a tree in local memory with a barrier
// between steps (examples/reduce.mlir, the same algorithm).
__kernel void reduce(__global const float *input, __global float *partial,
                     __local float *scratch) {
  size_t lid = get_local_id(0);
  size_t lsize = get_local_size(0);
  scratch[lid] = input[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t stride = 1; stride < lsize; stride *= 2) {
    if (lid % (2 * stride) == 0 && lid + stride < lsize)
      scratch[lid] += scratch[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    partial[get_group_id(0)] = scratch[0];
}
