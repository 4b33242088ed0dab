// RUN: mux-opt %s -p link-builtins | filecheck %s
//
// link-builtins: the common and geometric functions. clamp(float4, float, float) is
// fmin(fmax(x, lo), hi) with its bound spread once; step(float, float4) selects 0
// below the edge and 1 elsewhere; mix of halves is x + (y - x) * a in float, rounded
// back; dot sums the lanes' products in lane order; length of a float3 is the root
// of the squares summed in double (where they cannot overflow), rounded once; cross
// takes the lanes and builds the vector of the three differences.
func.func @common(%x: f32, %v: vector<4xf32>, %w: vector<3xf32>, %h: f16) {
  %0 = func.call @_Z5clampDv4_fff(%v, %x, %x) : (vector<4xf32>, f32, f32) -> vector<4xf32>
  %1 = func.call @_Z4stepfDv4_f(%x, %v) : (f32, vector<4xf32>) -> vector<4xf32>
  %2 = func.call @_Z3mixDhDhDh(%h, %h, %h) : (f16, f16, f16) -> f16
  %3 = func.call @_Z3dotDv4_fS_(%v, %v) : (vector<4xf32>, vector<4xf32>) -> f32
  %4 = func.call @_Z6lengthDv3_f(%w) : (vector<3xf32>) -> f32
  %5 = func.call @_Z5crossDv3_fS_(%w, %w) : (vector<3xf32>, vector<3xf32>) -> vector<3xf32>
  func.return
}
func.func private @_Z5clampDv4_fff(vector<4xf32>, f32, f32) -> vector<4xf32>
func.func private @_Z4stepfDv4_f(f32, vector<4xf32>) -> vector<4xf32>
func.func private @_Z3mixDhDhDh(f16, f16, f16) -> f16
func.func private @_Z3dotDv4_fS_(vector<4xf32>, vector<4xf32>) -> f32
func.func private @_Z6lengthDv3_f(vector<3xf32>) -> f32
func.func private @_Z5crossDv3_fS_(vector<3xf32>, vector<3xf32>) -> vector<3xf32>

// CHECK:      func.func @common(%x: f32, %v: vector<4xf32>, %w: vector<3xf32>, %h: f16) {
// CHECK-NEXT:   %[[U:.*]] = llvm.mlir.undef : vector<4xf32>
// CHECK-NEXT:   %[[C0:.*]] = arith.constant 0 : i64
// CHECK-NEXT:   %[[I:.*]] = llvm.insertelement %x, %[[U]][%[[C0]] : i64] : vector<4xf32>
// CHECK-NEXT:   %[[X4:.*]] = llvm.shufflevector %[[I]], %[[I]] [0, 0, 0, 0] : vector<4xf32>
// CHECK-NEXT:   %[[MAX:.*]] = arith.maxnumf %v, %[[X4]] : vector<4xf32>
// CHECK-NEXT:   %{{.*}} = arith.minnumf %[[MAX]], %[[X4]] : vector<4xf32>
// CHECK:        %[[EDGE:.*]] = llvm.shufflevector %{{.*}} [0, 0, 0, 0] : vector<4xf32>
// CHECK-NEXT:   %[[BELOW:.*]] = llvmx.fcmp "olt" %v, %[[EDGE]] : vector<4xf32> to vector<4xi1>
// CHECK-NEXT:   %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK-NEXT:   %[[ONE:.*]] = arith.constant dense<1.000000e+00> : vector<4xf32>
// CHECK-NEXT:   %{{.*}} = llvmx.select %[[BELOW]], %[[ZERO]], %[[ONE]] : vector<4xi1>, vector<4xf32>
// CHECK-NEXT:   %[[X:.*]] = llvm.fpext %h : f16 to f32
// CHECK-NEXT:   %[[Y:.*]] = llvm.fpext %h : f16 to f32
// CHECK-NEXT:   %[[A:.*]] = llvm.fpext %h : f16 to f32
// CHECK-NEXT:   %[[D:.*]] = arith.subf %[[Y]], %[[X]] : f32
// CHECK-NEXT:   %[[P:.*]] = arith.mulf %[[D]], %[[A]] : f32
// CHECK-NEXT:   %[[MIX:.*]] = arith.addf %[[X]], %[[P]] : f32
// CHECK-NEXT:   %{{.*}} = llvm.fptrunc %[[MIX]] : f32 to f16
// CHECK-NEXT:   %[[PRODUCTS:.*]] = arith.mulf %v, %v : vector<4xf32>
// CHECK:        %[[P0:.*]] = llvmx.extractelement %[[PRODUCTS]]
// CHECK:        %[[P1:.*]] = llvmx.extractelement %[[PRODUCTS]]
// CHECK:        %[[P2:.*]] = llvmx.extractelement %[[PRODUCTS]]
// CHECK:        %[[P3:.*]] = llvmx.extractelement %[[PRODUCTS]]
// CHECK-NEXT:   %[[S1:.*]] = arith.addf %[[P0]], %[[P1]] : f32
// CHECK-NEXT:   %[[S2:.*]] = arith.addf %[[S1]], %[[P2]] : f32
// CHECK-NEXT:   %{{.*}} = arith.addf %[[S2]], %[[P3]] : f32
// CHECK-NEXT:   %[[W:.*]] = llvm.fpext %w : vector<3xf32> to vector<3xf64>
// CHECK-NEXT:   %{{.*}} = arith.mulf %[[W]], %[[W]] : vector<3xf64>
// CHECK:        %[[HALF:.*]] = arith.addf %{{.*}}, %{{.*}} : f64
// CHECK-NEXT:   %[[SUM:.*]] = arith.addf %[[HALF]], %{{.*}} : f64
// CHECK-NEXT:   %[[ROOT:.*]] = math.sqrt %[[SUM]] : f64
// CHECK-NEXT:   %{{.*}} = llvm.fptrunc %[[ROOT]] : f64 to f32
// CHECK-COUNT-6: llvmx.extractelement %w
// CHECK:        arith.subf
// CHECK:        arith.subf
// CHECK:        %[[Z:.*]] = arith.subf
// CHECK-NEXT:   %[[UNDEF:.*]] = llvm.mlir.undef : vector<3xf32>
// CHECK-NEXT:   llvm.insertelement %{{.*}}, %[[UNDEF]]
// CHECK-NEXT:   llvm.insertelement
// CHECK-NEXT:   llvm.insertelement %[[Z]]
// CHECK-NEXT:   func.return
