// A kernel reading a tile with a DMA, for define_mux_dma.mlir's SCHED checks.
func.func @tile(%input: memref<?xf32, 1>, %output: memref<?xf32, 1>, %tile: memref<16xf32, 3>) attributes {mux.kernel = "entry-point"} {
  %c64 = arith.constant 64 : index
  %e = mux.dma_read_1d %tile, %input width(%c64) : memref<16xf32, 3>, memref<?xf32, 1>
  mux.dma_wait %e
  %d = arith.constant 0 : i32
  %lid = mux.get_local_id %d
  %v = memref.load %tile[%lid] : memref<16xf32, 3>
  memref.store %v, %output[%lid] : memref<?xf32, 1>
  func.return
}
func.func @plain() {
  func.return
}
