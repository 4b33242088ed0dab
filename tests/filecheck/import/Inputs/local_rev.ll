; ModuleID = 'local_rev.cl'
source_filename = "local_rev.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64"

@local_rev.tile = internal unnamed_addr addrspace(3) global [64 x float] undef, align 4

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @local_rev(ptr addrspace(1) noundef readonly align 4 captures(none) %0, ptr addrspace(1) noundef writeonly align 4 captures(none) %1) local_unnamed_addr #0 !kernel_arg_addr_space !8 !kernel_arg_access_qual !9 !kernel_arg_type !10 !kernel_arg_base_type !10 !kernel_arg_type_qual !11 !reqd_work_group_size !12 {
  %3 = tail call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #4
  %4 = tail call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  %5 = getelementptr inbounds nuw float, ptr addrspace(1) %0, i64 %4
  %6 = load float, ptr addrspace(1) %5, align 4, !tbaa !13
  %7 = getelementptr inbounds nuw float, ptr addrspace(3) @local_rev.tile, i64 %3
  store float %6, ptr addrspace(3) %7, align 4, !tbaa !13
  tail call spir_func void @_Z7barrierj(i32 noundef 1) #5
  %8 = sub i64 63, %3
  %9 = getelementptr inbounds nuw float, ptr addrspace(3) @local_rev.tile, i64 %8
  %10 = load float, ptr addrspace(3) %9, align 4, !tbaa !13
  %11 = getelementptr inbounds nuw float, ptr addrspace(1) %1, i64 %4
  store float %10, ptr addrspace(1) %11, align 4, !tbaa !13
  ret void
}

; Function Attrs: alwaysinline convergent norecurse nounwind
define dso_local spir_func void @__clang_ocl_kern_imp_local_rev(ptr addrspace(1) noundef readonly align 4 captures(none) %0, ptr addrspace(1) noundef writeonly align 4 captures(none) %1) local_unnamed_addr #1 !kernel_arg_addr_space !8 !kernel_arg_access_qual !9 !kernel_arg_type !10 !kernel_arg_base_type !10 !kernel_arg_type_qual !11 !reqd_work_group_size !12 {
  %3 = tail call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #4
  %4 = tail call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  %5 = getelementptr inbounds nuw float, ptr addrspace(1) %0, i64 %4
  %6 = load float, ptr addrspace(1) %5, align 4, !tbaa !13
  %7 = getelementptr inbounds nuw float, ptr addrspace(3) @local_rev.tile, i64 %3
  store float %6, ptr addrspace(3) %7, align 4, !tbaa !13
  tail call spir_func void @_Z7barrierj(i32 noundef 1) #5
  %8 = sub i64 63, %3
  %9 = getelementptr inbounds nuw float, ptr addrspace(3) @local_rev.tile, i64 %8
  %10 = load float, ptr addrspace(3) %9, align 4, !tbaa !13
  %11 = getelementptr inbounds nuw float, ptr addrspace(1) %1, i64 %4
  store float %10, ptr addrspace(1) %11, align 4, !tbaa !13
  ret void
}

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) local_unnamed_addr #2

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) local_unnamed_addr #2

; Function Attrs: convergent nounwind
declare dso_local spir_func void @_Z7barrierj(i32 noundef) local_unnamed_addr #3

attributes #0 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { alwaysinline convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #2 = { convergent mustprogress nofree nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { convergent nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #4 = { convergent nounwind willreturn memory(none) }
attributes #5 = { convergent nounwind }

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
!8 = !{i32 1, i32 1}
!9 = !{!"none", !"none"}
!10 = !{!"float*", !"float*"}
!11 = !{!"const", !""}
!12 = !{i32 64, i32 1, i32 1}
!13 = !{!14, !14, i64 0}
!14 = !{!"float", !6, i64 0}
