// RUN: mux-opt %s --split-input-file -p convert-to-llvm | filecheck %s
//
// convert-to-llvm on math: intrinsics where LLVM has them, C library calls where it
// does not.

// xDSL's llvm.intr ops, with the fast-math flags.
func.func @intrinsic_ops(%x: f32, %v: vector<4xf64>) -> f32 {
  %sqrt = math.sqrt %x fastmath<fast> : f32
  %exp = math.exp %sqrt : f32
  %exp2 = math.exp2 %exp : f32
  %log = math.log %exp2 : f32
  %log2 = math.log2 %log : f32
  %sin = math.sin %log2 : f32
  %cos = math.cos %sin : f32
  %floor = math.floor %cos : f32
  %ceil = math.ceil %floor : f32
  %abs = math.absf %ceil fastmath<nnan> : f32
  %pow = math.powf %abs, %x : f32
  %copysign = math.copysign %pow, %x : f32
  %vsqrt = math.sqrt %v : vector<4xf64>
  func.return %copysign : f32
}
// CHECK-LABEL: llvm.func @intrinsic_ops
// CHECK-NEXT:    %sqrt = llvm.intr.sqrt(%x) {fastmathFlags = #llvm.fastmath<fast>} : (f32) -> f32
// CHECK-NEXT:    %exp = llvm.intr.exp(%sqrt) : (f32) -> f32
// CHECK-NEXT:    %exp2 = llvm.intr.exp2(%exp) : (f32) -> f32
// CHECK-NEXT:    %log = llvm.intr.log(%exp2) : (f32) -> f32
// CHECK-NEXT:    %log2 = llvm.intr.log2(%log) : (f32) -> f32
// CHECK-NEXT:    %sin = llvm.intr.sin(%log2) : (f32) -> f32
// CHECK-NEXT:    %cos = llvm.intr.cos(%sin) : (f32) -> f32
// CHECK-NEXT:    %floor = llvm.intr.floor(%cos) : (f32) -> f32
// CHECK-NEXT:    %ceil = llvm.intr.ceil(%floor) : (f32) -> f32
// CHECK-NEXT:    %abs = llvm.intr.fabs(%ceil) {fastmathFlags = #llvm.fastmath<nnan>} : (f32) -> f32
// CHECK-NEXT:    %pow = llvm.intr.pow(%abs, %x) : (f32, f32) -> f32
// CHECK-NEXT:    %copysign = llvm.intr.copysign(%pow, %x) : (f32, f32) -> f32
// CHECK-NEXT:    %vsqrt = llvm.intr.sqrt(%v) : (vector<4xf64>) -> vector<4xf64>
// CHECK-NEXT:    llvm.return %copysign : f32

// -----

// The other intrinsics through llvm.call_intrinsic, under their full names.
func.func @call_intrinsic(%x: f32, %v: vector<2xf64>, %i: i32) -> i32 {
  %log10 = math.log10 %x : f32
  %round = math.round %v : vector<2xf64>
  %roundeven = math.roundeven %x : f32
  %trunc = math.trunc %x : f32
  %ctpop = math.ctpop %i : i32
  %abs = math.absi %i : i32
  %ctlz = math.ctlz %abs : i32
  %cttz = math.cttz %ctlz : i32
  func.return %cttz : i32
}
// CHECK-LABEL: llvm.func @call_intrinsic
// CHECK-NEXT:    %log10 = llvm.call_intrinsic "llvm.log10.f32"(%x) : (f32) -> f32
// CHECK-NEXT:    %round = llvm.call_intrinsic "llvm.round.v2f64"(%v) : (vector<2xf64>) -> vector<2xf64>
// CHECK-NEXT:    %roundeven = llvm.call_intrinsic "llvm.roundeven.f32"(%x) : (f32) -> f32
// CHECK-NEXT:    %trunc = llvm.call_intrinsic "llvm.trunc.f32"(%x) : (f32) -> f32
// CHECK-NEXT:    %ctpop = llvm.call_intrinsic "llvm.ctpop.i32"(%i) : (i32) -> i32
// CHECK-NEXT:    %[[FALSE:.*]] = llvm.mlir.constant(false) : i1
// CHECK-NEXT:    %abs = llvm.call_intrinsic "llvm.abs.i32"(%i, %[[FALSE]]) : (i32, i1) -> i32
// CHECK-NEXT:    %[[FALSE2:.*]] = llvm.mlir.constant(false) : i1
// CHECK-NEXT:    %ctlz = llvm.call_intrinsic "llvm.ctlz.i32"(%abs, %[[FALSE2]]) : (i32, i1) -> i32
// CHECK-NEXT:    %[[FALSE3:.*]] = llvm.mlir.constant(false) : i1
// CHECK-NEXT:    %cttz = llvm.call_intrinsic "llvm.cttz.i32"(%ctlz, %[[FALSE3]]) : (i32, i1) -> i32

// -----

