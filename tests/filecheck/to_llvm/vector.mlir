// RUN: mux-opt %s --split-input-file -p convert-to-llvm | filecheck %s
//
// convert-to-llvm on vector (1-D vectors).

// A scalar broadcast is LLVM's splat idiom; vector<1xT> needs the shuffle only;
// the same type is nothing.
func.func @broadcast(%x: f32, %i: index, %one: vector<1xi32>, %v: vector<4xf32>) -> vector<4xf32> {
  %splat = vector.broadcast %x : f32 to vector<4xf32>
  %lanes = vector.broadcast %i : index to vector<2xindex>
  %wide = vector.broadcast %one : vector<1xi32> to vector<8xi32>
  %same = vector.broadcast %v : vector<4xf32> to vector<4xf32>
  func.return %same : vector<4xf32>
}
// CHECK-LABEL: llvm.func @broadcast
// CHECK-NEXT:    %[[UNDEF:.*]] = llvm.mlir.undef : vector<4xf32>
// CHECK-NEXT:    %[[ZERO:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[FIRST:.*]] = llvm.insertelement %x, %[[UNDEF]][%[[ZERO]] : i64] : vector<4xf32>
// CHECK-NEXT:    %splat = llvm.shufflevector %[[FIRST]], %[[FIRST]] [0, 0, 0, 0] : vector<4xf32>
// CHECK-NEXT:    %[[UNDEF2:.*]] = llvm.mlir.undef : vector<2xi64>
// CHECK-NEXT:    %[[ZERO2:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[FIRST2:.*]] = llvm.insertelement %i, %[[UNDEF2]][%[[ZERO2]] : i64] : vector<2xi64>
// CHECK-NEXT:    %lanes = llvm.shufflevector %[[FIRST2]], %[[FIRST2]] [0, 0] : vector<2xi64>
// CHECK-NEXT:    %wide = llvm.shufflevector %one, %one [0, 0, 0, 0, 0, 0, 0, 0] : vector<1xi32>
// CHECK-NEXT:    llvm.return %v : vector<4xf32>

// -----

func.func @extract_insert(%v: vector<4xf32>, %i: index, %x: f32) -> f32 {
  %static = vector.extract %v[2] : f32 from vector<4xf32>
  %dynamic = vector.extract %v[%i] : f32 from vector<4xf32>
  %inserted = vector.insert %x, %v[1] : f32 into vector<4xf32>
  %moved = vector.insert %static, %inserted[%i] : f32 into vector<4xf32>
  func.return %dynamic : f32
}
// CHECK-LABEL: llvm.func @extract_insert(%v: vector<4xf32>, %i: i64, %x: f32) -> f32 {
// CHECK-NEXT:    %[[TWO:.*]] = llvm.mlir.constant(2) : i64
// CHECK-NEXT:    %static = llvmx.extractelement %v[%[[TWO]] : i64] : vector<4xf32>
// CHECK-NEXT:    %dynamic = llvmx.extractelement %v[%i : i64] : vector<4xf32>
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %inserted = llvm.insertelement %x, %v[%[[ONE]] : i64] : vector<4xf32>
// CHECK-NEXT:    %moved = llvm.insertelement %static, %inserted[%i : i64] : vector<4xf32>
// CHECK-NEXT:    llvm.return %dynamic : f32

// -----

