; ModuleID = 'switch.cl'
source_filename = "switch.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64"

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: readwrite)
define dso_local spir_kernel void @classify(ptr addrspace(1) noundef readonly align 4 captures(none) %0, ptr addrspace(1) noundef writeonly align 4 captures(none) %1, i32 noundef %2) local_unnamed_addr #0 !kernel_arg_addr_space !8 !kernel_arg_access_qual !9 !kernel_arg_type !10 !kernel_arg_base_type !10 !kernel_arg_type_qual !11 {
  %4 = icmp sgt i32 %2, 0
  br i1 %4, label %5, label %23

5:                                                ; preds = %3, %18
  %6 = phi i32 [ %21, %18 ], [ 0, %3 ]
  %7 = zext nneg i32 %6 to i64
  %8 = getelementptr inbounds nuw i32, ptr addrspace(1) %0, i64 %7
  %9 = load i32, ptr addrspace(1) %8, align 4, !tbaa !4
  %10 = and i32 %9, 7
  switch i32 %10, label %17 [
    i32 0, label %18
    i32 1, label %11
    i32 3, label %12
    i32 5, label %14
  ]

11:                                               ; preds = %5
  br label %18

12:                                               ; preds = %5
  %13 = sitofp i32 %9 to float
  br label %18

14:                                               ; preds = %5
  %15 = uitofp nneg i32 %6 to float
  %16 = fmul float %15, 0x3FB99999A0000000
  br label %18

17:                                               ; preds = %5
  br label %18

18:                                               ; preds = %17, %14, %12, %11, %5
  %19 = phi float [ 0.000000e+00, %17 ], [ %16, %14 ], [ -2.000000e+00, %11 ], [ %13, %12 ], [ 1.500000e+00, %5 ]
  %20 = getelementptr inbounds nuw float, ptr addrspace(1) %1, i64 %7
  store float %19, ptr addrspace(1) %20, align 4, !tbaa !12
  %21 = add nuw nsw i32 %6, 1
  %22 = icmp slt i32 %21, %2
  br i1 %22, label %5, label %23, !llvm.loop !14

23:                                               ; preds = %18, %3
  ret void
}

; Function Attrs: alwaysinline nofree norecurse nosync nounwind memory(argmem: readwrite)
define dso_local spir_func void @__clang_ocl_kern_imp_classify(ptr addrspace(1) noundef readonly align 4 captures(none) %0, ptr addrspace(1) noundef writeonly align 4 captures(none) %1, i32 noundef %2) local_unnamed_addr #1 !kernel_arg_addr_space !8 !kernel_arg_access_qual !9 !kernel_arg_type !10 !kernel_arg_base_type !10 !kernel_arg_type_qual !11 {
  %4 = icmp sgt i32 %2, 0
  br i1 %4, label %6, label %5

5:                                                ; preds = %19, %3
  ret void

6:                                                ; preds = %3, %19
  %7 = phi i32 [ %22, %19 ], [ 0, %3 ]
  %8 = zext nneg i32 %7 to i64
  %9 = getelementptr inbounds nuw i32, ptr addrspace(1) %0, i64 %8
  %10 = load i32, ptr addrspace(1) %9, align 4, !tbaa !4
  %11 = and i32 %10, 7
  switch i32 %11, label %18 [
    i32 0, label %19
    i32 1, label %12
    i32 3, label %13
    i32 5, label %15
  ]

12:                                               ; preds = %6
  br label %19

13:                                               ; preds = %6
  %14 = sitofp i32 %10 to float
  br label %19

15:                                               ; preds = %6
  %16 = uitofp nneg i32 %7 to float
  %17 = fmul float %16, 0x3FB99999A0000000
  br label %19

18:                                               ; preds = %6
  br label %19

19:                                               ; preds = %6, %18, %15, %13, %12
  %20 = phi float [ 0.000000e+00, %18 ], [ %17, %15 ], [ -2.000000e+00, %12 ], [ %14, %13 ], [ 1.500000e+00, %6 ]
  %21 = getelementptr inbounds nuw float, ptr addrspace(1) %1, i64 %8
  store float %20, ptr addrspace(1) %21, align 4, !tbaa !12
  %22 = add nuw nsw i32 %7, 1
  %23 = icmp slt i32 %22, %2
  br i1 %23, label %6, label %5, !llvm.loop !14
}

attributes #0 = { nofree norecurse nosync nounwind memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { alwaysinline nofree norecurse nosync nounwind memory(argmem: readwrite) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }

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
!8 = !{i32 1, i32 1, i32 0}
!9 = !{!"none", !"none", !"none"}
!10 = !{!"int*", !"float*", !"int"}
!11 = !{!"const", !"", !""}
!12 = !{!13, !13, i64 0}
!13 = !{!"float", !6, i64 0}
!14 = distinct !{!14, !15}
!15 = !{!"llvm.loop.unroll.disable"}
