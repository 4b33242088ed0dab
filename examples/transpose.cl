// transpose(input, output, width, height): output = the transpose of input, through a
// tile in local memory.
//
// `input` is a row-major f32 image of `height` rows of `width` elements; `output` gets
// `width` rows of `height` elements: output[x][y] = input[y][x]. Launch: a 2-D range of
// width x height work-items (x: a column of input, y: a row of input), work-groups of
// 16 x 16 (or smaller: at most 16 in each dimension), no global offset.
//
// The work-group goes through a tile in local memory, so that a row of work-items
// reads a row of input and writes a row of output:
//   1. each work-item copies its element of input into tile[ly][lx];
//   2. barrier: the tile is complete;
//   3. the work-group writes its block of output row by row, each work-item taking its
//      element from the transposed position of the tile.
//
// The tile is a __local array of the kernel, one per work-group, of 16 rows of 17
// columns: the extra column puts the elements of a column of the tile in different
// memory banks of a GPU's local memory.
//
// Any width and height: the last work-group of a row or a column of groups is smaller
// (get_local_size is its actual size). The group's block is size_y rows of size_x
// elements in input, so size_x rows of size_y elements in output: work-item l (its
// linear id in the group) writes element l of that block, row l / size_y, column
// l % size_y.
//
// The OpenCL C twin of transpose.mlir. `width` and `height` are its `index`
// parameters: ulong, as OpenCL C forbids size_t parameters.
//
// Preconditions (width and height read as unsigned; e = global_offset + global_size in
// each dimension):
//   local_size(0), local_size(1): at most 16 (the tile), or global_size in that
//     dimension (a work-group is never larger than the range)
//   input: (e(1) - 1) * width + e(0) elements
//   output: (e(0) - 1) * height + e(1) elements
__kernel void transpose(__global const float *input, __global float *output,
                        ulong width, ulong height)
{
    __local float tile[16][17];
    size_t x = get_global_id(0);
    size_t y = get_global_id(1);
    size_t lx = get_local_id(0);
    size_t ly = get_local_id(1);
    size_t size_x = get_local_size(0);
    size_t size_y = get_local_size(1);

    // 1. tile[ly][lx] = input[y][x].
    tile[ly][lx] = input[y * width + x];

    // 2. Wait until the whole work-group has filled the tile.
    barrier(CLK_LOCAL_MEM_FENCE);

    // 3. Element (i, j) of the group's block of output is output[x0 + i][y0 + j] =
    //    input[y0 + j][x0 + i] = tile[j][i], (x0, y0) the group's first element of
    //    input; work-item l writes element (l / size_y, l % size_y).
    size_t l = ly * size_x + lx;
    size_t i = l / size_y;
    size_t j = l % size_y;
    size_t x0 = x - lx;
    size_t y0 = y - ly;
    output[(x0 + i) * height + (y0 + j)] = tile[j][i];
}
