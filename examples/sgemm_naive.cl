// sgemm_naive(a, b, c, n): C = A * B for square n x n matrices of f32, row-major,
// the straightforward way: one work-item per element of C, no local memory.
//
// Launch: a 2-D range (x: a column of C, y: a row of C), no global offset. Work-item
// (col, row) walks along k and accumulates A[row][k] * B[k][col], k in order, then
// writes C[row][col]. Any local size and any global size work: work-items outside the
// matrix do nothing.
//
// The OpenCL C twin of sgemm_naive.mlir. `n` is its `index`: a ulong, as OpenCL C
// forbids size_t parameters. FP_CONTRACT OFF keeps the MLIR's separate multiply and
// add (a fused multiply-add would round once and may change the last bit).
//
// Preconditions (n read as unsigned; work-items outside the matrix, offsets included,
// read and write nothing: with row and col the last row and column of the matrix the
// range reaches, n * n elements are always enough):
//   c: row * n + col + 1 elements
//   a: row * n + n elements
//   b: (n - 1) * n + col + 1 elements
#pragma OPENCL FP_CONTRACT OFF

__kernel void sgemm_naive(__global const float *a, __global const float *b,
                          __global float *c, ulong n)
{
    size_t col = get_global_id(0);
    size_t row = get_global_id(1);
    if (row < n && col < n) {
        float sum = 0.0f;
        for (size_t k = 0; k < n; ++k)
            sum += a[row * n + k] * b[k * n + col];
        c[row * n + col] = sum;
    }
}
