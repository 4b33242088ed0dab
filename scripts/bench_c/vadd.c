/* vadd: c = a + b, element-wise (examples/vadd.mlir). */
void vadd(const float *restrict a, const float *restrict b, float *restrict c,
          long n) {
#pragma omp parallel for
  for (long i = 0; i < n; i++)
    c[i] = a[i] + b[i];
}
