// RUN: mux-opt %s -p link-builtins | filecheck %s
//
// link-builtins: the integer functions in the element's own width. abs is
// math.absi; add_sat of uints LLVM's unsigned saturating add; hadd of chars
// (x >> 1) + (y >> 1) + (x & y & 1), shifts by the sign; mul_hi of long2 the
// product in i128 shifted down (the shift's constant made in i64 and extended:
// xDSL has no 128-bit attributes); rotate a funnel shift; upsample(short, ushort)
// the high half extended by its sign, the low by zeros; clamp(ulong2, ulong, ulong)
// spreads its bounds and is umax then umin.
func.func @integer(%a: i32, %b: i32, %v: vector<2xi64>, %u: vector<2xi64>, %c: i8, %s: i16, %t: i16, %a64: i64, %b64: i64) {
  %0 = func.call @_Z3absi(%a) : (i32) -> i32
  %1 = func.call @_Z7add_satjj(%a, %b) : (i32, i32) -> i32
  %2 = func.call @_Z4haddcc(%c, %c) : (i8, i8) -> i8
  %3 = func.call @_Z6mul_hiDv2_lS_(%v, %u) : (vector<2xi64>, vector<2xi64>) -> vector<2xi64>
  %4 = func.call @_Z6rotatejj(%a, %b) : (i32, i32) -> i32
  %5 = func.call @_Z8upsamplest(%s, %t) : (i16, i16) -> i32
  %6 = func.call @_Z5clampDv2_mmm(%v, %a64, %b64) : (vector<2xi64>, i64, i64) -> vector<2xi64>
  func.return
}
func.func private @_Z3absi(i32) -> i32
func.func private @_Z7add_satjj(i32, i32) -> i32
func.func private @_Z4haddcc(i8, i8) -> i8
func.func private @_Z6mul_hiDv2_lS_(vector<2xi64>, vector<2xi64>) -> vector<2xi64>
func.func private @_Z6rotatejj(i32, i32) -> i32
func.func private @_Z8upsamplest(i16, i16) -> i32
func.func private @_Z5clampDv2_mmm(vector<2xi64>, i64, i64) -> vector<2xi64>

// CHECK:      func.func @integer(%a: i32, %b: i32, %v: vector<2xi64>, %u: vector<2xi64>, %c: i8, %s: i16, %t: i16, %a64: i64, %b64: i64) {
// CHECK-NEXT:   %0 = math.absi %a : i32
// CHECK-NEXT:   %1 = llvm.call_intrinsic "llvm.uadd.sat.i32"(%a, %b) : (i32, i32) -> i32
// CHECK-NEXT:   %[[ONE:.*]] = arith.constant 1 : i8
// CHECK-NEXT:   %[[X:.*]] = arith.shrsi %c, %[[ONE]] : i8
// CHECK-NEXT:   %[[Y:.*]] = arith.shrsi %c, %[[ONE]] : i8
// CHECK-NEXT:   %[[HALVES:.*]] = arith.addi %[[X]], %[[Y]] : i8
// CHECK-NEXT:   %[[BOTH:.*]] = arith.andi %c, %c : i8
// CHECK-NEXT:   %[[CARRY:.*]] = arith.andi %[[BOTH]], %[[ONE]] : i8
// CHECK-NEXT:   %{{.*}} = arith.addi %[[HALVES]], %[[CARRY]] : i8
// CHECK-NEXT:   %[[V:.*]] = llvm.sext %v : vector<2xi64> to vector<2xi128>
// CHECK-NEXT:   %[[U:.*]] = llvm.sext %u : vector<2xi64> to vector<2xi128>
// CHECK-NEXT:   %[[PRODUCT:.*]] = arith.muli %[[V]], %[[U]] : vector<2xi128>
// CHECK-NEXT:   %[[C64:.*]] = arith.constant dense<64> : vector<2xi64>
// CHECK-NEXT:   %[[SHIFT:.*]] = llvm.sext %[[C64]] : vector<2xi64> to vector<2xi128>
// CHECK-NEXT:   %[[HIGH:.*]] = arith.shrsi %[[PRODUCT]], %[[SHIFT]] : vector<2xi128>
// CHECK-NEXT:   %{{.*}} = llvm.trunc %[[HIGH]] : vector<2xi128> to vector<2xi64>
// CHECK-NEXT:   %{{.*}} = llvm.call_intrinsic "llvm.fshl.i32"(%a, %a, %b) : (i32, i32, i32) -> i32
// CHECK-NEXT:   %[[HI:.*]] = llvm.sext %s : i16 to i32
// CHECK-NEXT:   %[[C16:.*]] = arith.constant 16 : i32
// CHECK-NEXT:   %[[UP:.*]] = arith.shli %[[HI]], %[[C16]] : i32
// CHECK-NEXT:   %[[LO:.*]] = llvm.zext %t : i16 to i32
// CHECK-NEXT:   %{{.*}} = arith.ori %[[UP]], %[[LO]] : i32
// CHECK:        %[[LOW:.*]] = llvm.shufflevector %{{.*}} [0, 0] : vector<2xi64>
// CHECK-NEXT:   %[[MAX:.*]] = arith.maxui %v, %[[LOW]] : vector<2xi64>
// CHECK:        %[[TOP:.*]] = llvm.shufflevector %{{.*}} [0, 0] : vector<2xi64>
// CHECK-NEXT:   %{{.*}} = arith.minui %[[MAX]], %[[TOP]] : vector<2xi64>
// CHECK-NEXT:   func.return
// CHECK-NEXT: }
// CHECK-NEXT: }
