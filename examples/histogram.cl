// histogram(data, bins): a 256-bin histogram of u8 data, with atomic increments.
//
// One work-item per byte of `data`: it reads its byte (a uchar: 0xFF is bin 255, not
// -1) and adds 1 to that bin of `bins` with atomic_inc, an atomic read-modify-write on
// global memory. Work-groups run on several threads at once, and the work-items of one
// group may be vectorised: a plain `bins[b]++` would lose counts. `bins` must be zeroed
// first.
//
// Differences from histogram.mlir: its `bins` is a memref<256xi32, 1>, whose static
// 256 elements the runtime checks; an OpenCL C pointer parameter has no size, so here
// the 256 is this comment's and the caller's business. OpenCL 1.x's atomic_inc names
// no memory order; the MLIR's `monotonic` (relaxed) is all it needs (the counts are
// only read after the kernel has finished).
//
// Preconditions (bins has its static 256, which the runtime checks, and a zero-extended
// byte is below 256: no data value indexes outside it):
//   data: global_offset(0) + global_size(0) elements
__kernel void histogram(__global const uchar *data, __global uint *bins)
{
    size_t i = get_global_id(0);
    atomic_inc(&bins[data[i]]);
}
