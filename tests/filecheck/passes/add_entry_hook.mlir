// RUN: mux-opt %s -p add-entry-hook | filecheck %s
//
// add-entry-hook: the host's hook copies the launch's shared MuxWorkGroupInfo into
// its own, then loops over the work-groups of its slice, z outermost, setting
// the group id and the group's actual local size, min(enqueued, global - start).

// CHECK-LABEL: func.func private @"k.mux-kernel-wrapper"(%packed_args: !llvm.ptr, %wg: !llvm.ptr) {
// CHECK:       func.func @"k.host-entry-hook"(%packed_args: !llvm.ptr, %schedule: !llvm.ptr, %x_begin: index, %x_end: index, %y_begin: index, %y_end: index, %z_begin: index, %z_end: index) attributes {mux.kernel = "entry-point", mux.base_fn_name = "k"} {
// CHECK:         %wg = llvm.alloca %{{.*}} x !llvm.struct<"MuxWorkGroupInfo"
// The whole shared struct is copied (152 bytes: C's sizeof of MuxWorkGroupInfo with a
// 64-bit size_t); its enqueued_local_size and global_size (fields 5, 6) are read for
// the local sizes of the groups.
// CHECK-NEXT:    %[[BYTES:.*]] = arith.constant 152 : i64
// CHECK-NEXT:    llvmx.memcpy %wg, %schedule, %[[BYTES]] : !llvm.ptr, !llvm.ptr, i64
// CHECK-NEXT:    llvm.getelementptr inbounds %schedule[0, 5, 0]
// CHECK:         llvm.getelementptr inbounds %schedule[0, 6, 2]
// CHECK:         scf.for %group_z = %z_begin to %z_end step
// CHECK-NEXT:      llvm.getelementptr inbounds %wg[0, 0, 2]
// CHECK:           arith.muli %group_z
// CHECK-NEXT:      arith.subi
// CHECK-NEXT:      arith.minui
// CHECK:           llvm.getelementptr inbounds %wg[0, 3, 2]
// CHECK:           scf.for %group_y = %y_begin to %y_end step
// CHECK:             scf.for %group_x = %x_begin to %x_end step
// CHECK-NEXT:          llvm.getelementptr inbounds %wg[0, 0, 0]
// CHECK:               %[[START:.*]] = arith.muli %group_x, %[[ENQ:.*]] : index
// CHECK-NEXT:          %[[LEFT:.*]] = arith.subi %[[GLOBAL:.*]], %[[START]] : index
// CHECK-NEXT:          %[[SIZE:.*]] = arith.minui %[[ENQ]], %[[LEFT]] : index
// CHECK-NEXT:          %[[P:.*]] = llvm.getelementptr inbounds %wg[0, 3, 0]
// CHECK-NEXT:          %[[S:.*]] = arith.index_cast %[[SIZE]] : index to i64
// CHECK-NEXT:          llvm.store %[[S]], %[[P]]
// CHECK-NEXT:          func.call @"k.mux-kernel-wrapper"(%packed_args, %wg) : (!llvm.ptr, !llvm.ptr) -> ()
func.func @"k.mux-kernel-wrapper"(%packed_args: !llvm.ptr, %wg: !llvm.ptr) attributes {mux.kernel = "entry-point", mux.base_fn_name = "k"} {
  func.return
}
