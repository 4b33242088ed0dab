// sgemm_tiled(a, b, c, n): C = A * B for square n x n matrices of f32, row-major,
// through 16 x 16 tiles in local memory.
//
// Launch: a 2-D range of n x n work-items (x: a column of C, y: a row of C) in
// work-groups of 16 x 16, no global offset. The tiles `tile_a` and `tile_b` are
// module-scope variables in local memory (address space 3): one pair per work-group,
// which replace-module-scope-vars allocates. Each work-item computes one element of
// C, its work-group one 16 x 16 block of C.
//
// A block of C needs a band of 16 rows of A and a band of 16 columns of B. The kernel
// walks along k one tile at a time; for tile t (k from 16t to 16t + 15) the work-group:
//   1. loads the 16 x 16 block of A at (its rows, the tile's k) into tile_a and the
//      block of B at (the tile's k, its columns) into tile_b, an element outside the
//      matrix being 0 (so it adds nothing);
//   2. waits at a barrier: the tiles are complete;
//   3. multiplies: each work-item adds the dot product of its row of tile_a and its
//      column of tile_b to its running sum (an scf.for iter_args value);
//   4. waits at a second barrier: nobody loads the next tiles (step 1) while others
//      still read these ones.
// At the end, each work-item inside the matrix writes its element of C.
//
// n need not be a multiple of 16, with either launch:
// - a range of n x n: the last work-groups of a row or column of groups are smaller
//   (get_local_size is their actual size). The tiles still need all 16 values of k,
//   so work-item l (its linear id in the group) loads elements l, l + count,
//   l + 2 * count, ... of each tile, count being the number of work-items of the group.
//   In a full 16 x 16 group that is one element each: element (ly, lx).
// - a range rounded up to a multiple of 16: work-items outside the matrix load zeros,
//   wait at every barrier with the others (a barrier must be reached by every work-item
//   of the group), and write nothing.
// Local sizes smaller than 16 x 16 work too (at most 16 in each dimension).
//
// Preconditions (n read as unsigned; with row and col the last row and column of the
// matrix the range reaches, and r and k the last row and column the work-groups' tiles
// load below n, n * n elements are always enough):
//   local_size(0), local_size(1): at most 16 (the tiles are 16 x 16), or global_size in
//     that dimension (a work-group is never larger than the range)
//   c: row * n + col + 1 elements
//   a: r * n + n elements
//   b: (n - 1) * n + k + 1 elements
"memref.global"() <{sym_name = "tile_a", type = memref<16x16xf32, 3>, initial_value,
                    sym_visibility = "private"}> : () -> ()
"memref.global"() <{sym_name = "tile_b", type = memref<16x16xf32, 3>, initial_value,
                    sym_visibility = "private"}> : () -> ()

func.func @sgemm_tiled(%a: memref<?xf32, 1>, %b: memref<?xf32, 1>,
                       %c: memref<?xf32, 1>, %n: index)
    attributes {mux.kernel = "entry-point"} {
  %tile_a = memref.get_global @tile_a : memref<16x16xf32, 3>
  %tile_b = memref.get_global @tile_b : memref<16x16xf32, 3>
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c15 = arith.constant 15 : index
  %c16 = arith.constant 16 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32

  // This work-item's element of C, and its place in the work-group.
  %col = mux.get_global_id %d0
  %row = mux.get_global_id %d1
  %lx = mux.get_local_id %d0
  %ly = mux.get_local_id %d1
  %size_x = mux.get_local_size %d0
  %size_y = mux.get_local_size %d1
  // The first row and column of the work-group's block of C.
  %row0 = arith.subi %row, %ly : index
  %col0 = arith.subi %col, %lx : index
  // Its linear id in the group, and the number of work-items of the group.
  %ly_x = arith.muli %ly, %size_x : index
  %l = arith.addi %ly_x, %lx : index
  %count = arith.muli %size_x, %size_y : index
  // The number of tiles along k: n / 16, rounded up.
  %n_up = arith.addi %n, %c15 : index
  %tiles = arith.divui %n_up, %c16 : index

  %sum = scf.for %t = %c0 to %tiles step %c1 iter_args(%acc = %zero) -> (f32) {
    %k0 = arith.muli %t, %c16 : index

    // 1. Load the tiles: element (i, j) of each, for e = i * 16 + j = l, l + count, ...
    scf.for %e = %l to %c256 step %count {
      %i = arith.divui %e, %c16 : index
      %j = arith.remui %e, %c16 : index
      // tile_a[i][j] = A[row0 + i][k0 + j], 0 outside the matrix.
      %a_row = arith.addi %row0, %i : index
      %a_col = arith.addi %k0, %j : index
      %a_row_in = arith.cmpi ult, %a_row, %n : index
      %a_col_in = arith.cmpi ult, %a_col, %n : index
      %a_in = arith.andi %a_row_in, %a_col_in : i1
      %a_value = scf.if %a_in -> (f32) {
        %a_start = arith.muli %a_row, %n : index
        %a_index = arith.addi %a_start, %a_col : index
        %v = memref.load %a[%a_index] : memref<?xf32, 1>
        scf.yield %v : f32
      } else {
        scf.yield %zero : f32
      }
      memref.store %a_value, %tile_a[%i, %j] : memref<16x16xf32, 3>
      // tile_b[i][j] = B[k0 + i][col0 + j], 0 outside the matrix.
      %b_row = arith.addi %k0, %i : index
      %b_col = arith.addi %col0, %j : index
      %b_row_in = arith.cmpi ult, %b_row, %n : index
      %b_col_in = arith.cmpi ult, %b_col, %n : index
      %b_in = arith.andi %b_row_in, %b_col_in : i1
      %b_value = scf.if %b_in -> (f32) {
        %b_start = arith.muli %b_row, %n : index
        %b_index = arith.addi %b_start, %b_col : index
        %v = memref.load %b[%b_index] : memref<?xf32, 1>
        scf.yield %v : f32
      } else {
        scf.yield %zero : f32
      }
      memref.store %b_value, %tile_b[%i, %j] : memref<16x16xf32, 3>
    }

    // 2. Wait until the whole work-group has loaded the tiles.
    mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)

    // 3. acc += row ly of tile_a . column lx of tile_b, k in order.
    %next = scf.for %k = %c0 to %c16 step %c1 iter_args(%s = %acc) -> (f32) {
      %x = memref.load %tile_a[%ly, %k] : memref<16x16xf32, 3>
      %y = memref.load %tile_b[%k, %lx] : memref<16x16xf32, 3>
      %xy = arith.mulf %x, %y : f32
      %s_next = arith.addf %s, %xy : f32
      scf.yield %s_next : f32
    }

    // 4. Wait until the whole work-group is done with the tiles.
    mux.work_group_barrier id(1) scope(work_group) semantics(acq_rel | work_group_memory)
    scf.yield %next : f32
  }

  // Write C[row][col], for the work-items inside the matrix.
  %row_in = arith.cmpi ult, %row, %n : index
  %col_in = arith.cmpi ult, %col, %n : index
  %inside = arith.andi %row_in, %col_in : i1
  scf.if %inside {
    %c_start = arith.muli %row, %n : index
    %c_index = arith.addi %c_start, %col : index
    memref.store %sum, %c[%c_index] : memref<?xf32, 1>
  }
  func.return
}
