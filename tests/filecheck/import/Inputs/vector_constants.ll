; Vector constants as LLVM 19+ prints them: splats and zeroinitializer.
define spir_kernel void @vector_constants(ptr addrspace(1) %out) {
  %one = add <4 x i32> zeroinitializer, splat (i32 1)
  %half = fmul <2 x float> splat (float 5.000000e-01), splat (float 3.000000e+00)
  store <4 x i32> %one, ptr addrspace(1) %out, align 16
  %p = getelementptr inbounds i8, ptr addrspace(1) %out, i64 16
  store <2 x float> %half, ptr addrspace(1) %p, align 8
  ret void
}
