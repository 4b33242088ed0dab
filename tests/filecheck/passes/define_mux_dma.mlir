// RUN: mux-opt --split-input-file %s -p define-mux-dma | filecheck %s
// RUN: mux-opt %S/Inputs/dma_once.mlir -p define-mux-dma,prepare-barriers,work-item-loops | filecheck %s --check-prefix=SCHED
//
// define-mux-dma: each DMA transfer becomes a copy done by the work-item whose local
// linear id is 0, one llvmx.memcpy of `width` bytes per row, rows and planes at their
// byte strides on each side; each dma_wait a work-group barrier; events !llvm.ptr
// (as the LLVM IR importer types OpenCL C's event_t).

// 1-D read between memrefs: one memcpy of the whole width, no loop; a new event is
// the null pointer.
// CHECK-LABEL: func.func @read_1d(%local: memref<64xf32, 3 : i64>, %global: memref<?xf32, 1 : i64>, %w: index) -> !llvm.ptr
// CHECK-NEXT:    %lid = mux.get_local_linear_id
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %first = arith.cmpi eq, %lid, %[[ZERO]] : index
// CHECK-NEXT:    scf.if %first {
// CHECK-NEXT:      %dst = builtin.unrealized_conversion_cast %local : memref<64xf32, 3 : i64> to !llvm.ptr<3>
// CHECK-NEXT:      %src = builtin.unrealized_conversion_cast %global : memref<?xf32, 1 : i64> to !llvm.ptr<1>
// CHECK-NEXT:      %[[W:.*]] = arith.index_cast %w : index to i64
// CHECK-NEXT:      llvmx.memcpy %dst, %src, %[[W]] : !llvm.ptr<3>, !llvm.ptr<1>, i64
// CHECK-NEXT:    }
// CHECK-NEXT:    %e = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT:    mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory | cross_work_group_memory)
// CHECK-NEXT:    func.return %e : !llvm.ptr
func.func @read_1d(%local: memref<64xf32, 3>, %global: memref<?xf32, 1>, %w: index) -> !mux.dma_event {
  %e = mux.dma_read_1d %local, %global width(%w) : memref<64xf32, 3>, memref<?xf32, 1>
  mux.dma_wait %e
  func.return %e : !mux.dma_event
}

// -----

// 2-D write between pointers: a loop over the rows, each row at row * stride bytes
// on its side; the transfer returns the event it was given.
// CHECK-LABEL: func.func @write_2d(%global: !llvm.ptr<1>, %local: !llvm.ptr<3>, %w: index, %ds: index, %ss: index, %h: index, %prev: !llvm.ptr) -> !llvm.ptr
// CHECK-NEXT:    %lid = mux.get_local_linear_id
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %first = arith.cmpi eq, %lid, %[[ZERO]] : index
// CHECK-NEXT:    scf.if %first {
// CHECK-NEXT:      %[[W:.*]] = arith.index_cast %w : index to i64
// CHECK-NEXT:      %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      scf.for %row = %[[C0]] to %h step %[[C1]] {
// CHECK-NEXT:        %[[DOFF:.*]] = arith.muli %row, %ds : index
// CHECK-NEXT:        %[[SOFF:.*]] = arith.muli %row, %ss : index
// CHECK-NEXT:        %[[D64:.*]] = arith.index_cast %[[DOFF]] : index to i64
// CHECK-NEXT:        %[[D:.*]] = llvm.getelementptr %global[%[[D64]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT:        %[[S64:.*]] = arith.index_cast %[[SOFF]] : index to i64
// CHECK-NEXT:        %[[S:.*]] = llvm.getelementptr %local[%[[S64]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK-NEXT:        llvmx.memcpy %[[D]], %[[S]], %[[W]] : !llvm.ptr<1>, !llvm.ptr<3>, i64
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %prev : !llvm.ptr
func.func @write_2d(%global: !llvm.ptr<1>, %local: !llvm.ptr<3>, %w: index, %ds: index, %ss: index, %h: index, %prev: !mux.dma_event) -> !mux.dma_event {
  %e = mux.dma_write_2d %global, %local width(%w) dst_stride(%ds) src_stride(%ss) height(%h) event(%prev) : !llvm.ptr<1>, !llvm.ptr<3>
  func.return %e : !mux.dma_event
}

