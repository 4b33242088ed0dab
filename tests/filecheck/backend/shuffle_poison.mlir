// RUN: mux-opt -t llvm %s | filecheck %s
// A shuffle mask lane of -1 is poison (MLIR's spelling): clang widens a 3-element
// vector to 4 with one, which llvmlite's own shufflevector refuses.
// CHECK-LABEL: define <4 x float> @"widen3"
// CHECK: shufflevector <3 x float> %{{.*}}, <3 x float> %{{.*}}, <4 x i32> <i32 0, i32 1, i32 2, i32 poison>
llvm.func @widen3(%v: vector<3xf32>) -> vector<4xf32> {
  %s = llvm.shufflevector %v, %v [0, 1, 2, -1] : vector<3xf32>
  llvm.return %s : vector<4xf32>
}
