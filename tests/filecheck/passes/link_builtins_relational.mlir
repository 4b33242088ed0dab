// RUN: mux-opt %s -p link-builtins | filecheck %s
//
// link-builtins: the relational functions. A comparison or classification of
// scalars is an int 1 or 0 (zext of the i1), of vectors -1 or 0 per lane in
// integers of the floats' width (sext; short2 for half2): isnotequal is the
// unordered "une", isnan "uno" of x and x; signbit tests the sign of the bits;
// any(int4) or-reduces the lanes and tests the top bit; select of vectors picks by
// the top bit of each lane of the condition (llvmx.select), of scalars by a non-zero
// condition; bitselect works on the bits of floats.
func.func @relational(%x: f32, %y: f32, %v: vector<4xf32>, %w: vector<4xf32>, %h: vector<2xf16>, %i: vector<4xi32>, %u: i32) {
  %0 = func.call @_Z7isequalff(%x, %y) : (f32, f32) -> i32
  %1 = func.call @_Z10isnotequalDv4_fS_(%v, %w) : (vector<4xf32>, vector<4xf32>) -> vector<4xi32>
  %2 = func.call @_Z5isnanDv2_Dh(%h) : (vector<2xf16>) -> vector<2xi16>
  %3 = func.call @_Z7signbitf(%x) : (f32) -> i32
  %4 = func.call @_Z3anyDv4_i(%i) : (vector<4xi32>) -> i32
  %5 = func.call @_Z6selectDv4_fS_Dv4_i(%v, %w, %i) : (vector<4xf32>, vector<4xf32>, vector<4xi32>) -> vector<4xf32>
  %6 = func.call @_Z6selectffj(%x, %y, %u) : (f32, f32, i32) -> f32
  %7 = func.call @_Z9bitselectfff(%x, %y, %x) : (f32, f32, f32) -> f32
  func.return
}
func.func private @_Z7isequalff(f32, f32) -> i32
func.func private @_Z10isnotequalDv4_fS_(vector<4xf32>, vector<4xf32>) -> vector<4xi32>
func.func private @_Z5isnanDv2_Dh(vector<2xf16>) -> vector<2xi16>
func.func private @_Z7signbitf(f32) -> i32
func.func private @_Z3anyDv4_i(vector<4xi32>) -> i32
func.func private @_Z6selectDv4_fS_Dv4_i(vector<4xf32>, vector<4xf32>, vector<4xi32>) -> vector<4xf32>
func.func private @_Z6selectffj(f32, f32, i32) -> f32
func.func private @_Z9bitselectfff(f32, f32, f32) -> f32

// CHECK:      func.func @relational(%x: f32, %y: f32, %v: vector<4xf32>, %w: vector<4xf32>, %h: vector<2xf16>, %i: vector<4xi32>, %u: i32) {
// CHECK-NEXT:   %[[EQ:.*]] = llvm.fcmp "oeq" %x, %y : f32
// CHECK-NEXT:   %{{.*}} = llvm.zext %[[EQ]] : i1 to i32
// CHECK-NEXT:   %[[NE:.*]] = llvmx.fcmp "une" %v, %w : vector<4xf32> to vector<4xi1>
// CHECK-NEXT:   %{{.*}} = llvm.sext %[[NE]] : vector<4xi1> to vector<4xi32>
// CHECK-NEXT:   %[[NAN:.*]] = llvmx.fcmp "uno" %h, %h : vector<2xf16> to vector<2xi1>
// CHECK-NEXT:   %{{.*}} = llvm.sext %[[NAN]] : vector<2xi1> to vector<2xi16>
// CHECK-NEXT:   %[[BITS:.*]] = llvm.bitcast %x : f32 to i32
// CHECK-NEXT:   %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[SIGN:.*]] = llvm.icmp "slt" %[[BITS]], %[[ZERO]] : i32
// CHECK-NEXT:   %{{.*}} = llvm.zext %[[SIGN]] : i1 to i32
// CHECK-NEXT:   %[[OR:.*]] = llvm.call_intrinsic "llvm.vector.reduce.or.v4i32"(%i) : (vector<4xi32>) -> i32
// CHECK-NEXT:   %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[TOP:.*]] = llvm.icmp "slt" %[[OR]], %[[Z]] : i32
// CHECK-NEXT:   %{{.*}} = llvm.zext %[[TOP]] : i1 to i32
// CHECK-NEXT:   %[[ZEROS:.*]] = arith.constant dense<0> : vector<4xi32>
// CHECK-NEXT:   %[[LANES:.*]] = llvm.icmp "slt" %i, %[[ZEROS]] : vector<4xi32>
// CHECK-NEXT:   %{{.*}} = llvmx.select %[[LANES]], %w, %v : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:   %[[Z2:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[SET:.*]] = llvm.icmp "ne" %u, %[[Z2]] : i32
// CHECK-NEXT:   %{{.*}} = llvm.select %[[SET]], %y, %x : i1, f32
// CHECK-NEXT:   %[[A:.*]] = llvm.bitcast %x : f32 to i32
// CHECK-NEXT:   %[[B:.*]] = llvm.bitcast %y : f32 to i32
// CHECK-NEXT:   %[[C:.*]] = llvm.bitcast %x : f32 to i32
// CHECK-NEXT:   %[[ONES:.*]] = arith.constant -1 : i32
// CHECK-NEXT:   %[[NOT:.*]] = arith.xori %[[C]], %[[ONES]] : i32
// CHECK-NEXT:   %[[KEEP:.*]] = arith.andi %[[A]], %[[NOT]] : i32
// CHECK-NEXT:   %[[TAKE:.*]] = arith.andi %[[B]], %[[C]] : i32
// CHECK-NEXT:   %[[MIX:.*]] = arith.ori %[[KEEP]], %[[TAKE]] : i32
// CHECK-NEXT:   %{{.*}} = llvm.bitcast %[[MIX]] : i32 to f32
// CHECK-NEXT:   func.return
// CHECK-NEXT: }
// CHECK-NEXT: }
