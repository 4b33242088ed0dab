// reduce(input, partial, scratch): one partial sum of f32 per work-group.
//
// Each work-item copies its element into local memory (`scratch`, a __local pointer
// parameter: one float per work-item, its size set by the caller), then a tree
// reduction halves the number of active work-items at each step, with a work-group
// barrier between steps. Work-item 0 writes the group's sum to partial[group_id]. Any
// local size works, including one that does not divide the global size (the last
// work-group is smaller). The OpenCL C twin of reduce.mlir; its barriers' ids (0, 1)
// have no OpenCL C spelling: the compiler numbers barrier() calls itself.
//
// Preconditions (a work-group is never larger than the range):
//   input: global_offset(0) + global_size(0) elements
//   partial: ceil(global_size(0) / local_size(0)) elements, one per work-group in x
//   scratch: 4 * min(local_size(0), global_size(0)) bytes
__kernel void reduce(__global const float *input, __global float *partial,
                     __local float *scratch)
{
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
