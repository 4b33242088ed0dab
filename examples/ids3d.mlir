// ids3d(out): out[global_linear_id] = 1000 * group_linear_id + local_linear_id over
// a 3-D range: a map of how the range is cut into work-groups.
//
// The group linear id is built like the spec's local linear id, from
// get_group_id and get_num_groups: (gz * ny + gy) * nx + gx.
//
// Preconditions (the global linear id has the offsets removed):
//   out: global_size(0) * global_size(1) * global_size(2) elements
func.func @ids3d(%out: memref<?xi32, 1>) attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 1 : i32
  %d2 = arith.constant 2 : i32
  %gx = mux.get_group_id %d0
  %gy = mux.get_group_id %d1
  %gz = mux.get_group_id %d2
  %nx = mux.get_num_groups %d0
  %ny = mux.get_num_groups %d1
  %zy = arith.muli %gz, %ny : index
  %zy_y = arith.addi %zy, %gy : index
  %zyx = arith.muli %zy_y, %nx : index
  %group = arith.addi %zyx, %gx : index
  %c1000 = arith.constant 1000 : index
  %tag = arith.muli %group, %c1000 : index
  %local = mux.get_local_linear_id
  %value = arith.addi %tag, %local : index
  %value32 = arith.index_cast %value : index to i32
  %i = mux.get_global_linear_id
  memref.store %value32, %out[%i] : memref<?xi32, 1>
  func.return
}
