// RUN: mux-opt --split-input-file %s | filecheck %s
// RUN: %roundtrip | filecheck %s
//
// The DMA builtins of the spec ("Builtins"), in the custom form; the second RUN line
// goes through the generic form and back. Reads copy from global memory (address
// space 1) to local memory (address space 3), writes the other way; a pointer is a
// memref (memory space = address space; printed `3 : i64`) or an `!llvm.ptr<N>`. Sizes
// and strides are `index` (size_t), in bytes.

// Reads between memrefs, without an event.
// CHECK-LABEL: func.func @dma_read_memref
func.func @dma_read_memref(%local: memref<64xf32, 3>, %global: memref<64xf32, 1>, %w: index, %ds: index, %ss: index, %h: index, %dp: index, %sp: index, %d: index) {
  // CHECK-NEXT: %{{.*}} = mux.dma_read_1d %local, %global width(%w) : memref<64xf32, 3 : i64>, memref<64xf32, 1 : i64>
  // CHECK-NEXT: %{{.*}} = mux.dma_read_2d %local, %global width(%w) dst_stride(%ds) src_stride(%ss) height(%h) : memref<64xf32, 3 : i64>, memref<64xf32, 1 : i64>
  // CHECK-NEXT: %{{.*}} = mux.dma_read_3d %local, %global width(%w) dst_line_stride(%ds) src_line_stride(%ss) height(%h) dst_plane_stride(%dp) src_plane_stride(%sp) depth(%d) : memref<64xf32, 3 : i64>, memref<64xf32, 1 : i64>
  // CHECK-NEXT: func.return
  %0 = mux.dma_read_1d %local, %global width(%w) : memref<64xf32, 3>, memref<64xf32, 1>
  %1 = mux.dma_read_2d %local, %global width(%w) dst_stride(%ds) src_stride(%ss) height(%h) : memref<64xf32, 3>, memref<64xf32, 1>
  %2 = mux.dma_read_3d %local, %global width(%w) dst_line_stride(%ds) src_line_stride(%ss) height(%h) dst_plane_stride(%dp) src_plane_stride(%sp) depth(%d) : memref<64xf32, 3>, memref<64xf32, 1>
  func.return
}

// -----

// Writes between memrefs, without an event.
// CHECK-LABEL: func.func @dma_write_memref
func.func @dma_write_memref(%local: memref<16x4xi32, 3>, %global: memref<?xi32, 1>, %w: index, %ds: index, %ss: index, %h: index, %dp: index, %sp: index, %d: index) {
  // CHECK-NEXT: %{{.*}} = mux.dma_write_1d %global, %local width(%w) : memref<?xi32, 1 : i64>, memref<16x4xi32, 3 : i64>
  // CHECK-NEXT: %{{.*}} = mux.dma_write_2d %global, %local width(%w) dst_stride(%ds) src_stride(%ss) height(%h) : memref<?xi32, 1 : i64>, memref<16x4xi32, 3 : i64>
  // CHECK-NEXT: %{{.*}} = mux.dma_write_3d %global, %local width(%w) dst_line_stride(%ds) src_line_stride(%ss) height(%h) dst_plane_stride(%dp) src_plane_stride(%sp) depth(%d) : memref<?xi32, 1 : i64>, memref<16x4xi32, 3 : i64>
  // CHECK-NEXT: func.return
  %0 = mux.dma_write_1d %global, %local width(%w) : memref<?xi32, 1>, memref<16x4xi32, 3>
  %1 = mux.dma_write_2d %global, %local width(%w) dst_stride(%ds) src_stride(%ss) height(%h) : memref<?xi32, 1>, memref<16x4xi32, 3>
  %2 = mux.dma_write_3d %global, %local width(%w) dst_line_stride(%ds) src_line_stride(%ss) height(%h) dst_plane_stride(%dp) src_plane_stride(%sp) depth(%d) : memref<?xi32, 1>, memref<16x4xi32, 3>
  func.return
}

// -----

