// RUN: mux-opt --split-input-file %s -p lift-llvm-ops | filecheck %s
//
// lift-llvm-ops lifts a loop of several blocks with one latch (clang's rotated
// loop with branches in its body) to an scf.while whose `before` region is the
// path from the header to the latch, the latch's condition its scf.condition.
// A loop left other than at its latch, or with two latches, keeps its CFG.

// reduce.cl's loop: a guard before it (a triangle), an && chain in its body
// (nested scf.if), the barrier in the latch.
// CHECK-LABEL: func.func @tree(
// CHECK:         %more = arith.cmpi ugt, %n, %one : i64
// CHECK-NEXT:    scf.if %more {
// CHECK-NEXT:      %{{.*}} = scf.while (%d = %one) : (i64) -> i64 {
// CHECK-NEXT:        %d2 = arith.shli %d, %one : i64
// CHECK-NEXT:        %m = arith.addi %d2, %lid : i64
// CHECK-NEXT:        %zero = arith.constant 0 : i64
// CHECK-NEXT:        %first = arith.cmpi eq, %m, %zero : i64
// CHECK-NEXT:        scf.if %first {
// CHECK-NEXT:          %other = arith.addi %d, %lid : i64
// CHECK-NEXT:          %inside = arith.cmpi ult, %other, %n : i64
// CHECK-NEXT:          scf.if %inside {
// CHECK-NEXT:            llvm.store %other, %p : i64, !llvm.ptr
// CHECK-NEXT:          } else {
// CHECK-NEXT:          }
// CHECK-NEXT:        } else {
// CHECK-NEXT:        }
// CHECK-NEXT:        mux.work_group_barrier id(1)
// CHECK-NEXT:        %again = arith.cmpi ult, %d2, %n : i64
// CHECK-NEXT:        scf.condition(%again) %d2 : i64
// CHECK-NEXT:      } do {
// CHECK-NEXT:      ^{{.*}}(%[[NEXT:.*]]: i64):
// CHECK-NEXT:        scf.yield %[[NEXT]] : i64
// CHECK-NEXT:      }
// CHECK-NEXT:    } else {
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
func.func @tree(%lid: i64, %n: i64, %p: !llvm.ptr) attributes {mux.kernel = "entry-point"} {
  %one = llvm.mlir.constant(1 : i64) : i64
  %more = llvm.icmp "ugt" %n, %one : i64
  llvm.cond_br %more, ^head(%one : i64), ^exit
^head(%d: i64):
  %d2 = llvm.shl %d, %one : i64
  %m = llvm.add %d2, %lid : i64
  %zero = llvm.mlir.constant(0 : i64) : i64
  %first = llvm.icmp "eq" %m, %zero : i64
  llvm.cond_br %first, ^second, ^latch
^second:
  %other = llvm.add %d, %lid : i64
  %inside = llvm.icmp "ult" %other, %n : i64
  llvm.cond_br %inside, ^add, ^latch
^add:
  llvm.store %other, %p : i64, !llvm.ptr
  llvm.br ^latch
^latch:
  mux.work_group_barrier id(1) scope(work_group) semantics(acq_rel | work_group_memory)
  %again = llvm.icmp "ult" %d2, %n : i64
  llvm.cond_br %again, ^head(%d2 : i64), ^exit
^exit:
  func.return
}


// -----

// The header's argument and the latch's (a diamond's result) used after the loop:
// both leave the scf.while as results.
// CHECK-LABEL: func.func @header_value(
// CHECK:         %{{.*}}, %[[K:.*]], %[[J:.*]] = scf.while (%[[KA:.*]] = %zero) : (i64) -> (i64, i64, i64) {
// CHECK:           %[[JA:.*]] = scf.if %is_odd -> (i64) {
// CHECK:           %next = arith.addi %[[JA]], %one : i64
// CHECK:           scf.condition(%{{.*}}) %next, %[[KA]], %[[JA]] : i64, i64, i64
// CHECK:         llvm.store %[[K]], %p : i64, !llvm.ptr
// CHECK-NEXT:    llvm.store %[[J]], %p : i64, !llvm.ptr
func.func @header_value(%n: i64, %p: !llvm.ptr) attributes {mux.kernel = "entry-point"} {
  %zero = llvm.mlir.constant(0 : i64) : i64
  llvm.br ^head(%zero : i64)
^head(%k: i64):
  %one = llvm.mlir.constant(1 : i64) : i64
  %odd = llvm.and %k, %one : i64
  %is_odd = llvm.icmp "ne" %odd, %zero : i64
  llvm.cond_br %is_odd, ^store, ^latch(%k : i64)
^store:
  llvm.store %k, %p : i64, !llvm.ptr
  %k3 = llvm.add %k, %one : i64
  llvm.br ^latch(%k3 : i64)
^latch(%j: i64):
  %next = llvm.add %j, %one : i64
  %done = llvm.icmp "uge" %next, %n : i64
  llvm.cond_br %done, ^exit, ^head(%next : i64)
^exit:
  llvm.store %k, %p : i64, !llvm.ptr
  llvm.store %j, %p : i64, !llvm.ptr
  func.return
}


// -----

// A way out of the loop at its header (a break, or a loop tested at its top): the
// kernel keeps its CFG.
// CHECK-LABEL: func.func @break(
// CHECK:         llvm.cond_br %big, ^{{.*}}, ^{{.*}}
// CHECK:         llvm.cond_br %more
func.func @break(%n: i64, %p: !llvm.ptr) attributes {mux.kernel = "entry-point"} {
  %zero = llvm.mlir.constant(0 : i64) : i64
  llvm.br ^head(%zero : i64)
^head(%k: i64):
  %big = llvm.icmp "ugt" %k, %n : i64
  llvm.cond_br %big, ^exit, ^latch
^latch:
  %one = llvm.mlir.constant(1 : i64) : i64
  %next = llvm.add %k, %one : i64
  %more = llvm.icmp "ult" %next, %n : i64
  llvm.cond_br %more, ^head(%next : i64), ^exit
^exit:
  func.return
}


// -----

// Two latches: the kernel keeps its CFG.
// CHECK-LABEL: func.func @two_latches(
// CHECK:         llvm.cond_br %odd
// CHECK:         llvm.cond_br %more
func.func @two_latches(%n: i64, %p: !llvm.ptr) attributes {mux.kernel = "entry-point"} {
  %zero = llvm.mlir.constant(0 : i64) : i64
  llvm.br ^head(%zero : i64)
^head(%k: i64):
  %one = llvm.mlir.constant(1 : i64) : i64
  %next = llvm.add %k, %one : i64
  %odd = llvm.icmp "ugt" %k, %n : i64
  llvm.cond_br %odd, ^a, ^b
^a:
  %more = llvm.icmp "ult" %next, %n : i64
  llvm.cond_br %more, ^head(%next : i64), ^exit
^b:
  llvm.cond_br %odd, ^head(%next : i64), ^exit
^exit:
  func.return
}
