// prepare-barriers rejects what it cannot inline, naming the functions.
//
// Functions with barriers that call each other cannot be inlined (the inlining
// would not end). The first RUN sees the whole file as one module: the first cycle
// is the diagnostic and mux-opt fails; the second checks every case on its own.
// RUN: not mux-opt %s -p prepare-barriers 2>&1 | filecheck %s --check-prefix=FAIL
// FAIL: prepare-barriers: cannot inline recursive functions with barriers: 'ping' -> 'pong' -> 'ping'
// RUN: mux-opt --split-input-file --verify-diagnostics %s -p prepare-barriers | filecheck %s

// Mutual recursion: the barrier is in one of the two.
// CHECK: prepare-barriers: cannot inline recursive functions with barriers: 'ping' -> 'pong' -> 'ping'
func.func @ping(%n: i32) {
  func.call @pong(%n) : (i32) -> ()
  func.return
}
func.func @pong(%n: i32) {
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  func.call @ping(%n) : (i32) -> ()
  func.return
}
func.func @mutual(%n: i32) attributes {mux.kernel = "entry-point"} {
  func.call @ping(%n) : (i32) -> ()
  func.return
}

// -----

// A function calling itself, with a work-group collective.
// CHECK-NEXT: {{^}}//{{ }}-----
// CHECK-NEXT: prepare-barriers: cannot inline recursive functions with barriers: 'self' -> 'self'
func.func @self(%x: i32) -> i32 {
  %s = mux.work_group_reduce add id(0) %x : i32
  %r = func.call @self(%s) : (i32) -> i32
  func.return %r : i32
}
func.func @calls_self(%x: i32) attributes {mux.kernel = "entry-point"} {
  %r = func.call @self(%x) : (i32) -> i32
  func.return
}

// -----

// Recursion below a function with a barrier: the cycle is named from where it
// starts.
// CHECK-NEXT: {{^}}//{{ }}-----
// CHECK-NEXT: prepare-barriers: cannot inline recursive functions with barriers: 'walk' -> 'step' -> 'walk'
func.func @outer(%n: i32) {
  func.call @walk(%n) : (i32) -> ()
  func.return
}
func.func @walk(%n: i32) {
  func.call @step(%n) : (i32) -> ()
  func.return
}
func.func @step(%n: i32) {
  mux.sub_group_barrier id(0) scope(sub_group) semantics(acq_rel | sub_group_memory)
  func.call @walk(%n) : (i32) -> ()
  func.return
}

// -----

// A function of several blocks cannot go into the one block of an `scf.parallel`
// (structured control flow that prepare-barriers does not lower to cf).
// CHECK-NEXT: {{^}}//{{ }}-----
// CHECK-NEXT: prepare-barriers: cannot inline 'maybe' (several blocks) into the single-block region of 'scf.parallel' in 'parallel'
func.func @maybe(%c: i1) {
  cf.cond_br %c, ^wait, ^done
^wait:
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  cf.br ^done
^done:
  func.return
}
func.func @parallel(%n: index, %c: i1) attributes {mux.kernel = "entry-point"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  "scf.parallel"(%c0, %n, %c1) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}> ({
  ^bb0(%k: index):
    func.call @maybe(%c) : (i1) -> ()
    scf.reduce
  }) : (index, index, index) -> ()
  func.return
}
