// RUN: mux-opt %s --split-input-file --allow-unregistered-dialect -p convert-to-llvm | filecheck %s
//
// convert-to-llvm on the index dialect. xDSL 0.74 does not define it, so its ops
// are written in generic form and parsed as unregistered ops.

func.func @arithmetic(%a: index, %b: index) -> index {
  %add = "index.add"(%a, %b) : (index, index) -> index
  %sub = "index.sub"(%add, %b) : (index, index) -> index
  %mul = "index.mul"(%sub, %b) : (index, index) -> index
  %divs = "index.divs"(%mul, %b) : (index, index) -> index
  %divu = "index.divu"(%divs, %b) : (index, index) -> index
  %rems = "index.rems"(%divu, %b) : (index, index) -> index
  %remu = "index.remu"(%rems, %b) : (index, index) -> index
  %and = "index.and"(%remu, %b) : (index, index) -> index
  %or = "index.or"(%and, %b) : (index, index) -> index
  %xor = "index.xor"(%or, %b) : (index, index) -> index
  %shl = "index.shl"(%xor, %b) : (index, index) -> index
  %shrs = "index.shrs"(%shl, %b) : (index, index) -> index
  %shru = "index.shru"(%shrs, %b) : (index, index) -> index
  %maxs = "index.maxs"(%shru, %b) : (index, index) -> index
  %mins = "index.mins"(%maxs, %b) : (index, index) -> index
  %maxu = "index.maxu"(%mins, %b) : (index, index) -> index
  %minu = "index.minu"(%maxu, %b) : (index, index) -> index
  func.return %minu : index
}
// CHECK-LABEL: llvm.func @arithmetic(%a: i64, %b: i64) -> i64 {
// CHECK-NEXT:    %add = llvm.add %a, %b : i64
// CHECK-NEXT:    %sub = llvm.sub %add, %b : i64
// CHECK-NEXT:    %mul = llvm.mul %sub, %b : i64
// CHECK-NEXT:    %divs = llvm.sdiv %mul, %b : i64
// CHECK-NEXT:    %divu = llvm.udiv %divs, %b : i64
// CHECK-NEXT:    %rems = llvm.srem %divu, %b : i64
// CHECK-NEXT:    %remu = llvm.urem %rems, %b : i64
// CHECK-NEXT:    %and = llvm.and %remu, %b : i64
// CHECK-NEXT:    %or = llvm.or %and, %b : i64
// CHECK-NEXT:    %xor = llvm.xor %or, %b : i64
// CHECK-NEXT:    %shl = llvm.shl %xor, %b : i64
// CHECK-NEXT:    %shrs = llvm.ashr %shl, %b : i64
// CHECK-NEXT:    %shru = llvm.lshr %shrs, %b : i64
// CHECK-NEXT:    %maxs = llvm.call_intrinsic "llvm.smax.i64"(%shru, %b) : (i64, i64) -> i64
// CHECK-NEXT:    %mins = llvm.call_intrinsic "llvm.smin.i64"(%maxs, %b) : (i64, i64) -> i64
// CHECK-NEXT:    %maxu = llvm.call_intrinsic "llvm.umax.i64"(%mins, %b) : (i64, i64) -> i64
// CHECK-NEXT:    %minu = llvm.call_intrinsic "llvm.umin.i64"(%maxu, %b) : (i64, i64) -> i64
// CHECK-NEXT:    llvm.return %minu : i64

// -----

func.func @rounding(%a: index, %b: index) -> index {
  %floor = "index.floordivs"(%a, %b) : (index, index) -> index
  %ceil = "index.ceildivs"(%floor, %b) : (index, index) -> index
  %ceilu = "index.ceildivu"(%ceil, %b) : (index, index) -> index
  func.return %ceilu : index
}
// CHECK-LABEL: llvm.func @rounding(%a: i64, %b: i64) -> i64 {
// CHECK-NEXT:    llvm.sdiv %a, %b : i64
// CHECK-NEXT:    llvm.srem %a, %b : i64
// CHECK:         %floor = llvm.sub
// CHECK-NEXT:    llvm.sdiv %floor, %b : i64
// CHECK:         %ceil = llvm.add
// CHECK-NEXT:    llvm.udiv %ceil, %b : i64
// CHECK:         %ceilu = llvm.add
// CHECK-NEXT:    llvm.return %ceilu : i64

// -----

func.func @compare_cast_constants(%a: index, %n: i32) -> i1 {
  %five = "index.constant"() <{value = 5 : index}> : () -> index
  %slt = "index.cmp"(%a, %five) <{pred = #index<cmp_predicate slt>}> : (index, index) -> i1
  %uge = "index.cmp"(%a, %five) <{pred = #index<cmp_predicate uge>}> : (index, index) -> i1
  %wide = "index.casts"(%n) : (i32) -> index
  %widez = "index.castu"(%n) : (i32) -> index
  %narrow = "index.castu"(%a) : (index) -> i16
  %same = "index.casts"(%a) : (index) -> i64
  %true = "index.bool.constant"() <{value = true}> : () -> i1
  %size = "index.sizeof"() : () -> index
  func.return %slt : i1
}
// CHECK-LABEL: llvm.func @compare_cast_constants(%a: i64, %n: i32) -> i1 {
// CHECK-NEXT:    %five = llvm.mlir.constant(5) : i64
// CHECK-NEXT:    %slt = llvm.icmp "slt" %a, %five : i64
// CHECK-NEXT:    %uge = llvm.icmp "uge" %a, %five : i64
// CHECK-NEXT:    %wide = llvm.sext %n : i32 to i64
// CHECK-NEXT:    %widez = llvm.zext %n : i32 to i64
// CHECK-NEXT:    %narrow = llvm.trunc %a : i64 to i16
// CHECK-NEXT:    %true = llvm.mlir.constant(true) : i1
// CHECK-NEXT:    %size = llvm.mlir.constant(8) : i64
// CHECK-NEXT:    llvm.return %slt : i1
