// RUN: mux-opt --split-input-file %s -p prepare-barriers | filecheck %s
//
// prepare-barriers: every function that holds a barrier-like op (work-group or
// sub-group barrier, work-group collective), or calls one that does, is inlined
// into its callers; then each kernel entry point's barrier-like ops get
// the ids 0, 1, 2, ... in program order. Inlined functions stay in the module.

// A helper with a barrier, called once: its body replaces the call, its result
// the call's (the value keeps the caller's name); the helper itself is unchanged.
// CHECK-LABEL: func.func @helper(%p: memref<?xi32, 3 : i64>, %i: index) -> i32 {
// CHECK-NEXT:    %v = memref.load %p[%i] : memref<?xi32, 3 : i64>
// CHECK-NEXT:    mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
// CHECK-NEXT:    %w = memref.load %p[%i] : memref<?xi32, 3 : i64>
// CHECK-NEXT:    %s = arith.addi %v, %w : i32
// CHECK-NEXT:    func.return %s : i32
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @once(%p: memref<?xi32, 3 : i64>) attributes {mux.kernel = "entry-point"} {
// CHECK-NEXT:    %i = mux.get_local_linear_id
// CHECK-NEXT:    %v = memref.load %p[%i] : memref<?xi32, 3 : i64>
// CHECK-NEXT:    mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
// CHECK-NEXT:    %w = memref.load %p[%i] : memref<?xi32, 3 : i64>
// CHECK-NEXT:    %r = arith.addi %v, %w : i32
// CHECK-NEXT:    memref.store %r, %p[%i] : memref<?xi32, 3 : i64>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @helper(%p: memref<?xi32, 3>, %i: index) -> i32 {
  %v = memref.load %p[%i] : memref<?xi32, 3>
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %w = memref.load %p[%i] : memref<?xi32, 3>
  %s = arith.addi %v, %w : i32
  func.return %s : i32
}
func.func @once(%p: memref<?xi32, 3>) attributes {mux.kernel = "entry-point"} {
  %i = mux.get_local_linear_id
  %r = func.call @helper(%p, %i) : (memref<?xi32, 3>, index) -> i32
  memref.store %r, %p[%i] : memref<?xi32, 3>
  func.return
}

// -----

// Called twice: two copies, each with its own arguments and its own id; the
// barrier's schedule is kept. The helper keeps its id (only entry points are
// numbered).
// CHECK-LABEL: func.func @sync(
// CHECK-NEXT:    memref.store %x, %p[%i] : memref<?xi32, 3 : i64>
// CHECK-NEXT:    mux.work_group_barrier id(4) scope(work_group) semantics(acq_rel | work_group_memory) schedule(linear)
// CHECK-NEXT:    func.return
// CHECK-LABEL: func.func @twice(%p: memref<?xi32, 3 : i64>, %a: i32, %b: i32) attributes {mux.kernel = "entry-point"} {
// CHECK-NEXT:    %i = mux.get_local_linear_id
// CHECK-NEXT:    memref.store %a, %p[%i] : memref<?xi32, 3 : i64>
// CHECK-NEXT:    mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory) schedule(linear)
// CHECK-NEXT:    memref.store %b, %p[%i] : memref<?xi32, 3 : i64>
// CHECK-NEXT:    mux.work_group_barrier id(1) scope(work_group) semantics(acq_rel | work_group_memory) schedule(linear)
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @sync(%p: memref<?xi32, 3>, %i: index, %x: i32) {
  memref.store %x, %p[%i] : memref<?xi32, 3>
  mux.work_group_barrier id(4) scope(work_group) semantics(acq_rel | work_group_memory) schedule(linear)
  func.return
}
func.func @twice(%p: memref<?xi32, 3>, %a: i32, %b: i32) attributes {mux.kernel = "entry-point"} {
  %i = mux.get_local_linear_id
  func.call @sync(%p, %i, %a) : (memref<?xi32, 3>, index, i32) -> ()
  func.call @sync(%p, %i, %b) : (memref<?xi32, 3>, index, i32) -> ()
  func.return
}

// -----

