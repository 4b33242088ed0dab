/* transpose: output[x][y] = input[y][x] for a row-major image of `height` rows of
   `width` elements (examples/transpose.mlir), in 16 x 16 blocks: a block of 16 rows
   of input is read row by row and written column by column, and both fit in cache. */
#define TILE 16

void transpose(const float *restrict input, float *restrict output, long width,
               long height) {
#pragma omp parallel for
  for (long y0 = 0; y0 < height; y0 += TILE) {
    long y1 = y0 + TILE < height ? y0 + TILE : height;
    for (long x0 = 0; x0 < width; x0 += TILE) {
      long x1 = x0 + TILE < width ? x0 + TILE : width;
      for (long x = x0; x < x1; x++)
        for (long y = y0; y < y1; y++)
          output[x * height + y] = input[y * width + x];
    }
  }
}
