// scale_rows(m, w, cap, rows, out): out[r, c] = min(m[r, c] * w[c], cap) for each row
// r < rows of an 8-column matrix; work-item (c, r) does element [r, c].
//
// Preconditions, when some row is inside (global_offset(1) < rows; otherwise nothing is
// accessed), with rows read as unsigned and R = min(rows, global_offset(1) +
// global_size(1)):
//   global_offset(0) + global_size(0): at most 8 (w has 8 elements and a row 8 columns)
//   m, out: (R - 1) * 8 + global_offset(0) + global_size(0) elements
func.func @scale_rows(%m: memref<?x8xf32, 1>, %w: memref<8xf32, 2>, %cap: f32,
                      %rows: index, %out: memref<?x8xf32, 1>)
    attributes {mux.kernel = "entry-point"} {
  %x_dim = arith.constant 0 : i32
  %y_dim = arith.constant 1 : i32
  %c = mux.get_global_id %x_dim
  %r = mux.get_global_id %y_dim
  %inside = arith.cmpi ult, %r, %rows : index
  scf.if %inside {
    %v = memref.load %m[%r, %c] : memref<?x8xf32, 1>
    %weight = memref.load %w[%c] : memref<8xf32, 2>
    %scaled = arith.mulf %v, %weight : f32
    %capped = arith.minimumf %scaled, %cap : f32
    memref.store %capped, %out[%r, %c] : memref<?x8xf32, 1>
  }
  func.return
}
