; ModuleID = 'float4.cl'
source_filename = "float4.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64"

; Function Attrs: convergent mustprogress nofree norecurse nounwind willreturn memory(argmem: readwrite)
define dso_local spir_kernel void @scale4(ptr addrspace(1) noundef align 16 captures(none) %0, ptr addrspace(1) noundef readonly align 4 captures(none) %1, ptr addrspace(2) noundef readonly align 4 captures(none) %2) local_unnamed_addr #0 !kernel_arg_addr_space !8 !kernel_arg_access_qual !9 !kernel_arg_type !10 !kernel_arg_base_type !11 !kernel_arg_type_qual !12 !work_group_size_hint !13 {
  %4 = tail call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  %5 = getelementptr inbounds nuw <4 x float>, ptr addrspace(1) %0, i64 %4
  %6 = load <4 x float>, ptr addrspace(1) %5, align 16, !tbaa !14
  %7 = getelementptr inbounds nuw float, ptr addrspace(1) %1, i64 %4
  %8 = load float, ptr addrspace(1) %7, align 4, !tbaa !15
  %9 = insertelement <4 x float> poison, float %8, i64 0
  %10 = shufflevector <4 x float> %9, <4 x float> poison, <4 x i32> zeroinitializer
  %11 = load float, ptr addrspace(2) %2, align 4, !tbaa !15
  %12 = insertelement <4 x float> poison, float %11, i64 0
  %13 = shufflevector <4 x float> %12, <4 x float> poison, <4 x i32> zeroinitializer
  %14 = tail call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %6, <4 x float> %10, <4 x float> %13)
  %15 = shufflevector <4 x float> %14, <4 x float> poison, <4 x i32> <i32 1, i32 0, i32 2, i32 3>
  %16 = shufflevector <4 x float> <float poison, float 0.000000e+00, float 1.000000e+00, float 2.000000e+00>, <4 x float> %14, <4 x i32> <i32 7, i32 1, i32 2, i32 3>
  %17 = fadd <4 x float> %16, %15
  store <4 x float> %17, ptr addrspace(1) %5, align 16, !tbaa !14
  ret void
}

; Function Attrs: alwaysinline convergent mustprogress nofree norecurse nounwind willreturn memory(argmem: readwrite)
define dso_local spir_func void @__clang_ocl_kern_imp_scale4(ptr addrspace(1) noundef align 16 captures(none) %0, ptr addrspace(1) noundef readonly align 4 captures(none) %1, ptr addrspace(2) noundef readonly align 4 captures(none) %2) local_unnamed_addr #1 !kernel_arg_addr_space !8 !kernel_arg_access_qual !9 !kernel_arg_type !10 !kernel_arg_base_type !11 !kernel_arg_type_qual !12 !work_group_size_hint !13 {
  %4 = tail call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #4
  %5 = getelementptr inbounds nuw <4 x float>, ptr addrspace(1) %0, i64 %4
  %6 = load <4 x float>, ptr addrspace(1) %5, align 16, !tbaa !14
  %7 = getelementptr inbounds nuw float, ptr addrspace(1) %1, i64 %4
  %8 = load float, ptr addrspace(1) %7, align 4, !tbaa !15
  %9 = insertelement <4 x float> poison, float %8, i64 0
  %10 = shufflevector <4 x float> %9, <4 x float> poison, <4 x i32> zeroinitializer
  %11 = load float, ptr addrspace(2) %2, align 4, !tbaa !15
  %12 = insertelement <4 x float> poison, float %11, i64 0
  %13 = shufflevector <4 x float> %12, <4 x float> poison, <4 x i32> zeroinitializer
  %14 = tail call <4 x float> @llvm.fmuladd.v4f32(<4 x float> %6, <4 x float> %10, <4 x float> %13)
  %15 = shufflevector <4 x float> %14, <4 x float> poison, <4 x i32> <i32 1, i32 0, i32 2, i32 3>
  %16 = shufflevector <4 x float> <float poison, float 0.000000e+00, float 1.000000e+00, float 2.000000e+00>, <4 x float> %14, <4 x i32> <i32 7, i32 1, i32 2, i32 3>
  %17 = fadd <4 x float> %16, %15
  store <4 x float> %17, ptr addrspace(1) %5, align 16, !tbaa !14
  ret void
}

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) local_unnamed_addr #2

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare <4 x float> @llvm.fmuladd.v4f32(<4 x float>, <4 x float>, <4 x float>) #3

attributes #0 = { convergent mustprogress nofree norecurse nounwind willreturn memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { alwaysinline convergent mustprogress nofree norecurse nounwind willreturn memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #2 = { convergent mustprogress nofree nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #4 = { convergent nounwind willreturn memory(none) }

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
!8 = !{i32 1, i32 1, i32 2}
!9 = !{!"none", !"none", !"none"}
!10 = !{!"float4*", !"float*", !"float*"}
!11 = !{!"float __attribute__((ext_vector_type(4)))*", !"float*", !"float*"}
!12 = !{!"", !"const", !"const"}
!13 = !{i32 16, i32 1, i32 1}
!14 = !{!6, !6, i64 0}
!15 = !{!16, !16, i64 0}
!16 = !{!"float", !6, i64 0}
