; LLVM intrinsics as clang -O1 emits them for OpenCL C: integer min/max, counts,
; saturating arithmetic, a vector overload and a reduction, memset/memcpy into
; private memory from a global buffer, fmuladd and fabs with fast-math flags, and
; the markers the importer drops (lifetime, noalias scope declarations).
define spir_kernel void @intrinsics(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %fout) !kernel_arg_base_type !3 {
  %g = call i64 @_Z13get_global_idj(i32 0)
  %pin = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %g
  %x = load i32, ptr addrspace(1) %pin, align 4
  %smax = call i32 @llvm.smax.i32(i32 %x, i32 -3)
  %umin = call i32 @llvm.umin.i32(i32 %x, i32 100)
  %ctlz = call i32 @llvm.ctlz.i32(i32 %x, i1 false)
  %abs = call i32 @llvm.abs.i32(i32 %x, i1 false)
  %x64 = sext i32 %x to i64
  %sat64 = call i64 @llvm.usub.sat.i64(i64 %x64, i64 5)
  %sat = trunc i64 %sat64 to i32
  %v0 = insertelement <4 x i32> poison, i32 %x, i64 0
  %v = shufflevector <4 x i32> %v0, <4 x i32> poison, <4 x i32> zeroinitializer
  %vs = add <4 x i32> %v, <i32 0, i32 1, i32 2, i32 3>
  %vm = call <4 x i32> @llvm.smax.v4i32(<4 x i32> %vs, <4 x i32> zeroinitializer)
  %sum = call i32 @llvm.vector.reduce.add.v4i32(<4 x i32> %vm)
  %buf = alloca [2 x i32], align 4
  call void @llvm.lifetime.start.p0(ptr %buf)
  call void @llvm.experimental.noalias.scope.decl(metadata !0)
  call void @llvm.memset.p0.i64(ptr align 4 %buf, i8 0, i64 8, i1 false)
  call void @llvm.memcpy.p0.p1.i64(ptr align 4 %buf, ptr addrspace(1) align 4 %pin, i64 4, i1 false)
  %second = getelementptr inbounds i32, ptr %buf, i64 1
  %zero = load i32, ptr %second, align 4
  %first = load i32, ptr %buf, align 4
  %copied = add i32 %first, %zero
  call void @llvm.lifetime.end.p0(ptr %buf)
  %f = sitofp i32 %x to float
  %fm = call contract float @llvm.fmuladd.f32(float %f, float 5.000000e-01, float 1.000000e+00)
  %fa = call nnan float @llvm.fabs.f32(float %fm)
  %base = mul i64 %g, 7
  %o0 = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %base
  store i32 %smax, ptr addrspace(1) %o0, align 4
  %o1 = getelementptr inbounds i32, ptr addrspace(1) %o0, i64 1
  store i32 %umin, ptr addrspace(1) %o1, align 4
  %o2 = getelementptr inbounds i32, ptr addrspace(1) %o0, i64 2
  store i32 %ctlz, ptr addrspace(1) %o2, align 4
  %o3 = getelementptr inbounds i32, ptr addrspace(1) %o0, i64 3
  store i32 %abs, ptr addrspace(1) %o3, align 4
  %o4 = getelementptr inbounds i32, ptr addrspace(1) %o0, i64 4
  store i32 %sat, ptr addrspace(1) %o4, align 4
  %o5 = getelementptr inbounds i32, ptr addrspace(1) %o0, i64 5
  store i32 %sum, ptr addrspace(1) %o5, align 4
  %o6 = getelementptr inbounds i32, ptr addrspace(1) %o0, i64 6
  store i32 %copied, ptr addrspace(1) %o6, align 4
  %pf = getelementptr inbounds float, ptr addrspace(1) %fout, i64 %g
  store float %fa, ptr addrspace(1) %pf, align 4
  ret void
}

declare i64 @_Z13get_global_idj(i32)
declare i32 @llvm.smax.i32(i32, i32)
declare i32 @llvm.umin.i32(i32, i32)
declare i32 @llvm.ctlz.i32(i32, i1 immarg)
declare i32 @llvm.abs.i32(i32, i1 immarg)
declare i64 @llvm.usub.sat.i64(i64, i64)
declare <4 x i32> @llvm.smax.v4i32(<4 x i32>, <4 x i32>)
declare i32 @llvm.vector.reduce.add.v4i32(<4 x i32>)
declare void @llvm.lifetime.start.p0(ptr captures(none))
declare void @llvm.lifetime.end.p0(ptr captures(none))
declare void @llvm.experimental.noalias.scope.decl(metadata)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg)
declare void @llvm.memcpy.p0.p1.i64(ptr noalias writeonly captures(none), ptr addrspace(1) noalias readonly captures(none), i64, i1 immarg)
declare float @llvm.fmuladd.f32(float, float, float)
declare float @llvm.fabs.f32(float)

!0 = !{!1}
!1 = distinct !{!1, !2, !"scope"}
!2 = distinct !{!2, !"domain"}
!3 = !{!"int*", !"int*", !"float*"}
