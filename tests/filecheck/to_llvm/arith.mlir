// RUN: mux-opt %s --split-input-file -p convert-to-llvm | filecheck %s
// RUN: mux-opt %s --split-input-file -p convert-to-llvm --print-op-generic \
// RUN:   | filecheck %s --check-prefix=GENERIC
//
// convert-to-llvm on arith: one llvm op per arith op where LLVM has one, index as
// i64, intrinsics for min/max, expansions for the rounding divisions.

func.func @integer(%a: i32, %b: i32) -> i32 {
  %add = arith.addi %a, %b overflow<nsw, nuw> : i32
  %sub = arith.subi %add, %b : i32
  %mul = arith.muli %sub, %b overflow<nsw> : i32
  %divs = arith.divsi %mul, %b : i32
  %divu = arith.divui %divs, %b : i32
  %rems = arith.remsi %divu, %b : i32
  %remu = arith.remui %rems, %b : i32
  %and = arith.andi %remu, %b : i32
  %or = arith.ori %and, %b : i32
  %xor = arith.xori %or, %b : i32
  %shl = arith.shli %xor, %b : i32
  %shrs = arith.shrsi %shl, %b : i32
  %shru = arith.shrui %shrs, %b : i32
  func.return %shru : i32
}
// CHECK-LABEL: llvm.func @integer(%a: i32, %b: i32) -> i32 {
// CHECK-NEXT:    %add = llvm.add %a, %b overflow<nsw,nuw> : i32
// CHECK-NEXT:    %sub = llvm.sub %add, %b : i32
// CHECK-NEXT:    %mul = llvm.mul %sub, %b overflow<nsw> : i32
// CHECK-NEXT:    %divs = llvm.sdiv %mul, %b : i32
// CHECK-NEXT:    %divu = llvm.udiv %divs, %b : i32
// CHECK-NEXT:    %rems = llvm.srem %divu, %b : i32
// CHECK-NEXT:    %remu = llvm.urem %rems, %b : i32
// CHECK-NEXT:    %and = llvm.and %remu, %b : i32
// CHECK-NEXT:    %or = llvm.or %and, %b : i32
// CHECK-NEXT:    %xor = llvm.xor %or, %b : i32
// CHECK-NEXT:    %shl = llvm.shl %xor, %b : i32
// CHECK-NEXT:    %shrs = llvm.ashr %shl, %b : i32
// CHECK-NEXT:    %shru = llvm.lshr %shrs, %b : i32
// CHECK-NEXT:    llvm.return %shru : i32
// CHECK-NEXT:  }

// -----

// index is i64: arithmetic on index is arithmetic on i64, vectors included.
func.func @index(%i: index, %v: vector<4xindex>) -> vector<4xindex> {
  %c = arith.constant 3 : index
  %sum = arith.addi %i, %c : index
  %lanes = arith.constant dense<[0, 1, 2, 3]> : vector<4xindex>
  %next = arith.addi %v, %lanes : vector<4xindex>
  func.return %next : vector<4xindex>
}
// CHECK-LABEL: llvm.func @index(%i: i64, %v: vector<4xi64>) -> vector<4xi64> {
// CHECK-NEXT:    %c = llvm.mlir.constant(3) : i64
// CHECK-NEXT:    %sum = llvm.add %i, %c : i64
// CHECK-NEXT:    %lanes = llvm.mlir.constant(dense<[0, 1, 2, 3]> : vector<4xi64>) : vector<4xi64>
// CHECK-NEXT:    %next = llvm.add %v, %lanes : vector<4xi64>
// CHECK-NEXT:    llvm.return %next : vector<4xi64>

// -----

func.func @constants(%p: !llvm.ptr) {
  %t = arith.constant true
  %d = arith.constant 2.5 : f64
  %splat = arith.constant dense<1.0> : vector<4xf32>
  %list = arith.constant dense<[7, -7]> : vector<2xi16>
  llvm.store %t, %p : i1, !llvm.ptr
  llvm.store %d, %p : f64, !llvm.ptr
  llvm.store %splat, %p : vector<4xf32>, !llvm.ptr
  llvm.store %list, %p : vector<2xi16>, !llvm.ptr
  func.return
}
// CHECK-LABEL: llvm.func @constants(%p: !llvm.ptr) {
// CHECK-NEXT:    %t = llvm.mlir.constant(true) : i1
// CHECK-NEXT:    %d = llvm.mlir.constant(2.500000e+00 : f64) : f64
// CHECK-NEXT:    %splat = llvm.mlir.constant(dense<1.000000e+00> : vector<4xf32>) : vector<4xf32>
// CHECK-NEXT:    %list = llvm.mlir.constant(dense<[7, -7]> : vector<2xi16>) : vector<2xi16>

