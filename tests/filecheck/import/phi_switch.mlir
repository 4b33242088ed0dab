// RUN: python -m mux.frontend.llvm_import %S/Inputs/loop_sum.ll | filecheck %s --check-prefix=LOOP
// RUN: python -m mux.frontend.llvm_import %S/Inputs/switch.ll | filecheck %s --check-prefix=SWITCH
//
// Phis are block arguments: each branch passes the values of its edge (constants
// built in the branching block); reqd_work_group_size is the spec's attribute;
// nsw/nuw and nneg flags are kept; a switch is llvmx.switch with its case values.

// LOOP:       mux.reqd_work_group_size = array<i32: 1, 1, 1>
// LOOP:       llvm.cond_br %{{.*}}, ^bb1(%{{.*}}, %{{.*}} : i32, i32), ^bb2(%{{.*}} : i32)
// LOOP-NEXT:  ^bb1(%[[I:.*]]: i32, %[[S:.*]]: i32):
// LOOP-NEXT:    llvm.zext nneg %[[I]] : i32 to i64
// LOOP:         llvm.mul %{{.*}}, %{{.*}} overflow<nsw> : i32
// LOOP:         %[[N:.*]] = llvm.add %[[I]], %{{.*}} overflow<nsw,nuw> : i32
// LOOP:         llvm.icmp "slt" %[[N]], %2 : i32
// LOOP-NEXT:    llvm.cond_br %{{.*}}, ^bb1(%[[N]], %{{.*}} : i32, i32), ^bb2(%{{.*}} : i32)
// LOOP-NEXT:  ^bb2(%{{.*}}: i32):

// SWITCH:      %[[C:.*]] = llvm.mlir.constant(1.500000e+00 : f32) : f32
// SWITCH-NEXT: llvmx.switch %{{.*}} : i32, ^bb5 [
// SWITCH-NEXT:   0: ^bb6(%[[C]] : f32),
// SWITCH-NEXT:   1: ^bb2,
// SWITCH-NEXT:   3: ^bb3,
// SWITCH-NEXT:   5: ^bb4
// SWITCH-NEXT: ]
// SWITCH:      llvmx.uitofp %{{.*}} : i32 to f32
// SWITCH-NEXT: llvm.mlir.constant(1.000000e-01 : f32) : f32
