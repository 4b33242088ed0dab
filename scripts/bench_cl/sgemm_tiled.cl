// sgemm_tiled: C = A * B, n x n row-major, through 16 x 16 tiles of A and B in local
// memory, two barriers per tile (examples/sgemm_tiled.mlir, the same algorithm; the
// benchmark launches it on full 16 x 16 work-groups, n a multiple of 16).
#define TILE 16

__kernel void sgemm_tiled(__global const float *a, __global const float *b,
                          __global float *c, ulong n) {
  __local float tile_a[TILE][TILE];
  __local float tile_b[TILE][TILE];
  size_t col = get_global_id(0);
  size_t row = get_global_id(1);
  size_t lx = get_local_id(0);
  size_t ly = get_local_id(1);
  float sum = 0.0f;
  for (size_t k0 = 0; k0 < n; k0 += TILE) {
    tile_a[ly][lx] = row < n && k0 + lx < n ? a[row * n + k0 + lx] : 0.0f;
    tile_b[ly][lx] = k0 + ly < n && col < n ? b[(k0 + ly) * n + col] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; k++)
      sum += tile_a[ly][k] * tile_b[k][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (row < n && col < n)
    c[row * n + col] = sum;
}
