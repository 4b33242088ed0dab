// scan(input, output): inclusive prefix sums of i32 within each work-group.
//
// output[i] = input[g] + input[g + 1] + ... + input[i], where g is the first global id
// of i's work-group: the scan restarts at each work-group. 1-D range, no global offset.
// `scratch` is a __local array of the kernel (the MLIR's module-scope memref.global in
// address space 3): room for one int per work-item of the largest work-group the
// device runs, 1024.
//
// The work-efficient scan (Brent-Kung, the up-sweep of Blelloch's scan followed by an
// inclusive down-sweep), in `scratch`. Any local size up to 1024 works, powers of two
// or not, and so does a last work-group smaller than the others (get_local_size is the
// actual size of the group). With s = scratch and n = get_local_size(0):
//
//   0. Load: s[lid] = input[gid]. Barrier.
//   1. Up-sweep: for d = 1, 2, 4, ... while d < n, the work-item with
//      i = 2d * (lid + 1) - 1 < n adds s[i - d] into s[i]. Barrier after each step.
//   2. Down-sweep: for d = p/4, ..., 2, 1 (p: the first power of two >= n, where the
//      up-sweep stopped), the work-item with i = 2d * (lid + 1) - 1 adds s[i] into
//      s[i + d] if i + d < n. Barrier after each step.
//   3. Store: output[gid] = s[lid].
//
// The OpenCL C twin of scan.mlir. One difference: the MLIR's i32 additions wrap on
// overflow, OpenCL C's int additions have undefined behaviour there (sums that fit in
// an int are the same).
//
// Preconditions (scratch is static: 1024 i32, the device's largest work-group):
//   input, output: global_offset(0) + global_size(0) elements
__kernel void scan(__global const int *input, __global int *output)
{
    __local int scratch[1024];
    size_t gid = get_global_id(0);
    size_t lid = get_local_id(0);
    size_t n = get_local_size(0);
    size_t lid2 = 2 * (lid + 1);

    scratch[lid] = input[gid];
    barrier(CLK_LOCAL_MEM_FENCE);

    size_t d = 1;
    for (; d < n; d *= 2) {
        size_t i = d * lid2 - 1;
        if (i < n)
            scratch[i] += scratch[i - d];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (d /= 4; d > 0; d /= 2) {
        size_t i = d * lid2 - 1;
        if (i + d < n)
            scratch[i + d] += scratch[i];
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    output[gid] = scratch[lid];
}
