/* sgemm: C = A * B for n x n row-major f32 matrices, the loop order a C programmer
   writes for speed (i, k, j: the inner loop runs along rows of B and C, contiguous,
   and vectorises). The same C is the reference of both sgemm_tiled and sgemm_naive. */
void sgemm(const float *restrict a, const float *restrict b, float *restrict c,
           long n) {
#pragma omp parallel for
  for (long i = 0; i < n; i++) {
    float *restrict row = c + i * n;
    for (long j = 0; j < n; j++)
      row[j] = 0.0f;
    for (long k = 0; k < n; k++) {
      float aik = a[i * n + k];
      const float *restrict brow = b + k * n;
      for (long j = 0; j < n; j++)
        row[j] += aik * brow[j];
    }
  }
}
