// RUN: mux-opt %s -p lower-to-mux-builtins | filecheck %s
//
// lower-to-mux-builtins: OpenCL's barriers and fences become mux barriers. The
// cl_mem_fence_flags (CLK_LOCAL_MEM_FENCE 1, CLK_GLOBAL_MEM_FENCE 2,
// CLK_IMAGE_MEM_FENCE 4) give the memory kinds, the memory_scope (0 work-item,
// 1 work-group, 2 device, 3 all SVM devices, 4 sub-group) the scope, by default the
// work-group (the sub-group for sub_group_barrier); barriers and mem_fence are
// acq_rel, read_mem_fence acquire, write_mem_fence release, atomic_work_item_fence
// its memory_order (2 acquire, 5 seq_cst); no flags: relaxed. Barrier ids are 0
// until prepare-barriers numbers them.
// CHECK-LABEL: func.func @sync
// CHECK: mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
// CHECK-NEXT: mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory | cross_work_group_memory)
// CHECK-NEXT: mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | cross_work_group_memory)
// CHECK-NEXT: mux.work_group_barrier id(0) scope(work_group) semantics(relaxed)
// CHECK-NEXT: mux.work_group_barrier id(0) scope(device) semantics(acq_rel | cross_work_group_memory)
// CHECK-NEXT: mux.sub_group_barrier id(0) scope(sub_group) semantics(acq_rel | work_group_memory)
// CHECK-NEXT: mux.sub_group_barrier id(0) scope(cross_device) semantics(acq_rel | work_group_memory)
// CHECK-NEXT: mux.mem_barrier scope(work_group) semantics(acq_rel | cross_work_group_memory)
// CHECK-NEXT: mux.mem_barrier scope(work_group) semantics(acquire | work_group_memory)
// CHECK-NEXT: mux.mem_barrier scope(work_group) semantics(release | cross_work_group_memory)
// CHECK-NEXT: mux.mem_barrier scope(sub_group) semantics(acquire | work_group_memory | cross_work_group_memory)
// CHECK-NEXT: mux.mem_barrier scope(device) semantics(seq_cst | cross_work_group_memory)
// CHECK-NEXT: mux.mem_barrier scope(work_group) semantics(acq_rel | work_group_memory | cross_work_group_memory)
// CHECK-NEXT: mux.mem_barrier scope(cross_device) semantics(acq_rel | work_group_memory | cross_work_group_memory)
// CHECK-NEXT: mux.mem_barrier scope(work_item) semantics(release | work_group_memory)
// CHECK-NEXT: mux.mem_barrier scope(work_group) semantics(relaxed)
// CHECK-NEXT: func.return

func.func private @_Z7barrierj(i32)
func.func private @_Z18work_group_barrierj(i32)
func.func private @_Z18work_group_barrierj12memory_scope(i32, i32)
func.func private @_Z17sub_group_barrierj(i32)
func.func private @_Z17sub_group_barrierj12memory_scope(i32, i32)
func.func private @_Z9mem_fencej(i32)
func.func private @_Z14read_mem_fencej(i32)
func.func private @_Z15write_mem_fencej(i32)
func.func private @_Z22atomic_work_item_fencej12memory_order12memory_scope(i32, i32, i32)

func.func @sync() attributes {mux.kernel = "entry-point"} {
  %local = llvm.mlir.constant(1 : i32) : i32
  %global = llvm.mlir.constant(2 : i32) : i32
  %both = llvm.mlir.constant(3 : i32) : i32
  %image = llvm.mlir.constant(4 : i32) : i32
  %none = llvm.mlir.constant(0 : i32) : i32
  %device = llvm.mlir.constant(2 : i32) : i32
  %svm = llvm.mlir.constant(3 : i32) : i32
  %sub = llvm.mlir.constant(4 : i32) : i32
  %acquire = llvm.mlir.constant(2 : i32) : i32
  %seq_cst = llvm.mlir.constant(5 : i32) : i32
  %all = llvm.mlir.constant(7 : i32) : i32
  %relaxed = llvm.mlir.constant(0 : i32) : i32
  %release = llvm.mlir.constant(3 : i32) : i32
  %acq_rel = llvm.mlir.constant(4 : i32) : i32
  %item = llvm.mlir.constant(0 : i32) : i32
  %group = llvm.mlir.constant(1 : i32) : i32
  func.call @_Z7barrierj(%local) : (i32) -> ()
  func.call @_Z7barrierj(%both) : (i32) -> ()
  func.call @_Z18work_group_barrierj(%global) : (i32) -> ()
  func.call @_Z18work_group_barrierj(%none) : (i32) -> ()
  func.call @_Z18work_group_barrierj12memory_scope(%global, %device) : (i32, i32) -> ()
  func.call @_Z17sub_group_barrierj(%local) : (i32) -> ()
  func.call @_Z17sub_group_barrierj12memory_scope(%local, %svm) : (i32, i32) -> ()
  func.call @_Z9mem_fencej(%image) : (i32) -> ()
  func.call @_Z14read_mem_fencej(%local) : (i32) -> ()
  func.call @_Z15write_mem_fencej(%global) : (i32) -> ()
  func.call @_Z22atomic_work_item_fencej12memory_order12memory_scope(%both, %acquire, %sub) : (i32, i32, i32) -> ()
  func.call @_Z22atomic_work_item_fencej12memory_order12memory_scope(%global, %seq_cst, %device) : (i32, i32, i32) -> ()
  // OpenCL 2.0's generic memory: every flag (the image one is global memory), the
  // all-devices scope (memory_scope_all_devices is all_svm_devices, 3), the
  // work-item scope; a relaxed order is no ordering whatever the flags.
  func.call @_Z9mem_fencej(%all) : (i32) -> ()
  func.call @_Z22atomic_work_item_fencej12memory_order12memory_scope(%all, %acq_rel, %svm) : (i32, i32, i32) -> ()
  func.call @_Z22atomic_work_item_fencej12memory_order12memory_scope(%local, %release, %item) : (i32, i32, i32) -> ()
  func.call @_Z22atomic_work_item_fencej12memory_order12memory_scope(%all, %relaxed, %group) : (i32, i32, i32) -> ()
  func.return
}