// -----

func.func @float(%x: f32, %y: f32) -> f32 {
  %add = arith.addf %x, %y fastmath<fast> : f32
  %sub = arith.subf %add, %y : f32
  %mul = arith.mulf %sub, %y fastmath<nnan,ninf> : f32
  %div = arith.divf %mul, %y : f32
  %neg = arith.negf %div fastmath<nsz> : f32
  func.return %neg : f32
}
// CHECK-LABEL: llvm.func @float(%x: f32, %y: f32) -> f32 {
// CHECK-NEXT:    %add = llvm.fadd %x, %y {fastmathFlags = #llvm.fastmath<fast>} : f32
// CHECK-NEXT:    %sub = llvm.fsub %add, %y : f32
// CHECK-NEXT:    %mul = llvm.fmul %sub, %y {fastmathFlags = #llvm.fastmath<nnan,ninf>} : f32
// CHECK-NEXT:    %div = llvm.fdiv %mul, %y : f32
// CHECK-NEXT:    %neg = llvm.fneg %div {fastmathFlags = #llvm.fastmath<nsz>} : f32
// CHECK-NEXT:    llvm.return %neg : f32

// -----

func.func @float_vector(%x: vector<8xf32>) -> vector<8xf32> {
  %sum = arith.addf %x, %x : vector<8xf32>
  func.return %sum : vector<8xf32>
}
// CHECK-LABEL: llvm.func @float_vector(%x: vector<8xf32>) -> vector<8xf32> {
// CHECK-NEXT:    %sum = llvm.fadd %x, %x : vector<8xf32>

// -----

// Every predicate keeps its name.
func.func @cmpi(%a: i64, %b: i64) -> i1 {
  %eq = arith.cmpi eq, %a, %b : i64
  %ne = arith.cmpi ne, %a, %b : i64
  %slt = arith.cmpi slt, %a, %b : i64
  %sle = arith.cmpi sle, %a, %b : i64
  %sgt = arith.cmpi sgt, %a, %b : i64
  %sge = arith.cmpi sge, %a, %b : i64
  %ult = arith.cmpi ult, %a, %b : i64
  %ule = arith.cmpi ule, %a, %b : i64
  %ugt = arith.cmpi ugt, %a, %b : i64
  %uge = arith.cmpi uge, %a, %b : i64
  func.return %uge : i1
}
// CHECK-LABEL: llvm.func @cmpi
// CHECK-NEXT:    %eq = llvm.icmp "eq" %a, %b : i64
// CHECK-NEXT:    %ne = llvm.icmp "ne" %a, %b : i64
// CHECK-NEXT:    %slt = llvm.icmp "slt" %a, %b : i64
// CHECK-NEXT:    %sle = llvm.icmp "sle" %a, %b : i64
// CHECK-NEXT:    %sgt = llvm.icmp "sgt" %a, %b : i64
// CHECK-NEXT:    %sge = llvm.icmp "sge" %a, %b : i64
// CHECK-NEXT:    %ult = llvm.icmp "ult" %a, %b : i64
// CHECK-NEXT:    %ule = llvm.icmp "ule" %a, %b : i64
// CHECK-NEXT:    %ugt = llvm.icmp "ugt" %a, %b : i64
// CHECK-NEXT:    %uge = llvm.icmp "uge" %a, %b : i64

// -----

