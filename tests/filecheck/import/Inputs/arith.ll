; ModuleID = 'arith.cl'
source_filename = "arith.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64"

; Function Attrs: convergent nofree norecurse nounwind memory(argmem: readwrite)
define dso_local spir_kernel void @arith(ptr addrspace(1) noundef readonly align 4 captures(none) %0, ptr addrspace(1) noundef readonly align 4 captures(none) %1, ptr addrspace(1) noundef writeonly align 4 captures(none) %2, ptr addrspace(1) noundef writeonly align 4 captures(none) %3, ptr addrspace(1) noundef writeonly align 4 captures(none) %4, i32 noundef %5) local_unnamed_addr #0 !kernel_arg_addr_space !8 !kernel_arg_access_qual !9 !kernel_arg_type !10 !kernel_arg_base_type !10 !kernel_arg_type_qual !11 !reqd_work_group_size !12 {
  %7 = icmp sgt i32 %5, 0
  br i1 %7, label %8, label %45

8:                                                ; preds = %6, %24
  %9 = phi i32 [ %43, %24 ], [ 0, %6 ]
  %10 = zext nneg i32 %9 to i64
  %11 = getelementptr inbounds nuw float, ptr addrspace(1) %0, i64 %10
  %12 = load float, ptr addrspace(1) %11, align 4, !tbaa !13
  %13 = getelementptr inbounds nuw i32, ptr addrspace(1) %1, i64 %10
  %14 = load i32, ptr addrspace(1) %13, align 4, !tbaa !4
  %15 = tail call spir_func float @_Z4fabsf(float noundef %12) #4
  %16 = tail call spir_func float @_Z4fmaxff(float noundef %12, float noundef 5.000000e-01) #4
  %17 = tail call float @llvm.fmuladd.f32(float %15, float 2.000000e+00, float %16)
  %18 = fcmp olt float %12, 0.000000e+00
  br i1 %18, label %19, label %21

19:                                               ; preds = %8
  %20 = fdiv float %12, 3.000000e+00, !fpmath !15
  br label %24

21:                                               ; preds = %8
  %22 = ashr i32 %14, 2
  %23 = sitofp i32 %22 to float
  br label %24

24:                                               ; preds = %21, %19
  %25 = phi float [ %20, %19 ], [ %23, %21 ]
  %26 = fsub float %17, %25
  %27 = getelementptr inbounds nuw float, ptr addrspace(1) %2, i64 %10
  store float %26, ptr addrspace(1) %27, align 4, !tbaa !13
  %28 = tail call spir_func i32 @_Z3maxii(i32 noundef %14, i32 noundef -7) #4
  %29 = srem i32 %14, 5
  %30 = fptosi float %12 to i32
  %31 = tail call spir_func i32 @_Z3minii(i32 noundef %14, i32 noundef 9) #4
  %32 = mul nsw i32 %31, 3
  %33 = add i32 %29, %30
  %34 = add i32 %33, %28
  %35 = add nsw i32 %34, %32
  %36 = getelementptr inbounds nuw i32, ptr addrspace(1) %3, i64 %10
  store i32 %35, ptr addrspace(1) %36, align 4, !tbaa !4
  %37 = lshr i32 %14, 3
  %38 = shl i32 %14, 2
  %39 = xor i32 %37, %38
  %40 = tail call spir_func i32 @_Z3absi(i32 noundef %14) #4
  %41 = or i32 %40, %39
  %42 = getelementptr inbounds nuw i32, ptr addrspace(1) %4, i64 %10
  store i32 %41, ptr addrspace(1) %42, align 4, !tbaa !4
  %43 = add nuw nsw i32 %9, 1
  %44 = icmp slt i32 %43, %5
  br i1 %44, label %8, label %45, !llvm.loop !16

45:                                               ; preds = %24, %6
  ret void
}

; Function Attrs: alwaysinline convergent nofree norecurse nounwind memory(argmem: readwrite)
define dso_local spir_func void @__clang_ocl_kern_imp_arith(ptr addrspace(1) noundef readonly align 4 captures(none) %0, ptr addrspace(1) noundef readonly align 4 captures(none) %1, ptr addrspace(1) noundef writeonly align 4 captures(none) %2, ptr addrspace(1) noundef writeonly align 4 captures(none) %3, ptr addrspace(1) noundef writeonly align 4 captures(none) %4, i32 noundef %5) local_unnamed_addr #1 !kernel_arg_addr_space !8 !kernel_arg_access_qual !9 !kernel_arg_type !10 !kernel_arg_base_type !10 !kernel_arg_type_qual !11 !reqd_work_group_size !12 {
  %7 = icmp sgt i32 %5, 0
  br i1 %7, label %9, label %8