// fma without fast-math flags; rsqrt is 1 / sqrt with the flags on both.
func.func @fma_rsqrt(%x: f32, %v: vector<4xf32>) -> vector<4xf32> {
  %fma = math.fma %x, %x, %x fastmath<fast> : f32
  %rsqrt = math.rsqrt %v fastmath<afn> : vector<4xf32>
  func.return %rsqrt : vector<4xf32>
}
// CHECK-LABEL: llvm.func @fma_rsqrt
// CHECK-NEXT:    %fma = llvm.intr.fma(%x, %x, %x) : (f32, f32, f32) -> f32
// CHECK-NEXT:    %[[ROOT:.*]] = llvm.intr.sqrt(%v) {fastmathFlags = #llvm.fastmath<afn>} : (vector<4xf32>) -> vector<4xf32>
// CHECK-NEXT:    %[[ONE:.*]] = llvm.mlir.constant(dense<1.000000e+00> : vector<4xf32>) : vector<4xf32>
// CHECK-NEXT:    %rsqrt = llvm.fdiv %[[ONE]], %[[ROOT]] {fastmathFlags = #llvm.fastmath<afn>} : vector<4xf32>

// -----

// No intrinsic: the C library's function, declared once, `f` suffix on f32.
func.func @c_library(%x: f32, %d: f64) -> f32 {
  %tan = math.tan %x : f32
  %tanh = math.tanh %d fastmath<fast> : f64
  %again = math.tan %tan : f32
  %atan2 = math.atan2 %x, %again : f32
  func.return %atan2 : f32
}
// CHECK:       builtin.module {
// CHECK-NEXT:    llvm.func @atan2f(f32, f32) -> f32
// CHECK-NEXT:    llvm.func @tanh(f64) -> f64
// CHECK-NEXT:    llvm.func @tanf(f32) -> f32
// CHECK-LABEL:   llvm.func @c_library
// CHECK-NEXT:    %tan = llvm.call @tanf(%x) : (f32) -> f32
// CHECK-NEXT:    %tanh = llvm.call @tanh(%d) {fastmathFlags = #llvm.fastmath<fast>} : (f64) -> f64
// CHECK-NEXT:    %again = llvm.call @tanf(%tan) : (f32) -> f32
// CHECK-NEXT:    %atan2 = llvm.call @atan2f(%x, %again) : (f32, f32) -> f32

// -----

// Each C library function of the table.
func.func @c_library_all(%x: f64) -> f64 {
  %0 = math.asin %x : f64
  %1 = math.acos %0 : f64
  %2 = math.atan %1 : f64
  %3 = math.sinh %2 : f64
  %4 = math.cosh %3 : f64
  %5 = math.asinh %4 : f64
  %6 = math.acosh %5 : f64
  %7 = math.atanh %6 : f64
  %8 = math.erf %7 : f64
  %9 = math.cbrt %8 : f64
  %10 = math.expm1 %9 : f64
  %11 = math.log1p %10 : f64
  func.return %11 : f64
}
// CHECK-LABEL: llvm.func @c_library_all
// CHECK-NEXT:    llvm.call @asin(
// CHECK-NEXT:    llvm.call @acos(
// CHECK-NEXT:    llvm.call @atan(
// CHECK-NEXT:    llvm.call @sinh(
// CHECK-NEXT:    llvm.call @cosh(
// CHECK-NEXT:    llvm.call @asinh(
// CHECK-NEXT:    llvm.call @acosh(
// CHECK-NEXT:    llvm.call @atanh(
// CHECK-NEXT:    llvm.call @erf(
// CHECK-NEXT:    llvm.call @cbrt(
// CHECK-NEXT:    llvm.call @expm1(
// CHECK-NEXT:    llvm.call @log1p(

// -----

// A declaration already in the module (as func.func or llvm.func) is used.
func.func private @tanf(f32) -> f32
func.func @declared(%x: f32) -> f32 {
  %tan = math.tan %x : f32
  func.return %tan : f32
}
// CHECK:       builtin.module {
// CHECK-NEXT:    llvm.func @tanf(f32) -> f32
// CHECK-NEXT:    llvm.func @declared
// CHECK-NEXT:    %tan = llvm.call @tanf(%x) : (f32) -> f32

// -----

// On vectors, the C library function lane by lane.
func.func @c_library_vector(%v: vector<2xf32>) -> vector<2xf32> {
  %tan = math.tan %v : vector<2xf32>
  func.return %tan : vector<2xf32>
}
// CHECK-LABEL: llvm.func @c_library_vector
// CHECK-NEXT:    %[[UNDEF:.*]] = llvm.mlir.undef : vector<2xf32>
// CHECK-NEXT:    %[[I0:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[X0:.*]] = llvmx.extractelement %v[%[[I0]] : i64] : vector<2xf32>
// CHECK-NEXT:    %[[T0:.*]] = llvm.call @tanf(%[[X0]]) : (f32) -> f32
// CHECK-NEXT:    %[[V0:.*]] = llvm.insertelement %[[T0]], %[[UNDEF]][%[[I0]] : i64] : vector<2xf32>
// CHECK-NEXT:    %[[I1:.*]] = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %[[X1:.*]] = llvmx.extractelement %v[%[[I1]] : i64] : vector<2xf32>
// CHECK-NEXT:    %[[T1:.*]] = llvm.call @tanf(%[[X1]]) : (f32) -> f32
// CHECK-NEXT:    %tan = llvm.insertelement %[[T1]], %[[V0]][%[[I1]] : i64] : vector<2xf32>
// CHECK-NEXT:    llvm.return %tan : vector<2xf32>