// vector.load/store: the element's address and a vector access aligned as the
// memref's element.
func.func @load_store(%a: memref<?xf32, 1>, %b: memref<?x16xi8, 3>, %i: index) {
  %v = vector.load %a[%i] : memref<?xf32, 1>, vector<8xf32>
  vector.store %v, %a[%i] : memref<?xf32, 1>, vector<8xf32>
  %w = vector.load %b[%i, %i] : memref<?x16xi8, 3>, vector<16xi8>
  func.return
}
// CHECK-LABEL: llvm.func @load_store(%a: !llvm.ptr<1>, %b: !llvm.ptr<3>, %i: i64) {
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %a[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    %v = llvm.load %[[P]] {alignment = 4 : i64} : !llvm.ptr<1> -> vector<8xf32>
// CHECK-NEXT:    %[[Q:.*]] = llvm.getelementptr inbounds %a[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    llvm.store %v, %[[Q]] {alignment = 4 : i64} : vector<8xf32>, !llvm.ptr<1>
// CHECK-NEXT:    %[[S:.*]] = llvm.mlir.constant(16) : i64
// CHECK-NEXT:    %[[T:.*]] = llvm.mul %i, %[[S]] overflow<nsw> : i64
// CHECK-NEXT:    %[[L:.*]] = llvm.add %[[T]], %i overflow<nsw> : i64
// CHECK-NEXT:    %[[R:.*]] = llvm.getelementptr inbounds %b[%[[L]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    %w = llvm.load %[[R]] {alignment = 1 : i64} : !llvm.ptr<3> -> vector<16xi8>

// -----

// Float add/mul: the ordered reductions from the accumulator or the neutral
// element, with the fast-math flags.
func.func @float_reductions(%v: vector<4xf32>, %acc: f32) -> f32 {
  %sum = vector.reduction <add>, %v : vector<4xf32> into f32
  %product = vector.reduction <mul>, %v, %acc fastmath<reassoc> : vector<4xf32> into f32
  func.return %sum : f32
}
// CHECK-LABEL: llvm.func @float_reductions
// CHECK-NEXT:    %[[NEUTRAL:.*]] = llvm.mlir.constant(-0.000000e+00 : f32) : f32
// CHECK-NEXT:    %sum = "llvm.intr.vector.reduce.fadd"(%[[NEUTRAL]], %v) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, vector<4xf32>) -> f32
// CHECK-NEXT:    %product = "llvm.intr.vector.reduce.fmul"(%acc, %v) <{fastmathFlags = #llvm.fastmath<reassoc>}> : (f32, vector<4xf32>) -> f32

// -----

// The other kinds call llvm.vector.reduce.*, and combine with the accumulator.
func.func @reductions(%v: vector<4xi32>, %acc: i32, %f: vector<2xf64>) -> i32 {
  %add = vector.reduction <add>, %v : vector<4xi32> into i32
  %mul = vector.reduction <mul>, %v, %acc : vector<4xi32> into i32
  %and = vector.reduction <and>, %v : vector<4xi32> into i32
  %or = vector.reduction <or>, %v : vector<4xi32> into i32
  %xor = vector.reduction <xor>, %v : vector<4xi32> into i32
  %minsi = vector.reduction <minsi>, %v, %acc : vector<4xi32> into i32
  %maxsi = vector.reduction <maxsi>, %v : vector<4xi32> into i32
  %minui = vector.reduction <minui>, %v : vector<4xi32> into i32
  %maxui = vector.reduction <maxui>, %v : vector<4xi32> into i32
  %minnumf = vector.reduction <minnumf>, %f : vector<2xf64> into f64
  %maxnumf = vector.reduction <maxnumf>, %f : vector<2xf64> into f64
  %minimumf = vector.reduction <minimumf>, %f : vector<2xf64> into f64
  %maximumf = vector.reduction <maximumf>, %f, %minimumf : vector<2xf64> into f64
  func.return %add : i32
}
// CHECK-LABEL: llvm.func @reductions
// CHECK-NEXT:    %add = llvm.call_intrinsic "llvm.vector.reduce.add.v4i32"(%v) : (vector<4xi32>) -> i32
// CHECK-NEXT:    %[[MUL:.*]] = llvm.call_intrinsic "llvm.vector.reduce.mul.v4i32"(%v) : (vector<4xi32>) -> i32
// CHECK-NEXT:    %mul = llvm.mul %acc, %[[MUL]] : i32
// CHECK-NEXT:    %and = llvm.call_intrinsic "llvm.vector.reduce.and.v4i32"(%v) : (vector<4xi32>) -> i32
// CHECK-NEXT:    %or = llvm.call_intrinsic "llvm.vector.reduce.or.v4i32"(%v) : (vector<4xi32>) -> i32
// CHECK-NEXT:    %xor = llvm.call_intrinsic "llvm.vector.reduce.xor.v4i32"(%v) : (vector<4xi32>) -> i32
// CHECK-NEXT:    %[[MIN:.*]] = llvm.call_intrinsic "llvm.vector.reduce.smin.v4i32"(%v) : (vector<4xi32>) -> i32
// CHECK-NEXT:    %minsi = llvm.call_intrinsic "llvm.smin.i32"(%acc, %[[MIN]]) : (i32, i32) -> i32
// CHECK-NEXT:    %maxsi = llvm.call_intrinsic "llvm.vector.reduce.smax.v4i32"(%v) : (vector<4xi32>) -> i32
// CHECK-NEXT:    %minui = llvm.call_intrinsic "llvm.vector.reduce.umin.v4i32"(%v) : (vector<4xi32>) -> i32
// CHECK-NEXT:    %maxui = llvm.call_intrinsic "llvm.vector.reduce.umax.v4i32"(%v) : (vector<4xi32>) -> i32
// CHECK-NEXT:    %minnumf = llvm.call_intrinsic "llvm.vector.reduce.fmin.v2f64"(%f) : (vector<2xf64>) -> f64
// CHECK-NEXT:    %maxnumf = llvm.call_intrinsic "llvm.vector.reduce.fmax.v2f64"(%f) : (vector<2xf64>) -> f64
// CHECK-NEXT:    %minimumf = llvm.call_intrinsic "llvm.vector.reduce.fminimum.v2f64"(%f) : (vector<2xf64>) -> f64
// CHECK-NEXT:    %[[MAX:.*]] = llvm.call_intrinsic "llvm.vector.reduce.fmaximum.v2f64"(%f) : (vector<2xf64>) -> f64
// CHECK-NEXT:    %maximumf = llvm.call_intrinsic "llvm.maximum.f64"(%minimumf, %[[MAX]]) : (f64, f64) -> f64

// -----

func.func @others(%v: vector<4xf32>, %w: vector<4xf32>) -> vector<4xi32> {
  %fma = vector.fma %v, %w, %v : vector<4xf32>
  %shuffle = vector.shuffle %v, %w [0, 4, 1, 5] : vector<4xf32>, vector<4xf32>
  %bits = vector.bitcast %fma : vector<4xf32> to vector<4xi32>
  func.return %bits : vector<4xi32>
}
// CHECK-LABEL: llvm.func @others
// CHECK-NEXT:    %fma = llvm.intr.fma(%v, %w, %v) : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// CHECK-NEXT:    %shuffle = llvm.shufflevector %v, %w [0, 4, 1, 5] : vector<4xf32>
// CHECK-NEXT:    %bits = llvm.bitcast %fma : vector<4xf32> to vector<4xi32>

// -----

// Masked loads and stores call LLVM's masked intrinsics on the element's address,
// aligned as the element; lanes whose mask bit is 0 are not accessed.
// CHECK-LABEL: llvm.func @masked(
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %m[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    %[[A:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT:    %v = llvm.call_intrinsic "llvm.masked.load.v4f32.p0"(%[[P]], %[[A]], %mask, %pass) : (!llvm.ptr, i32, vector<4xi1>, vector<4xf32>) -> vector<4xf32>
// CHECK-NEXT:    %[[Q:.*]] = llvm.getelementptr inbounds %m[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    %[[B:.*]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT:    llvm.call_intrinsic "llvm.masked.store.v4f32.p0"(%v, %[[Q]], %[[B]], %mask) : (vector<4xf32>, !llvm.ptr, i32, vector<4xi1>) -> ()
func.func @masked(%m: memref<?xf32>, %i: index, %mask: vector<4xi1>, %pass: vector<4xf32>) -> vector<4xf32> {
  %v = vector.maskedload %m[%i], %mask, %pass : memref<?xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  vector.maskedstore %m[%i], %mask, %v : memref<?xf32>, vector<4xi1>, vector<4xf32>
  func.return %v : vector<4xf32>
}

// -----

// Vectors of booleans move as bytes (types.memory_type): 8 consecutive elements of
// a memref<?xi1> are a vector<8xi8>, never LLVM's bit-packed vector<8xi1> in
// memory. A load compares the bytes with 0, a store zero-extends; a masked load's
// pass-through is widened too (the mask stays a vector<8xi1> operand).
// CHECK-LABEL: llvm.func @booleans(
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %m[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT:    %[[L:.*]] = llvm.load %[[P]] {alignment = 1 : i64} : !llvm.ptr<1> -> vector<8xi8>
// CHECK-NEXT:    %[[Z:.*]] = llvm.mlir.constant(dense<0> : vector<8xi8>) : vector<8xi8>
// CHECK-NEXT:    %v = llvm.icmp "ne" %[[L]], %[[Z]] : vector<8xi8>
// CHECK-NEXT:    %[[Q:.*]] = llvm.getelementptr inbounds %m[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT:    %[[VB:.*]] = llvm.zext %v : vector<8xi1> to vector<8xi8>
// CHECK-NEXT:    llvm.store %[[VB]], %[[Q]] {alignment = 1 : i64} : vector<8xi8>, !llvm.ptr<1>
// CHECK-NEXT:    %[[R:.*]] = llvm.getelementptr inbounds %m[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT:    %[[A:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    %[[PB:.*]] = llvm.zext %pass : vector<8xi1> to vector<8xi8>
// CHECK-NEXT:    %[[ML:.*]] = llvm.call_intrinsic "llvm.masked.load.v8i8.p0"(%[[R]], %[[A]], %mask, %[[PB]]) : (!llvm.ptr<1>, i32, vector<8xi1>, vector<8xi8>) -> vector<8xi8>
// CHECK-NEXT:    %[[MZ:.*]] = llvm.mlir.constant(dense<0> : vector<8xi8>) : vector<8xi8>
// CHECK-NEXT:    %w = llvm.icmp "ne" %[[ML]], %[[MZ]] : vector<8xi8>
// CHECK-NEXT:    %[[S:.*]] = llvm.getelementptr inbounds %m[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT:    %[[B:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT:    %[[WB:.*]] = llvm.zext %w : vector<8xi1> to vector<8xi8>
// CHECK-NEXT:    llvm.call_intrinsic "llvm.masked.store.v8i8.p0"(%[[WB]], %[[S]], %[[B]], %mask) : (vector<8xi8>, !llvm.ptr<1>, i32, vector<8xi1>) -> ()
func.func @booleans(%m: memref<?xi1, 1>, %i: index, %mask: vector<8xi1>, %pass: vector<8xi1>) {
  %v = vector.load %m[%i] : memref<?xi1, 1>, vector<8xi1>
  vector.store %v, %m[%i] : memref<?xi1, 1>, vector<8xi1>
  %w = vector.maskedload %m[%i], %mask, %pass : memref<?xi1, 1>, vector<8xi1>, vector<8xi1> into vector<8xi1>
  vector.maskedstore %m[%i], %mask, %w : memref<?xi1, 1>, vector<8xi1>, vector<8xi1>
  func.return
}
