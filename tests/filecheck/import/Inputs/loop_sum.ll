; ModuleID = 'loop_sum.cl'
source_filename = "loop_sum.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64"

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: readwrite)
define dso_local spir_kernel void @loop_sum(ptr addrspace(1) noundef readonly align 4 captures(none) %0, ptr addrspace(1) noundef writeonly align 4 captures(none) %1, i32 noundef %2) local_unnamed_addr #0 !kernel_arg_addr_space !8 !kernel_arg_access_qual !9 !kernel_arg_type !10 !kernel_arg_base_type !10 !kernel_arg_type_qual !11 !reqd_work_group_size !12 {
  %4 = icmp sgt i32 %2, 0
  br i1 %4, label %5, label %16

5:                                                ; preds = %3, %5
  %6 = phi i32 [ %14, %5 ], [ 0, %3 ]
  %7 = phi i32 [ %13, %5 ], [ 0, %3 ]
  %8 = zext nneg i32 %6 to i64
  %9 = getelementptr inbounds nuw i32, ptr addrspace(1) %0, i64 %8
  %10 = load i32, ptr addrspace(1) %9, align 4, !tbaa !4
  %11 = and i32 %6, 3
  %12 = mul nsw i32 %10, %11
  %13 = add nsw i32 %12, %7
  %14 = add nuw nsw i32 %6, 1
  %15 = icmp slt i32 %14, %2
  br i1 %15, label %5, label %16, !llvm.loop !13

16:                                               ; preds = %5, %3
  %17 = phi i32 [ 0, %3 ], [ %13, %5 ]
  store i32 %17, ptr addrspace(1) %1, align 4, !tbaa !4
  ret void
}

; Function Attrs: alwaysinline nofree norecurse nosync nounwind memory(argmem: readwrite)
define dso_local spir_func void @__clang_ocl_kern_imp_loop_sum(ptr addrspace(1) noundef readonly align 4 captures(none) %0, ptr addrspace(1) noundef writeonly align 4 captures(none) %1, i32 noundef %2) local_unnamed_addr #1 !kernel_arg_addr_space !8 !kernel_arg_access_qual !9 !kernel_arg_type !10 !kernel_arg_base_type !10 !kernel_arg_type_qual !11 !reqd_work_group_size !12 {
  %4 = icmp sgt i32 %2, 0
  br i1 %4, label %7, label %5

5:                                                ; preds = %7, %3
  %6 = phi i32 [ 0, %3 ], [ %15, %7 ]
  store i32 %6, ptr addrspace(1) %1, align 4, !tbaa !4
  ret void

7:                                                ; preds = %3, %7
  %8 = phi i32 [ %16, %7 ], [ 0, %3 ]
  %9 = phi i32 [ %15, %7 ], [ 0, %3 ]
  %10 = zext nneg i32 %8 to i64
  %11 = getelementptr inbounds nuw i32, ptr addrspace(1) %0, i64 %10
  %12 = load i32, ptr addrspace(1) %11, align 4, !tbaa !4
  %13 = and i32 %8, 3
  %14 = mul nsw i32 %12, %13
  %15 = add nsw i32 %14, %9
  %16 = add nuw nsw i32 %8, 1
  %17 = icmp slt i32 %16, %2
  br i1 %17, label %7, label %5, !llvm.loop !13
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
!10 = !{!"int*", !"int*", !"int"}
!11 = !{!"const", !"", !""}
!12 = !{i32 1, i32 1, i32 1}
!13 = distinct !{!13, !14}
!14 = !{!"llvm.loop.unroll.disable"}
