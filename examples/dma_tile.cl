// dma_tile(input, output, width): each 16 x 16 tile of a row-major f32 image, mirrored
// left to right and doubled, through local memory filled and emptied by async copies.
//
// `input` and `output` are images of `width` columns (and as many rows as the range
// has in y). Launch: a 2-D range of width x height work-items, work-groups of 16 x 16
// (or smaller: at most 16 in each dimension), no global offset. The work-group's tile
// starts at (group_id * enqueued_local_size) and has its actual local size: the last
// tiles of a row or column are narrower when 16 does not divide the image.
//
//   1. the work-group copies the tile from the image into `tile` (a __local array of
//      the kernel, one per work-group): one async_work_group_copy per row of the tile,
//      `local_size(0)` floats each, all sharing one event; wait_group_events: the tile
//      is there for every work-item.
//   2. work-item (lx, ly) reads the element mirrored in its row, tile[ly][w - 1 - lx]
//      (w the tile's width), waits at a barrier (nobody overwrites an element another
//      still has to read), stores twice that value at tile[ly][lx], and waits again
//      (the tile is complete before it is written back).
//   3. the tile goes back to the same place in `output` the same way, and
//      wait_group_events waits for it.
//
// The OpenCL C twin of dma_tile.mlir, with these differences:
// - the MLIR copies the tile with one 2-D DMA each way (mux.dma_read_2d and
//   mux.dma_write_2d: local_size(1) rows of local_size(0) * 4 bytes, strides of 64 and
//   width * 4 bytes). OpenCL C 1.2/2.0 has only 1-D and single-element-strided async
//   copies (cl_khr_extended_async_copies' async_work_group_copy_2D2D is one 2-D call,
//   but an extension few devices have), so here it is a loop of 1-D copies, one per
//   row; every work-item of the group runs the loop with the same arguments, as async
//   copies require.
// - `width` is the MLIR's `index`: a ulong, as OpenCL C forbids size_t parameters.
// - get_enqueued_local_size is OpenCL C 2.0's.
//
// Build options: -cl-std=CL2.0
//
// Preconditions (width read as unsigned; offsets are not used):
//   local_size(0), local_size(1): at most 16 (the tile), or global_size in that
//     dimension (a work-group is never larger than the range)
//   input, output: (global_size(1) - 1) * width + global_size(0) elements
__kernel void dma_tile(__global const float *input, __global float *output,
                       ulong width)
{
    __local float tile[16][16];

    // The tile: its origin in the image (in elements) and its size.
    size_t x0 = get_group_id(0) * get_enqueued_local_size(0);
    size_t y0 = get_group_id(1) * get_enqueued_local_size(1);
    size_t origin = y0 * width + x0;
    size_t tile_w = get_local_size(0);
    size_t tile_h = get_local_size(1);

    // 1. The tile into local memory.
    event_t read = 0;
    for (size_t r = 0; r < tile_h; ++r)
        read = async_work_group_copy(tile[r], input + origin + r * width, tile_w,
                                     read);
    wait_group_events(1, &read);

    // 2. Mirror and double each row.
    size_t lx = get_local_id(0);
    size_t ly = get_local_id(1);
    float doubled = tile[ly][tile_w - 1 - lx] * 2.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    tile[ly][lx] = doubled;
    barrier(CLK_LOCAL_MEM_FENCE);

    // 3. The tile back into the image.
    event_t write = 0;
    for (size_t r = 0; r < tile_h; ++r)
        write = async_work_group_copy(output + origin + r * width, tile[r], tile_w,
                                      write);
    wait_group_events(1, &write);
}
