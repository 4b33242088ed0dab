; ModuleID = 'events.cl'
source_filename = "events.cl"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64"

; Function Attrs: convergent noinline norecurse nounwind
define dso_local spir_func target("spirv.Event") @fetch(ptr addrspace(3) noundef %0, ptr addrspace(1) noundef %1, i64 noundef %2, target("spirv.Event") %3) local_unnamed_addr #0 {
  %5 = tail call spir_func target("spirv.Event") @_Z21async_work_group_copyPU3AS3fPU3AS1Kfm9ocl_event(ptr addrspace(3) noundef %0, ptr addrspace(1) noundef %1, i64 noundef %2, target("spirv.Event") %3) #6
  ret target("spirv.Event") %5
}

; Function Attrs: convergent nounwind
declare dso_local spir_func target("spirv.Event") @_Z21async_work_group_copyPU3AS3fPU3AS1Kfm9ocl_event(ptr addrspace(3) noundef, ptr addrspace(1) noundef, i64 noundef, target("spirv.Event")) local_unnamed_addr #1

; Function Attrs: convergent norecurse nounwind
define dso_local spir_kernel void @events(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef writeonly align 4 captures(none) %1, ptr addrspace(3) noundef align 4 %2, i32 noundef %3) local_unnamed_addr #2 !kernel_arg_addr_space !8 !kernel_arg_access_qual !9 !kernel_arg_type !10 !kernel_arg_base_type !10 !kernel_arg_type_qual !11 !kernel_arg_name !12 {
  %5 = alloca [2 x target("spirv.Event")], align 8
  call void @llvm.lifetime.start.p0(ptr nonnull %5) #7
  %6 = tail call spir_func target("spirv.Event") @_Z21async_work_group_copyPU3AS3fPU3AS1Kfm9ocl_event(ptr addrspace(3) noundef align 4 %2, ptr addrspace(1) noundef align 4 %0, i64 noundef 16, target("spirv.Event") zeroinitializer) #6
  %7 = getelementptr inbounds nuw i8, ptr addrspace(3) %2, i64 64
  %8 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 64
  %9 = tail call spir_func target("spirv.Event") @_Z21async_work_group_copyPU3AS3fPU3AS1Kfm9ocl_event(ptr addrspace(3) noundef nonnull %7, ptr addrspace(1) noundef nonnull %8, i64 noundef 16, target("spirv.Event") zeroinitializer) #6
  %10 = icmp sgt i32 %3, 1
  %11 = select i1 %10, target("spirv.Event") %6, target("spirv.Event") %9
  store target("spirv.Event") %11, ptr %5, align 8, !tbaa !13
  %12 = icmp eq i32 %3, 0
  %13 = getelementptr inbounds nuw i8, ptr addrspace(3) %2, i64 128
  br i1 %12, label %17, label %14

14:                                               ; preds = %4
  %15 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 128
  %16 = tail call spir_func target("spirv.Event") @fetch(ptr addrspace(3) noundef nonnull %13, ptr addrspace(1) noundef nonnull %15, i64 noundef 16, target("spirv.Event") %6) #6
  br label %20

17:                                               ; preds = %4
  %18 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 256
  %19 = tail call spir_func target("spirv.Event") @_Z29async_work_group_strided_copyPU3AS3fPU3AS1Kfmm9ocl_event(ptr addrspace(3) noundef nonnull %13, ptr addrspace(1) noundef nonnull %18, i64 noundef 16, i64 noundef 2, target("spirv.Event") %9) #6
  br label %20

20:                                               ; preds = %14, %17
  %21 = phi target("spirv.Event") [ %16, %14 ], [ %19, %17 ]
  %22 = getelementptr inbounds nuw i8, ptr %5, i64 8
  store target("spirv.Event") %21, ptr %22, align 8, !tbaa !13
  call spir_func void @_Z17wait_group_eventsiP9ocl_event(i32 noundef 2, ptr noundef nonnull %5) #6
  %23 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #8
  %24 = getelementptr inbounds nuw float, ptr addrspace(3) %2, i64 %23
  %25 = load float, ptr addrspace(3) %24, align 4, !tbaa !15
  %26 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #8
  %27 = getelementptr inbounds nuw float, ptr addrspace(1) %1, i64 %26
  store float %25, ptr addrspace(1) %27, align 4, !tbaa !15
  call void @llvm.lifetime.end.p0(ptr nonnull %5) #7
  ret void
}

