// RUN: mux-opt %s -p link-builtins | filecheck %s
//
// link-builtins: a math builtin becomes the ops computing it on the call's own
// types. sqrt is math.sqrt; fmin of a vector and a scalar spreads the scalar and is
// arith.minnumf (the non-NaN operand, as OpenCL's fmin); a half is computed in
// float and rounded back; native_cos is cos; ldexp is LLVM's intrinsic; hypot calls
// the C library (declared); modf stores the integral part through its pointer;
// sinpi is computed in double from an exact reduction of x modulo 2; rootn of a
// double is not defined here, so it stays a call with its declaration.

func.func @math(%x: f32, %v: vector<4xf32>, %h: f16, %d: f64, %n: i32, %p: !llvm.ptr<1>) -> f32 {
  %0 = func.call @_Z4sqrtf(%x) : (f32) -> f32
  %1 = func.call @_Z4fminDv4_ff(%v, %x) : (vector<4xf32>, f32) -> vector<4xf32>
  %2 = func.call @_Z3expDh(%h) : (f16) -> f16
  %3 = func.call @_Z10native_cosd(%d) : (f64) -> f64
  %4 = func.call @_Z5ldexpfi(%x, %n) : (f32, i32) -> f32
  %5 = func.call @_Z5hypotff(%x, %x) : (f32, f32) -> f32
  %6 = func.call @_Z4modffPU3AS1f(%x, %p) : (f32, !llvm.ptr<1>) -> f32
  %7 = func.call @_Z5sinpif(%x) : (f32) -> f32
  %8 = func.call @_Z5rootndi(%d, %n) : (f64, i32) -> f64
  func.return %0 : f32
}
func.func private @_Z4sqrtf(f32) -> f32
func.func private @_Z4fminDv4_ff(vector<4xf32>, f32) -> vector<4xf32>
func.func private @_Z3expDh(f16) -> f16
func.func private @_Z10native_cosd(f64) -> f64
func.func private @_Z5ldexpfi(f32, i32) -> f32
func.func private @_Z5hypotff(f32, f32) -> f32
func.func private @_Z4modffPU3AS1f(f32, !llvm.ptr<1>) -> f32
func.func private @_Z5sinpif(f32) -> f32
func.func private @_Z5rootndi(f64, i32) -> f64

// CHECK:      func.func @math(%x: f32, %v: vector<4xf32>, %h: f16, %d: f64, %n: i32, %p: !llvm.ptr<1>) -> f32 {
// CHECK-NEXT:   %0 = math.sqrt %x : f32
// CHECK-NEXT:   %1 = llvm.mlir.undef : vector<4xf32>
// CHECK-NEXT:   %2 = arith.constant 0 : i64
// CHECK-NEXT:   %3 = llvm.insertelement %x, %1[%2 : i64] : vector<4xf32>
// CHECK-NEXT:   %4 = llvm.shufflevector %3, %3 [0, 0, 0, 0] : vector<4xf32>
// CHECK-NEXT:   %5 = arith.minnumf %v, %4 : vector<4xf32>
// CHECK-NEXT:   %6 = llvm.fpext %h : f16 to f32
// CHECK-NEXT:   %7 = math.exp %6 : f32
// CHECK-NEXT:   %8 = llvm.fptrunc %7 : f32 to f16
// CHECK-NEXT:   %9 = math.cos %d : f64
// CHECK-NEXT:   %10 = llvm.call_intrinsic "llvm.ldexp.f32.i32"(%x, %n) : (f32, i32) -> f32
// CHECK-NEXT:   %11 = func.call @hypotf(%x, %x) : (f32, f32) -> f32
// CHECK-NEXT:   %[[INT:.*]] = math.trunc %x : f32
// CHECK-NEXT:   %[[ABS:.*]] = math.absf %x : f32
// CHECK-NEXT:   %[[INF:.*]] = arith.constant 0x7f800000 : f32
// CHECK-NEXT:   %[[ISINF:.*]] = llvm.fcmp "oeq" %[[ABS]], %[[INF]] : f32
// CHECK-NEXT:   %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:   %[[DIFF:.*]] = arith.subf %x, %[[INT]] : f32
// CHECK-NEXT:   %[[FRAC:.*]] = llvm.select %[[ISINF]], %[[ZERO]], %[[DIFF]] : i1, f32
// CHECK-NEXT:   %{{.*}} = math.copysign %[[FRAC]], %x : f32
// CHECK-NEXT:   llvm.store %[[INT]], %p {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK-NEXT:   %[[WIDE:.*]] = llvm.fpext %x : f32 to f64
// CHECK-NEXT:   %[[MAG:.*]] = math.absf %[[WIDE]] : f64
// CHECK-NEXT:   %[[TWO:.*]] = arith.constant 2.000000e+00 : f64
// CHECK-NEXT:   %{{.*}} = llvm.frem %[[MAG]], %[[TWO]] : f64
// CHECK:        math.sin %{{.*}} : f64
// CHECK:        %[[SINPI:.*]] = arith.mulf %{{.*}}, %{{.*}} : f64
// CHECK-NEXT:   %{{.*}} = llvm.fptrunc %[[SINPI]] : f64 to f32
// CHECK-NEXT:   %{{.*}} = func.call @_Z5rootndi(%d, %n) : (f64, i32) -> f64
// CHECK-NEXT:   func.return %0 : f32
// CHECK-NEXT: }
// CHECK-NEXT: func.func private @_Z5rootndi(f64, i32) -> f64
// CHECK-NEXT: func.func private @hypotf(f32, f32) -> f32
// CHECK-NEXT: }
