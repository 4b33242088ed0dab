// transpose: output[x][y] = input[y][x], through a 16 x 17 tile in local memory
// (examples/transpose.mlir, the same algorithm; the benchmark launches it on full
// 16 x 16 work-groups, width and height multiples of 16).
#define TILE 16

__kernel void transpose(__global const float *input, __global float *output,
                        ulong width, ulong height) {
  __local float tile[TILE][TILE + 1];
  size_t x = get_global_id(0);
  size_t y = get_global_id(1);
  size_t lx = get_local_id(0);
  size_t ly = get_local_id(1);
  tile[ly][lx] = input[y * width + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t x0 = x - lx;
  size_t y0 = y - ly;
  output[(x0 + ly) * height + y0 + lx] = tile[lx][ly];
}
