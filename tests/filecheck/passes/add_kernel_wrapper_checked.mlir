// RUN: mux-opt %s -p add-kernel-wrapper | filecheck %s
//
// add-kernel-wrapper in checked mode: a kernel with a local-memory shadow
// (mux.local_shadow, check-local-races) gets its work-group's local memory as one
// block: the local buffers passed by size, each at the next multiple of 128 bytes,
// then the module-scope variables at the next multiple of their alignment; and the
// shadow, 5 header words and one word per cell of 2**mux.local_cell bytes of the
// block (cells of 4 bytes here), its header set (epoch -1, the block's address,
// its size, its cells) and epoch 0 started by @__mux_check_local_epoch, which
// zeroes the words. Neither the shadow nor the module-scope buffer is
// in MuxPackedArgs.

// CHECK-LABEL: func.func @"k.mux-kernel-wrapper"(%packed_args: !llvm.ptr, %wg: !llvm.ptr)
// CHECK-SAME:    attributes {mux.kernel = "entry-point", mux.base_fn_name = "k"}
// CHECK:         !llvm.struct<"MuxPackedArgs.k", (!llvm.ptr<1>, i64, i64)>
// CHECK:         %[[A:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// CHECK:         %[[B:.*]] = llvm.load %{{.*}} : !llvm.ptr -> i64
// The block: a at 0, b at round_up(a, 128), the variables at round_up(end, 16).
// CHECK-NEXT:    %[[SIZE:.*]] = arith.constant 272 : i64
// CHECK-NEXT:    %[[END0:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[M0:.*]] = arith.constant 127 : i64
// CHECK-NEXT:    %[[S0:.*]] = arith.addi %[[END0]], %[[M0]] : i64
// CHECK-NEXT:    %[[N0:.*]] = arith.constant -128 : i64
// CHECK-NEXT:    %[[AT0:.*]] = arith.andi %[[S0]], %[[N0]] : i64
// CHECK-NEXT:    %[[END1:.*]] = arith.addi %[[AT0]], %[[A]] : i64
// CHECK:         %[[AT1:.*]] = arith.andi
// CHECK-NEXT:    %[[END2:.*]] = arith.addi %[[AT1]], %[[B]] : i64
// CHECK:         %[[AT2:.*]] = arith.andi
// CHECK-NEXT:    %[[END:.*]] = arith.addi %[[AT2]], %[[SIZE]] : i64
// CHECK-NEXT:    %[[BLOCK:.*]] = llvm.alloca %[[END]] x i8 {alignment = 128 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT:    %[[LOCAL:.*]] = llvmx.addrspacecast %[[BLOCK]] : !llvm.ptr to !llvm.ptr<3>
// CHECK-NEXT:    %[[PA:.*]] = llvm.getelementptr %[[LOCAL]][%[[AT0]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    %a = builtin.unrealized_conversion_cast %[[PA]] : !llvm.ptr<3> to memref<?xf32, 3 : i64>
// CHECK-NEXT:    %[[PB:.*]] = llvm.getelementptr %[[LOCAL]][%[[AT1]]]
// CHECK-NEXT:    %b = builtin.unrealized_conversion_cast %[[PB]] : !llvm.ptr<3> to memref<?xi32, 3 : i64>
// CHECK-NEXT:    %[[PV:.*]] = llvm.getelementptr %[[LOCAL]][%[[AT2]]]
// CHECK-NEXT:    %local_vars = builtin.unrealized_conversion_cast %[[PV]] : !llvm.ptr<3> to memref<272xi8, 3 : i64>
// The shadow.
// CHECK-NEXT:    %[[ROUND:.*]] = arith.constant 3 : i64
// CHECK-NEXT:    %[[UP:.*]] = arith.addi %[[END]], %[[ROUND]] : i64
// CHECK-NEXT:    %[[SHIFT:.*]] = arith.constant 2 : i64
// CHECK-NEXT:    %[[CELLS:.*]] = arith.shrui %[[UP]], %[[SHIFT]] : i64
// CHECK-NEXT:    %[[HEADER:.*]] = arith.constant 5 : i64
// CHECK-NEXT:    %[[WORDS:.*]] = arith.addi %[[CELLS]], %[[HEADER]] : i64
// CHECK-NEXT:    %[[MEMORY:.*]] = llvm.alloca %[[WORDS]] x i64 {alignment = 8 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT:    %[[SHADOW:.*]] = builtin.unrealized_conversion_cast %[[MEMORY]] : !llvm.ptr to memref<?xi64>
// CHECK-NEXT:    %[[BASE:.*]] = llvm.ptrtoint %[[LOCAL]] : !llvm.ptr<3> to i64
// CHECK-NEXT:    %[[NONE:.*]] = arith.constant -1 : i64
// CHECK-NEXT:    %[[W0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    memref.store %[[NONE]], %[[SHADOW]][%[[W0]]] : memref<?xi64>
// CHECK-NEXT:    %[[W1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    memref.store %[[BASE]], %[[SHADOW]][%[[W1]]] : memref<?xi64>
// CHECK-NEXT:    %[[W2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    memref.store %[[END]], %[[SHADOW]][%[[W2]]] : memref<?xi64>
// CHECK-NEXT:    %[[W3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    memref.store %[[CELLS]], %[[SHADOW]][%[[W3]]] : memref<?xi64>
// CHECK-NEXT:    func.call @__mux_check_local_epoch(%[[SHADOW]]) : (memref<?xi64>) -> ()
// CHECK-NEXT:    func.call @k(%out, %a, %b, %local_vars, %[[SHADOW]], %wi, %wg)
func.func @k(%out: memref<?xf32, 1>, %a: memref<?xf32, 3>, %b: memref<?xi32, 3>, %local_vars: memref<272xi8, 3>, %local_shadow: memref<?xi64>, %wi: !llvm.ptr, %wg: !llvm.ptr) attributes {mux.kernel = "entry-point", mux.scheduled_fn = array<i32: 5, 6>, mux.local_vars_param = array<i64: 3, 272, 16>, mux.local_shadow = 4 : i64, mux.local_cell = 2 : i64} {
  func.return
}
func.func private @__mux_check_local_epoch(memref<?xi64>)
