// mux-run takes OpenCL C (.cl) and LLVM IR (.ll) files as it takes MLIR: the
// language comes from the suffix. loop_sum(in, out, n): out[0] = sum in[i] * (i & 3).
// RUN: mux-run %S/../import/Inputs/loop_sum.cl loop_sum range:8 zeros:1 8 --global 1 --local 1 | filecheck %s
// CHECK: out = [52]
// A .ll file without kernel_arg_name metadata: the parameters are numbered.
// RUN: mux-run %S/../import/Inputs/loop_sum.ll loop_sum range:8 zeros:1 8 --global 1 --local 1 | filecheck %s --check-prefix=LL
// LL: arg1 = [52]
// Build options are checked: one clang would not take is an error naming it.
// RUN: not mux-run %S/../import/Inputs/loop_sum.cl loop_sum range:8 zeros:1 8 --global 1 --build-options=-cl-std=CL9.9 2>&1 | filecheck %s --check-prefix=OPTION
// OPTION: mux-run: {{.*}}-cl-std
// An unknown suffix names the ones it knows.
// RUN: printf 'x' > %t.spv
// RUN: not mux-run %t.spv k --global 1 2>&1 | filecheck %s --check-prefix=SUFFIX
// SUFFIX: no language has the suffix '.spv' (known: .mlir, .ll, .bc, .cl
