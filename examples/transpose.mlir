// transpose(input, output, width, height): output = the transpose of input, through a
// tile in local memory.
//
// `input` is a row-major f32 image of `height` rows of `width` elements; `output` gets
// `width` rows of `height` elements: output[x][y] = input[y][x]. Launch: a 2-D range of
// width x height work-items (x: a column of input, y: a row of input), work-groups of
// 16 x 16 (or smaller: at most 16 in each dimension), no global offset.
//
// Work-item (x, y) could write output[x][y] directly, but then a row of work-items
// reads a row of input and writes a column of output: on a GPU, scattered writes. Here
// the work-group goes through a tile in local memory instead:
//   1. each work-item copies its element of input into tile[ly][lx]: a row of
//      work-items reads a row of input;
//   2. barrier: the tile is complete;
//   3. the work-group writes its block of output row by row, a row of work-items
//      writing a row of output, each work-item taking its element from the transposed
//      position of the tile.
//
// The tile is a static local array: a module-scope memref.global in address space 3,
// one per work-group. It has 16 rows of 17 columns, one more than needed: step 3 reads a
// column of the tile, and with rows of 17 the elements of a column fall in different
// memory banks of a GPU's local memory (with 16 they would all be in the same bank and
// the reads would be serialised). Here the padding only shows the idea.
//
// Any width and height: the last work-group of a row or a column of groups is smaller
// (get_local_size is its actual size) and exactly covers what is left of the image. In
// input, the group's block is size_y rows of size_x elements, so in output it is size_x
// rows of size_y elements: work-item l (its linear id in the group) writes element l of
// that block, row l / size_y, column l % size_y. In a full 16 x 16 group, work-item
// (lx, ly) writes row ly, column lx of the block.
//
// Preconditions (width and height read as unsigned; e = global_offset + global_size in
// each dimension):
//   local_size(0), local_size(1): at most 16 (the tile), or global_size in that
//     dimension (a work-group is never larger than the range)
//   input: (e(1) - 1) * width + e(0) elements
//   output: (e(0) - 1) * height + e(1) elements
"memref.global"() <{sym_name = "tile", type = memref<16x17xf32, 3>, initial_value,
                    sym_visibility = "private"}> : () -> ()

func.func @transpose(%input: memref<?xf32, 1>, %output: memref<?xf32, 1>,
                     %width: index, %height: index)
    attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 1 : i32
  %x = mux.get_global_id %d0
  %y = mux.get_global_id %d1
  %lx = mux.get_local_id %d0
  %ly = mux.get_local_id %d1
  %size_x = mux.get_local_size %d0
  %size_y = mux.get_local_size %d1
  %tile = memref.get_global @tile : memref<16x17xf32, 3>

  // 1. tile[ly][lx] = input[y][x].
  %in_start = arith.muli %y, %width : index
  %in_index = arith.addi %in_start, %x : index
  %value = memref.load %input[%in_index] : memref<?xf32, 1>
  memref.store %value, %tile[%ly, %lx] : memref<16x17xf32, 3>

  // 2. Wait until the whole work-group has filled the tile.
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)

  // 3. Element (i, j) of the group's block of output is output[x0 + i][y0 + j] =
  //    input[y0 + j][x0 + i] = tile[j][i], where (x0, y0) is the group's first element
  //    of input; work-item l writes element (l / size_y, l % size_y).
  %ly_x = arith.muli %ly, %size_x : index
  %l = arith.addi %ly_x, %lx : index
  %i = arith.divui %l, %size_y : index
  %j = arith.remui %l, %size_y : index
  %transposed = memref.load %tile[%j, %i] : memref<16x17xf32, 3>
  %x0 = arith.subi %x, %lx : index
  %y0 = arith.subi %y, %ly : index
  %out_row = arith.addi %x0, %i : index
  %out_col = arith.addi %y0, %j : index
  %out_start = arith.muli %out_row, %height : index
  %out_index = arith.addi %out_start, %out_col : index
  memref.store %transposed, %output[%out_index] : memref<?xf32, 1>
  func.return
}
