; ModuleID = 'atomics.cl'
source_filename = "atomics.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64"

; Function Attrs: convergent nofree norecurse nounwind
define dso_local spir_kernel void @atomics(ptr addrspace(1) noundef align 4 captures(none) %0, ptr addrspace(1) noundef align 8 captures(none) %1, ptr addrspace(1) noundef align 4 captures(none) %2, ptr addrspace(1) noundef writeonly align 4 captures(none) %3, ptr addrspace(1) noundef align 4 %4, ptr addrspace(1) noundef writeonly align 4 captures(none) %5) local_unnamed_addr #0 !kernel_arg_addr_space !8 !kernel_arg_access_qual !9 !kernel_arg_type !10 !kernel_arg_base_type !11 !kernel_arg_type_qual !12 !kernel_arg_name !13 {
  %7 = tail call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #3
  %8 = atomicrmw add ptr addrspace(1) %0, i32 1 monotonic, align 4
  %9 = load atomic i64, ptr addrspace(1) %1 acquire, align 8
  br label %10

10:                                               ; preds = %13, %6
  %11 = phi i64 [ %9, %6 ], [ %16, %13 ]
  %12 = icmp ult i64 %11, %7
  br i1 %12, label %13, label %17

13:                                               ; preds = %10
  %14 = cmpxchg weak ptr addrspace(1) %1, i64 %11, i64 %7 acq_rel monotonic, align 8
  %15 = extractvalue { i64, i1 } %14, 1
  %16 = extractvalue { i64, i1 } %14, 0
  br i1 %15, label %17, label %10, !llvm.loop !14

17:                                               ; preds = %10, %13
  %18 = sitofp i32 %8 to float
  %19 = atomicrmw fmax ptr addrspace(1) %2, float %18 seq_cst, align 4
  fence release
  store atomic i32 1, ptr addrspace(1) %3 release, align 4
  %20 = getelementptr inbounds nuw i32, ptr addrspace(1) %4, i64 %7
  %21 = load volatile i32, ptr addrspace(1) %20, align 4, !tbaa !4
  %22 = load volatile i32, ptr addrspace(1) %20, align 4, !tbaa !4
  %23 = add nsw i32 %22, %21
  %24 = getelementptr inbounds nuw i32, ptr addrspace(1) %5, i64 %7
  store i32 %23, ptr addrspace(1) %24, align 4, !tbaa !4
  store volatile i32 %8, ptr addrspace(1) %20, align 4, !tbaa !4
  ret void
}

; Function Attrs: alwaysinline convergent nofree norecurse nounwind
define dso_local spir_func void @__clang_ocl_kern_imp_atomics(ptr addrspace(1) noundef align 4 captures(none) %0, ptr addrspace(1) noundef align 8 captures(none) %1, ptr addrspace(1) noundef align 4 captures(none) %2, ptr addrspace(1) noundef writeonly align 4 captures(none) %3, ptr addrspace(1) noundef align 4 %4, ptr addrspace(1) noundef writeonly align 4 captures(none) %5) local_unnamed_addr #1 !kernel_arg_addr_space !8 !kernel_arg_access_qual !9 !kernel_arg_type !10 !kernel_arg_base_type !11 !kernel_arg_type_qual !12 !kernel_arg_name !13 {
  %7 = tail call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #3
  %8 = atomicrmw add ptr addrspace(1) %0, i32 1 monotonic, align 4
  %9 = load atomic i64, ptr addrspace(1) %1 acquire, align 8
  br label %10

10:                                               ; preds = %13, %6
  %11 = phi i64 [ %9, %6 ], [ %16, %13 ]
  %12 = icmp ult i64 %11, %7
  br i1 %12, label %13, label %17

13:                                               ; preds = %10
  %14 = cmpxchg weak ptr addrspace(1) %1, i64 %11, i64 %7 acq_rel monotonic, align 8
  %15 = extractvalue { i64, i1 } %14, 1
  %16 = extractvalue { i64, i1 } %14, 0
  br i1 %15, label %17, label %10, !llvm.loop !14

17:                                               ; preds = %10, %13
  %18 = sitofp i32 %8 to float
  %19 = atomicrmw fmax ptr addrspace(1) %2, float %18 seq_cst, align 4
  fence release
  store atomic i32 1, ptr addrspace(1) %3 release, align 4
  %20 = getelementptr inbounds nuw i32, ptr addrspace(1) %4, i64 %7
  %21 = load volatile i32, ptr addrspace(1) %20, align 4, !tbaa !4
  %22 = load volatile i32, ptr addrspace(1) %20, align 4, !tbaa !4
  %23 = add nsw i32 %22, %21
  %24 = getelementptr inbounds nuw i32, ptr addrspace(1) %5, i64 %7
  store i32 %23, ptr addrspace(1) %24, align 4, !tbaa !4
  store volatile i32 %8, ptr addrspace(1) %20, align 4, !tbaa !4
  ret void
}

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) local_unnamed_addr #2

attributes #0 = { convergent nofree norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="false" }
attributes #1 = { alwaysinline convergent nofree norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="false" }
attributes #2 = { convergent mustprogress nofree nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #3 = { convergent nounwind willreturn memory(none) }

!llvm.module.flags = !{!0, !1}
!opencl.ocl.version = !{!2}
!opencl.spir.version = !{!2}
!llvm.ident = !{!3}
!llvm.errno.tbaa = !{!4}

!0 = !{i32 1, !"wchar_size", i32 4}
!1 = !{i32 7, !"frame-pointer", i32 2}
!2 = !{i32 3, i32 0}
!3 = !{!"clang version 22.1.8"}
!4 = !{!5, !5, i64 0}
!5 = !{!"int", !6, i64 0}
!6 = !{!"omnipotent char", !7, i64 0}
!7 = !{!"Simple C/C++ TBAA"}
!8 = !{i32 1, i32 1, i32 1, i32 1, i32 1, i32 1}
!9 = !{!"none", !"none", !"none", !"none", !"none", !"none"}
!10 = !{!"atomic_int*", !"atomic_long*", !"atomic_float*", !"atomic_int*", !"int*", !"int*"}
!11 = !{!"_Atomic(int)*", !"_Atomic(long)*", !"_Atomic(float)*", !"_Atomic(int)*", !"int*", !"int*"}
!12 = !{!"", !"", !"", !"", !"volatile", !""}
!13 = !{!"counter", !"top", !"total", !"flag", !"in", !"out"}
!14 = distinct !{!14, !15}
!15 = !{!"llvm.loop.unroll.disable"}
