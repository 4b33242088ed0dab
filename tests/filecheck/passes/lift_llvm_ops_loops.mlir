// RUN: mux-opt --split-input-file %s -p lift-llvm-ops | filecheck %s
//
// lift-llvm-ops lifts a loop of several blocks with one latch and one way out to an
// scf.while whose `before` region is the path from the header to the block the
// loop is left at (clang's rotated loop: the latch; a loop tested at its top: the
// header), whose condition is the scf.condition, and whose `after` region is the
// rest of the path to the latch. A loop left at two blocks, or inside a branch of
// its body, or with two latches, keeps its CFG.

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

// Two ways out of the loop, at its header and at its latch (a `break`): the kernel
// keeps its CFG.
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

// -----

// A loop tested at its top: the header is the `before` region, the latch the
// `after` region; the header's argument the latch uses is forwarded.
// CHECK-LABEL: func.func @top(
// CHECK:         %{{.*}} = scf.while (%[[I:.*]] = %n) : (i64) -> i64 {
// CHECK-NEXT:      %zero = arith.constant 0 : i64
// CHECK-NEXT:      %more = arith.cmpi ugt, %[[I]], %zero : i64
// CHECK-NEXT:      scf.condition(%more) %[[I]] : i64
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^{{.*}}(%[[IA:.*]]: i64):
// CHECK-NEXT:      %one = arith.constant 1 : i64
// CHECK-NEXT:      %next = arith.subi %[[IA]], %one : i64
// CHECK-NEXT:      scf.yield %next : i64
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
func.func @top(%n: i64) attributes {mux.kernel = "entry-point"} {
  llvm.br ^head(%n : i64)
^head(%i: i64):
  %zero = llvm.mlir.constant(0 : i64) : i64
  %more = llvm.icmp "ugt" %i, %zero : i64
  llvm.cond_br %more, ^latch, ^end
^latch:
  %one = llvm.mlir.constant(1 : i64) : i64
  %next = llvm.sub %i, %one : i64
  llvm.br ^head(%next : i64)
^end:
  func.return
}

// -----

// A loop left in the middle of its body (at ^test, after a diamond): the path to
// it is the `before` region, the latch the `after` region. The values of the
// `before` region the latch or the exit uses are forwarded (a constant is copied
// instead); the exit's argument is the header's, forwarded once.
// CHECK-LABEL: func.func @mid(
// CHECK:         %[[K:.*]], %[[SQ:.*]] = scf.while (%[[KA:.*]] = %zero) : (i64) -> (i64, i64) {
// CHECK-NEXT:      %one = arith.constant 1 : i64
// CHECK:           scf.if %is_odd {
// CHECK:           %[[SQA:.*]] = arith.muli %[[KA]], %[[KA]] : i64
// CHECK-NEXT:      %big = arith.cmpi uge, %[[SQA]], %n : i64
// CHECK-NEXT:      %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT:      %[[GO:.*]] = arith.xori %big, %[[TRUE]] : i1
// CHECK-NEXT:      scf.condition(%[[GO]]) %[[KA]], %[[SQA]] : i64, i64
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^{{.*}}(%[[KB:.*]]: i64, %[[SQB:.*]]: i64):
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-NEXT:      llvm.store %[[SQB]], %p : i64, !llvm.ptr
// CHECK-NEXT:      %next = arith.addi %[[KB]], %[[ONE]] : i64
// CHECK-NEXT:      scf.yield %next : i64
// CHECK-NEXT:    }
// CHECK-NEXT:    llvm.store %[[SQ]], %p : i64, !llvm.ptr
// CHECK-NEXT:    llvm.store %[[K]], %p : i64, !llvm.ptr
func.func @mid(%n: i64, %p: !llvm.ptr) attributes {mux.kernel = "entry-point"} {
  %zero = llvm.mlir.constant(0 : i64) : i64
  llvm.br ^head(%zero : i64)
^head(%k: i64):
  %one = llvm.mlir.constant(1 : i64) : i64
  %odd = llvm.and %k, %one : i64
  %is_odd = llvm.icmp "ne" %odd, %zero : i64
  llvm.cond_br %is_odd, ^store, ^test
^store:
  llvm.store %k, %p : i64, !llvm.ptr
  llvm.br ^test
^test:
  %sq = llvm.mul %k, %k : i64
  %big = llvm.icmp "uge" %sq, %n : i64
  llvm.cond_br %big, ^exit(%k : i64), ^latch
^latch:
  llvm.store %sq, %p : i64, !llvm.ptr
  %next = llvm.add %k, %one : i64
  llvm.br ^head(%next : i64)
^exit(%last: i64):
  llvm.store %sq, %p : i64, !llvm.ptr
  llvm.store %last, %p : i64, !llvm.ptr
  func.return
}

// -----

// A loop left inside a branch of its body: the kernel keeps its CFG.
// CHECK-LABEL: func.func @exit_in_branch(
// CHECK:         llvm.cond_br %odd
// CHECK:         llvm.cond_br %done
func.func @exit_in_branch(%n: i64, %p: !llvm.ptr) attributes {mux.kernel = "entry-point"} {
  %zero = llvm.mlir.constant(0 : i64) : i64
  llvm.br ^head(%zero : i64)
^head(%k: i64):
  %one = llvm.mlir.constant(1 : i64) : i64
  %next = llvm.add %k, %one : i64
  %odd = llvm.icmp "ugt" %k, %zero : i64
  llvm.cond_br %odd, ^a, ^b
^a:
  %done = llvm.icmp "uge" %next, %n : i64
  llvm.cond_br %done, ^exit, ^latch
^b:
  llvm.br ^latch
^latch:
  llvm.br ^head(%next : i64)
^exit:
  func.return
}
