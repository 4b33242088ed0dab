; Structs passed by value (spir64: a pointer with byval(<type>)), written by hand.
; read_struct only reads its struct (readonly); write_struct writes into its own,
; which byval makes the kernel's copy: out[i] = p.scale + i in every work-item.
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64"

%struct.params = type { i32, float, i8, i64 }

declare spir_func i64 @_Z13get_global_idj(i32)

define spir_kernel void @read_struct(ptr addrspace(1) %out, ptr readonly byval(%struct.params) align 8 %p) !kernel_arg_addr_space !1 !kernel_arg_base_type !2 !kernel_arg_name !3 {
  %i = call spir_func i64 @_Z13get_global_idj(i32 0)
  %offset.ptr = getelementptr inbounds i8, ptr %p, i64 16
  %offset = load i64, ptr %offset.ptr, align 8
  %value = add i64 %offset, %i
  %slot = getelementptr inbounds i64, ptr addrspace(1) %out, i64 %i
  store i64 %value, ptr addrspace(1) %slot, align 8
  ret void
}

define spir_kernel void @write_struct(ptr addrspace(1) %out, ptr byval(%struct.params) align 16 %p) !kernel_arg_addr_space !1 !kernel_arg_base_type !4 !kernel_arg_name !3 {
  %i = call spir_func i64 @_Z13get_global_idj(i32 0)
  %i32 = trunc i64 %i to i32
  %scale = load i32, ptr %p, align 16
  %bumped = add i32 %scale, %i32
  store i32 %bumped, ptr %p, align 16
  %again = load i32, ptr %p, align 16
  %slot = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %i
  store i32 %again, ptr addrspace(1) %slot, align 4
  ret void
}

!1 = !{i32 1, i32 0}
!2 = !{!"long*", !"params_t"}
!3 = !{!"out", !"p"}
!4 = !{!"int*", !"params_t"}
