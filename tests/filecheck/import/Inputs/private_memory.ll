; Private memory: allocas of an array and of a scalar (no alignment written).
define spir_kernel void @reverse4(ptr addrspace(1) %in, ptr addrspace(1) %out) {
  %a = alloca [4 x i32], align 4
  %t = alloca i32
  br label %fill

fill:
  %i = phi i64 [ 0, %0 ], [ %i.next, %fill ]
  %src = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %i
  %v = load i32, ptr addrspace(1) %src, align 4
  %dst = getelementptr inbounds [4 x i32], ptr %a, i64 0, i64 %i
  store i32 %v, ptr %dst, align 4
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %i.next, 4
  br i1 %more, label %fill, label %drain

drain:
  %j = phi i64 [ 0, %fill ], [ %j.next, %drain ]
  %back = sub i64 3, %j
  %from = getelementptr inbounds [4 x i32], ptr %a, i64 0, i64 %back
  %w = load i32, ptr %from, align 4
  store i32 %w, ptr %t
  %x = load i32, ptr %t
  %to = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %j
  store i32 %x, ptr addrspace(1) %to, align 4
  %j.next = add nuw nsw i64 %j, 1
  %again = icmp ult i64 %j.next, 4
  br i1 %again, label %drain, label %done

done:
  ret void
}
