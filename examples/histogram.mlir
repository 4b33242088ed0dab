// histogram(data, bins): a 256-bin histogram of u8 data, with atomic adds.
//
// One work-item per byte of `data`: it reads its byte, zero-extends it (the data is
// unsigned: 0xFF is bin 255, not -1) and adds 1 to that bin of `bins` with an atomic
// read-modify-write on global memory. Work-groups run on several threads at once,
// and the work-items of one group may be vectorised: a plain load-add-store would
// lose counts, `atomic.rmw add` does not. `monotonic` (relaxed) is enough: the
// counts are only read after the kernel has finished. `bins` must be zeroed first.
//
// Preconditions (bins has its static 256, which the runtime checks, and a zero-extended
// byte is below 256: no data value indexes outside it):
//   data: global_offset(0) + global_size(0) elements
func.func @histogram(%data: memref<?xi8, 1>, %bins: memref<256xi32, 1>)
    attributes {mux.kernel = "entry-point"} {
  %x_dim = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %i = mux.get_global_id %x_dim
  %byte = memref.load %data[%i] : memref<?xi8, 1>
  %byte64 = arith.extui %byte : i8 to i64
  %bin = arith.index_cast %byte64 : i64 to index
  %old = atomic.rmw add monotonic %bins[%bin], %one : memref<256xi32, 1>
  func.return
}
