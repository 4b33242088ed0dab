// vadd(a, b, c): c = a + b, element-wise over a 1-D range of f32.
//
// One work-item per element: the kernel body is what a single work-item does; the
// compiler adds the loops over work-items and work-groups. The OpenCL C twin of
// vadd.mlir.
//
// Preconditions (any dimensions: only the global id in x indexes):
//   a, b, c: global_offset(0) + global_size(0) elements
__kernel void vadd(__global const float *a, __global const float *b,
                   __global float *c)
{
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}