// Every predicate keeps its name, with the fast-math flags; false and true are
// constants.
func.func @cmpf(%x: f32, %y: f32) -> i1 {
  %false = arith.cmpf false, %x, %y : f32
  %oeq = arith.cmpf oeq, %x, %y : f32
  %ogt = arith.cmpf ogt, %x, %y : f32
  %oge = arith.cmpf oge, %x, %y : f32
  %olt = arith.cmpf olt, %x, %y fastmath<nnan> : f32
  %ole = arith.cmpf ole, %x, %y : f32
  %one = arith.cmpf one, %x, %y : f32
  %ord = arith.cmpf ord, %x, %y : f32
  %ueq = arith.cmpf ueq, %x, %y : f32
  %ugt = arith.cmpf ugt, %x, %y : f32
  %uge = arith.cmpf uge, %x, %y : f32
  %ult = arith.cmpf ult, %x, %y : f32
  %ule = arith.cmpf ule, %x, %y : f32
  %une = arith.cmpf une, %x, %y : f32
  %uno = arith.cmpf uno, %x, %y : f32
  %true = arith.cmpf true, %x, %y : f32
  func.return %true : i1
}
// CHECK-LABEL: llvm.func @cmpf
// CHECK-NEXT:    %false = llvm.mlir.constant(false) : i1
// CHECK-NEXT:    %oeq = llvm.fcmp "oeq" %x, %y : f32
// CHECK-NEXT:    %ogt = llvm.fcmp "ogt" %x, %y : f32
// CHECK-NEXT:    %oge = llvm.fcmp "oge" %x, %y : f32
// CHECK-NEXT:    %olt = llvm.fcmp "olt" %x, %y : f32
// (llvm.fcmp prints its fast-math flags in the generic form only)
// GENERIC:       %olt = "llvm.fcmp"(%x, %y) <{predicate = 4 : i64, fastmathFlags = #llvm.fastmath<nnan>}> : (f32, f32) -> i1
// CHECK-NEXT:    %ole = llvm.fcmp "ole" %x, %y : f32
// CHECK-NEXT:    %one = llvm.fcmp "one" %x, %y : f32
// CHECK-NEXT:    %ord = llvm.fcmp "ord" %x, %y : f32
// CHECK-NEXT:    %ueq = llvm.fcmp "ueq" %x, %y : f32
// CHECK-NEXT:    %ugt = llvm.fcmp "ugt" %x, %y : f32
// CHECK-NEXT:    %uge = llvm.fcmp "uge" %x, %y : f32
// CHECK-NEXT:    %ult = llvm.fcmp "ult" %x, %y : f32
// CHECK-NEXT:    %ule = llvm.fcmp "ule" %x, %y : f32
// CHECK-NEXT:    %une = llvm.fcmp "une" %x, %y : f32
// CHECK-NEXT:    %uno = llvm.fcmp "uno" %x, %y : f32
// CHECK-NEXT:    %true = llvm.mlir.constant(true) : i1

// -----

// Integer min/max call the intrinsics, overloaded on the type; the NaN-propagating
// float min/max call llvm.minimum/maximum; the NaN-ignoring ones are llvm.intr ops.
func.func @min_max(%a: i16, %b: i16, %x: f64, %y: f64, %v: vector<2xf64>) -> vector<2xf64> {
  %smin = arith.minsi %a, %b : i16
  %smax = arith.maxsi %a, %b : i16
  %umin = arith.minui %a, %b : i16
  %umax = arith.maxui %a, %b : i16
  %minimum = arith.minimumf %x, %y : f64
  %maximum = arith.maximumf %x, %y fastmath<fast> : f64
  %minnum = arith.minnumf %x, %y fastmath<nnan> : f64
  %maxnum = arith.maxnumf %v, %v : vector<2xf64>
  %vmin = arith.minimumf %v, %v : vector<2xf64>
  func.return %vmin : vector<2xf64>
}
// CHECK-LABEL: llvm.func @min_max
// CHECK-NEXT:    %smin = llvm.call_intrinsic "llvm.smin.i16"(%a, %b) : (i16, i16) -> i16
// CHECK-NEXT:    %smax = llvm.call_intrinsic "llvm.smax.i16"(%a, %b) : (i16, i16) -> i16
// CHECK-NEXT:    %umin = llvm.call_intrinsic "llvm.umin.i16"(%a, %b) : (i16, i16) -> i16
// CHECK-NEXT:    %umax = llvm.call_intrinsic "llvm.umax.i16"(%a, %b) : (i16, i16) -> i16
// CHECK-NEXT:    %minimum = llvm.call_intrinsic "llvm.minimum.f64"(%x, %y) : (f64, f64) -> f64
// CHECK-NEXT:    %maximum = llvm.call_intrinsic "llvm.maximum.f64"(%x, %y) : (f64, f64) -> f64
// CHECK-NEXT:    %minnum = llvm.intr.minnum(%x, %y) {fastmathFlags = #llvm.fastmath<nnan>} : (f64, f64) -> f64
// CHECK-NEXT:    %maxnum = llvm.intr.maxnum(%v, %v) : (vector<2xf64>, vector<2xf64>) -> vector<2xf64>
// CHECK-NEXT:    %vmin = llvm.call_intrinsic "llvm.minimum.v2f64"(%v, %v) : (vector<2xf64>, vector<2xf64>) -> vector<2xf64>

