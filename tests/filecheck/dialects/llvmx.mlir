// RUN: mux-opt --split-input-file %s | filecheck %s
// RUN: %roundtrip | filecheck %s
//
// Every op of the llvmx dialect (the LLVM instructions xDSL's llvm dialect lacks), in
// the custom form; the second RUN line goes through the generic form and back.

// CHECK-LABEL: llvm.func @casts
llvm.func @casts(%f: f32, %v: vector<4xf64>, %i: i64, %p: !llvm.ptr<1>, %vi: vector<4xi16>) {
  // CHECK-NEXT: %{{.*}} = llvmx.fptosi %f : f32 to i32
  // CHECK-NEXT: %{{.*}} = llvmx.fptoui %v : vector<4xf64> to vector<4xi8>
  // CHECK-NEXT: %{{.*}} = llvmx.uitofp %i : i64 to f16
  // CHECK-NEXT: %{{.*}} = llvmx.uitofp %vi : vector<4xi16> to vector<4xf32>
  // CHECK-NEXT: %{{.*}} = llvmx.addrspacecast %p : !llvm.ptr<1> to !llvm.ptr<4>
  %0 = llvmx.fptosi %f : f32 to i32
  %1 = llvmx.fptoui %v : vector<4xf64> to vector<4xi8>
  %2 = llvmx.uitofp %i : i64 to f16
  %3 = llvmx.uitofp %vi : vector<4xi16> to vector<4xf32>
  %4 = llvmx.addrspacecast %p : !llvm.ptr<1> to !llvm.ptr<4>
  llvm.return
}

// -----

// CHECK-LABEL: llvm.func @vectors
llvm.func @vectors(%v: vector<8xf32>, %i: i32, %x: i64) -> f32 {
  // CHECK-NEXT: %[[E:.*]] = llvmx.extractelement %v[%i : i32] : vector<8xf32>
  // CHECK-NEXT: %{{.*}} = llvmx.freeze %x : i64
  // CHECK-NEXT: %{{.*}} = llvmx.freeze %v : vector<8xf32>
  // CHECK-NEXT: llvm.return %[[E]] : f32
  %0 = llvmx.extractelement %v[%i : i32] : vector<8xf32>
  %1 = llvmx.freeze %x : i64
  %2 = llvmx.freeze %v : vector<8xf32>
  llvm.return %0 : f32
}

// -----

// CHECK-LABEL: llvm.func @switch
llvm.func @switch(%flag: i32, %a: i64, %b: f32) -> i64 {
  // CHECK-NEXT: llvmx.switch %flag : i32, ^{{.*}}(%a : i64) [
  // CHECK-NEXT:   0: ^{{.*}},
  // CHECK-NEXT:   7: ^{{.*}}(%b, %a : f32, i64),
  // CHECK-NEXT:   -1: ^{{.*}}(%a : i64)
  // CHECK-NEXT: ]
  llvmx.switch %flag : i32, ^bb1(%a : i64) [
    0: ^bb2,
    7: ^bb3(%b, %a : f32, i64),
    -1: ^bb1(%a : i64)
  ]
^bb1(%r: i64):
  llvm.return %r : i64
^bb2:
  llvm.return %a : i64
^bb3(%f: f32, %s: i64):
  llvm.return %s : i64
}

// -----

// A switch with no case and an i64 flag.
// CHECK-LABEL: llvm.func @switch_default_only
llvm.func @switch_default_only(%flag: i64) {
  // CHECK-NEXT: llvmx.switch %flag : i64, ^{{.*}} [] {hint = "none"}
  llvmx.switch %flag : i64, ^bb1 [] {hint = "none"}
^bb1:
  llvm.return
}

// -----

