; Structs: a named struct that names one defined below it, a packed struct, a
; __constant table of structs whose initialiser has a string, a vector and
; padding, and a struct passed by value (byval) to a function that changes it.
%struct.Outer = type { %struct.Pair, i64 }
%struct.Pair = type { i32, i32 }
%struct.Packed = type <{ i8, i32 }>

@table = addrspace(2) constant [2 x { [3 x i8], i8, <2 x i16> }] [{ [3 x i8], i8, <2 x i16> } { [3 x i8] c"ab\00", i8 0, <2 x i16> <i16 1, i16 2> }, { [3 x i8], i8, <2 x i16> } { [3 x i8] c"cd\00", i8 0, <2 x i16> <i16 -3, i16 4> }], align 4

define i32 @bump(ptr byval(%struct.Outer) align 8 %o) {
  %a = load i32, ptr %o, align 8
  %b = add i32 %a, 5
  store i32 %b, ptr %o, align 8
  ret i32 %b
}

define spir_kernel void @structs(ptr addrspace(1) %out, ptr addrspace(1) %packed) !kernel_arg_base_type !0 {
  %g = call i64 @_Z13get_global_idj(i32 0)
  %o = alloca %struct.Outer, align 8
  %gi = trunc i64 %g to i32
  store i32 %gi, ptr %o, align 8
  %bumped = call i32 @bump(ptr byval(%struct.Outer) align 8 %o)
  %kept = load i32, ptr %o, align 8
  %row = and i64 %g, 1
  %entry = getelementptr inbounds [2 x { [3 x i8], i8, <2 x i16> }], ptr addrspace(2) @table, i64 0, i64 %row
  %tagp = getelementptr inbounds i8, ptr addrspace(2) %entry, i64 1
  %tag = load i8, ptr addrspace(2) %tagp, align 1
  %vp = getelementptr inbounds i8, ptr addrspace(2) %entry, i64 4
  %v = load <2 x i16>, ptr addrspace(2) %vp, align 4
  %y = extractelement <2 x i16> %v, i64 1
  %tag32 = sext i8 %tag to i32
  %y32 = sext i16 %y to i32
  %sum0 = mul i32 %bumped, 1000
  %sum1 = add i32 %sum0, %kept
  %sum2 = mul i32 %tag32, %y32
  %sum = add i32 %sum1, %sum2
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %g
  store i32 %sum, ptr addrspace(1) %po, align 4
  %pp = getelementptr %struct.Packed, ptr addrspace(1) %packed, i64 %g
  store i8 %tag, ptr addrspace(1) %pp, align 1
  %pn = getelementptr inbounds i8, ptr addrspace(1) %pp, i64 1
  store i32 %sum, ptr addrspace(1) %pn, align 1
  ret void
}

declare i64 @_Z13get_global_idj(i32)

!0 = !{!"int*", !"char*"}
