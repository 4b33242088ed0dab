// RUN: mux-opt %s --split-input-file --verify-diagnostics -p replace-atomic-funcs | filecheck %s
//
// A declaration with the name of an OpenCL atomic function but not its signature:
// a diagnostic naming the function, its OpenCL signature and the expected types.

// Too few arguments.
func.func private @_Z10atomic_addPU3AS1Vii(!llvm.ptr<1>) -> i32
// CHECK: replace-atomic-funcs: @_Z10atomic_addPU3AS1Vii is int atomic_add(volatile __global int *, int): its declaration must be (!llvm.ptr<1> or memref<...xi32, 1>, i32) -> i32, got (!llvm.ptr<1>) -> i32

// -----

// A value of the wrong width (long is i64).
func.func private @_Z8atom_addPU3AS1Vll(!llvm.ptr<1>, i32) -> i64
// CHECK: replace-atomic-funcs: @_Z8atom_addPU3AS1Vll is long atom_add(volatile __global long *, long): its declaration must be (!llvm.ptr<1> or memref<...xi64, 1>, i64) -> i64, got (!llvm.ptr<1>, i32) -> i64

// -----

// A wrong result type.
func.func private @_Z14atomic_cmpxchgPU3AS3Vjjj(!llvm.ptr<3>, i32, i32) -> i1
// CHECK: replace-atomic-funcs: @_Z14atomic_cmpxchgPU3AS3Vjjj is uint atomic_cmpxchg(volatile __local uint *, uint, uint): its declaration must be (!llvm.ptr<3> or memref<...xi32, 3>, i32, i32) -> i32, got (!llvm.ptr<3>, i32, i32) -> i1

// -----

// No result.
func.func private @_Z10atomic_incPU3AS1Vi(!llvm.ptr<1>)
// CHECK: replace-atomic-funcs: @_Z10atomic_incPU3AS1Vi is int atomic_inc(volatile __global int *): its declaration must be (!llvm.ptr<1> or memref<...xi32, 1>) -> i32, got (!llvm.ptr<1>)

// -----

// The pointer is in another address space than the name says.
func.func private @_Z10atomic_subPU3AS3Vii(!llvm.ptr<1>, i32) -> i32
// CHECK: replace-atomic-funcs: @_Z10atomic_subPU3AS3Vii is int atomic_sub(volatile __local int *, int): its declaration must be (!llvm.ptr<3> or memref<...xi32, 3>, i32) -> i32, got (!llvm.ptr<1>, i32) -> i32

// -----

// A memref of another element type.
func.func private @_Z11atomic_xchgPU3AS1Vff(memref<?xi32, 1>, f32) -> f32
// CHECK: replace-atomic-funcs: @_Z11atomic_xchgPU3AS1Vff is float atomic_xchg(volatile __global float *, float): its declaration must be (!llvm.ptr<1> or memref<...xf32, 1>, f32) -> f32, got (memref<?xi32, 1 : i64>, f32) -> f32

// -----

// A value that is not a pointer.
func.func private @_Z9atomic_orPU3AS1Vjj(i64, i32) -> i32
// CHECK: replace-atomic-funcs: @_Z9atomic_orPU3AS1Vjj is uint atomic_or(volatile __global uint *, uint): its declaration must be (!llvm.ptr<1> or memref<...xi32, 1>, i32) -> i32, got (i64, i32) -> i32

// -----

// A memref result.
func.func private @_Z10atomic_minPU3AS3Vii(memref<?xi32, 3>, i32) -> memref<?xi32, 3>
// CHECK: replace-atomic-funcs: @_Z10atomic_minPU3AS3Vii is int atomic_min(volatile __local int *, int): its declaration must be (!llvm.ptr<3> or memref<...xi32, 3>, i32) -> i32, got (memref<?xi32, 3 : i64>, i32) -> memref<?xi32, 3 : i64>

// -----

// The OpenCL 1.x functions take __global or __local pointers only.
func.func private @_Z10atomic_addPU3AS2Vii(!llvm.ptr<2>, i32) -> i32
// CHECK: replace-atomic-funcs: @_Z10atomic_addPU3AS2Vii: atomic_add takes a __global (AS1) or __local (AS3) pointer, the name has AS2