// CHECK-LABEL: llvm.func @atomics
llvm.func @atomics(%p: !llvm.ptr<1>, %i: i32, %f: f32, %q: !llvm.ptr) {
  // CHECK-NEXT: llvmx.fence acquire
  // CHECK-NEXT: llvmx.fence release
  // CHECK-NEXT: llvmx.fence acq_rel
  // CHECK-NEXT: llvmx.fence seq_cst
  llvmx.fence acquire
  llvmx.fence release
  llvmx.fence acq_rel
  llvmx.fence seq_cst
  // CHECK-NEXT: %{{.*}} = llvmx.atomicrmw xchg %p, %i monotonic : !llvm.ptr<1>, i32
  // CHECK-NEXT: %{{.*}} = llvmx.atomicrmw add %p, %i seq_cst align 4 : !llvm.ptr<1>, i32
  // CHECK-NEXT: %{{.*}} = llvmx.atomicrmw sub %p, %i acquire : !llvm.ptr<1>, i32
  // CHECK-NEXT: %{{.*}} = llvmx.atomicrmw and %p, %i release : !llvm.ptr<1>, i32
  // CHECK-NEXT: %{{.*}} = llvmx.atomicrmw or %p, %i acq_rel : !llvm.ptr<1>, i32
  // CHECK-NEXT: %{{.*}} = llvmx.atomicrmw xor %p, %i monotonic : !llvm.ptr<1>, i32
  // CHECK-NEXT: %{{.*}} = llvmx.atomicrmw max %p, %i monotonic : !llvm.ptr<1>, i32
  // CHECK-NEXT: %{{.*}} = llvmx.atomicrmw min %p, %i monotonic : !llvm.ptr<1>, i32
  // CHECK-NEXT: %{{.*}} = llvmx.atomicrmw umax %p, %i monotonic : !llvm.ptr<1>, i32
  // CHECK-NEXT: %{{.*}} = llvmx.atomicrmw umin %p, %i monotonic : !llvm.ptr<1>, i32
  // CHECK-NEXT: %{{.*}} = llvmx.atomicrmw fadd %p, %f monotonic : !llvm.ptr<1>, f32
  // CHECK-NEXT: %{{.*}} = llvmx.atomicrmw fsub %p, %f seq_cst : !llvm.ptr<1>, f32
  // CHECK-NEXT: %{{.*}} = llvmx.atomicrmw xchg %q, %f seq_cst : !llvm.ptr, f32
  %0 = llvmx.atomicrmw xchg %p, %i monotonic : !llvm.ptr<1>, i32
  %1 = llvmx.atomicrmw add %p, %i seq_cst align 4 : !llvm.ptr<1>, i32
  %2 = llvmx.atomicrmw sub %p, %i acquire : !llvm.ptr<1>, i32
  %3 = llvmx.atomicrmw and %p, %i release : !llvm.ptr<1>, i32
  %4 = llvmx.atomicrmw or %p, %i acq_rel : !llvm.ptr<1>, i32
  %5 = llvmx.atomicrmw xor %p, %i monotonic : !llvm.ptr<1>, i32
  %6 = llvmx.atomicrmw max %p, %i monotonic : !llvm.ptr<1>, i32
  %7 = llvmx.atomicrmw min %p, %i monotonic : !llvm.ptr<1>, i32
  %8 = llvmx.atomicrmw umax %p, %i monotonic : !llvm.ptr<1>, i32
  %9 = llvmx.atomicrmw umin %p, %i monotonic : !llvm.ptr<1>, i32
  %10 = llvmx.atomicrmw fadd %p, %f monotonic : !llvm.ptr<1>, f32
  %11 = llvmx.atomicrmw fsub %p, %f seq_cst : !llvm.ptr<1>, f32
  %12 = llvmx.atomicrmw xchg %q, %f seq_cst : !llvm.ptr, f32
  // CHECK-NEXT: %{{.*}} = llvmx.cmpxchg %p, %i, %i acq_rel monotonic : !llvm.ptr<1>, i32
  // CHECK-NEXT: %{{.*}} = llvmx.cmpxchg weak %p, %i, %i seq_cst seq_cst align 4 : !llvm.ptr<1>, i32
  // CHECK-NEXT: %{{.*}} = llvmx.cmpxchg %q, %q, %q release monotonic : !llvm.ptr, !llvm.ptr
  %13 = llvmx.cmpxchg %p, %i, %i acq_rel monotonic : !llvm.ptr<1>, i32
  %14 = llvmx.cmpxchg weak %p, %i, %i seq_cst seq_cst align 4 : !llvm.ptr<1>, i32
  %15 = llvmx.cmpxchg %q, %q, %q release monotonic : !llvm.ptr, !llvm.ptr
  // CHECK-NEXT: %{{.*}} = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(i32, i1)>
  %16 = llvm.extractvalue %13[1] : !llvm.struct<(i32, i1)>
  llvm.return
}

// -----

// memcpy between pointers of any address spaces, the length an integer of any width.
// CHECK-LABEL: llvm.func @memcpy
llvm.func @memcpy(%local: !llvm.ptr<3>, %global: !llvm.ptr<1>, %p: !llvm.ptr, %n: i64, %m: i32) {
  // CHECK-NEXT: llvmx.memcpy %local, %global, %n : !llvm.ptr<3>, !llvm.ptr<1>, i64
  // CHECK-NEXT: llvmx.memcpy %global, %local, %m : !llvm.ptr<1>, !llvm.ptr<3>, i32
  // CHECK-NEXT: llvmx.memcpy %p, %p, %n : !llvm.ptr, !llvm.ptr, i64
  llvmx.memcpy %local, %global, %n : !llvm.ptr<3>, !llvm.ptr<1>, i64
  llvmx.memcpy %global, %local, %m : !llvm.ptr<1>, !llvm.ptr<3>, i32
  llvmx.memcpy %p, %p, %n : !llvm.ptr, !llvm.ptr, i64
  llvm.return
}

// -----

// A volatile load (xDSL's llvm.load has no volatile flag), with an alignment or not,
// of any type.
// CHECK-LABEL: llvm.func @volatile_load
llvm.func @volatile_load(%p: !llvm.ptr<1>, %q: !llvm.ptr) {
  // CHECK-NEXT: %{{.*}} = llvmx.load volatile %p align 4 : !llvm.ptr<1> -> i32
  // CHECK-NEXT: %{{.*}} = llvmx.load volatile %q : !llvm.ptr -> vector<4xf32>
  %0 = llvmx.load volatile %p align 4 : !llvm.ptr<1> -> i32
  %1 = llvmx.load volatile %q : !llvm.ptr -> vector<4xf32>
  llvm.return
}

// -----

// select on a vector of conditions, lane by lane.
// CHECK-LABEL: func.func @vector_select(
// CHECK-NEXT:    %r = llvmx.select %c, %a, %b : vector<4xi1>, vector<4xf32>
func.func @vector_select(%c: vector<4xi1>, %a: vector<4xf32>, %b: vector<4xf32>) -> vector<4xf32> {
  %r = llvmx.select %c, %a, %b : vector<4xi1>, vector<4xf32>
  func.return %r : vector<4xf32>
}

// -----

// fcmp on vectors, lane by lane.
// CHECK-LABEL: func.func @vector_fcmp(
// CHECK-NEXT:    %r = llvmx.fcmp "olt" %a, %b : vector<4xf64> to vector<4xi1>
func.func @vector_fcmp(%a: vector<4xf64>, %b: vector<4xf64>) -> vector<4xi1> {
  %r = llvmx.fcmp "olt" %a, %b : vector<4xf64> to vector<4xi1>
  func.return %r : vector<4xi1>
}