// Reads and writes between `!llvm.ptr` pointers.
// CHECK-LABEL: func.func @dma_pointers
func.func @dma_pointers(%local: !llvm.ptr<3>, %global: !llvm.ptr<1>, %w: index, %s: index) {
  // CHECK-NEXT: %{{.*}} = mux.dma_read_1d %local, %global width(%w) : !llvm.ptr<3>, !llvm.ptr<1>
  // CHECK-NEXT: %{{.*}} = mux.dma_read_2d %local, %global width(%w) dst_stride(%s) src_stride(%s) height(%w) : !llvm.ptr<3>, !llvm.ptr<1>
  // CHECK-NEXT: %{{.*}} = mux.dma_read_3d %local, %global width(%w) dst_line_stride(%s) src_line_stride(%s) height(%w) dst_plane_stride(%s) src_plane_stride(%s) depth(%w) : !llvm.ptr<3>, !llvm.ptr<1>
  // CHECK-NEXT: %{{.*}} = mux.dma_write_1d %global, %local width(%w) : !llvm.ptr<1>, !llvm.ptr<3>
  // CHECK-NEXT: %{{.*}} = mux.dma_write_2d %global, %local width(%w) dst_stride(%s) src_stride(%s) height(%w) : !llvm.ptr<1>, !llvm.ptr<3>
  // CHECK-NEXT: %{{.*}} = mux.dma_write_3d %global, %local width(%w) dst_line_stride(%s) src_line_stride(%s) height(%w) dst_plane_stride(%s) src_plane_stride(%s) depth(%w) : !llvm.ptr<1>, !llvm.ptr<3>
  // CHECK-NEXT: func.return
  %0 = mux.dma_read_1d %local, %global width(%w) : !llvm.ptr<3>, !llvm.ptr<1>
  %1 = mux.dma_read_2d %local, %global width(%w) dst_stride(%s) src_stride(%s) height(%w) : !llvm.ptr<3>, !llvm.ptr<1>
  %2 = mux.dma_read_3d %local, %global width(%w) dst_line_stride(%s) src_line_stride(%s) height(%w) dst_plane_stride(%s) src_plane_stride(%s) depth(%w) : !llvm.ptr<3>, !llvm.ptr<1>
  %3 = mux.dma_write_1d %global, %local width(%w) : !llvm.ptr<1>, !llvm.ptr<3>
  %4 = mux.dma_write_2d %global, %local width(%w) dst_stride(%s) src_stride(%s) height(%w) : !llvm.ptr<1>, !llvm.ptr<3>
  %5 = mux.dma_write_3d %global, %local width(%w) dst_line_stride(%s) src_line_stride(%s) height(%w) dst_plane_stride(%s) src_plane_stride(%s) depth(%w) : !llvm.ptr<1>, !llvm.ptr<3>
  func.return
}

// -----

// A memref on one side and a pointer on the other; strided and dynamic memrefs, and
// a memory space written with another integer type.
// CHECK-LABEL: func.func @dma_mixed
func.func @dma_mixed(%local: memref<8x8xf32, 3 : i32>, %global: memref<?x?xf32, strided<[?, 1], offset: ?>, 1>, %lp: !llvm.ptr<3>, %gp: !llvm.ptr<1>, %w: index) {
  // CHECK-NEXT: %{{.*}} = mux.dma_read_2d %local, %global width(%w) dst_stride(%w) src_stride(%w) height(%w) : memref<8x8xf32, 3 : i32>, memref<?x?xf32, strided<[?, 1], offset: ?>, 1 : i64>
  // CHECK-NEXT: %{{.*}} = mux.dma_read_1d %local, %gp width(%w) : memref<8x8xf32, 3 : i32>, !llvm.ptr<1>
  // CHECK-NEXT: %{{.*}} = mux.dma_write_1d %gp, %local width(%w) : !llvm.ptr<1>, memref<8x8xf32, 3 : i32>
  // CHECK-NEXT: %{{.*}} = mux.dma_write_2d %global, %lp width(%w) dst_stride(%w) src_stride(%w) height(%w) : memref<?x?xf32, strided<[?, 1], offset: ?>, 1 : i64>, !llvm.ptr<3>
  // CHECK-NEXT: func.return
  %0 = mux.dma_read_2d %local, %global width(%w) dst_stride(%w) src_stride(%w) height(%w) : memref<8x8xf32, 3 : i32>, memref<?x?xf32, strided<[?, 1], offset: ?>, 1>
  %1 = mux.dma_read_1d %local, %gp width(%w) : memref<8x8xf32, 3 : i32>, !llvm.ptr<1>
  %2 = mux.dma_write_1d %gp, %local width(%w) : !llvm.ptr<1>, memref<8x8xf32, 3 : i32>
  %3 = mux.dma_write_2d %global, %lp width(%w) dst_stride(%w) src_stride(%w) height(%w) : memref<?x?xf32, strided<[?, 1], offset: ?>, 1>, !llvm.ptr<3>
  func.return
}

// -----