// -----

// floordivsi: the truncated quotient, minus 1 where the remainder is not 0 and its
// sign differs from the divisor's.
func.func @floordivsi(%a: i32, %b: i32) -> i32 {
  %q = arith.floordivsi %a, %b : i32
  func.return %q : i32
}
// CHECK-LABEL: llvm.func @floordivsi(%a: i32, %b: i32) -> i32 {
// CHECK-NEXT:    %[[QUOTIENT:.*]] = llvm.sdiv %a, %b : i32
// CHECK-NEXT:    %[[REMAINDER:.*]] = llvm.srem %a, %b : i32
// CHECK-NEXT:    %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    %[[INEXACT:.*]] = llvm.icmp "ne" %[[REMAINDER]], %[[ZERO]] : i32
// CHECK-NEXT:    %[[RNEG:.*]] = llvm.icmp "slt" %[[REMAINDER]], %[[ZERO]] : i32
// CHECK-NEXT:    %[[BNEG:.*]] = llvm.icmp "slt" %b, %[[ZERO]] : i32
// CHECK-NEXT:    %[[DIFFER:.*]] = llvm.xor %[[RNEG]], %[[BNEG]] : i1
// CHECK-NEXT:    %[[ADJUST:.*]] = llvm.and %[[INEXACT]], %[[DIFFER]] : i1
// CHECK-NEXT:    %[[ONE:.*]] = llvm.zext %[[ADJUST]] : i1 to i32
// CHECK-NEXT:    %q = llvm.sub %[[QUOTIENT]], %[[ONE]] : i32
// CHECK-NEXT:    llvm.return %q : i32

// -----

// ceildivsi: plus 1 where the remainder is not 0 and has the divisor's sign.
func.func @ceildivsi(%a: i32, %b: i32) -> i32 {
  %q = arith.ceildivsi %a, %b : i32
  func.return %q : i32
}
// CHECK-LABEL: llvm.func @ceildivsi(%a: i32, %b: i32) -> i32 {
// CHECK-NEXT:    %[[QUOTIENT:.*]] = llvm.sdiv %a, %b : i32
// CHECK-NEXT:    %[[REMAINDER:.*]] = llvm.srem %a, %b : i32
// CHECK-NEXT:    %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    %[[INEXACT:.*]] = llvm.icmp "ne" %[[REMAINDER]], %[[ZERO]] : i32
// CHECK-NEXT:    %[[RNEG:.*]] = llvm.icmp "slt" %[[REMAINDER]], %[[ZERO]] : i32
// CHECK-NEXT:    %[[BNEG:.*]] = llvm.icmp "slt" %b, %[[ZERO]] : i32
// CHECK-NEXT:    %[[SAME:.*]] = llvm.icmp "eq" %[[RNEG]], %[[BNEG]] : i1
// CHECK-NEXT:    %[[ADJUST:.*]] = llvm.and %[[INEXACT]], %[[SAME]] : i1
// CHECK-NEXT:    %[[ONE:.*]] = llvm.zext %[[ADJUST]] : i1 to i32
// CHECK-NEXT:    %q = llvm.add %[[QUOTIENT]], %[[ONE]] : i32
// CHECK-NEXT:    llvm.return %q : i32

// -----

