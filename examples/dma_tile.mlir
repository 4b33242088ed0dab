// dma_tile(input, output, width): each 16 x 16 tile of a row-major f32 image, mirrored
// left to right and doubled, through local memory filled and emptied by DMA.
//
// `input` and `output` are images of `width` columns (and as many rows as the range
// has in y). Launch: a 2-D range of width x height work-items, work-groups of 16 x 16
// (or smaller: at most 16 in each dimension), no global offset. The work-group's tile
// starts at (group_id * enqueued_local_size) and has its actual local size: the last
// tiles of a row or column are narrower when 16 does not divide the image.
//
//   1. dma_read_2d copies the tile from the image into `tile` (a module-scope local
//      array, one per work-group): `local_size(1)` rows of `local_size(0) * 4` bytes,
//      64 bytes apart in the tile and `width * 4` bytes apart in the image (the DMA's
//      sizes and strides are in bytes). dma_wait: the tile is there for every
//      work-item.
//   2. work-item (lx, ly) reads the element mirrored in its row, tile[ly][w - 1 - lx]
//      (w the tile's width), waits at a barrier (nobody overwrites an element another
//      still has to read), stores twice that value at tile[ly][lx], and waits again
//      (the tile is complete before it is written back).
//   3. dma_write_2d copies the tile to the same place in `output`, the strides the
//      other way round, and dma_wait waits for it.
//
// The DMA builtins are done once per work-group (define-mux-dma): the pointers into
// the image are the memref's bare pointer plus the tile's origin, an llvm.getelementptr
// over f32, the form a kernel imported from OpenCL C (`input + offset`) has too.
//
// Preconditions (width read as unsigned; offsets are not used):
//   local_size(0), local_size(1): at most 16 (the tile), or global_size in that
//     dimension (a work-group is never larger than the range)
//   input, output: (global_size(1) - 1) * width + global_size(0) elements
"memref.global"() <{sym_name = "tile", type = memref<16x16xf32, 3>, initial_value,
                    sym_visibility = "private"}> : () -> ()

func.func @dma_tile(%input: memref<?xf32, 1>, %output: memref<?xf32, 1>,
                    %width: index)
    attributes {mux.kernel = "entry-point"} {
  %tile = memref.get_global @tile : memref<16x16xf32, 3>
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 1 : i32
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index

  // The tile: its origin in the image (in elements) and its size.
  %group_x = mux.get_group_id %d0
  %group_y = mux.get_group_id %d1
  %size_x = mux.get_enqueued_local_size %d0
  %size_y = mux.get_enqueued_local_size %d1
  %x0 = arith.muli %group_x, %size_x : index
  %y0 = arith.muli %group_y, %size_y : index
  %row0 = arith.muli %y0, %width : index
  %origin = arith.addi %row0, %x0 : index
  %origin64 = arith.index_cast %origin : index to i64
  %tile_w = mux.get_local_size %d0
  %tile_h = mux.get_local_size %d1
  %row_bytes = arith.muli %tile_w, %c4 : index
  %image_stride = arith.muli %width, %c4 : index

  // 1. The tile into local memory.
  %in = builtin.unrealized_conversion_cast %input : memref<?xf32, 1> to !llvm.ptr<1>
  %src = llvm.getelementptr %in[%origin64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %read = mux.dma_read_2d %tile, %src width(%row_bytes) dst_stride(%c64)
            src_stride(%image_stride) height(%tile_h)
            : memref<16x16xf32, 3>, !llvm.ptr<1>
  mux.dma_wait %read

  // 2. Mirror and double each row.
  %lx = mux.get_local_id %d0
  %ly = mux.get_local_id %d1
  %last = arith.subi %tile_w, %c1 : index
  %mx = arith.subi %last, %lx : index
  %v = memref.load %tile[%ly, %mx] : memref<16x16xf32, 3>
  %two = arith.constant 2.0 : f32
  %doubled = arith.mulf %v, %two : f32
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  memref.store %doubled, %tile[%ly, %lx] : memref<16x16xf32, 3>
  mux.work_group_barrier id(1) scope(work_group) semantics(acq_rel | work_group_memory)

  // 3. The tile back into the image.
  %out = builtin.unrealized_conversion_cast %output : memref<?xf32, 1> to !llvm.ptr<1>
  %dst = llvm.getelementptr %out[%origin64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %write = mux.dma_write_2d %dst, %tile width(%row_bytes) dst_stride(%image_stride)
             src_stride(%c64) height(%tile_h)
             : !llvm.ptr<1>, memref<16x16xf32, 3>
  mux.dma_wait %write
  func.return
}