// Each transfer may use the event of a previous one; dma_wait waits on one event,
// several, or none.
// CHECK-LABEL: func.func @dma_events
func.func @dma_events(%local: memref<64xf32, 3>, %global: memref<64xf32, 1>, %lp: !llvm.ptr<3>, %gp: !llvm.ptr<1>, %w: index, %s: index) {
  // CHECK-NEXT: %[[E0:.*]] = mux.dma_read_1d %local, %global width(%w) : memref<64xf32, 3 : i64>, memref<64xf32, 1 : i64>
  // CHECK-NEXT: %[[E1:.*]] = mux.dma_read_2d %lp, %gp width(%w) dst_stride(%s) src_stride(%s) height(%w) event(%[[E0]]) : !llvm.ptr<3>, !llvm.ptr<1>
  // CHECK-NEXT: %[[E2:.*]] = mux.dma_read_3d %local, %global width(%w) dst_line_stride(%s) src_line_stride(%s) height(%w) dst_plane_stride(%s) src_plane_stride(%s) depth(%w) event(%[[E1]]) : memref<64xf32, 3 : i64>, memref<64xf32, 1 : i64>
  // CHECK-NEXT: mux.dma_wait %[[E2]]
  // CHECK-NEXT: %[[E3:.*]] = mux.dma_write_1d %global, %local width(%w) event(%[[E2]]) : memref<64xf32, 1 : i64>, memref<64xf32, 3 : i64>
  // CHECK-NEXT: %[[E4:.*]] = mux.dma_write_2d %gp, %lp width(%w) dst_stride(%s) src_stride(%s) height(%w) event(%[[E3]]) : !llvm.ptr<1>, !llvm.ptr<3>
  // CHECK-NEXT: %[[E5:.*]] = mux.dma_write_3d %gp, %lp width(%w) dst_line_stride(%s) src_line_stride(%s) height(%w) dst_plane_stride(%s) src_plane_stride(%s) depth(%w) : !llvm.ptr<1>, !llvm.ptr<3>
  // CHECK-NEXT: mux.dma_wait %[[E0]], %[[E4]], %[[E5]]
  // CHECK-NEXT: mux.dma_wait{{$}}
  // CHECK-NEXT: func.return
  %e0 = mux.dma_read_1d %local, %global width(%w) : memref<64xf32, 3>, memref<64xf32, 1>
  %e1 = mux.dma_read_2d %lp, %gp width(%w) dst_stride(%s) src_stride(%s) height(%w) event(%e0) : !llvm.ptr<3>, !llvm.ptr<1>
  %e2 = mux.dma_read_3d %local, %global width(%w) dst_line_stride(%s) src_line_stride(%s) height(%w) dst_plane_stride(%s) src_plane_stride(%s) depth(%w) event(%e1) : memref<64xf32, 3>, memref<64xf32, 1>
  mux.dma_wait %e2
  %e3 = mux.dma_write_1d %global, %local width(%w) event(%e2) : memref<64xf32, 1>, memref<64xf32, 3>
  %e4 = mux.dma_write_2d %gp, %lp width(%w) dst_stride(%s) src_stride(%s) height(%w) event(%e3) : !llvm.ptr<1>, !llvm.ptr<3>
  %e5 = mux.dma_write_3d %gp, %lp width(%w) dst_line_stride(%s) src_line_stride(%s) height(%w) dst_plane_stride(%s) src_plane_stride(%s) depth(%w) : !llvm.ptr<1>, !llvm.ptr<3>
  mux.dma_wait %e0, %e4, %e5
  mux.dma_wait
  func.return
}

// -----

// Events are values of type !mux.dma_event: they cross function boundaries.
// CHECK-LABEL: func.func @event_values
func.func @event_values(%e: !mux.dma_event, %local: !llvm.ptr<3>, %global: !llvm.ptr<1>, %w: index) -> !mux.dma_event {
  // CHECK-NEXT: %[[E:.*]] = mux.dma_read_1d %local, %global width(%w) event(%e) : !llvm.ptr<3>, !llvm.ptr<1>
  // CHECK-NEXT: mux.dma_wait %e, %[[E]]
  // CHECK-NEXT: func.return %[[E]] : !mux.dma_event
  %0 = mux.dma_read_1d %local, %global width(%w) event(%e) : !llvm.ptr<3>, !llvm.ptr<1>
  mux.dma_wait %e, %0
  func.return %0 : !mux.dma_event
}

// -----

// The generic form prints in the custom form; the optional event is the last operand.
// CHECK-LABEL: func.func @generic_form
func.func @generic_form(%local: !llvm.ptr<3>, %global: !llvm.ptr<1>, %w: index, %s: index) {
  // CHECK-NEXT: %[[E0:.*]] = mux.dma_read_1d %local, %global width(%w) : !llvm.ptr<3>, !llvm.ptr<1>
  // CHECK-NEXT: %[[E1:.*]] = mux.dma_write_2d %global, %local width(%w) dst_stride(%s) src_stride(%s) height(%w) event(%[[E0]]) : !llvm.ptr<1>, !llvm.ptr<3>
  // CHECK-NEXT: %[[E2:.*]] = mux.dma_read_3d %local, %global width(%w) dst_line_stride(%s) src_line_stride(%s) height(%w) dst_plane_stride(%s) src_plane_stride(%s) depth(%w) event(%[[E1]]) : !llvm.ptr<3>, !llvm.ptr<1>
  // CHECK-NEXT: mux.dma_wait %[[E0]], %[[E2]]
  // CHECK-NEXT: mux.dma_wait{{$}}
  // CHECK-NEXT: func.return
  %0 = "mux.dma_read_1d"(%local, %global, %w) : (!llvm.ptr<3>, !llvm.ptr<1>, index) -> !mux.dma_event
  %1 = "mux.dma_write_2d"(%global, %local, %w, %s, %s, %w, %0) : (!llvm.ptr<1>, !llvm.ptr<3>, index, index, index, index, !mux.dma_event) -> !mux.dma_event
  %2 = "mux.dma_read_3d"(%local, %global, %w, %s, %s, %w, %s, %s, %w, %1) : (!llvm.ptr<3>, !llvm.ptr<1>, index, index, index, index, index, index, index, !mux.dma_event) -> !mux.dma_event
  "mux.dma_wait"(%0, %2) : (!mux.dma_event, !mux.dma_event) -> ()
  "mux.dma_wait"() : () -> ()
  func.return
}