// ceildivui: plus 1 where the remainder is not 0; on index, i64.
func.func @ceildivui(%a: index, %b: index) -> index {
  %q = arith.ceildivui %a, %b : index
  func.return %q : index
}
// CHECK-LABEL: llvm.func @ceildivui(%a: i64, %b: i64) -> i64 {
// CHECK-NEXT:    %[[QUOTIENT:.*]] = llvm.udiv %a, %b : i64
// CHECK-NEXT:    %[[REMAINDER:.*]] = llvm.urem %a, %b : i64
// CHECK-NEXT:    %[[ZERO:.*]] = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    %[[INEXACT:.*]] = llvm.icmp "ne" %[[REMAINDER]], %[[ZERO]] : i64
// CHECK-NEXT:    %[[ONE:.*]] = llvm.zext %[[INEXACT]] : i1 to i64
// CHECK-NEXT:    %q = llvm.add %[[QUOTIENT]], %[[ONE]] : i64
// CHECK-NEXT:    llvm.return %q : i64

// -----

// Rounding divisions work on vectors too.
func.func @floordivsi_vector(%a: vector<4xi32>) -> vector<4xi32> {
  %q = arith.floordivsi %a, %a : vector<4xi32>
  func.return %q : vector<4xi32>
}
// CHECK-LABEL: llvm.func @floordivsi_vector
// CHECK:         %[[ZERO:.*]] = llvm.mlir.constant(dense<0> : vector<4xi32>) : vector<4xi32>
// CHECK:         llvm.xor %{{.*}}, %{{.*}} : vector<4xi1>
// CHECK:         llvm.zext %{{.*}} : vector<4xi1> to vector<4xi32>
// CHECK-NEXT:    %q = llvm.sub

// -----

func.func @select(%c: i1, %a: index, %b: index, %v: vector<4xf32>) -> vector<4xf32> {
  %s = arith.select %c, %a, %b : index
  %w = arith.select %c, %v, %v : vector<4xf32>
  func.return %w : vector<4xf32>
}
// CHECK-LABEL: llvm.func @select
// CHECK-NEXT:    %s = llvm.select %c, %a, %b : i1, i64
// CHECK-NEXT:    %w = llvm.select %c, %v, %v : i1, vector<4xf32>

// -----

// index_cast: sign-extend to i64, truncate from i64, nothing between index and i64.
func.func @index_cast(%i: index, %n: i32, %w: i64) -> index {
  %narrow = arith.index_cast %i : index to i32
  %wide = arith.index_cast %n : i32 to index
  %same = arith.index_cast %w : i64 to index
  %sum = arith.addi %wide, %same : index
  func.return %sum : index
}
// CHECK-LABEL: llvm.func @index_cast(%i: i64, %n: i32, %w: i64) -> i64 {
// CHECK-NEXT:    %narrow = llvm.trunc %i : i64 to i32
// CHECK-NEXT:    %wide = llvm.sext %n : i32 to i64
// CHECK-NEXT:    %sum = llvm.add %wide, %w : i64
// CHECK-NEXT:    llvm.return %sum : i64

// -----

func.func @casts(%i: i32, %x: f32, %d: f64, %h: i8) -> f32 {
  %sext = arith.extsi %h : i8 to i32
  %zext = arith.extui %h : i8 to i32
  %trunc = arith.trunci %i : i32 to i8
  %extf = arith.extf %x : f32 to f64
  %truncf = arith.truncf %d : f64 to f32
  %sitofp = arith.sitofp %i : i32 to f32
  %uitofp = arith.uitofp %i : i32 to f32
  %fptosi = arith.fptosi %x : f32 to i32
  %fptoui = arith.fptoui %d : f64 to i8
  %bits = arith.bitcast %x : f32 to i32
  func.return %uitofp : f32
}
// CHECK-LABEL: llvm.func @casts
// CHECK-NEXT:    %sext = llvm.sext %h : i8 to i32
// CHECK-NEXT:    %zext = llvm.zext %h : i8 to i32
// CHECK-NEXT:    %trunc = llvm.trunc %i : i32 to i8
// CHECK-NEXT:    %extf = llvm.fpext %x : f32 to f64
// CHECK-NEXT:    %truncf = llvm.fptrunc %d : f64 to f32
// CHECK-NEXT:    %sitofp = llvm.sitofp %i : i32 to f32
// CHECK-NEXT:    %uitofp = llvmx.uitofp %i : i32 to f32
// CHECK-NEXT:    %fptosi = llvmx.fptosi %x : f32 to i32
// CHECK-NEXT:    %fptoui = llvmx.fptoui %d : f64 to i8
// CHECK-NEXT:    %bits = llvm.bitcast %x : f32 to i32
// CHECK-NEXT:    llvm.return %uitofp : f32