// -----

// 3-D read: planes outside, rows inside; the offsets add up plane and row strides.
// CHECK-LABEL: func.func @read_3d
// CHECK:         scf.if %first {
// CHECK-NEXT:      %dst = builtin.unrealized_conversion_cast %local : memref<4x8x16xi8, 3 : i64> to !llvm.ptr<3>
// CHECK-NEXT:      %src = builtin.unrealized_conversion_cast %global : memref<?xi8, 1 : i64> to !llvm.ptr<1>
// CHECK-NEXT:      %[[W:.*]] = arith.index_cast %w : index to i64
// CHECK-NEXT:      %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      scf.for %plane = %[[C0]] to %d step %[[C1]] {
// CHECK-NEXT:        %[[DP:.*]] = arith.muli %plane, %dp : index
// CHECK-NEXT:        %[[SP:.*]] = arith.muli %plane, %sp : index
// CHECK-NEXT:        scf.for %row = %[[C0]] to %h step %[[C1]] {
// CHECK-NEXT:          %[[DL:.*]] = arith.muli %row, %dl : index
// CHECK-NEXT:          %[[SL:.*]] = arith.muli %row, %sl : index
// CHECK-NEXT:          %[[DOFF:.*]] = arith.addi %[[DP]], %[[DL]] : index
// CHECK-NEXT:          %[[SOFF:.*]] = arith.addi %[[SP]], %[[SL]] : index
// CHECK-NEXT:          %[[D64:.*]] = arith.index_cast %[[DOFF]] : index to i64
// CHECK-NEXT:          %[[D:.*]] = llvm.getelementptr %dst[%[[D64]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK-NEXT:          %[[S64:.*]] = arith.index_cast %[[SOFF]] : index to i64
// CHECK-NEXT:          %[[S:.*]] = llvm.getelementptr %src[%[[S64]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT:          llvmx.memcpy %[[D]], %[[S]], %[[W]] : !llvm.ptr<3>, !llvm.ptr<1>, i64
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    %e = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT:    func.return
func.func @read_3d(%local: memref<4x8x16xi8, 3>, %global: memref<?xi8, 1>, %w: index, %dl: index, %sl: index, %h: index, %dp: index, %sp: index, %d: index) {
  %e = mux.dma_read_3d %local, %global width(%w) dst_line_stride(%dl) src_line_stride(%sl) height(%h) dst_plane_stride(%dp) src_plane_stride(%sp) depth(%d) : memref<4x8x16xi8, 3>, memref<?xi8, 1>
  func.return
}

// -----

// An event that was an !llvm.ptr (an imported OpenCL C event_t, in memory):
// lower-to-mux-builtins cast it to !mux.dma_event for the op and the op's event
// back; both casts are now from a pointer to a pointer, and go.
// CHECK-LABEL: func.func @imported_event(%local: !llvm.ptr<3>, %global: !llvm.ptr<1>, %w: index, %slot: !llvm.ptr)
// CHECK-NEXT:    %prev = llvm.load %slot : !llvm.ptr -> !llvm.ptr
// CHECK-NOT:     builtin.unrealized_conversion_cast
// CHECK:         llvm.store %prev, %slot : !llvm.ptr, !llvm.ptr
// CHECK-NEXT:    func.return
func.func @imported_event(%local: !llvm.ptr<3>, %global: !llvm.ptr<1>, %w: index, %slot: !llvm.ptr) {
  %prev = llvm.load %slot : !llvm.ptr -> !llvm.ptr
  %in = builtin.unrealized_conversion_cast %prev : !llvm.ptr to !mux.dma_event
  %e = mux.dma_read_1d %local, %global width(%w) event(%in) : !llvm.ptr<3>, !llvm.ptr<1>
  %out = builtin.unrealized_conversion_cast %e : !mux.dma_event to !llvm.ptr
  llvm.store %out, %slot : !llvm.ptr, !llvm.ptr
  func.return
}

