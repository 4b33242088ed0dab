// stencil2d(input, output, width, height): a 5-point average of a row-major f32
// image of `height` rows of `width` elements.
//
//   output[y][x] = (input[y-1][x] + input[y][x-1] + input[y][x] + input[y][x+1]
//                   + input[y+1][x]) * 0.2
//
// added in that order (top to bottom, left to right), then multiplied by 0.2f.
// Borders are clamped: a neighbour outside the image is replaced by the nearest pixel
// of the image (x - 1 becomes 0 at x = 0, x + 1 becomes width - 1 at the last column,
// the same in y), as numpy's `np.pad(image, 1, mode="edge")` followed by the same sum
// gives.
//
// Launch: a 2-D range (x: a column, y: a row), no global offset. No local memory and
// no barrier. Any local size and any global size work: work-items outside the image
// write nothing.
//
// The OpenCL C twin of stencil2d.mlir. `width` and `height` are its `index`
// parameters: ulong, as OpenCL C forbids size_t parameters. The MLIR clamps x - 1 with
// a signed max against 0; here x > 0 ? x - 1 : 0, the same for every x below width.
//
// Preconditions (width and height read as unsigned; work-items outside the image,
// offsets included, do nothing: width * height elements are always enough):
//   input: the largest index of a pixel of the image the range reaches, or of one of
//     its four (clamped) neighbours, + 1 elements
//   output: the largest index of a pixel of the image the range reaches + 1 elements
__kernel void stencil2d(__global const float *input, __global float *output,
                        ulong width, ulong height)
{
    size_t x = get_global_id(0);
    size_t y = get_global_id(1);
    if (x < width && y < height) {
        size_t left_x = x > 0 ? x - 1 : 0;
        size_t right_x = x + 1 < width - 1 ? x + 1 : width - 1;
        size_t up_y = y > 0 ? y - 1 : 0;
        size_t down_y = y + 1 < height - 1 ? y + 1 : height - 1;

        size_t row = y * width;
        float up = input[up_y * width + x];
        float left = input[row + left_x];
        float center = input[row + x];
        float right = input[row + right_x];
        float down = input[down_y * width + x];
        output[row + x] = (up + left + center + right + down) * 0.2f;
    }
}