// A chain kernel -> f -> g, defined callers first, the barrier in g only: f has a
// barrier below it, so g goes into f, then f (with g's body) into the kernel. No
// call is left in either; the kernel's own barrier comes after the inlined one.
// CHECK-LABEL: func.func @chain(%p: memref<?xf32, 1 : i64>) attributes {mux.kernel = "entry-point"} {
// CHECK-NEXT:    %i = mux.get_local_linear_id
// CHECK-NEXT:    %v = memref.load %p[%i] : memref<?xf32, 1 : i64>
// CHECK-NEXT:    mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
// CHECK-NEXT:    %x = arith.addf %v, %v : f32
// CHECK-NEXT:    mux.work_group_barrier id(1) scope(work_group) semantics(acq_rel | cross_work_group_memory)
// CHECK-NEXT:    memref.store %x, %p[%i] : memref<?xf32, 1 : i64>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @f(%p: memref<?xf32, 1 : i64>, %i: index) -> f32 {
// CHECK-NEXT:    %v = memref.load %p[%i] : memref<?xf32, 1 : i64>
// CHECK-NEXT:    mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
// CHECK-NEXT:    %d = arith.addf %v, %v : f32
// CHECK-NEXT:    func.return %d : f32
// CHECK-NEXT:  }
// CHECK-LABEL: func.func @g(%v: f32) -> f32 {
// CHECK-NEXT:    mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
// CHECK-NEXT:    %d = arith.addf %v, %v : f32
// CHECK-NEXT:    func.return %d : f32
// CHECK-NEXT:  }
func.func @chain(%p: memref<?xf32, 1>) attributes {mux.kernel = "entry-point"} {
  %i = mux.get_local_linear_id
  %x = func.call @f(%p, %i) : (memref<?xf32, 1>, index) -> f32
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | cross_work_group_memory)
  memref.store %x, %p[%i] : memref<?xf32, 1>
  func.return
}
func.func @f(%p: memref<?xf32, 1>, %i: index) -> f32 {
  %v = memref.load %p[%i] : memref<?xf32, 1>
  %d = func.call @g(%v) : (f32) -> f32
  func.return %d : f32
}
func.func @g(%v: f32) -> f32 {
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %d = arith.addf %v, %v : f32
  func.return %d : f32
}

// -----

// A helper of several blocks, returning two values from two returns: the kernel's
// block is split at the call; the helper's entry block continues its first half,
// its other blocks follow (names kept), each return branches to the second half,
// whose arguments replace the call's results. The call is not in a nested region,
// so the kernel's scf.if stays.
// CHECK-LABEL: func.func @branches(%p: memref<?xi32, 1 : i64>, %x: i32, %c: i1) attributes {mux.kernel = "entry-point"} {
// CHECK-NEXT:    %i = mux.get_local_linear_id
// CHECK-NEXT:    %zero = arith.constant 0 : i32
// CHECK-NEXT:    cf.cond_br %c, ^then, ^else(%x : i32)
// CHECK-NEXT:  ^then:
// CHECK-NEXT:    mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
// CHECK-NEXT:    cf.br ^[[REST:.+]](%x, %zero : i32, i32)
// CHECK-NEXT:  ^else(%y: i32):
// CHECK-NEXT:    %n = arith.subi %zero, %y : i32
// CHECK-NEXT:    cf.br ^[[REST]](%n, %y : i32, i32)
// CHECK-NEXT:  ^[[REST]](%r: i32, %r_1: i32):
// CHECK-NEXT:    %s = arith.addi %r, %r_1 : i32
// CHECK-NEXT:    scf.if %c {
// CHECK-NEXT:      memref.store %s, %p[%i] : memref<?xi32, 1 : i64>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @select(%x: i32, %c: i1) -> (i32, i32) {
  %zero = arith.constant 0 : i32
  cf.cond_br %c, ^then, ^else(%x : i32)
^then:
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  func.return %x, %zero : i32, i32
^else(%y: i32):
  %n = arith.subi %zero, %y : i32
  func.return %n, %y : i32, i32
}
func.func @branches(%p: memref<?xi32, 1>, %x: i32, %c: i1) attributes {mux.kernel = "entry-point"} {
  %i = mux.get_local_linear_id
  %r:2 = func.call @select(%x, %c) : (i32, i1) -> (i32, i32)
  %s = arith.addi %r#0, %r#1 : i32
  scf.if %c {
    memref.store %s, %p[%i] : memref<?xi32, 1>
  }
  func.return
}

// -----