// -----

// Events as block arguments, scf results, call results and function types: all
// !llvm.ptr.
// A wait on several events, or none, is one barrier.
// CHECK-LABEL: func.func @chain(%e: !llvm.ptr, %local: !llvm.ptr<3>, %global: !llvm.ptr<1>, %w: index, %n: index) -> !llvm.ptr
// CHECK:         %last = scf.for %i = %{{.*}} to %n step %{{.*}} iter_args(%prev = %e) -> (!llvm.ptr) {
// CHECK:           scf.yield %prev : !llvm.ptr
// CHECK:         cf.br ^[[NEXT:.*]](%last : !llvm.ptr)
// CHECK-NEXT:  ^[[NEXT]](%arg: !llvm.ptr):
// CHECK-NEXT:    %again = func.call @chain(%arg, %local, %global, %w, %n) : (!llvm.ptr, !llvm.ptr<3>, !llvm.ptr<1>, index, index) -> !llvm.ptr
// CHECK-NEXT:    mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory | cross_work_group_memory)
// CHECK-NEXT:    mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory | cross_work_group_memory)
// CHECK-NEXT:    func.return %again : !llvm.ptr
func.func @chain(%e: !mux.dma_event, %local: !llvm.ptr<3>, %global: !llvm.ptr<1>, %w: index, %n: index) -> !mux.dma_event {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %last = scf.for %i = %c0 to %n step %c1 iter_args(%prev = %e) -> (!mux.dma_event) {
    %next = mux.dma_read_1d %local, %global width(%w) event(%prev) : !llvm.ptr<3>, !llvm.ptr<1>
    scf.yield %next : !mux.dma_event
  }
  cf.br ^next(%last : !mux.dma_event)
^next(%arg: !mux.dma_event):
  %again = func.call @chain(%arg, %local, %global, %w, %n) : (!mux.dma_event, !llvm.ptr<3>, !llvm.ptr<1>, index, index) -> !mux.dma_event
  mux.dma_wait %arg, %again
  mux.dma_wait
  func.return %again : !mux.dma_event
}

// Once per work-group, through the pipeline (SCHED, on Inputs/dma_once.mlir): after
// work-item-loops the copy is in the first barrier region, which every work-item
// runs, but guarded by local linear id == 0; the wait's barrier ends the region (its
// memory part stays between the work-item loops), so the other work-items read the
// tile in the next one. Functions without DMA are left alone.
// SCHED-LABEL: func.func private @"tile.mux-barrier-region.0"
// SCHED:         %lid = mux.get_local_linear_id
// SCHED:         %first = arith.cmpi eq, %lid, %{{.*}} : index
// SCHED:         cf.cond_br %first, ^[[COPY:.*]], ^[[DONE:.*]]
// SCHED:       ^[[COPY]]:
// SCHED:         llvmx.memcpy
// SCHED:       ^[[DONE]]:
// SCHED-NEXT:    %e = llvm.mlir.zero : !llvm.ptr
// SCHED-NEXT:    %[[NEXT:.*]] = arith.constant 1 : i32
// SCHED-NEXT:    func.return %[[NEXT]] : i32
// SCHED-LABEL: func.func private @"tile.mux-barrier-region.1"
// SCHED-NOT:     llvmx.memcpy
// SCHED:         memref.load %tile
// SCHED-LABEL: func.func @"tile.mux-barrier-wrapper"
// SCHED:         mux.mem_barrier scope(work_group) semantics(acq_rel | work_group_memory | cross_work_group_memory)
// SCHED-LABEL: func.func @plain
// SCHED-NEXT:    func.return
