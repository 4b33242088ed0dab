// sgemm_naive: C = A * B, n x n row-major, one work-item per element of C, k in
// order, no local memory (examples/sgemm_naive.mlir).
__kernel void sgemm_naive(__global const float *a, __global const float *b,
                          __global float *c, ulong n) {
  size_t col = get_global_id(0);
  size_t row = get_global_id(1);
  if (row < n && col < n) {
    float sum = 0.0f;
    for (size_t k = 0; k < n; k++)
      sum += a[row * n + k] * b[k * n + col];
    c[row * n + col] = sum;
  }
}