// A helper with an scf.for around a barrier: the loop is copied with its body.
// CHECK-LABEL: func.func @loop(%p: memref<?xi32, 3 : i64>, %n: index) attributes {mux.kernel = "entry-point"} {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %zero = arith.constant 0 : i32
// CHECK-NEXT:    %t = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i32) {
// CHECK-NEXT:      %v = memref.load %p[%k] : memref<?xi32, 3 : i64>
// CHECK-NEXT:      mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
// CHECK-NEXT:      %next = arith.addi %acc, %v : i32
// CHECK-NEXT:      scf.yield %next : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    %i = mux.get_local_linear_id
// CHECK-NEXT:    memref.store %t, %p[%i] : memref<?xi32, 3 : i64>
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @sum(%p: memref<?xi32, 3>, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %total = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i32) {
    %v = memref.load %p[%k] : memref<?xi32, 3>
    mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
    %next = arith.addi %acc, %v : i32
    scf.yield %next : i32
  }
  func.return %total : i32
}
func.func @loop(%p: memref<?xi32, 3>, %n: index) attributes {mux.kernel = "entry-point"} {
  %t = func.call @sum(%p, %n) : (memref<?xi32, 3>, index) -> i32
  %i = mux.get_local_linear_id
  memref.store %t, %p[%i] : memref<?xi32, 3>
  func.return
}

// -----

// Work-group collectives are barrier-like: a helper with only collectives is
// inlined, and they are numbered with the kernel's own.
// CHECK-LABEL: func.func @collective(%x: i32, %c: i1) -> i32 attributes {mux.kernel = "entry-point"} {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %r = mux.work_group_reduce add id(0) %x : i32
// CHECK-NEXT:    %b = mux.work_group_broadcast id(1) %r, %c0, %c0, %c0 : i32
// CHECK-NEXT:    %any = mux.work_group_any id(2) %c
// CHECK-NEXT:    %s = mux.work_group_scan_inclusive add id(3) %b : i32
// CHECK-NEXT:    func.return %s : i32
// CHECK-NEXT:  }
func.func @collect(%x: i32, %c: i1) -> (i32, i1) {
  %c0 = arith.constant 0 : index
  %r = mux.work_group_reduce add id(0) %x : i32
  %b = mux.work_group_broadcast id(0) %r, %c0, %c0, %c0 : i32
  %any = mux.work_group_any id(0) %c
  func.return %b, %any : i32, i1
}
func.func @collective(%x: i32, %c: i1) -> i32 attributes {mux.kernel = "entry-point"} {
  %r:2 = func.call @collect(%x, %c) : (i32, i1) -> (i32, i1)
  %s = mux.work_group_scan_inclusive add id(0) %r#0 : i32
  func.return %s : i32
}

// -----

// Sub-group collectives and shuffles have no id, but a function holding one is
// inlined too: work-item-loops schedules them as barriers when sub-groups have more
// than one work-item.
// CHECK-LABEL: func.func @uses_sub_group(%x: i32, %d: i32) -> i32 attributes {mux.kernel = "entry-point"} {
// CHECK-NEXT:    %r = mux.sub_group_reduce add %x : i32
// CHECK-NEXT:    %s = mux.sub_group_shuffle_xor %r, %d : i32
// CHECK-NEXT:    func.return %s : i32
func.func @sub_group_sum(%x: i32, %d: i32) -> i32 {
  %r = mux.sub_group_reduce add %x : i32
  %s = mux.sub_group_shuffle_xor %r, %d : i32
  func.return %s : i32
}
func.func @uses_sub_group(%x: i32, %d: i32) -> i32 attributes {mux.kernel = "entry-point"} {
  %s = func.call @sub_group_sum(%x, %d) : (i32, i32) -> i32
  func.return %s : i32
}

// -----

