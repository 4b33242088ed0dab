// RUN: mux-opt --split-input-file %s -p add-kernel-wrapper | filecheck %s
// RUN: mux-opt --split-input-file %s -p 'add-kernel-wrapper{local-buffers-by-size=false}' | filecheck %s --check-prefix=BYPTR
//
// add-kernel-wrapper: the spec's example, foo(i8 a0, <wi>, i32 a1, <wg>), plus a
// memref, an index and a local buffer. The kernel's parameters go into
// MuxPackedArgs.foo; MuxWorkItemInfo is allocated by the wrapper; MuxWorkGroupInfo
// is passed through.

// The kernel keeps only mux.scheduled_fn; its other attributes moved to the wrapper.
// CHECK-LABEL: func.func private @foo(
// CHECK-SAME:    attributes {mux.scheduled_fn = array<i32: 1, 3>} {
// CHECK:       func.func @"foo.mux-kernel-wrapper"(%packed_args: !llvm.ptr, %wg: !llvm.ptr) attributes {mux.kernel = "entry-point", mux.reqd_work_group_size = array<i32: 4, 1, 1>, mux.base_fn_name = "foo"} {
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-NEXT:    %wi = llvm.alloca %[[ONE]] x !llvm.struct<"MuxWorkItemInfo", (!llvm.array<3 x i64>, i32, i32, i32, i32)>
// CHECK-NEXT:    %[[P0:.*]] = llvm.getelementptr inbounds %packed_args[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<"MuxPackedArgs.foo", (i8, i32, !llvm.ptr<1>, i64, i64)>
// CHECK-NEXT:    %a0 = llvm.load %[[P0]] : !llvm.ptr -> i8
// CHECK-NEXT:    %[[P1:.*]] = llvm.getelementptr inbounds %packed_args[0, 1]
// CHECK-NEXT:    %a1 = llvm.load %[[P1]] : !llvm.ptr -> i32
// CHECK-NEXT:    %[[P2:.*]] = llvm.getelementptr inbounds %packed_args[0, 2]
// CHECK-NEXT:    %[[G:.*]] = llvm.load %[[P2]] : !llvm.ptr -> !llvm.ptr<1>
// CHECK-NEXT:    %global = builtin.unrealized_conversion_cast %[[G]] : !llvm.ptr<1> to memref<?xf32, 1 : i64>
// CHECK-NEXT:    %[[P3:.*]] = llvm.getelementptr inbounds %packed_args[0, 3]
// CHECK-NEXT:    %[[N:.*]] = llvm.load %[[P3]] : !llvm.ptr -> i64
// CHECK-NEXT:    %n = arith.index_cast %[[N]] : i64 to index
// CHECK-NEXT:    %[[P4:.*]] = llvm.getelementptr inbounds %packed_args[0, 4]
// CHECK-NEXT:    %[[BYTES:.*]] = llvm.load %[[P4]] : !llvm.ptr -> i64
// CHECK-NEXT:    %[[BUF:.*]] = llvm.alloca %[[BYTES]] x i8 {alignment = 128 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT:    %[[LOCAL:.*]] = llvmx.addrspacecast %[[BUF]] : !llvm.ptr to !llvm.ptr<3>
// CHECK-NEXT:    %scratch = builtin.unrealized_conversion_cast %[[LOCAL]] : !llvm.ptr<3> to memref<?xf32, 3 : i64>
// CHECK-NEXT:    func.call @foo(%a0, %wi, %a1, %wg, %global, %n, %scratch)
// CHECK-NEXT:    func.return
// BYPTR: !llvm.struct<"MuxPackedArgs.foo", (i8, i32, !llvm.ptr<1>, i64, !llvm.ptr<3>)>
// BYPTR: %[[L:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr<3>
// BYPTR-NEXT: %scratch = builtin.unrealized_conversion_cast %[[L]] : !llvm.ptr<3> to memref<?xf32, 3 : i64>
func.func @foo(%a0: i8, %wi: !llvm.ptr, %a1: i32, %wg: !llvm.ptr, %global: memref<?xf32, 1>, %n: index, %scratch: memref<?xf32, 3>) attributes {mux.kernel = "entry-point", mux.scheduled_fn = array<i32: 1, 3>, mux.reqd_work_group_size = array<i32: 4, 1, 1>} {
  func.return
}

