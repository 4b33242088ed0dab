// RUN: mux-opt %s --split-input-file -p convert-to-llvm | filecheck %s
//
// convert-to-llvm on scf: structured control flow becomes blocks first (xDSL's
// convert-scf-to-cf, plus scf.while), then llvm branches.

func.func @while(%n: index) -> index {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %last = scf.while (%stride = %c1) : (index) -> index {
    %more = arith.cmpi ult, %stride, %n : index
    scf.condition(%more) %stride : index
  } do {
  ^bb0(%s: index):
    %next = arith.muli %s, %c2 : index
    scf.yield %next : index
  }
  func.return %last : index
}
// CHECK-LABEL: llvm.func @while(%n: i64) -> i64 {
// CHECK-NEXT:    %c1 = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %c2 = llvm.mlir.constant(2) : i64
// CHECK-NEXT:    llvm.br ^[[BEFORE:.*]](%c1 : i64)
// CHECK-NEXT:  ^[[BEFORE]](%stride: i64):
// CHECK-NEXT:    %more = llvm.icmp "ult" %stride, %n : i64
// CHECK-NEXT:    llvm.cond_br %more, ^[[AFTER:.*]](%stride : i64), ^[[REST:.*]]
// CHECK-NEXT:  ^[[AFTER]](%s: i64):
// CHECK-NEXT:    %next = llvm.mul %s, %c2 : i64
// CHECK-NEXT:    llvm.br ^[[BEFORE]](%next : i64)
// CHECK-NEXT:  ^[[REST]]:
// CHECK-NEXT:    llvm.return %stride : i64

// -----

func.func @for_if(%a: memref<?xf32, 1>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    %x = memref.load %a[%i] : memref<?xf32, 1>
    %positive = arith.cmpf ogt, %x, %zero : f32
    %next = scf.if %positive -> (f32) {
      %s = arith.addf %acc, %x : f32
      scf.yield %s : f32
    } else {
      scf.yield %acc : f32
    }
    scf.yield %next : f32
  }
  func.return %sum : f32
}
// CHECK-LABEL: llvm.func @for_if(%a: !llvm.ptr<1>, %n: i64) -> f32 {
// CHECK:         llvm.br ^[[HEADER:.*]](%c0, %zero : i64, f32)
// CHECK-NEXT:  ^[[HEADER]](%i: i64, %acc: f32):
// CHECK-NEXT:    %[[MORE:.*]] = llvm.icmp "slt" %i, %n : i64
// CHECK-NEXT:    llvm.cond_br %[[MORE]], ^[[BODY:.*]], ^[[EXIT:.*]]
// CHECK-NEXT:  ^[[BODY]]:
// CHECK:         %positive = llvm.fcmp "ogt" %x, %zero : f32
// CHECK-NEXT:    llvm.cond_br %positive, ^[[THEN:.*]], ^[[ELSE:.*]]
// CHECK:         llvm.br ^[[JOIN:.*]](%s : f32)
// CHECK:         llvm.br ^[[JOIN]](%acc : f32)
// CHECK-NEXT:  ^[[JOIN]](%next: f32):
// CHECK:         %[[STEP:.*]] = llvm.add %i, %c1 : i64
// CHECK-NEXT:    llvm.br ^[[HEADER]](%[[STEP]], %next : i64, f32)
// CHECK-NEXT:  ^[[EXIT]]:
// CHECK-NEXT:    llvm.return %acc : f32
