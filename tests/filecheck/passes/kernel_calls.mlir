// RUN: mux-opt %s -p 'encode-kernel-metadata{name=outer local-sizes=8}' | filecheck %s --check-prefix=ENCODE
// RUN: mux-opt %s -p 'transfer-kernel-metadata,prepare-barriers' | filecheck %s --check-prefix=TRANSFER
// RUN: mux-opt %s -p 'host{kernel=outer to-llvm=false}' | filecheck %s --check-prefix=ONE
// RUN: mux-opt %s -p 'host{to-llvm=false}' | filecheck %s --check-prefix=ALL
//
// A kernel that calls another (OpenCL C: "It is just a regular function call if a
// __kernel function is called by another kernel function").
//
// encode-kernel-metadata singles out the kernel under compilation: it is the only
// function left with `mux.kernel`; the kernels it calls are ordinary functions (their
// own metadata stays: it is about their own launches), and so is an unrelated one.
// ENCODE-LABEL: func.func @inner(%a: memref<?xf32, 1 : i64>, %b: memref<?xf32, 1 : i64>, %tmp: memref<?xf32, 3 : i64>)
// ENCODE-SAME:    attributes {mux.reqd_work_group_size = array<i32: 4, 1, 1>} {
// ENCODE-LABEL: func.func @outer
// ENCODE-SAME:    attributes {mux.kernel = "entry-point", mux.reqd_work_group_size = array<i32: 8, 1, 1>, mux.work_item_order = #mux<work_item_order xyz>} {
// ENCODE-NEXT:    func.call @inner(%a, %b, %tmp)
// ENCODE-NEXT:    mux.work_group_barrier id(0)
// ENCODE-NEXT:    func.call @inner(%b, %a, %tmp)
// ENCODE:       func.func @unrelated() {
//
// Every kernel stays an entry point under transfer-kernel-metadata; prepare-barriers
// inlines a copy of the called kernel, barrier included, and numbers the caller's
// barriers (the callee's own stay 0).
// TRANSFER-LABEL: func.func @inner
// TRANSFER-SAME:    mux.kernel = "entry-point"
// TRANSFER:         mux.work_group_barrier id(0)
// TRANSFER-LABEL: func.func @outer
// TRANSFER-SAME:    mux.kernel = "entry-point"
// TRANSFER-NOT:     func.call
// TRANSFER:         memref.store %{{.*}}, %tmp[%{{.*}}] : memref<?xf32, 3 : i64>
// TRANSFER-NEXT:    mux.work_group_barrier id(0)
// TRANSFER:         memref.store %{{.*}}, %b[%{{.*}}] : memref<?xf32, 1 : i64>
// TRANSFER-NEXT:    mux.work_group_barrier id(1)
// TRANSFER:         memref.store %{{.*}}, %tmp[%{{.*}}] : memref<?xf32, 3 : i64>
// TRANSFER-NEXT:    mux.work_group_barrier id(2)
// TRANSFER:         memref.store %{{.*}}, %a[%{{.*}}] : memref<?xf32, 1 : i64>
// TRANSFER-NOT:     func.call
// TRANSFER:         func.return
// TRANSFER-LABEL: func.func @unrelated
// TRANSFER-SAME:    mux.kernel = "entry-point"
//
// Compiling `outer` alone: one entry hook, one wrapper, the barrier regions of the
// three barriers (inner's copies and outer's own); `inner` and `unrelated` get
// nothing (inner is inlined, then dropped with unrelated).
// ONE-NOT:     @inner
// ONE-NOT:     @unrelated
// ONE:         func.func private @"outer.mux-barrier-region.3"
// ONE:         func.func private @"outer.mux-barrier-wrapper"
// ONE-NOT:     mux.kernel
// ONE:         func.func private @"outer.mux-kernel-wrapper"
// ONE-NOT:     mux.kernel
// ONE:         func.func @"outer.host-entry-hook"
// ONE-SAME:      mux.kernel = "entry-point"
// ONE-NOT:     mux.kernel
// ONE-NOT:     @inner
// ONE-NOT:     @unrelated
//
// The whole module: each kernel has its own hook.
// ALL-DAG:     func.func @"inner.host-entry-hook"
// ALL-DAG:     func.func @"outer.host-entry-hook"
// ALL-DAG:     func.func @"unrelated.host-entry-hook"

func.func @inner(%a: memref<?xf32, 1>, %b: memref<?xf32, 1>, %tmp: memref<?xf32, 3>)
    attributes {mux.kernel = "entry-point", mux.reqd_work_group_size = array<i32: 4, 1, 1>} {
  %d0 = arith.constant 0 : i32
  %i = mux.get_global_id %d0
  %l = mux.get_local_id %d0
  %x = memref.load %a[%i] : memref<?xf32, 1>
  memref.store %x, %tmp[%l] : memref<?xf32, 3>
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %n = mux.get_local_size %d0
  %c1 = arith.constant 1 : index
  %last = arith.subi %n, %c1 : index
  %r = arith.subi %last, %l : index
  %y = memref.load %tmp[%r] : memref<?xf32, 3>
  memref.store %y, %b[%i] : memref<?xf32, 1>
  func.return
}
func.func @outer(%a: memref<?xf32, 1>, %b: memref<?xf32, 1>, %tmp: memref<?xf32, 3>)
    attributes {mux.kernel = "entry-point"} {
  func.call @inner(%a, %b, %tmp) : (memref<?xf32, 1>, memref<?xf32, 1>, memref<?xf32, 3>) -> ()
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  func.call @inner(%b, %a, %tmp) : (memref<?xf32, 1>, memref<?xf32, 1>, memref<?xf32, 3>) -> ()
  func.return
}
func.func @unrelated() attributes {mux.kernel = "entry-point"} {
  func.return
}
