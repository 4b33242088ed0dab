/* stencil2d: 5-point average with clamped borders (examples/stencil2d.mlir):
   out[y][x] = (in[y-1][x] + in[y][x-1] + in[y][x] + in[y][x+1] + in[y+1][x]) * 0.2f,
   a neighbour outside the image replaced by the nearest pixel of the image.

   Per row, the rows above and below are clamped once; the first and last columns are
   done apart from the inner ones, whose loop has no clamping and vectorises. */
static float average(const float *up, const float *row, const float *down, long x,
                     long left, long right) {
  return (up[x] + row[left] + row[x] + row[right] + down[x]) * 0.2f;
}

void stencil2d(const float *restrict input, float *restrict output, long width,
               long height) {
#pragma omp parallel for
  for (long y = 0; y < height; y++) {
    const float *row = input + y * width;
    const float *up = y > 0 ? row - width : row;
    const float *down = y < height - 1 ? row + width : row;
    float *out = output + y * width;
    out[0] = average(up, row, down, 0, 0, width > 1 ? 1 : 0);
    for (long x = 1; x < width - 1; x++)
      out[x] = (up[x] + row[x - 1] + row[x] + row[x + 1] + down[x]) * 0.2f;
    if (width > 1)
      out[width - 1] = average(up, row, down, width - 1, width - 2, width - 1);
  }
}
