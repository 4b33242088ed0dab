// RUN: mux-opt %s --split-input-file --verify-diagnostics -p link-builtins | filecheck %s
//
// link-builtins rejects the declaration of a builtin it defines when its types are
// not those of the builtin's mangled parameters and result.

// sqrt(float) takes and returns an f32.
func.func private @_Z4sqrtf(f64) -> f64
// CHECK: link-builtins: @_Z4sqrtf is sqrt(float): its declaration must have the types (f32) -> (f32), got (f64) -> (f64)

// -----

// isnan of a scalar is an int.
func.func private @_Z5isnanf(f32) -> f32
// CHECK-NEXT: {{^}}//{{ }}-----
// CHECK-NEXT: link-builtins: @_Z5isnanf is isnan(float): its declaration must have the types (f32) -> (i32), got (f32) -> (f32)

// -----

// vstore4 returns nothing.
func.func private @_Z7vstore4Dv4_fmPU3AS1f(vector<4xf32>, i64, !llvm.ptr<1>) -> i32
// CHECK-NEXT: {{^}}//{{ }}-----
// CHECK-NEXT: link-builtins: @_Z7vstore4Dv4_fmPU3AS1f is vstore4(float4, ulong, __global float *): its declaration must have the types (vector<4xf32>, i64, !llvm.ptr<1>) -> (), got (vector<4xf32>, i64, !llvm.ptr<1>) -> (i32)
