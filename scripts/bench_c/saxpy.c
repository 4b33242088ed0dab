/* saxpy: y = alpha * x + y (examples/saxpy.mlir). */
void saxpy(float alpha, const float *restrict x, float *restrict y, long n) {
#pragma omp parallel for
  for (long i = 0; i < n; i++)
    y[i] = alpha * x[i] + y[i];
}
