// stencil2d(input, output, width, height): a 5-point average of a row-major f32
// image of `height` rows of `width` elements.
//
//   output[y][x] = (input[y-1][x] + input[y][x-1] + input[y][x] + input[y][x+1]
//                   + input[y+1][x]) * 0.2
//
// added in that order (top to bottom, left to right), then multiplied by 0.2 (f32).
// Borders are clamped: a neighbour outside the image is replaced by the nearest pixel
// of the image (x - 1 becomes 0 at x = 0, x + 1 becomes width - 1 at the last column,
// the same in y), so every pixel, border or not, is an average of five values, as
// numpy's `np.pad(image, 1, mode="edge")` followed by the same sum gives.
//
// Launch: a 2-D range (x: a column, y: a row), work-groups of 16 x 16 for the
// benchmark, no global offset. No local memory and no barrier: each work-item reads
// its five values from global memory. Any local size and any global size work: a range
// of width x height (the last work-groups may be smaller) or one rounded up (work-items
// outside the image write nothing).
//
// Preconditions (width and height read as unsigned; work-items outside the image,
// offsets included, do nothing: width * height elements are always enough):
//   input: the largest index of a pixel of the image the range reaches, or of one of
//     its four (clamped) neighbours, + 1 elements
//   output: the largest index of a pixel of the image the range reaches + 1 elements
func.func @stencil2d(%input: memref<?xf32, 1>, %output: memref<?xf32, 1>,
                     %width: index, %height: index)
    attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %fifth = arith.constant 0.2 : f32

  %x = mux.get_global_id %d0
  %y = mux.get_global_id %d1
  %x_in = arith.cmpi ult, %x, %width : index
  %y_in = arith.cmpi ult, %y, %height : index
  %inside = arith.andi %x_in, %y_in : i1
  scf.if %inside {
    // The clamped neighbours. x - 1 is -1 at x = 0 as a signed value, which maxsi
    // turns into 0; x + 1 is at most width - 1.
    %last_x = arith.subi %width, %c1 : index
    %last_y = arith.subi %height, %c1 : index
    %x_minus = arith.subi %x, %c1 : index
    %left_x = arith.maxsi %x_minus, %c0 : index
    %x_plus = arith.addi %x, %c1 : index
    %right_x = arith.minui %x_plus, %last_x : index
    %y_minus = arith.subi %y, %c1 : index
    %up_y = arith.maxsi %y_minus, %c0 : index
    %y_plus = arith.addi %y, %c1 : index
    %down_y = arith.minui %y_plus, %last_y : index

    // Row starts, and the five indices.
    %row = arith.muli %y, %width : index
    %up_row = arith.muli %up_y, %width : index
    %down_row = arith.muli %down_y, %width : index
    %i_center = arith.addi %row, %x : index
    %i_left = arith.addi %row, %left_x : index
    %i_right = arith.addi %row, %right_x : index
    %i_up = arith.addi %up_row, %x : index
    %i_down = arith.addi %down_row, %x : index

    %up = memref.load %input[%i_up] : memref<?xf32, 1>
    %left = memref.load %input[%i_left] : memref<?xf32, 1>
    %center = memref.load %input[%i_center] : memref<?xf32, 1>
    %right = memref.load %input[%i_right] : memref<?xf32, 1>
    %down = memref.load %input[%i_down] : memref<?xf32, 1>
    %s1 = arith.addf %up, %left : f32
    %s2 = arith.addf %s1, %center : f32
    %s3 = arith.addf %s2, %right : f32
    %s4 = arith.addf %s3, %down : f32
    %average = arith.mulf %s4, %fifth : f32
    memref.store %average, %output[%i_center] : memref<?xf32, 1>
  }
  func.return
}
