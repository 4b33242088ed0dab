// RUN: mux-opt %s -p lower-to-mux-builtins | filecheck %s
//
// lower-to-mux-builtins: OpenCL C's async copies are the mux DMA transfers, sizes
// and strides in bytes: a __local destination and a __global source is a read, the
// other way a write. An event is an !llvm.ptr at the LLVM level (the importer's
// type of event_t), cast to !mux.dma_event for the op and back; the event 0 is no
// event operand. wait_group_events waits on the events it loads from its list
// (8 bytes apart); prefetch is a hint and goes.

func.func private @_Z14get_local_sizej(i32) -> i64
func.func private @_Z21async_work_group_copyPU3AS3Dv3_iPU3AS1KS_m9ocl_event(!llvm.ptr<3>, !llvm.ptr<1>, i64, !llvm.ptr) -> !llvm.ptr
func.func private @_Z21async_work_group_copyPU3AS1Dv3_iPU3AS3KS_m9ocl_event(!llvm.ptr<1>, !llvm.ptr<3>, i64, !llvm.ptr) -> !llvm.ptr
func.func private @_Z29async_work_group_strided_copyPU3AS3DhPU3AS1KDhmm9ocl_event(!llvm.ptr<3>, !llvm.ptr<1>, i64, i64, !llvm.ptr) -> !llvm.ptr
func.func private @_Z29async_work_group_strided_copyPU3AS1Dv16_hPU3AS3KS_mm9ocl_event(!llvm.ptr<1>, !llvm.ptr<3>, i64, i64, !llvm.ptr) -> !llvm.ptr
func.func private @_Z17wait_group_eventsiPU3AS49ocl_event(i32, !llvm.ptr<4>)
func.func private @_Z17wait_group_eventsiP9ocl_event(i32, !llvm.ptr)
func.func private @_Z8prefetchPU3AS1KDv16_hm(!llvm.ptr<1>, i64)
func.func private @_Z26async_work_group_copy_2D2DPU3AS3vmPU3AS1Kvmmmmmm9ocl_event(!llvm.ptr<3>, i64, !llvm.ptr<1>, i64, i64, i64, i64, i64, i64, !llvm.ptr) -> !llvm.ptr
func.func private @_Z26async_work_group_copy_3D3DPU3AS1vmPU3AS3Kvmmmmmmmmm9ocl_event(!llvm.ptr<1>, i64, !llvm.ptr<3>, i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr) -> !llvm.ptr

// async_work_group_copy of int3: 16 bytes a gentype (a 3-component vector counts
// as a 4-component one). The count is a get_local_size replaced first: the copy
// takes the replacement.
// CHECK-LABEL: func.func @copies(%local: !llvm.ptr<3>, %global: !llvm.ptr<1>, %list: !llvm.ptr<4>)
// CHECK:         %[[SIZE:.*]] = arith.index_cast %{{.*}} : index to i64
// CHECK-NEXT:    %zero = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT:    %[[GENTYPE:.*]] = arith.constant 16 : index
// CHECK-NEXT:    %[[COUNT:.*]] = arith.index_cast %[[SIZE]] : i64 to index
// CHECK-NEXT:    %[[BYTES:.*]] = arith.muli %[[COUNT]], %[[GENTYPE]] : index
// CHECK-NEXT:    %[[READ:.*]] = mux.dma_read_1d %local, %global width(%[[BYTES]]) : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK-NEXT:    %read = builtin.unrealized_conversion_cast %[[READ]] : !mux.dma_event to !llvm.ptr
// CHECK-NEXT:    %[[GENTYPE:.*]] = arith.constant 16 : index
// CHECK-NEXT:    %[[COUNT:.*]] = arith.index_cast %[[SIZE]] : i64 to index
// CHECK-NEXT:    %[[BYTES:.*]] = arith.muli %[[COUNT]], %[[GENTYPE]] : index
// CHECK-NEXT:    %[[AFTER:.*]] = builtin.unrealized_conversion_cast %read : !llvm.ptr to !mux.dma_event
// CHECK-NEXT:    %[[WRITE:.*]] = mux.dma_write_1d %global, %local width(%[[BYTES]]) event(%[[AFTER]]) : !llvm.ptr<1>, !llvm.ptr<3>
// CHECK-NEXT:    %write = builtin.unrealized_conversion_cast %[[WRITE]] : !mux.dma_event to !llvm.ptr
// CHECK-NEXT:    llvm.store %write, %list : !llvm.ptr, !llvm.ptr<4>
// CHECK-NEXT:    %two = llvm.mlir.constant(2 : i32) : i32
// CHECK-NEXT:    %[[E0:.*]] = llvm.load %list : !llvm.ptr<4> -> !llvm.ptr
// CHECK-NEXT:    %[[W0:.*]] = builtin.unrealized_conversion_cast %[[E0]] : !llvm.ptr to !mux.dma_event
// CHECK-NEXT:    %[[AT1:.*]] = llvm.getelementptr %list[1] : (!llvm.ptr<4>) -> !llvm.ptr<4>, !llvm.ptr
// CHECK-NEXT:    %[[E1:.*]] = llvm.load %[[AT1]] : !llvm.ptr<4> -> !llvm.ptr
// CHECK-NEXT:    %[[W1:.*]] = builtin.unrealized_conversion_cast %[[E1]] : !llvm.ptr to !mux.dma_event
// CHECK-NEXT:    mux.dma_wait %[[W0]], %[[W1]]
// CHECK-NEXT:    func.return
func.func @copies(%local: !llvm.ptr<3>, %global: !llvm.ptr<1>, %list: !llvm.ptr<4>) attributes {mux.kernel = "entry-point"} {
  %d0 = llvm.mlir.constant(0 : i32) : i32
  %size = func.call @_Z14get_local_sizej(%d0) : (i32) -> i64
  %zero = llvm.mlir.zero : !llvm.ptr
  %read = func.call @_Z21async_work_group_copyPU3AS3Dv3_iPU3AS1KS_m9ocl_event(%local, %global, %size, %zero) : (!llvm.ptr<3>, !llvm.ptr<1>, i64, !llvm.ptr) -> !llvm.ptr
  %write = func.call @_Z21async_work_group_copyPU3AS1Dv3_iPU3AS3KS_m9ocl_event(%global, %local, %size, %read) : (!llvm.ptr<1>, !llvm.ptr<3>, i64, !llvm.ptr) -> !llvm.ptr
  llvm.store %write, %list : !llvm.ptr, !llvm.ptr<4>
  %two = llvm.mlir.constant(2 : i32) : i32
  func.call @_Z17wait_group_eventsiPU3AS49ocl_event(%two, %list) : (i32, !llvm.ptr<4>) -> ()
  func.return
}

