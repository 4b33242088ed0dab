// mux-opt reads OpenCL C (.cl, through clang) and LLVM IR (.ll, .bc) as it reads MLIR, by
// the file's suffix, and runs passes on what the importer makes.
// RUN: mux-opt %S/../../../examples/vadd.cl -p lower-to-mux-builtins | filecheck %s
// CHECK: func.func @vadd(%a: memref<?xf32, 1 : i64>, %b: memref<?xf32, 1 : i64>, %c: memref<?xf32, 1 : i64>)
// CHECK-SAME: mux.kernel = "entry-point"
// CHECK: mux.get_global_id
// CHECK: llvm.getelementptr inbounds
// CHECK-NOT: _Z13get_global_idj
// RUN: mux-opt %S/Inputs/loop_sum.ll | filecheck %s --check-prefix=LL
// LL: func.func @loop_sum(%0: memref<?xi32, 1 : i64>, %1: memref<?xi32, 1 : i64>, %2: i32)
// LLVM bitcode (.bc) is read as the text it encodes.
// RUN: python -c "import sys; from llvmlite import binding; sys.stdout.buffer.write(binding.parse_assembly(open(sys.argv[1]).read()).as_bitcode())" %S/Inputs/loop_sum.ll > %t.bc
// RUN: mux-opt %t.bc | filecheck %s --check-prefix=LL
// clang's errors are the tool's, at the user's file and line, exit status 1.
// RUN: printf 'kernel void k( {' > %t.cl
// RUN: not mux-opt %t.cl 2>&1 | filecheck %s --check-prefix=BAD
// BAD: {{.*}}.cl:1:16: error: expected parameter declarator
