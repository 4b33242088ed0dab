// define-mux-dma rejects what it cannot define, naming the op or kernel and the rule.
//
// RUN: mux-opt --split-input-file --verify-diagnostics %s -p define-mux-dma | filecheck %s

// A strided memref: its bare pointer would not be its first element.
// CHECK: define-mux-dma: mux.dma_read_2d in 'strided_source': memref<?x?xf32, strided<[?, 1], offset: ?>, 1 : i64>: only the identity layout is supported (a memref is a bare pointer, which has no strides)
func.func @strided_source(%local: memref<8x8xf32, 3>, %global: memref<?x?xf32, strided<[?, 1], offset: ?>, 1>, %w: index) {
  %e = mux.dma_read_2d %local, %global width(%w) dst_stride(%w) src_stride(%w) height(%w) : memref<8x8xf32, 3>, memref<?x?xf32, strided<[?, 1], offset: ?>, 1>
  func.return
}

// -----

// A dynamic inner dimension: the same rule, on a write's source.
// CHECK-NEXT: {{^}}//{{ }}-----
// CHECK-NEXT: define-mux-dma: mux.dma_write_1d in 'dynamic_inner': memref<4x?xi8, 3 : i64>: only the leading dimension may be dynamic (a memref is a bare pointer, so its strides must be static)
func.func @dynamic_inner(%local: memref<4x?xi8, 3>, %global: !llvm.ptr<1>, %w: index) {
  %e = mux.dma_write_1d %global, %local width(%w) : !llvm.ptr<1>, memref<4x?xi8, 3>
  func.return
}

// -----

// A kernel entry point taking an event: the runtime has none to pass.
// CHECK-NEXT: {{^}}//{{ }}-----
// CHECK-NEXT: define-mux-dma: kernel 'takes_event' takes or returns a DMA event: the runtime has none to pass (events stay inside kernels)
func.func @takes_event(%e: !mux.dma_event) attributes {mux.kernel = "entry-point"} {
  mux.dma_wait %e
  func.return
}

// -----

// A kernel returning one.
// CHECK-NEXT: {{^}}//{{ }}-----
// CHECK-NEXT: define-mux-dma: kernel 'returns_event' takes or returns a DMA event: the runtime has none to pass (events stay inside kernels)
func.func @returns_event(%local: !llvm.ptr<3>, %global: !llvm.ptr<1>, %w: index) -> !mux.dma_event attributes {mux.kernel = "kernel"} {
  %e = mux.dma_read_1d %local, %global width(%w) : !llvm.ptr<3>, !llvm.ptr<1>
  func.return %e : !mux.dma_event
}
