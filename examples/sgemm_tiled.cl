// sgemm_tiled(a, b, c, n): C = A * B for square n x n matrices of f32, row-major,
// through 16 x 16 tiles in local memory.
//
// Launch: a 2-D range of n x n work-items (x: a column of C, y: a row of C) in
// work-groups of 16 x 16, no global offset. The tiles `tile_a` and `tile_b` are
// __local arrays of the kernel, one per work-group. Each work-item computes one
// element of C, its work-group one 16 x 16 block of C.
//
// The kernel walks along k one tile at a time; for tile t (k from 16t to 16t + 15) the
// work-group:
//   1. loads the 16 x 16 block of A at (its rows, the tile's k) into tile_a and the
//      block of B at (the tile's k, its columns) into tile_b, an element outside the
//      matrix being 0 (so it adds nothing);
//   2. waits at a barrier: the tiles are complete;
//   3. multiplies: each work-item adds the dot product of its row of tile_a and its
//      column of tile_b to its running sum;
//   4. waits at a second barrier: nobody loads the next tiles while others still read
//      these ones.
// At the end, each work-item inside the matrix writes its element of C.
//
// n need not be a multiple of 16: with a range of n x n the last work-groups are
// smaller (get_local_size is their actual size), so work-item l (its linear id in the
// group) loads elements l, l + count, l + 2 * count, ... of each tile, count being the
// number of work-items of the group; with a range rounded up to a multiple of 16, the
// work-items outside the matrix load zeros, wait at every barrier with the others and
// write nothing. Local sizes smaller than 16 x 16 work too.
//
// The OpenCL C twin of sgemm_tiled.mlir. `n` is its `index`: a ulong, as OpenCL C
// forbids size_t parameters. FP_CONTRACT OFF keeps the MLIR's separate multiply and
// add. Its barriers' ids (0, 1) have no OpenCL C spelling: the compiler numbers them.
//
// Preconditions (n read as unsigned; with row and col the last row and column of the
// matrix the range reaches, and r and k the last row and column the work-groups' tiles
// load below n, n * n elements are always enough):
//   local_size(0), local_size(1): at most 16 (the tiles are 16 x 16), or global_size in
//     that dimension (a work-group is never larger than the range)
//   c: row * n + col + 1 elements
//   a: r * n + n elements
//   b: (n - 1) * n + k + 1 elements
#pragma OPENCL FP_CONTRACT OFF

__kernel void sgemm_tiled(__global const float *a, __global const float *b,
                          __global float *c, ulong n)
{
    __local float tile_a[16][16];
    __local float tile_b[16][16];

    // This work-item's element of C, and its place in the work-group.
    size_t col = get_global_id(0);
    size_t row = get_global_id(1);
    size_t lx = get_local_id(0);
    size_t ly = get_local_id(1);
    size_t size_x = get_local_size(0);
    size_t size_y = get_local_size(1);
    size_t row0 = row - ly;
    size_t col0 = col - lx;
    size_t l = ly * size_x + lx;
    size_t count = size_x * size_y;
    size_t tiles = (n + 15) / 16;

    float sum = 0.0f;
    for (size_t t = 0; t < tiles; ++t) {
        size_t k0 = t * 16;

        // 1. Element (i, j) of each tile, for e = i * 16 + j = l, l + count, ...
        for (size_t e = l; e < 256; e += count) {
            size_t i = e / 16;
            size_t j = e % 16;
            size_t a_row = row0 + i;
            size_t a_col = k0 + j;
            tile_a[i][j] = a_row < n && a_col < n ? a[a_row * n + a_col] : 0.0f;
            size_t b_row = k0 + i;
            size_t b_col = col0 + j;
            tile_b[i][j] = b_row < n && b_col < n ? b[b_row * n + b_col] : 0.0f;
        }

        // 2. Wait until the whole work-group has loaded the tiles.
        barrier(CLK_LOCAL_MEM_FENCE);

        // 3. sum += row ly of tile_a . column lx of tile_b, k in order.
        for (size_t k = 0; k < 16; ++k)
            sum += tile_a[ly][k] * tile_b[k][lx];

        // 4. Wait until the whole work-group is done with the tiles.
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    if (row < n && col < n)
        c[row * n + col] = sum;
}
