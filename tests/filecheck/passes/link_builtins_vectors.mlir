// RUN: mux-opt %s -p link-builtins | filecheck %s
//
// link-builtins: the vector data functions. vload4 of floats loads a vector<4xf32>
// at element offset * 4, aligned as a float; vstore3 stores a vector<3xi32> at
// element offset * 3; vload_half loads a half and extends it; vstore_half_rtz rounds
// the float to a half towards zero and stores it; shuffle picks, for each lane of
// the mask, the lane of x its low bits name.
func.func @vectors(%o: i64, %p: !llvm.ptr<1>, %h: !llvm.ptr<3>, %v: vector<3xi32>, %f: vector<4xf32>, %m: vector<8xi32>, %x: vector<4xi32>) {
  %0 = func.call @_Z6vload4mPU3AS1Kf(%o, %p) : (i64, !llvm.ptr<1>) -> vector<4xf32>
  func.call @_Z7vstore3Dv3_imPU3AS1i(%v, %o, %p) : (vector<3xi32>, i64, !llvm.ptr<1>) -> ()
  %1 = func.call @_Z10vload_halfmPU3AS3KDh(%o, %h) : (i64, !llvm.ptr<3>) -> f32
  func.call @_Z15vstore_half_rtzfmPU3AS3Dh(%1, %o, %h) : (f32, i64, !llvm.ptr<3>) -> ()
  %2 = func.call @_Z7shuffleDv4_iDv8_j(%x, %m) : (vector<4xi32>, vector<8xi32>) -> vector<8xi32>
  func.return
}
func.func private @_Z6vload4mPU3AS1Kf(i64, !llvm.ptr<1>) -> vector<4xf32>
func.func private @_Z7vstore3Dv3_imPU3AS1i(vector<3xi32>, i64, !llvm.ptr<1>) -> ()
func.func private @_Z10vload_halfmPU3AS3KDh(i64, !llvm.ptr<3>) -> f32
func.func private @_Z15vstore_half_rtzfmPU3AS3Dh(f32, i64, !llvm.ptr<3>) -> ()
func.func private @_Z7shuffleDv4_iDv8_j(vector<4xi32>, vector<8xi32>) -> vector<8xi32>

// CHECK:      func.func @vectors(%o: i64, %p: !llvm.ptr<1>, %h: !llvm.ptr<3>, %v: vector<3xi32>, %f: vector<4xf32>, %m: vector<8xi32>, %x: vector<4xi32>) {
// CHECK-NEXT:   %[[C4:.*]] = arith.constant 4 : i64
// CHECK-NEXT:   %[[O4:.*]] = arith.muli %o, %[[C4]] : i64
// CHECK-NEXT:   %[[P4:.*]] = llvm.getelementptr %p[%[[O4]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:   %{{.*}} = llvm.load %[[P4]] {alignment = 4 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK-NEXT:   %[[C3:.*]] = arith.constant 3 : i64
// CHECK-NEXT:   %[[O3:.*]] = arith.muli %o, %[[C3]] : i64
// CHECK-NEXT:   %[[P3:.*]] = llvm.getelementptr %p[%[[O3]]] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
// CHECK-NEXT:   llvm.store %v, %[[P3]] {alignment = 4 : i64} : vector<3xi32>, !llvm.ptr<1>
// CHECK-NEXT:   %[[PH:.*]] = llvm.getelementptr %h[%o] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f16
// CHECK-NEXT:   %[[HALF:.*]] = llvm.load %[[PH]] {alignment = 2 : i64} : !llvm.ptr<3> -> f16
// CHECK-NEXT:   %[[FLOAT:.*]] = llvm.fpext %[[HALF]] : f16 to f32
// CHECK-NEXT:   %[[NEAREST:.*]] = llvm.fptrunc %[[FLOAT]] : f32 to f16
// CHECK:        %[[RTZ:.*]] = llvm.select %{{.*}}, %{{.*}}, %[[NEAREST]] : i1, f16
// CHECK-NEXT:   %[[PS:.*]] = llvm.getelementptr %h[%o] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f16
// CHECK-NEXT:   llvm.store %[[RTZ]], %[[PS]] {alignment = 2 : i64} : f16, !llvm.ptr<3>
// CHECK-NEXT:   %[[LOW:.*]] = arith.constant dense<3> : vector<8xi32>
// CHECK-NEXT:   %[[INDICES:.*]] = arith.andi %m, %[[LOW]] : vector<8xi32>
// CHECK-NEXT:   %[[L0:.*]] = arith.constant 0 : i64
// CHECK-NEXT:   %[[I0:.*]] = llvmx.extractelement %[[INDICES]][%[[L0]] : i64] : vector<8xi32>
// CHECK-NEXT:   %[[W0:.*]] = llvm.zext %[[I0]] : i32 to i64
// CHECK-NEXT:   %{{.*}} = llvmx.extractelement %x[%[[W0]] : i64] : vector<4xi32>
// CHECK-COUNT-7: llvmx.extractelement %x
// CHECK:        llvm.mlir.undef : vector<8xi32>
// CHECK-COUNT-8: llvm.insertelement
// CHECK-NEXT:   func.return
