// scale2d(input, output, width, factor): output = factor * input over a 2-D range,
// for a row-major image `width` elements wide.
//
// The work-item finds its pixel from its work-group and local ids
// (x = group_id(0) * enqueued_local_size(0) + local_id(0), and the same in y, which
// is its global id without the offset) and writes it at its global linear id.
//
// Preconditions (width read as unsigned; offsets are not used):
//   input: (global_size(1) - 1) * width + global_size(0) elements
//   output: global_size(0) * global_size(1) * global_size(2) elements
func.func @scale2d(%input: memref<?xf32, 1>, %output: memref<?xf32, 1>,
                   %width: index, %factor: f32)
    attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 1 : i32
  %group_x = mux.get_group_id %d0
  %group_y = mux.get_group_id %d1
  %size_x = mux.get_enqueued_local_size %d0
  %size_y = mux.get_enqueued_local_size %d1
  %local_x = mux.get_local_id %d0
  %local_y = mux.get_local_id %d1
  %start_x = arith.muli %group_x, %size_x : index
  %x = arith.addi %start_x, %local_x : index
  %start_y = arith.muli %group_y, %size_y : index
  %y = arith.addi %start_y, %local_y : index
  %row = arith.muli %y, %width : index
  %pixel = arith.addi %row, %x : index
  %value = memref.load %input[%pixel] : memref<?xf32, 1>
  %scaled = arith.mulf %value, %factor : f32
  %i = mux.get_global_linear_id
  memref.store %scaled, %output[%i] : memref<?xf32, 1>
  func.return
}
