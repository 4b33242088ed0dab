// scale2d(input, output, width, factor): output = factor * input over a 2-D range,
// for a row-major image `width` elements wide.
//
// The work-item finds its pixel from its work-group and local ids
// (x = group_id(0) * enqueued_local_size(0) + local_id(0), and the same in y, which
// is its global id without the offset) and writes it at its global linear id. The
// OpenCL C twin of scale2d.mlir; get_enqueued_local_size and get_global_linear_id are
// OpenCL C 2.0's. `width` is the MLIR's `index`: a ulong here, because OpenCL C
// forbids size_t as the type of a kernel parameter.
//
// Build options: -cl-std=CL2.0
//
// Preconditions (width read as unsigned; offsets are not used):
//   input: (global_size(1) - 1) * width + global_size(0) elements
//   output: global_size(0) * global_size(1) * global_size(2) elements
__kernel void scale2d(__global const float *input, __global float *output,
                      ulong width, float factor)
{
    size_t x = get_group_id(0) * get_enqueued_local_size(0) + get_local_id(0);
    size_t y = get_group_id(1) * get_enqueued_local_size(1) + get_local_id(1);
    output[get_global_linear_id()] = input[y * width + x] * factor;
}