8:                                                ; preds = %25, %6
  ret void

9:                                                ; preds = %6, %25
  %10 = phi i32 [ %44, %25 ], [ 0, %6 ]
  %11 = zext nneg i32 %10 to i64
  %12 = getelementptr inbounds nuw float, ptr addrspace(1) %0, i64 %11
  %13 = load float, ptr addrspace(1) %12, align 4, !tbaa !13
  %14 = getelementptr inbounds nuw i32, ptr addrspace(1) %1, i64 %11
  %15 = load i32, ptr addrspace(1) %14, align 4, !tbaa !4
  %16 = tail call spir_func float @_Z4fabsf(float noundef %13) #4
  %17 = tail call spir_func float @_Z4fmaxff(float noundef %13, float noundef 5.000000e-01) #4
  %18 = tail call float @llvm.fmuladd.f32(float %16, float 2.000000e+00, float %17)
  %19 = fcmp olt float %13, 0.000000e+00
  br i1 %19, label %20, label %22

20:                                               ; preds = %9
  %21 = fdiv float %13, 3.000000e+00, !fpmath !15
  br label %25

22:                                               ; preds = %9
  %23 = ashr i32 %15, 2
  %24 = sitofp i32 %23 to float
  br label %25

25:                                               ; preds = %22, %20
  %26 = phi float [ %21, %20 ], [ %24, %22 ]
  %27 = fsub float %18, %26
  %28 = getelementptr inbounds nuw float, ptr addrspace(1) %2, i64 %11
  store float %27, ptr addrspace(1) %28, align 4, !tbaa !13
  %29 = tail call spir_func i32 @_Z3maxii(i32 noundef %15, i32 noundef -7) #4
  %30 = srem i32 %15, 5
  %31 = fptosi float %13 to i32
  %32 = tail call spir_func i32 @_Z3minii(i32 noundef %15, i32 noundef 9) #4
  %33 = mul nsw i32 %32, 3
  %34 = add i32 %30, %31
  %35 = add i32 %34, %29
  %36 = add nsw i32 %35, %33
  %37 = getelementptr inbounds nuw i32, ptr addrspace(1) %3, i64 %11
  store i32 %36, ptr addrspace(1) %37, align 4, !tbaa !4
  %38 = lshr i32 %15, 3
  %39 = shl i32 %15, 2
  %40 = xor i32 %38, %39
  %41 = tail call spir_func i32 @_Z3absi(i32 noundef %15) #4
  %42 = or i32 %41, %40
  %43 = getelementptr inbounds nuw i32, ptr addrspace(1) %4, i64 %11
  store i32 %42, ptr addrspace(1) %43, align 4, !tbaa !4
  %44 = add nuw nsw i32 %10, 1
  %45 = icmp slt i32 %44, %5
  br i1 %45, label %9, label %8, !llvm.loop !16
}

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare dso_local spir_func float @_Z4fabsf(float noundef) local_unnamed_addr #2

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare dso_local spir_func float @_Z4fmaxff(float noundef, float noundef) local_unnamed_addr #2

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fmuladd.f32(float, float, float) #3

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare dso_local spir_func i32 @_Z3maxii(i32 noundef, i32 noundef) local_unnamed_addr #2

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare dso_local spir_func i32 @_Z3minii(i32 noundef, i32 noundef) local_unnamed_addr #2

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare dso_local spir_func i32 @_Z3absi(i32 noundef) local_unnamed_addr #2

attributes #0 = { convergent nofree norecurse nounwind memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { alwaysinline convergent nofree norecurse nounwind memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
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
!8 = !{i32 1, i32 1, i32 1, i32 1, i32 1, i32 0}
!9 = !{!"none", !"none", !"none", !"none", !"none", !"none"}
!10 = !{!"float*", !"int*", !"float*", !"int*", !"uint*", !"int"}
!11 = !{!"const", !"const", !"", !"", !"", !""}
!12 = !{i32 1, i32 1, i32 1}
!13 = !{!14, !14, i64 0}
!14 = !{!"float", !6, i64 0}
!15 = !{float 2.500000e+00}
!16 = distinct !{!16, !17}
!17 = !{!"llvm.loop.unroll.disable"}
