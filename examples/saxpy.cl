// saxpy(alpha, x, y): y = alpha * x + y over a 1-D range of f32.
//
// The OpenCL C twin of saxpy.mlir, which multiplies and then adds, each rounded to
// f32. OpenCL C lets the compiler contract `alpha * x[i] + y[i]` into one fused
// multiply-add (rounded once, so the last bit may differ): FP_CONTRACT OFF keeps the
// two roundings.
//
// Preconditions (any dimensions: only the global id in x indexes):
//   x, y: global_offset(0) + global_size(0) elements
#pragma OPENCL FP_CONTRACT OFF

__kernel void saxpy(float alpha, __global const float *x, __global float *y)
{
    size_t i = get_global_id(0);
    y[i] = alpha * x[i] + y[i];
}