; Function Attrs: alwaysinline convergent norecurse nounwind
define dso_local spir_func void @__clang_ocl_kern_imp_events(ptr addrspace(1) noundef align 4 %0, ptr addrspace(1) noundef writeonly align 4 captures(none) %1, ptr addrspace(3) noundef align 4 %2, i32 noundef %3) local_unnamed_addr #3 !kernel_arg_addr_space !8 !kernel_arg_access_qual !9 !kernel_arg_type !10 !kernel_arg_base_type !10 !kernel_arg_type_qual !11 !kernel_arg_name !12 {
  %5 = alloca [2 x target("spirv.Event")], align 8
  call void @llvm.lifetime.start.p0(ptr nonnull %5) #7
  %6 = tail call spir_func target("spirv.Event") @_Z21async_work_group_copyPU3AS3fPU3AS1Kfm9ocl_event(ptr addrspace(3) noundef %2, ptr addrspace(1) noundef %0, i64 noundef 16, target("spirv.Event") zeroinitializer) #6
  %7 = getelementptr inbounds nuw i8, ptr addrspace(3) %2, i64 64
  %8 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 64
  %9 = tail call spir_func target("spirv.Event") @_Z21async_work_group_copyPU3AS3fPU3AS1Kfm9ocl_event(ptr addrspace(3) noundef nonnull %7, ptr addrspace(1) noundef nonnull %8, i64 noundef 16, target("spirv.Event") zeroinitializer) #6
  %10 = icmp sgt i32 %3, 1
  %11 = select i1 %10, target("spirv.Event") %6, target("spirv.Event") %9
  store target("spirv.Event") %11, ptr %5, align 8, !tbaa !13
  %12 = icmp eq i32 %3, 0
  %13 = getelementptr inbounds nuw i8, ptr addrspace(3) %2, i64 128
  br i1 %12, label %17, label %14

14:                                               ; preds = %4
  %15 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 128
  %16 = tail call spir_func target("spirv.Event") @fetch(ptr addrspace(3) noundef nonnull %13, ptr addrspace(1) noundef nonnull %15, i64 noundef 16, target("spirv.Event") %6) #6
  br label %20

17:                                               ; preds = %4
  %18 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 256
  %19 = tail call spir_func target("spirv.Event") @_Z29async_work_group_strided_copyPU3AS3fPU3AS1Kfmm9ocl_event(ptr addrspace(3) noundef nonnull %13, ptr addrspace(1) noundef nonnull %18, i64 noundef 16, i64 noundef 2, target("spirv.Event") %9) #6
  br label %20

20:                                               ; preds = %17, %14
  %21 = phi target("spirv.Event") [ %19, %17 ], [ %16, %14 ]
  %22 = getelementptr inbounds nuw i8, ptr %5, i64 8
  store target("spirv.Event") %21, ptr %22, align 8, !tbaa !13
  call spir_func void @_Z17wait_group_eventsiP9ocl_event(i32 noundef 2, ptr noundef nonnull %5) #6
  %23 = call spir_func i64 @_Z12get_local_idj(i32 noundef 0) #8
  %24 = getelementptr inbounds nuw float, ptr addrspace(3) %2, i64 %23
  %25 = load float, ptr addrspace(3) %24, align 4, !tbaa !15
  %26 = call spir_func i64 @_Z13get_global_idj(i32 noundef 0) #8
  %27 = getelementptr inbounds nuw float, ptr addrspace(1) %1, i64 %26
  store float %25, ptr addrspace(1) %27, align 4, !tbaa !15
  call void @llvm.lifetime.end.p0(ptr nonnull %5) #7
  ret void
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.start.p0(ptr captures(none)) #4

; Function Attrs: convergent nounwind
declare dso_local spir_func target("spirv.Event") @_Z29async_work_group_strided_copyPU3AS3fPU3AS1Kfmm9ocl_event(ptr addrspace(3) noundef, ptr addrspace(1) noundef, i64 noundef, i64 noundef, target("spirv.Event")) local_unnamed_addr #1

; Function Attrs: convergent nounwind
declare dso_local spir_func void @_Z17wait_group_eventsiP9ocl_event(i32 noundef, ptr noundef) local_unnamed_addr #1

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z12get_local_idj(i32 noundef) local_unnamed_addr #5

; Function Attrs: convergent mustprogress nofree nounwind willreturn memory(none)
declare dso_local spir_func i64 @_Z13get_global_idj(i32 noundef) local_unnamed_addr #5

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite)
declare void @llvm.lifetime.end.p0(ptr captures(none)) #4

attributes #0 = { convergent noinline norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #1 = { convergent nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #2 = { convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #3 = { alwaysinline convergent norecurse nounwind "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #4 = { mustprogress nocallback nofree nosync nounwind willreturn memory(argmem: readwrite) }
attributes #5 = { convergent mustprogress nofree nounwind willreturn memory(none) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" }
attributes #6 = { convergent nounwind }
attributes #7 = { nounwind }
attributes #8 = { convergent nounwind willreturn memory(none) }

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
!8 = !{i32 1, i32 1, i32 3, i32 0}
!9 = !{!"none", !"none", !"none", !"none"}
!10 = !{!"float*", !"float*", !"float*", !"int"}
!11 = !{!"", !"", !"", !""}
!12 = !{!"in", !"out", !"tile", !"c"}
!13 = !{!14, !14, i64 0}
!14 = !{!"event_t", !6, i64 0}
!15 = !{!16, !16, i64 0}
!16 = !{!"float", !6, i64 0}