// Functions with no barrier-like op below them stay calls: one without barriers,
// one with only a fence (mux.mem_barrier is not barrier-like), and a recursive
// one. The kernel's own barrier does not make them barrier-like.
// CHECK-LABEL: func.func @no_barriers(%x: i32) -> i32 attributes {mux.kernel = "entry-point"} {
// CHECK-NEXT:    %y = func.call @pure(%x) : (i32) -> i32
// CHECK-NEXT:    func.call @fence() : () -> ()
// CHECK-NEXT:    func.call @countdown(%y) : (i32) -> ()
// CHECK-NEXT:    mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
// CHECK-NEXT:    func.return %y : i32
// CHECK-NEXT:  }
func.func @pure(%x: i32) -> i32 {
  %y = arith.muli %x, %x : i32
  func.return %y : i32
}
func.func @fence() {
  mux.mem_barrier scope(work_group) semantics(acq_rel | work_group_memory)
  func.return
}
func.func @countdown(%n: i32) {
  %zero = arith.constant 0 : i32
  %done = arith.cmpi eq, %n, %zero : i32
  scf.if %done {
  } else {
    %one = arith.constant 1 : i32
    %m = arith.subi %n, %one : i32
    func.call @countdown(%m) : (i32) -> ()
  }
  func.return
}
func.func @no_barriers(%x: i32) -> i32 attributes {mux.kernel = "entry-point"} {
  %y = func.call @pure(%x) : (i32) -> i32
  func.call @fence() : () -> ()
  func.call @countdown(%y) : (i32) -> ()
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  func.return %y : i32
}

// -----

// Ids in program order across inlined copies: the kernel's own barriers (ids 5, 9,
// 0 before), a copy inside an scf.if and one after it; sub-group barriers count,
// fences do not.
// CHECK-LABEL: func.func @order(%x: i32, %c: i1) attributes {mux.kernel = "entry-point"} {
// CHECK-NEXT:    mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
// CHECK-NEXT:    scf.if %c {
// CHECK-NEXT:      mux.work_group_barrier id(1) scope(work_group) semantics(acq_rel | work_group_memory)
// CHECK-NEXT:      mux.mem_barrier scope(work_group) semantics(acq_rel | work_group_memory)
// CHECK-NEXT:      %zero = arith.constant 0 : i32
// CHECK-NEXT:      %c_1 = arith.cmpi sgt, %x, %zero : i32
// CHECK-NEXT:      %a = mux.work_group_all id(2) %c_1
// CHECK-NEXT:    }
// CHECK-NEXT:    mux.sub_group_barrier id(3) scope(sub_group) semantics(acq_rel | sub_group_memory)
// CHECK-NEXT:    mux.work_group_barrier id(4) scope(work_group) semantics(acq_rel | work_group_memory)
// CHECK-NEXT:    mux.mem_barrier scope(work_group) semantics(acq_rel | work_group_memory)
// CHECK-NEXT:    %zero_1 = arith.constant 0 : i32
// CHECK-NEXT:    %c_2 = arith.cmpi sgt, %x, %zero_1 : i32
// CHECK-NEXT:    %b = mux.work_group_all id(5) %c_2
// CHECK-NEXT:    mux.work_group_barrier id(6) scope(work_group) semantics(acq_rel | work_group_memory)
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @two(%x: i32) -> i1 {
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  mux.mem_barrier scope(work_group) semantics(acq_rel | work_group_memory)
  %zero = arith.constant 0 : i32
  %c = arith.cmpi sgt, %x, %zero : i32
  %all = mux.work_group_all id(0) %c
  func.return %all : i1
}
func.func @order(%x: i32, %c: i1) attributes {mux.kernel = "entry-point"} {
  mux.work_group_barrier id(5) scope(work_group) semantics(acq_rel | work_group_memory)
  scf.if %c {
    %a = func.call @two(%x) : (i32) -> i1
  }
  mux.sub_group_barrier id(9) scope(sub_group) semantics(acq_rel | sub_group_memory)
  %b = func.call @two(%x) : (i32) -> i1
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  func.return
}

// -----

