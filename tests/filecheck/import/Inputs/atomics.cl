// The importer's atomic and volatile instructions, from clang's __opencl_atomic_*
// and __c11_atomic_* builtins (the OpenCL atomic functions are calls instead).
// Regenerate: python -c "from mux.frontend.clang import compile_opencl as c;
//   print(c(open('atomics.cl').read(), 'atomics.cl', '-cl-std=CL3.0').llvm_ir,
//   end='')" > atomics.ll
__kernel void atomics(__global atomic_int *counter, __global atomic_long *top,
                      __global atomic_float *total, __global atomic_int *flag,
                      volatile __global int *in, __global int *out) {
  size_t gid = get_global_id(0);
  int ticket = __opencl_atomic_fetch_add(counter, 1, __ATOMIC_RELAXED,
                                         __OPENCL_MEMORY_SCOPE_DEVICE);
  long seen = __opencl_atomic_load(top, __ATOMIC_ACQUIRE,
                                   __OPENCL_MEMORY_SCOPE_WORK_GROUP);
  while (seen < gid &&
         !__opencl_atomic_compare_exchange_weak(top, &seen, (long)gid,
                                                __ATOMIC_ACQ_REL, __ATOMIC_RELAXED,
                                                __OPENCL_MEMORY_SCOPE_DEVICE)) {
  }
  __opencl_atomic_fetch_max(total, (float)ticket, __ATOMIC_SEQ_CST,
                            __OPENCL_MEMORY_SCOPE_ALL_SVM_DEVICES);
  __c11_atomic_thread_fence(__ATOMIC_RELEASE);
  __opencl_atomic_store(flag, 1, __ATOMIC_RELEASE, __OPENCL_MEMORY_SCOPE_WORK_GROUP);
  out[gid] = in[gid] + in[gid];
  in[gid] = ticket;
}
