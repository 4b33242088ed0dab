// clang -x cl -cl-std=CL1.2 -target spir64 -cl-no-stdinc -Xclang
//   -fdeclare-opencl-builtins -include mux_opencl_base.h -O1 -emit-llvm -S
__kernel void print(__global float2 *v, int n) {
  printf("%d: %v2hlf %s\n", n, v[0], "done");
}
