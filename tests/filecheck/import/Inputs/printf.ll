; ModuleID = printf.cl
source_filename = "printf.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64"

@.str = private unnamed_addr addrspace(2) constant [15 x i8] c"%d: %v2hlf %s\0A\00", align 1
@.str.1 = private unnamed_addr addrspace(2) constant [5 x i8] c"done\00", align 1

; Function Attrs: convergent nofree norecurse nounwind
define dso_local spir_kernel void @print(ptr addrspace(1) noundef readonly align 8 captures(none) %0, i32 noundef %1) local_unnamed_addr #0 !kernel_arg_addr_space !8 !kernel_arg_access_qual !9 !kernel_arg_type !10 !kernel_arg_base_type !11 !kernel_arg_type_qual !12 {
  %3 = load <2 x float>, ptr addrspace(1) %0, align 8, !tbaa !13
  %4 = tail call spir_func i32 (ptr addrspace(2), ...) @printf(ptr addrspace(2) noundef @.str, i32 noundef %1, <2 x float> noundef %3, ptr addrspace(2) noundef @.str.1) #3
  ret void
}

; Function Attrs: alwaysinline convergent nofree norecurse nounwind
define dso_local spir_func void @__clang_ocl_kern_imp_print(ptr addrspace(1) noundef readonly align 8 captures(none) %0, i32 noundef %1) local_unnamed_addr #1 !kernel_arg_addr_space !8 !kernel_arg_access_qual !9 !kernel_arg_type !10 !kernel_arg_base_type !11 !kernel_arg_type_qual !12 {
  %3 = load <2 x float>, ptr addrspace(1) %0, align 8, !tbaa !13
  %4 = tail call spir_func i32 (ptr addrspace(2), ...) @printf(ptr addrspace(2) noundef @.str, i32 noundef %1, <2 x float> noundef %3, ptr addrspace(2) noundef @.str.1) #3
  ret void
}

; Function Attrs: convergent nofree nounwind
declare dso_local spir_func noundef i32 @printf(ptr addrspace(2) noundef readonly captures(none), ...) local_unnamed_addr #2

attributes #0 = { convergent nofree norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { alwaysinline convergent nofree norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #2 = { convergent nofree nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { convergent nounwind }

!llvm.module.flags = !{!0, !1}
!opencl.ocl.version = !{!2}
!opencl.spir.version = !{!2}
!llvm.ident = !{!3}
!llvm.errno.tbaa = !{!4}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 1, i32 2}
!3 = !{!"clang version 22.1.8"}
!4 = !{!5, !5, i64 0}
!5 = !{!"int", !6, i64 0}
!6 = !{!"omnipotent char", !7, i64 0}
!7 = !{!"Simple C/C++ TBAA"}
!8 = !{i32 1, i32 0}
!9 = !{!"none", !"none"}
!10 = !{!"float2*", !"int"}
!11 = !{!"float __attribute__((ext_vector_type(2)))*", !"int"}
!12 = !{!"", !""}
!13 = !{!6, !6, i64 0}
