// RUN: mux-opt --split-input-file %s -p lift-llvm-ops | filecheck %s
// RUN: mux-opt --split-input-file %s -p 'lift-llvm-ops,run-vecz{width=8}' | filecheck %s --check-prefix=VECZ
//
// lift-llvm-ops gives an imported kernel's llvm ops (the OpenCL C front-end's body,
// its buffers cast to pointers at entry) as the arith and memref ops of a kernel
// written in MLIR, which run-vecz vectorises.

// An OpenCL C saxpy as the importer gives it: the accesses are memref ones at the
// global id itself (index -> i64 -> index), the arithmetic arith's, the
// addresses gone.
// CHECK-LABEL: func.func @saxpy(%alpha: f32, %x: memref<?xf32, 1 : i64>, %y: memref<?xf32, 1 : i64>)
// CHECK:         %d = arith.constant 0 : i32
// CHECK-NEXT:    %g = mux.get_global_id %d
// CHECK-NEXT:    %g64 = arith.index_cast %g : index to i64
// CHECK-NEXT:    %xv = memref.load %x[%g] : memref<?xf32, 1 : i64>
// CHECK-NEXT:    %m = arith.mulf %alpha, %xv : f32
// CHECK-NEXT:    %yv = memref.load %y[%g] : memref<?xf32, 1 : i64>
// CHECK-NEXT:    %s = arith.addf %m, %yv : f32
// CHECK-NEXT:    memref.store %s, %y[%g] : memref<?xf32, 1 : i64>
// CHECK-NEXT:    func.return
// VECZ: func.func @saxpy(
// VECZ-SAME: mux.vecz_base = [8 : i32, "__vecz_v8_saxpy"]
// VECZ: vector.load %x[%g] : memref<?xf32, 1 : i64>, vector<8xf32>
// VECZ: vector.store %{{.*}}, %y[%g] : memref<?xf32, 1 : i64>, vector<8xf32>
func.func @saxpy(%alpha: f32, %x: memref<?xf32, 1>, %y: memref<?xf32, 1>)
    attributes {mux.kernel = "entry-point"} {
  %xp = builtin.unrealized_conversion_cast %x : memref<?xf32, 1> to !llvm.ptr<1>
  %yp = builtin.unrealized_conversion_cast %y : memref<?xf32, 1> to !llvm.ptr<1>
  %d = llvm.mlir.constant(0 : i32) : i32
  %g = mux.get_global_id %d
  %g64 = arith.index_cast %g : index to i64
  %xa = llvm.getelementptr inbounds %xp[%g64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %xv = llvm.load %xa {alignment = 4 : i64} : !llvm.ptr<1> -> f32
  %m = llvm.fmul %alpha, %xv : f32
  %ya = llvm.getelementptr inbounds %yp[%g64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %yv = llvm.load %ya {alignment = 4 : i64} : !llvm.ptr<1> -> f32
  %s = llvm.fadd %m, %yv : f32
  llvm.store %s, %ya {alignment = 4 : i64} : f32, !llvm.ptr<1>
  func.return
}

// -----

// Integer arithmetic, a comparison, a select and a cast; a chain of element
// addresses is one index, their sum (row * w + col, as `p + row * w` then `[col]`).
// CHECK-LABEL: func.func @rows(
// CHECK:         %c = arith.constant 3 : i64
// CHECK-NEXT:    %rw = arith.muli %row, %w : i64
// CHECK-NEXT:    %[[AT:.*]] = arith.addi %rw, %col : i64
// CHECK-NEXT:    %[[I:.*]] = arith.index_cast %[[AT]] : i64 to index
// CHECK-NEXT:    %v = memref.load %a[%[[I]]] : memref<?xi32, 1 : i64>
// CHECK-NEXT:    %lt = arith.cmpi slt, %col, %c : i64
// CHECK-NEXT:    %v64 = arith.extsi %v : i32 to i64
// CHECK-NEXT:    %r = arith.select %lt, %v64, %c : i64
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    memref.store %r, %b[%[[ZERO]]] : memref<?xi64, 1 : i64>
func.func @rows(%a: memref<?xi32, 1>, %b: memref<?xi64, 1>, %row: i64, %col: i64, %w: i64)
    attributes {mux.kernel = "entry-point"} {
  %ap = builtin.unrealized_conversion_cast %a : memref<?xi32, 1> to !llvm.ptr<1>
  %bp = builtin.unrealized_conversion_cast %b : memref<?xi64, 1> to !llvm.ptr<1>
  %c = llvm.mlir.constant(3 : i64) : i64
  %rw = llvm.mul %row, %w : i64
  %p = llvm.getelementptr %ap[%rw] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
  %q = llvm.getelementptr %p[%col] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
  %v = llvm.load %q : !llvm.ptr<1> -> i32
  %lt = llvm.icmp "slt" %col, %c : i64
  %v64 = llvm.sext %v : i32 to i64
  %r = llvm.select %lt, %v64, %c : i1, i64
  llvm.store %r, %bp : i64, !llvm.ptr<1>
  func.return
}

// -----

// What has no exact arith or memref equivalent stays: an access whose size does
// not divide its address's steps (an i64 at an f32 element: 4 bytes), and its
// address, a volatile store (more: lift_llvm_ops_memory.mlir).
// CHECK-LABEL: func.func @kept(
// CHECK:         %p = llvm.getelementptr %ap[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    %v = llvm.load %p : !llvm.ptr<1> -> i64
// CHECK-NEXT:    %f = arith.addf %x, %x : f32
// CHECK-NEXT:    llvm.store volatile %f, %p : f32, !llvm.ptr<1>
func.func @kept(%a: memref<?xf32, 1>, %i: i64, %x: f32)
    attributes {mux.kernel = "entry-point"} {
  %ap = builtin.unrealized_conversion_cast %a : memref<?xf32, 1> to !llvm.ptr<1>
  %p = llvm.getelementptr %ap[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %v = llvm.load %p : !llvm.ptr<1> -> i64
  %f = llvm.fadd %x, %x : f32
  llvm.store volatile %f, %p : f32, !llvm.ptr<1>
  func.return
}

// -----

// Fast-math flags (clang puts them on every float op under
// -cl-fast-relaxed-math) go with the op: arith's `fastmath`, which run-vecz keeps
// on the widened op and convert-to-llvm gives back to LLVM.
// CHECK-LABEL: func.func @relaxed(
// CHECK:         %m = arith.mulf %alpha, %xv fastmath<reassoc,nnan,ninf,nsz,arcp,afn> : f32
// CHECK-NEXT:    %lt = arith.cmpf olt, %m, %alpha fastmath<nnan,ninf> : f32
// VECZ-LABEL: func.func private @__vecz_v8_relaxed(
// VECZ:         %{{.*}} = arith.mulf %{{.*}}, %{{.*}} fastmath<reassoc,nnan,ninf,nsz,arcp,afn> : vector<8xf32>
func.func @relaxed(%alpha: f32, %x: memref<?xf32, 1>, %y: memref<?xi32, 1>)
    attributes {mux.kernel = "entry-point"} {
  %xp = builtin.unrealized_conversion_cast %x : memref<?xf32, 1> to !llvm.ptr<1>
  %yp = builtin.unrealized_conversion_cast %y : memref<?xi32, 1> to !llvm.ptr<1>
  %d = llvm.mlir.constant(0 : i32) : i32
  %g = mux.get_global_id %d
  %g64 = arith.index_cast %g : index to i64
  %xa = llvm.getelementptr inbounds %xp[%g64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %xv = llvm.load %xa {alignment = 4 : i64} : !llvm.ptr<1> -> f32
  %m = llvm.fmul %alpha, %xv {fastmathFlags = #llvm.fastmath<reassoc,nnan,ninf,nsz,arcp,afn>} : f32
  // (the generic form: xDSL's custom syntax of llvm.fcmp reads the flags as an
  // attribute, not the property)
  %lt = "llvm.fcmp"(%m, %alpha) <{predicate = 4 : i64, fastmathFlags = #llvm.fastmath<nnan,ninf>}> : (f32, f32) -> i1
  %z = llvm.zext %lt : i1 to i32
  %ya = llvm.getelementptr inbounds %yp[%g64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
  llvm.store %z, %ya {alignment = 4 : i64} : i32, !llvm.ptr<1>
  func.return
}

// -----

// An address computed in i64 (size_t arithmetic in OpenCL C) is an index cast
// of i64 to index, which keeps a linear value linear (index is 64 bits): one
// contiguous vector load at lane 0's index, not a load per lane.
// VECZ-LABEL: func.func private @__vecz_v8_shifted(
// VECZ:         %at = arith.addi %{{.*}}, %one : i64
// VECZ-NEXT:    %[[I:.*]] = arith.index_cast %at : i64 to index
// VECZ-NEXT:    %v = vector.load %a[%[[I]]] : memref<?xf32, 1 : i64>, vector<8xf32>
// VECZ-NEXT:    vector.store %v, %b[%g] : memref<?xf32, 1 : i64>, vector<8xf32>
func.func @shifted(%a: memref<?xf32, 1>, %b: memref<?xf32, 1>)
    attributes {mux.kernel = "entry-point"} {
  %ap = builtin.unrealized_conversion_cast %a : memref<?xf32, 1> to !llvm.ptr<1>
  %bp = builtin.unrealized_conversion_cast %b : memref<?xf32, 1> to !llvm.ptr<1>
  %d = llvm.mlir.constant(0 : i32) : i32
  %g = mux.get_global_id %d
  %g64 = arith.index_cast %g : index to i64
  %one = llvm.mlir.constant(1 : i64) : i64
  %at = llvm.add %g64, %one : i64
  %p = llvm.getelementptr %ap[%at] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %v = llvm.load %p : !llvm.ptr<1> -> f32
  %q = llvm.getelementptr %bp[%g64] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  llvm.store %v, %q : f32, !llvm.ptr<1>
  func.return
}

// -----

// clang's clamps: the integer min/max intrinsics are arith's ops, usub.sat(x, 1)
// (x > 0 ? x - 1 : 0) is maxui(x, 1) - 1: clamps run-vecz keeps piecewise. Other
// intrinsics stay.
// CHECK-LABEL: func.func @clamps(
// CHECK:         %[[TOP:.*]] = arith.maxui %x, %one : i64
// CHECK-NEXT:    %left = arith.subi %[[TOP]], %one : i64
// CHECK-NEXT:    %right = arith.minui %x, %n : i64
// CHECK-NEXT:    %lo = arith.minsi %left, %right : i64
// CHECK-NEXT:    %hi = arith.maxsi %left, %right : i64
// CHECK-NEXT:    %pop = llvm.call_intrinsic "llvm.ctpop.i64"(%hi) : (i64) -> i64
func.func @clamps(%x: i64, %n: i64) attributes {mux.kernel = "entry-point"} {
  %one = llvm.mlir.constant(1 : i64) : i64
  %left = llvm.call_intrinsic "llvm.usub.sat.i64"(%x, %one) : (i64, i64) -> i64
  %right = llvm.call_intrinsic "llvm.umin.i64"(%x, %n) : (i64, i64) -> i64
  %lo = llvm.call_intrinsic "llvm.smin.i64"(%left, %right) : (i64, i64) -> i64
  %hi = llvm.call_intrinsic "llvm.smax.i64"(%left, %right) : (i64, i64) -> i64
  %pop = llvm.call_intrinsic "llvm.ctpop.i64"(%hi) : (i64) -> i64
  func.return
}
