// sgemm_naive(a, b, c, n): C = A * B for square n x n matrices of f32, row-major,
// the straightforward way: one work-item per element of C, no local memory.
//
// Launch: a 2-D range (x: a column of C, y: a row of C), no global offset. Work-item
// (col, row) walks along k and accumulates A[row][k] * B[k][col] in an scf.for
// iter_args value, k in order, then writes C[row][col]. Every work-item reads a whole
// row of A and a whole column of B from global memory: 2n loads for 2n flops, which is
// what sgemm_tiled avoids by sharing 16 x 16 tiles in local memory.
//
// Any local size works, and so does any global size: a range of n x n (the last
// work-groups of a row or column of groups may be smaller), or one rounded up, for
// example to a multiple of 16 (work-items outside the matrix write nothing). There is
// no barrier, so work-items outside the matrix can simply do nothing.
//
// Preconditions (n read as unsigned; work-items outside the matrix, offsets included,
// read and write nothing: with row and col the last row and column of the matrix the
// range reaches, n * n elements are always enough):
//   c: row * n + col + 1 elements
//   a: row * n + n elements
//   b: (n - 1) * n + col + 1 elements
func.func @sgemm_naive(%a: memref<?xf32, 1>, %b: memref<?xf32, 1>,
                       %c: memref<?xf32, 1>, %n: index)
    attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32

  // This work-item's element of C.
  %col = mux.get_global_id %d0
  %row = mux.get_global_id %d1
  %row_in = arith.cmpi ult, %row, %n : index
  %col_in = arith.cmpi ult, %col, %n : index
  %inside = arith.andi %row_in, %col_in : i1
  scf.if %inside {
    // sum = A[row][0] * B[0][col] + ... + A[row][n-1] * B[n-1][col], k in order.
    %a_start = arith.muli %row, %n : index
    %sum = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
      %a_index = arith.addi %a_start, %k : index
      %b_start = arith.muli %k, %n : index
      %b_index = arith.addi %b_start, %col : index
      %x = memref.load %a[%a_index] : memref<?xf32, 1>
      %y = memref.load %b[%b_index] : memref<?xf32, 1>
      %xy = arith.mulf %x, %y : f32
      %acc_next = arith.addf %acc, %xy : f32
      scf.yield %acc_next : f32
    }
    %c_index = arith.addi %a_start, %col : index
    memref.store %sum, %c[%c_index] : memref<?xf32, 1>
  }
  func.return
}
