// RUN: mux-opt %s --split-input-file --verify-diagnostics -p convert-to-llvm | filecheck %s
//
// The math ops convert-to-llvm rejects.

// The C library has no f16 functions.
func.func @half_tan(%a: f16) -> f16 {
  %c = math.tan %a : f16
  func.return %c : f16
}
// CHECK: convert-to-llvm: math.tan on f16: the C library has tan for f32 and f64 only

// -----

// A function of the module with a C library function's name and another type.
func.func private @tanf(f64) -> f64
func.func @clash(%a: f32) -> f32 {
  %c = math.tan %a : f32
  func.return %c : f32
}
// CHECK: convert-to-llvm: @tanf is the C library function of type !llvm.func<f32 (f32)>, but the module defines it as !llvm.func<f64 (f64)>
// CHECK: %c = "math.tan"(%a)
// CHECK-NEXT: ^^^^^^^^^^^^^^^---

// -----

func.func @ipowi(%a: i32) -> i32 {
  %c = math.ipowi %a, %a : i32
  func.return %c : i32
}
// CHECK: convert-to-llvm: math.ipowi has no conversion to the llvm dialect

// -----

func.func @fpowi(%a: f32, %b: i32) -> f32 {
  %c = math.fpowi %a, %b : f32, i32
  func.return %c : f32
}
// CHECK: convert-to-llvm: math.fpowi has no conversion to the llvm dialect
