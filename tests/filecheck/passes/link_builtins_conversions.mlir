// RUN: mux-opt %s -p link-builtins | filecheck %s
//
// link-builtins: the explicit conversions. convert_int(float) truncates (fptosi);
// convert_int4_sat_rte rounds to nearest even, then saturates (LLVM's fptosi.sat,
// NaN to 0); convert_float_rtz(double) rounds to nearest, then steps one float
// towards zero where that went away from it (the float back in double compared
// with the double); convert_float_rtp(long) does the same upwards, the integer
// back compared with the long, except for 2^63 (beyond every long: above);
// convert_double(int) is exact; convert_uchar_sat_rte(int) clamps to [0, 255] in
// int, then truncates; convert_ushort3(char3) extends by the source's sign.
func.func @conversions(%f: f32, %v: vector<4xf32>, %d: f64, %i: i32, %l: i64, %c: vector<3xi8>) {
  %0 = func.call @_Z11convert_intf(%f) : (f32) -> i32
  %1 = func.call @_Z20convert_int4_sat_rteDv4_f(%v) : (vector<4xf32>) -> vector<4xi32>
  %2 = func.call @_Z17convert_float_rtzd(%d) : (f64) -> f32
  %3 = func.call @_Z17convert_float_rtpl(%l) : (i64) -> f32
  %4 = func.call @_Z14convert_doublei(%i) : (i32) -> f64
  %5 = func.call @_Z21convert_uchar_sat_rtei(%i) : (i32) -> i8
  %6 = func.call @_Z15convert_ushort3Dv3_c(%c) : (vector<3xi8>) -> vector<3xi16>
  func.return
}
func.func private @_Z11convert_intf(f32) -> i32
func.func private @_Z20convert_int4_sat_rteDv4_f(vector<4xf32>) -> vector<4xi32>
func.func private @_Z17convert_float_rtzd(f64) -> f32
func.func private @_Z17convert_float_rtpl(i64) -> f32
func.func private @_Z14convert_doublei(i32) -> f64
func.func private @_Z21convert_uchar_sat_rtei(i32) -> i8
func.func private @_Z15convert_ushort3Dv3_c(vector<3xi8>) -> vector<3xi16>

// CHECK:      func.func @conversions(%f: f32, %v: vector<4xf32>, %d: f64, %i: i32, %l: i64, %c: vector<3xi8>) {
// CHECK-NEXT:   %0 = llvmx.fptosi %f : f32 to i32
// CHECK-NEXT:   %[[EVEN:.*]] = math.roundeven %v : vector<4xf32>
// CHECK-NEXT:   %{{.*}} = llvm.call_intrinsic "llvm.fptosi.sat.v4i32.v4f32"(%[[EVEN]]) : (vector<4xf32>) -> vector<4xi32>
// CHECK-NEXT:   %[[NEAREST:.*]] = llvm.fptrunc %d : f64 to f32
// CHECK-NEXT:   %[[BACK:.*]] = llvm.fpext %[[NEAREST]] : f32 to f64
// CHECK-NEXT:   %[[ABOVE:.*]] = llvm.fcmp "ogt" %[[BACK]], %d : f64
// CHECK-NEXT:   %[[BELOW:.*]] = llvm.fcmp "olt" %[[BACK]], %d : f64
// CHECK-NEXT:   %[[BITS:.*]] = llvm.bitcast %[[NEAREST]] : f32 to i32
// CHECK-NEXT:   %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[NEGATIVE:.*]] = llvm.icmp "slt" %[[BITS]], %[[ZERO]] : i32
// CHECK-NEXT:   %[[STEP:.*]] = llvm.select %[[NEGATIVE]], %[[BELOW]], %[[ABOVE]] : i1, i1
// CHECK:        %{{.*}} = llvm.select %[[STEP]], %{{.*}}, %[[NEAREST]] : i1, f32
// CHECK-NEXT:   %[[ROUNDED:.*]] = llvm.sitofp %l : i64 to f32
// CHECK-NEXT:   %[[LIMIT:.*]] = arith.constant 9.22337204e+18 : f32
// CHECK-NEXT:   %[[BEYOND:.*]] = llvm.fcmp "oge" %[[ROUNDED]], %[[LIMIT]] : f32
// CHECK-NEXT:   %[[INTEGER:.*]] = llvmx.fptosi %[[ROUNDED]] : f32 to i64
// CHECK-NEXT:   %{{.*}} = llvm.icmp "sgt" %[[INTEGER]], %l : i64
// CHECK-NEXT:   %[[LESS:.*]] = llvm.icmp "slt" %[[INTEGER]], %l : i64
// CHECK:        %[[UNDER:.*]] = llvm.select %[[BEYOND]], %{{.*}}, %[[LESS]] : i1, i1
// CHECK:        %{{.*}} = llvm.select %[[UNDER]], %{{.*}}, %[[ROUNDED]] : i1, f32
// CHECK-NEXT:   %{{.*}} = llvm.sitofp %i : i32 to f64
// CHECK-NEXT:   %[[C255:.*]] = arith.constant 255 : i32
// CHECK-NEXT:   %[[HIGH:.*]] = arith.minsi %i, %[[C255]] : i32
// CHECK-NEXT:   %[[C0:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[CLAMPED:.*]] = arith.maxsi %[[HIGH]], %[[C0]] : i32
// CHECK-NEXT:   %{{.*}} = llvm.trunc %[[CLAMPED]] : i32 to i8
// CHECK-NEXT:   %{{.*}} = llvm.sext %c : vector<3xi8> to vector<3xi16>
// CHECK-NEXT:   func.return
// CHECK-NEXT: }
// CHECK-NEXT: }
