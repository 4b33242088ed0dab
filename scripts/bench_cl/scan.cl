// scan: inclusive prefix sums of int within each work-group, the work-efficient
// Brent-Kung scan in local memory (examples/scan.mlir, the same algorithm, and the
// same local array: room for the largest work-group, 1024 work-items).
__kernel void scan(__global const int *input, __global int *output) {
  __local int scratch[1024];
  size_t lid = get_local_id(0);
  size_t n = get_local_size(0);
  size_t gid = get_global_id(0);
  size_t lid2 = 2 * (lid + 1);
  scratch[lid] = input[gid];
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t d = 1;
  for (; d < n; d *= 2) {  // up-sweep
    size_t i = d * lid2 - 1;
    if (i < n)
      scratch[i] += scratch[i - d];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for (d /= 4; d > 0; d /= 2) {  // down-sweep
    size_t i = d * lid2 - 1;
    if (i + d < n)
      scratch[i + d] += scratch[i];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  output[gid] = scratch[lid];
}
