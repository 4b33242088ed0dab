// saxpy: y = alpha * x + y, one work-item per element (examples/saxpy.mlir).
__kernel void saxpy(float alpha, __global const float *x, __global float *y) {
  size_t i = get_global_id(0);
  y[i] = alpha * x[i] + y[i];
}