// -----

// The buffer of module-scope local variables (replace-module-scope-vars), which
// mux.local_vars_param names, is not in MuxPackedArgs: the wrapper allocates it with
// its constant size and alignment, even when local buffers are passed by pointer.
// The kernel keeps the attribute, which describes its parameter.
// CHECK-LABEL: func.func private @tiles(
// CHECK-SAME:    attributes {mux.scheduled_fn = array<i32: 3, 4>, mux.local_vars_param = array<i64: 2, 272, 16>} {
// CHECK:       func.func @"tiles.mux-kernel-wrapper"(%packed_args: !llvm.ptr, %wg: !llvm.ptr) attributes {mux.kernel = "entry-point", mux.base_fn_name = "tiles"} {
// CHECK:         %wi = llvm.alloca
// CHECK-NEXT:    %[[SIZE:.*]] = arith.constant 272 : i64
// CHECK-NEXT:    %[[BUF:.*]] = llvm.alloca %[[SIZE]] x i8 {alignment = 16 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT:    %[[LOCAL:.*]] = llvmx.addrspacecast %[[BUF]] : !llvm.ptr to !llvm.ptr<3>
// CHECK-NEXT:    %local_vars = builtin.unrealized_conversion_cast %[[LOCAL]] : !llvm.ptr<3> to memref<272xi8, 3 : i64>
// CHECK-NEXT:    llvm.getelementptr inbounds %packed_args[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<"MuxPackedArgs.tiles", (!llvm.ptr<1>, i64)>
// CHECK:         func.call @tiles(%out, %scratch, %local_vars, %wi, %wg)
// BYPTR-LABEL: func.func @"tiles.mux-kernel-wrapper"
// BYPTR:         llvm.alloca %{{.*}} x i8 {alignment = 16 : i64}
// BYPTR:         !llvm.struct<"MuxPackedArgs.tiles", (!llvm.ptr<1>, !llvm.ptr<3>)>
func.func @tiles(%out: memref<?xf32, 1>, %scratch: memref<?xf32, 3>, %local_vars: memref<272xi8, 3>, %wi: !llvm.ptr, %wg: !llvm.ptr) attributes {mux.kernel = "entry-point", mux.scheduled_fn = array<i32: 3, 4>, mux.local_vars_param = array<i64: 2, 272, 16>} {
  func.return
}

// -----

// An i1 parameter is a byte of the struct (types.memory_type; the runtime packs a
// c_bool), compared with 0 when loaded.
// CHECK-LABEL: func.func @"flag.mux-kernel-wrapper"
// CHECK:         %[[P:.*]] = llvm.getelementptr inbounds %packed_args[0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<"MuxPackedArgs.flag", (i8, vector<4xi8>)>
// CHECK-NEXT:    %[[B:.*]] = llvm.load %[[P]] : !llvm.ptr -> i8
// CHECK-NEXT:    %[[Z:.*]] = llvm.mlir.constant(0 : i8) : i8
// CHECK-NEXT:    %on = llvm.icmp "ne" %[[B]], %[[Z]] : i8
// CHECK:         %[[VB:.*]] = llvm.load %{{.*}} : !llvm.ptr -> vector<4xi8>
// CHECK-NEXT:    %[[VZ:.*]] = llvm.mlir.constant(dense<0> : vector<4xi8>) : vector<4xi8>
// CHECK-NEXT:    %lanes = llvm.icmp "ne" %[[VB]], %[[VZ]] : vector<4xi8>
// CHECK-NEXT:    func.call @flag(%on, %lanes, %wi, %wg)
func.func @flag(%on: i1, %lanes: vector<4xi1>, %wi: !llvm.ptr, %wg: !llvm.ptr) attributes {mux.kernel = "entry-point", mux.scheduled_fn = array<i32: 2, 3>} {
  func.return
}