// Already unique and in order, nothing to inline: the module is unchanged.
// CHECK:       builtin.module {
// CHECK-NEXT:    func.func @unique(%x: i32, %c: i1) -> i32 attributes {mux.kernel = "entry-point"} {
// CHECK-NEXT:      mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
// CHECK-NEXT:      %r = scf.if %c -> (i32) {
// CHECK-NEXT:        %s = mux.work_group_reduce add id(1) %x : i32
// CHECK-NEXT:        scf.yield %s : i32
// CHECK-NEXT:      } else {
// CHECK-NEXT:        mux.sub_group_barrier id(2) scope(sub_group) semantics(acq_rel | sub_group_memory)
// CHECK-NEXT:        scf.yield %x : i32
// CHECK-NEXT:      }
// CHECK-NEXT:      mux.mem_barrier scope(work_group) semantics(acq_rel | work_group_memory)
// CHECK-NEXT:      mux.work_group_barrier id(3) scope(work_group) semantics(acq_rel | work_group_memory)
// CHECK-NEXT:      func.return %r : i32
// CHECK-NEXT:    }
// CHECK-NEXT:  }
func.func @unique(%x: i32, %c: i1) -> i32 attributes {mux.kernel = "entry-point"} {
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %r = scf.if %c -> (i32) {
    %s = mux.work_group_reduce add id(1) %x : i32
    scf.yield %s : i32
  } else {
    mux.sub_group_barrier id(2) scope(sub_group) semantics(acq_rel | sub_group_memory)
    scf.yield %x : i32
  }
  mux.mem_barrier scope(work_group) semantics(acq_rel | work_group_memory)
  mux.work_group_barrier id(3) scope(work_group) semantics(acq_rel | work_group_memory)
  func.return %r : i32
}

// -----

// A helper of several blocks called inside an scf.for: its blocks cannot go into
// the loop's one block, so the kernel's scf is lowered to cf first (as
// work-item-loops does anyway), then the call's block is split.
// CHECK-LABEL: func.func @in_loop(%p: memref<?xi32, 1 : i64>, %n: index, %c: i1) attributes {mux.kernel = "entry-point"} {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    cf.br ^[[HEAD:.+]](%c0 : index)
// CHECK-NEXT:  ^[[HEAD]](%k: index):
// CHECK-NEXT:    %[[COND:.+]] = arith.cmpi slt, %k, %n : index
// CHECK-NEXT:    cf.cond_br %[[COND]], ^[[BODY:.+]], ^[[EXIT:.+]]
// CHECK-NEXT:  ^[[BODY]]:
// CHECK-NEXT:    %v = memref.load %p[%k] : memref<?xi32, 1 : i64>
// CHECK-NEXT:    cf.cond_br %c, ^wait, ^done(%v : i32)
// CHECK-NEXT:  ^wait:
// CHECK-NEXT:    mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
// CHECK-NEXT:    %one = arith.constant 1 : i32
// CHECK-NEXT:    cf.br ^done(%one : i32)
// CHECK-NEXT:  ^done(%r: i32):
// CHECK-NEXT:    cf.br ^[[REST:.+]](%r : i32)
// CHECK-NEXT:  ^[[REST]](%w: i32):
// CHECK-NEXT:    memref.store %w, %p[%k] : memref<?xi32, 1 : i64>
// CHECK-NEXT:    %[[NEXT:.+]] = arith.addi %k, %c1 : index
// CHECK-NEXT:    cf.br ^[[HEAD]](%[[NEXT]] : index)
// CHECK-NEXT:  ^[[EXIT]]:
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @maybe(%x: i32, %c: i1) -> i32 {
  cf.cond_br %c, ^wait, ^done(%x : i32)
^wait:
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %one = arith.constant 1 : i32
  cf.br ^done(%one : i32)
^done(%r: i32):
  func.return %r : i32
}
func.func @in_loop(%p: memref<?xi32, 1>, %n: index, %c: i1) attributes {mux.kernel = "entry-point"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %k = %c0 to %n step %c1 {
    %v = memref.load %p[%k] : memref<?xi32, 1>
    %w = func.call @maybe(%v, %c) : (i32, i1) -> i32
    memref.store %w, %p[%k] : memref<?xi32, 1>
  }
  func.return
}

// -----

// A kernel called by another is inlined like any function (OpenCL C: "just a
// regular function call"), barrier included; it stays a kernel, its barrier
// unchanged.
// CHECK-LABEL: func.func @other_kernel(%x: i32) attributes {mux.kernel} {
// CHECK-NEXT:    mux.work_group_barrier id(0)
// CHECK-LABEL: func.func @calls_kernel(%x: i32) attributes {mux.kernel = "entry-point"} {
// CHECK-NEXT:    mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
// CHECK-NEXT:    func.return
// CHECK-NEXT:  }
func.func @other_kernel(%x: i32) attributes {mux.kernel} {
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  func.return
}
func.func @calls_kernel(%x: i32) attributes {mux.kernel = "entry-point"} {
  func.call @other_kernel(%x) : (i32) -> ()
  func.return
}