// async_work_group_strided_copy: a row of one gentype for each of num_gentypes, the
// stride (in gentypes) on the global side: half (2 bytes) read, uchar16 (16 bytes)
// written. prefetch goes.
// CHECK-LABEL: func.func @strided(%local: !llvm.ptr<3>, %global: !llvm.ptr<1>, %n: i64, %stride: i64, %slot: !llvm.ptr)
// CHECK-NEXT:    %zero = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[S:.*]] = arith.index_cast %stride : i64 to index
// CHECK-NEXT:    %[[SRC:.*]] = arith.muli %[[S]], %[[TWO]] : index
// CHECK-NEXT:    %[[N:.*]] = arith.index_cast %n : i64 to index
// CHECK-NEXT:    mux.dma_read_2d %local, %global width(%[[TWO]]) dst_stride(%[[TWO]]) src_stride(%[[SRC]]) height(%[[N]]) : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK:         %[[SIXTEEN:.*]] = arith.constant 16 : index
// CHECK-NEXT:    %[[S:.*]] = arith.index_cast %stride : i64 to index
// CHECK-NEXT:    %[[DST:.*]] = arith.muli %[[S]], %[[SIXTEEN]] : index
// CHECK-NEXT:    %[[N:.*]] = arith.index_cast %n : i64 to index
// CHECK-NEXT:    mux.dma_write_2d %global, %local width(%[[SIXTEEN]]) dst_stride(%[[DST]]) src_stride(%[[SIXTEEN]]) height(%[[N]]) : !llvm.ptr<1>, !llvm.ptr<3>
// CHECK:         %one = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    %[[E:.*]] = llvm.load %slot : !llvm.ptr -> !llvm.ptr
// CHECK-NEXT:    %[[W:.*]] = builtin.unrealized_conversion_cast %[[E]] : !llvm.ptr to !mux.dma_event
// CHECK-NEXT:    mux.dma_wait %[[W]]
// CHECK-NEXT:    func.return
func.func @strided(%local: !llvm.ptr<3>, %global: !llvm.ptr<1>, %n: i64, %stride: i64, %slot: !llvm.ptr) attributes {mux.kernel = "entry-point"} {
  %zero = llvm.mlir.zero : !llvm.ptr
  %read = func.call @_Z29async_work_group_strided_copyPU3AS3DhPU3AS1KDhmm9ocl_event(%local, %global, %n, %stride, %zero) : (!llvm.ptr<3>, !llvm.ptr<1>, i64, i64, !llvm.ptr) -> !llvm.ptr
  %write = func.call @_Z29async_work_group_strided_copyPU3AS1Dv16_hPU3AS3KS_mm9ocl_event(%global, %local, %n, %stride, %zero) : (!llvm.ptr<1>, !llvm.ptr<3>, i64, i64, !llvm.ptr) -> !llvm.ptr
  func.call @_Z8prefetchPU3AS1KDv16_hm(%global, %n) : (!llvm.ptr<1>, i64) -> ()
  llvm.store %write, %slot : !llvm.ptr, !llvm.ptr
  %one = llvm.mlir.constant(1 : i32) : i32
  func.call @_Z17wait_group_eventsiP9ocl_event(%one, %slot) : (i32, !llvm.ptr) -> ()
  func.return
}
// cl_khr_extended_async_copies: offsets, line lengths and plane areas count
// elements of num_bytes_per_element (%e) bytes; the pointers move by the offsets.
// CHECK-LABEL: func.func @extended(%local: !llvm.ptr<3>, %global: !llvm.ptr<1>, %e: i64, %n: i64, %lines: i64, %planes: i64, %src_line: i64, %dst_line: i64, %src_plane: i64, %dst_plane: i64, %lo: i64, %go: i64, %prev: !llvm.ptr)
// CHECK-NEXT:    %zero = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT:    %[[LO:.*]] = arith.muli %lo, %e : i64
// CHECK-NEXT:    %[[TO:.*]] = llvm.getelementptr %local[%[[LO]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    %[[GO:.*]] = arith.muli %go, %e : i64
// CHECK-NEXT:    %[[FROM:.*]] = llvm.getelementptr %global[%[[GO]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT:    %[[E:.*]] = arith.index_cast %e : i64 to index
// CHECK-NEXT:    %[[N:.*]] = arith.index_cast %n : i64 to index
// CHECK-NEXT:    %[[WIDTH:.*]] = arith.muli %[[N]], %[[E]] : index
// CHECK-NEXT:    %[[L:.*]] = arith.index_cast %dst_line : i64 to index
// CHECK-NEXT:    %[[DST:.*]] = arith.muli %[[L]], %[[E]] : index
// CHECK-NEXT:    %[[L:.*]] = arith.index_cast %src_line : i64 to index
// CHECK-NEXT:    %[[SRC:.*]] = arith.muli %[[L]], %[[E]] : index
// CHECK-NEXT:    %[[H:.*]] = arith.index_cast %lines : i64 to index
// CHECK-NEXT:    mux.dma_read_2d %[[TO]], %[[FROM]] width(%[[WIDTH]]) dst_stride(%[[DST]]) src_stride(%[[SRC]]) height(%[[H]]) : !llvm.ptr<3>, !llvm.ptr<1>
// CHECK:         %[[GO:.*]] = arith.muli %go, %e : i64
// CHECK-NEXT:    %[[TO:.*]] = llvm.getelementptr %global[%[[GO]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT:    %[[LO:.*]] = arith.muli %lo, %e : i64
// CHECK-NEXT:    %[[FROM:.*]] = llvm.getelementptr %local[%[[LO]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK:         %[[DP:.*]] = arith.index_cast %dst_plane : i64 to index
// CHECK:         %[[SP:.*]] = arith.index_cast %src_plane : i64 to index
// CHECK:         %[[D:.*]] = arith.index_cast %planes : i64 to index
// CHECK-NEXT:    %[[EVENT:.*]] = builtin.unrealized_conversion_cast %prev : !llvm.ptr to !mux.dma_event
// CHECK-NEXT:    mux.dma_write_3d %[[TO]], %[[FROM]] width(%{{.*}}) dst_line_stride(%{{.*}}) src_line_stride(%{{.*}}) height(%{{.*}}) dst_plane_stride(%{{.*}}) src_plane_stride(%{{.*}}) depth(%[[D]]) event(%[[EVENT]]) : !llvm.ptr<1>, !llvm.ptr<3>
func.func @extended(%local: !llvm.ptr<3>, %global: !llvm.ptr<1>, %e: i64, %n: i64, %lines: i64, %planes: i64, %src_line: i64, %dst_line: i64, %src_plane: i64, %dst_plane: i64, %lo: i64, %go: i64, %prev: !llvm.ptr) -> !llvm.ptr {
  %zero = llvm.mlir.zero : !llvm.ptr
  %read = func.call @_Z26async_work_group_copy_2D2DPU3AS3vmPU3AS1Kvmmmmmm9ocl_event(%local, %lo, %global, %go, %e, %n, %lines, %src_line, %dst_line, %zero) : (!llvm.ptr<3>, i64, !llvm.ptr<1>, i64, i64, i64, i64, i64, i64, !llvm.ptr) -> !llvm.ptr
  %write = func.call @_Z26async_work_group_copy_3D3DPU3AS1vmPU3AS3Kvmmmmmmmmm9ocl_event(%global, %go, %local, %lo, %e, %n, %lines, %planes, %src_line, %src_plane, %dst_line, %dst_plane, %prev) : (!llvm.ptr<1>, i64, !llvm.ptr<3>, i64, i64, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr) -> !llvm.ptr
  func.return %write : !llvm.ptr
}

// The declarations nothing calls any more are gone.
// CHECK-NOT: func.func private
