// RUN: mux-opt --split-input-file %s -p lift-llvm-ops | filecheck %s
//
// lift-llvm-ops first gives an imported kernel's branches as scf: a diamond is an
// scf.if yielding what each path passes to the block where they meet; clang's
// rotated loop (a block branching back to itself) is an scf.while whose
// `before` region is the block, forwarding the next values, the exit's arguments
// and the values used after the loop. Loops of several blocks:
// lift_llvm_ops_loops.mlir.

// A diamond: the meeting block's argument is the scf.if's result.
// CHECK-LABEL: func.func @diamond(
// CHECK:         %c = arith.cmpi slt, %x, %y : i64
// CHECK-NEXT:    %[[R:.*]] = scf.if %c -> (i64) {
// CHECK-NEXT:      %t = arith.addi %x, %y : i64
// CHECK-NEXT:      scf.yield %t : i64
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %f = arith.subi %x, %y : i64
// CHECK-NEXT:      scf.yield %f : i64
// CHECK-NEXT:    }
// CHECK-NEXT:    %r = arith.muli %[[R]], %[[R]] : i64
// CHECK-NEXT:    llvm.store %r, %p : i64, !llvm.ptr
// CHECK-NEXT:    func.return
// CHECK-NOT:   ^bb
func.func @diamond(%x: i64, %y: i64, %p: !llvm.ptr)
    attributes {mux.kernel = "entry-point"} {
  %c = llvm.icmp "slt" %x, %y : i64
  llvm.cond_br %c, ^then, ^else
^then:
  %t = llvm.add %x, %y : i64
  llvm.br ^join(%t : i64)
^else:
  %f = llvm.sub %x, %y : i64
  llvm.br ^join(%f : i64)
^join(%v: i64):
  %r = llvm.mul %v, %v : i64
  llvm.store %r, %p : i64, !llvm.ptr
  func.return
}

// -----

// A guard around a rotated loop whose sum is used after it: the sum leaves the
// scf.while as a result (the one of the next value it is); the loop goes on while the condition is false here
// (cond_br to the exit first), so the scf.condition is its negation.
// CHECK-LABEL: func.func @loop(
// CHECK:         %in = arith.cmpi ult, %x, %n : i64
// CHECK-NEXT:    scf.if %in {
// CHECK-NEXT:      %zero = arith.constant 0 : i64
// CHECK-NEXT:      %{{[a-z0-9_]+}}, %[[SUM:[a-z0-9_]+]] = scf.while (%[[KA:[a-z0-9_]+]] = %zero, %[[SA:[a-z0-9_]+]] = %zero) : (i64, i64) -> (i64, i64) {
// CHECK-NEXT:        %[[S2:[a-z0-9_]+]] = arith.addi %[[SA]], %[[KA]] : i64
// CHECK-NEXT:        %one = arith.constant 1 : i64
// CHECK-NEXT:        %k2 = arith.addi %[[KA]], %one : i64
// CHECK-NEXT:        %done = arith.cmpi uge, %k2, %n : i64
// CHECK-NEXT:        %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT:        %[[GO:.*]] = arith.xori %done, %[[TRUE]] : i1
// CHECK-NEXT:        scf.condition(%[[GO]]) %k2, %[[S2]] : i64, i64
// CHECK-NEXT:      } do {
// CHECK-NEXT:      ^{{.*}}(%[[A:.*]]: i64, %[[B:.*]]: i64):
// CHECK-NEXT:        scf.yield %[[A]], %[[B]] : i64, i64
// CHECK-NEXT:      }
// CHECK-NEXT:      llvm.store %[[SUM]], %p : i64, !llvm.ptr
// CHECK-NEXT:    } else {
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
func.func @loop(%x: i64, %n: i64, %p: !llvm.ptr)
    attributes {mux.kernel = "entry-point"} {
  %in = llvm.icmp "ult" %x, %n : i64
  llvm.cond_br %in, ^pre, ^end
^pre:
  %zero = llvm.mlir.constant(0 : i64) : i64
  llvm.br ^body(%zero, %zero : i64, i64)
^body(%k: i64, %s: i64):
  %s2 = llvm.add %s, %k : i64
  %one = llvm.mlir.constant(1 : i64) : i64
  %k2 = llvm.add %k, %one : i64
  %done = llvm.icmp "uge" %k2, %n : i64
  llvm.cond_br %done, ^exit, ^body(%k2, %s2 : i64, i64)
^exit:
  llvm.store %s2, %p : i64, !llvm.ptr
  llvm.br ^end
^end:
  func.return
}
