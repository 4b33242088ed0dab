// scale_rows(m, w, cap, rows, out): out[r, c] = min(m[r, c] * w[c], cap) for each row
// r < rows of an 8-column matrix; work-item (c, r) does element [r, c].
//
// The OpenCL C twin of scale_rows.mlir, with these differences:
// - `m` and `out` are memref<?x8xf32, 1> there, 2-D with rows of 8; here they are
//   plain float pointers and the kernel indexes them r * 8 + c, the same element.
//   `w` is memref<8xf32, 2>: a __constant pointer, whose 8 elements are the caller's
//   business (the runtime checks the memref's static 8).
// - `rows` is the MLIR's `index`: a ulong, as OpenCL C forbids size_t parameters.
// - the MLIR takes the minimum with arith.minimumf, which returns NaN when either
//   operand is NaN; OpenCL C's fmin returns the other operand, and may return either
//   zero for fmin(-0.0f, 0.0f). The results differ only for those operands.
//
// Preconditions, when some row is inside (global_offset(1) < rows; otherwise nothing is
// accessed), with rows read as unsigned and R = min(rows, global_offset(1) +
// global_size(1)):
//   global_offset(0) + global_size(0): at most 8 (w has 8 elements and a row 8 columns)
//   m, out: (R - 1) * 8 + global_offset(0) + global_size(0) elements
__kernel void scale_rows(__global const float *m, __constant float *w, float cap,
                         ulong rows, __global float *out)
{
    size_t c = get_global_id(0);
    size_t r = get_global_id(1);
    if (r < rows)
        out[r * 8 + c] = fmin(m[r * 8 + c] * w[c], cap);
}
