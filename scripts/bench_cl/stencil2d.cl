// stencil2d: 5-point average with clamped borders, one work-item per pixel
// (examples/stencil2d.mlir):
// out[y][x] = (in[y-1][x] + in[y][x-1] + in[y][x] + in[y][x+1] + in[y+1][x]) * 0.2f.
__kernel void stencil2d(__global const float *input, __global float *output,
                        ulong width, ulong height) {
  size_t x = get_global_id(0);
  size_t y = get_global_id(1);
  if (x < width && y < height) {
    size_t left = x > 0 ? x - 1 : 0;
    size_t right = x + 1 < width ? x + 1 : width - 1;
    size_t up = y > 0 ? y - 1 : 0;
    size_t down = y + 1 < height ? y + 1 : height - 1;
    output[y * width + x] =
        (input[up * width + x] + input[y * width + left] + input[y * width + x] +
         input[y * width + right] + input[down * width + x]) *
        0.2f;
  }
}
