// saxpy(alpha, x, y): y = alpha * x + y over a 1-D range of f32.
//
// Preconditions (any dimensions: only the global id in x indexes):
//   x, y: global_offset(0) + global_size(0) elements
func.func @saxpy(%alpha: f32, %x: memref<?xf32, 1>, %y: memref<?xf32, 1>)
    attributes {mux.kernel = "entry-point"} {
  %x_dim = arith.constant 0 : i32
  %i = mux.get_global_id %x_dim
  %xi = memref.load %x[%i] : memref<?xf32, 1>
  %yi = memref.load %y[%i] : memref<?xf32, 1>
  %ax = arith.mulf %alpha, %xi : f32
  %r = arith.addf %ax, %yi : f32
  memref.store %r, %y[%i] : memref<?xf32, 1>
  func.return
}
