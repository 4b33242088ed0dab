// RUN: python -m mux.frontend.llvm_import %S/Inputs/events.ll | filecheck %s
// RUN: mux-opt %S/Inputs/events.ll -p lower-to-mux-builtins,define-mux-dma | filecheck %s --check-prefix=DMA
// RUN: printf 'define spir_func void @sample(target("spirv.Sampler") %%s) {\n  ret void\n}\n' > %t.ll
// RUN: not python -m mux.frontend.llvm_import %t.ll 2>&1 | filecheck %s --check-prefix=SAMPLER
//
// OpenCL C's event_t, clang's target("spirv.Event"), is imported as !llvm.ptr, the
// type LLVM lays it out as (clang's array of events has them 8 bytes apart): in an
// alloca, a select, a phi, a function's parameter and result; the event 0
// (zeroinitializer) is the null pointer.

// CHECK:      func.func @fetch(%0: !llvm.ptr<3>, %1: !llvm.ptr<1>, %2: i64, %3: !llvm.ptr) -> !llvm.ptr {
// CHECK-NEXT:   %4 = func.call @_Z21async_work_group_copyPU3AS3fPU3AS1Kfm9ocl_event(%0, %1, %2, %3) : (!llvm.ptr<3>, !llvm.ptr<1>, i64, !llvm.ptr) -> !llvm.ptr
// CHECK-NEXT:   func.return %4 : !llvm.ptr
// CHECK-LABEL: func.func @events
// CHECK:        %[[LIST:.*]] = llvm.alloca %{{.*}} x !llvm.array<2 x !llvm.ptr> {alignment = 8 : i64} : (i32) -> !llvm.ptr
// CHECK:        %[[ZERO:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK-NEXT:   %[[A:.*]] = func.call @_Z21async_work_group_copyPU3AS3fPU3AS1Kfm9ocl_event(%{{.*}}, %{{.*}}, %{{.*}}, %[[ZERO]])
// CHECK:        %[[B:.*]] = func.call @_Z21async_work_group_copyPU3AS3fPU3AS1Kfm9ocl_event
// CHECK:        %[[CHOSEN:.*]] = llvm.select %{{.*}}, %[[A]], %[[B]] : i1, !llvm.ptr
// CHECK-NEXT:   llvm.store %[[CHOSEN]], %[[LIST]] {alignment = 8 : i64} : !llvm.ptr, !llvm.ptr
// CHECK:        %[[FETCHED:.*]] = func.call @fetch(%{{.*}}, %{{.*}}, %{{.*}}, %[[A]])
// CHECK-NEXT:   llvm.br ^bb3(%[[FETCHED]] : !llvm.ptr)
// CHECK:        %[[STRIDED:.*]] = func.call @_Z29async_work_group_strided_copyPU3AS3fPU3AS1Kfmm9ocl_event(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[B]])
// CHECK-NEXT:   llvm.br ^bb3(%[[STRIDED]] : !llvm.ptr)
// CHECK-NEXT: ^bb3(%[[EITHER:.*]]: !llvm.ptr):
// CHECK-NEXT:   %[[SECOND:.*]] = llvm.getelementptr inbounds %[[LIST]][8] : (!llvm.ptr) -> !llvm.ptr, i8
// CHECK-NEXT:   llvm.store %[[EITHER]], %[[SECOND]] {alignment = 8 : i64} : !llvm.ptr, !llvm.ptr
// CHECK:        func.call @_Z17wait_group_eventsiP9ocl_event(%{{.*}}, %[[LIST]]) : (i32, !llvm.ptr) -> ()

// Through lower-to-mux-builtins and define-mux-dma the events stay pointers, and
// no cast between an event and a pointer is left.
// DMA-LABEL: func.func @fetch(%0: !llvm.ptr<3>, %1: !llvm.ptr<1>, %2: i64, %3: !llvm.ptr) -> !llvm.ptr {
// DMA:         llvmx.memcpy
// DMA:         func.return %3 : !llvm.ptr
// DMA-LABEL: func.func @events
// DMA-NOT:     mux.dma
// DMA-NOT:     !mux.dma_event
// DMA:         mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory | cross_work_group_memory)
// DMA-NOT:     mux.dma
// DMA-NOT:     !mux.dma_event

// Other target types are refused by name.
// SAMPLER: .ll: error: cannot import: type 'target("spirv.Sampler")' is not supported
