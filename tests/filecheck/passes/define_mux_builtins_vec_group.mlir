// RUN: mux-opt --split-input-file %s -p define-mux-builtins | filecheck %s
// RUN: mux-opt %S/Inputs/vec_group_broadcast.mlir -p define-mux-builtins,convert-to-llvm | filecheck %s --check-prefix=LLVM
//
// define-mux-builtins defines the vec-group collectives (lowering/vec_group.py):
// arithmetic on the lanes of one invocation's vector, with group_ops' operations
// and identities; a scalar operand is a group of one.

// Reduce: the left fold of the lanes, from lane 0.
// CHECK-LABEL: func.func @reduce(%v: vector<4xi32>) -> i32 {
// CHECK-NEXT:    %[[L0:.*]] = vector.extract %v[0] : i32 from vector<4xi32>
// CHECK-NEXT:    %[[L1:.*]] = vector.extract %v[1] : i32 from vector<4xi32>
// CHECK-NEXT:    %[[L2:.*]] = vector.extract %v[2] : i32 from vector<4xi32>
// CHECK-NEXT:    %[[L3:.*]] = vector.extract %v[3] : i32 from vector<4xi32>
// CHECK-NEXT:    %[[A:.*]] = arith.minui %[[L0]], %[[L1]] : i32
// CHECK-NEXT:    %[[B:.*]] = arith.minui %[[A]], %[[L2]] : i32
// CHECK-NEXT:    %r = arith.minui %[[B]], %[[L3]] : i32
// CHECK-NEXT:    func.return %r : i32
func.func @reduce(%v: vector<4xi32>) -> i32 {
  %r = mux.vec_group_reduce umin %v : vector<4xi32> -> i32
  func.return %r : i32
}

// -----

// Inclusive scan: lane i of the result is the fold of lanes 0..i, inserted into
// the identity splat lane by lane.
// CHECK-LABEL: func.func @inclusive(%v: vector<2xf64>) -> vector<2xf64> {
// CHECK-NEXT:    %[[E:.*]] = arith.constant dense<1.000000e+00> : vector<2xf64>
// CHECK-NEXT:    %[[L0:.*]] = vector.extract %v[0] : f64 from vector<2xf64>
// CHECK-NEXT:    %[[R0:.*]] = vector.insert %[[L0]], %[[E]] [0] : f64 into vector<2xf64>
// CHECK-NEXT:    %[[L1:.*]] = vector.extract %v[1] : f64 from vector<2xf64>
// CHECK-NEXT:    %[[F1:.*]] = arith.mulf %[[L0]], %[[L1]] : f64
// CHECK-NEXT:    %s = vector.insert %[[F1]], %[[R0]] [1] : f64 into vector<2xf64>
// CHECK-NEXT:    func.return %s : vector<2xf64>
func.func @inclusive(%v: vector<2xf64>) -> vector<2xf64> {
  %s = mux.vec_group_scan_inclusive fmul %v : vector<2xf64> -> vector<2xf64>
  func.return %s : vector<2xf64>
}

// -----

// Exclusive scan: lane 0 is the identity, lane i the fold of lanes 0..i-1; the
// last lane of the operand is not read.
// CHECK-LABEL: func.func @exclusive(%v: vector<3xi64>) -> vector<3xi64> {
// CHECK-NEXT:    %[[E:.*]] = arith.constant dense<-9223372036854775808> : vector<3xi64>
// CHECK-NEXT:    %[[L0:.*]] = vector.extract %v[0] : i64 from vector<3xi64>
// CHECK-NEXT:    %[[R1:.*]] = vector.insert %[[L0]], %[[E]] [1] : i64 into vector<3xi64>
// CHECK-NEXT:    %[[L1:.*]] = vector.extract %v[1] : i64 from vector<3xi64>
// CHECK-NEXT:    %[[F1:.*]] = arith.maxsi %[[L0]], %[[L1]] : i64
// CHECK-NEXT:    %s = vector.insert %[[F1]], %[[R1]] [2] : i64 into vector<3xi64>
// CHECK-NEXT:    func.return %s : vector<3xi64>
func.func @exclusive(%v: vector<3xi64>) -> vector<3xi64> {
  %s = mux.vec_group_scan_exclusive smax %v : vector<3xi64> -> vector<3xi64>
  func.return %s : vector<3xi64>
}

// -----

// any and all: reduces with logical_or and logical_and.
// CHECK-LABEL: func.func @any_all(%b: vector<2xi1>) -> (i1, i1) {
// CHECK-NEXT:    %[[A0:.*]] = vector.extract %b[0] : i1 from vector<2xi1>
// CHECK-NEXT:    %[[A1:.*]] = vector.extract %b[1] : i1 from vector<2xi1>
// CHECK-NEXT:    %any = arith.ori %[[A0]], %[[A1]] : i1
// CHECK-NEXT:    %[[B0:.*]] = vector.extract %b[0] : i1 from vector<2xi1>
// CHECK-NEXT:    %[[B1:.*]] = vector.extract %b[1] : i1 from vector<2xi1>
// CHECK-NEXT:    %all = arith.andi %[[B0]], %[[B1]] : i1
// CHECK-NEXT:    func.return %any, %all : i1, i1
func.func @any_all(%b: vector<2xi1>) -> (i1, i1) {
  %any = mux.vec_group_any %b : vector<2xi1>
  %all = mux.vec_group_all %b : vector<2xi1>
  func.return %any, %all : i1, i1
}

// -----

// Broadcast: the lane at a runtime position, llvmx.extractelement in the llvm
// dialect.
// CHECK-LABEL: func.func @broadcast(%v: vector<8xf32>, %lane: i32) -> f32 {
// CHECK-NEXT:    %[[P:.*]] = arith.index_cast %lane : i32 to index
// CHECK-NEXT:    %x = vector.extract %v[%[[P]]] : f32 from vector<8xf32>
// CHECK-NEXT:    func.return %x : f32
// LLVM-LABEL:  llvm.func @broadcast(%v: vector<8xf32>, %lane: i32) -> f32 {
// LLVM-NEXT:     %[[P:.*]] = llvm.sext %lane : i32 to i64
// LLVM-NEXT:     %x = llvmx.extractelement %v[%[[P]] : i64] : vector<8xf32>
// LLVM-NEXT:     llvm.return %x : f32
func.func @broadcast(%v: vector<8xf32>, %lane: i32) -> f32 {
  %x = mux.vec_group_broadcast %v, %lane : vector<8xf32> -> f32
  func.return %x : f32
}

// -----

// Scalars, groups of one: the operand itself, but for the exclusive scan, which
// is the identity.
// CHECK-LABEL: func.func @scalars(%x: f32, %lane: i32, %b: i1) -> (f32, f32, f32, f32, i1) {
// CHECK-NEXT:    %e = arith.constant -0.000000e+00 : f32
// CHECK-NEXT:    func.return %x, %x, %e, %x, %b : f32, f32, f32, f32, i1
func.func @scalars(%x: f32, %lane: i32, %b: i1) -> (f32, f32, f32, f32, i1) {
  %r = mux.vec_group_reduce fadd %x : f32 -> f32
  %i = mux.vec_group_scan_inclusive fadd %x : f32 -> f32
  %e = mux.vec_group_scan_exclusive fadd %x : f32 -> f32
  %y = mux.vec_group_broadcast %x, %lane : f32 -> f32
  %a = mux.vec_group_all %b : i1
  func.return %r, %i, %e, %y, %a : f32, f32, f32, f32, i1
}
