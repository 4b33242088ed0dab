// vadd(a, b, c): c = a + b, element-wise over a 1-D range of f32.
//
// One work-item per element: the kernel body is what a single work-item does; the
// compiler adds the loops over work-items and work-groups.
//
// Preconditions (any dimensions: only the global id in x indexes):
//   a, b, c: global_offset(0) + global_size(0) elements
func.func @vadd(%a: memref<?xf32, 1>, %b: memref<?xf32, 1>, %c: memref<?xf32, 1>)
    attributes {mux.kernel = "entry-point"} {
  %x_dim = arith.constant 0 : i32
  %i = mux.get_global_id %x_dim
  %lhs = memref.load %a[%i] : memref<?xf32, 1>
  %rhs = memref.load %b[%i] : memref<?xf32, 1>
  %sum = arith.addf %lhs, %rhs : f32
  memref.store %sum, %c[%i] : memref<?xf32, 1>
  func.return
}
