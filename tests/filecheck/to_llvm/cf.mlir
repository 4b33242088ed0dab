// RUN: mux-opt %s --split-input-file -p convert-to-llvm | filecheck %s
//
// convert-to-llvm on cf: branches pass llvm values to blocks whose arguments
// change type with the function.

func.func @branches(%c: i1, %i: index, %m: memref<?xf32, 1>) -> index {
  cf.cond_br %c, ^then(%i, %m : index, memref<?xf32, 1>), ^else
^then(%j: index, %n: memref<?xf32, 1>):
  %x = memref.load %n[%j] : memref<?xf32, 1>
  cf.br ^join(%j : index)
^else:
  %zero = arith.constant 0 : index
  cf.br ^join(%zero : index)
^join(%r: index):
  func.return %r : index
}
// CHECK-LABEL: llvm.func @branches(%c: i1, %i: i64, %m: !llvm.ptr<1>) -> i64 {
// CHECK-NEXT:    llvm.cond_br %c, ^[[THEN:.*]](%i, %m : i64, !llvm.ptr<1>), ^[[ELSE:.*]]
// CHECK-NEXT:  ^[[THEN]](%j: i64, %n: !llvm.ptr<1>):
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %n[%j] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    %x = llvm.load %[[P]] {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-NEXT:    llvm.br ^[[JOIN:.*]](%j : i64)
// CHECK-NEXT:  ^[[ELSE]]:
// CHECK-NEXT:    %zero = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    llvm.br ^[[JOIN]](%zero : i64)
// CHECK-NEXT:  ^[[JOIN]](%r: i64):
// CHECK-NEXT:    llvm.return %r : i64

// -----

// cf.switch is llvmx.switch; an i32 or i64 flag as it is, index as i64.
func.func @switch(%flag: i32, %i: index) -> index {
  cf.switch %flag : i32, [
    default: ^default(%i : index),
    0: ^zero,
    5: ^default(%i : index)
  ]
^zero:
  %c = arith.constant 0 : index
  cf.br ^default(%c : index)
^default(%r: index):
  cf.switch %r : index, [
    default: ^exit,
    7: ^exit
  ]
^exit:
  func.return %r : index
}
// CHECK-LABEL: llvm.func @switch(%flag: i32, %i: i64) -> i64 {
// CHECK-NEXT:    llvmx.switch %flag : i32, ^[[DEFAULT:.*]](%i : i64) [
// CHECK-NEXT:      0: ^[[ZERO:.*]],
// CHECK-NEXT:      5: ^[[DEFAULT]](%i : i64)
// CHECK-NEXT:    ]
// CHECK-NEXT:  ^[[ZERO]]:
// CHECK-NEXT:    %c = llvm.mlir.constant(0) : i64
// CHECK-NEXT:    llvm.br ^[[DEFAULT]](%c : i64)
// CHECK-NEXT:  ^[[DEFAULT]](%r: i64):
// CHECK-NEXT:    llvmx.switch %r : i64, ^[[EXIT:.*]] [
// CHECK-NEXT:      7: ^[[EXIT]]
// CHECK-NEXT:    ]

// -----

// A flag narrower than i32 is sign-extended, and each case value read as a signed
// number of the flag's width (200 as an i8 is -56).
func.func @narrow_switch(%flag: i8) {
  cf.switch %flag : i8, [
    default: ^exit,
    -1: ^exit,
    200: ^exit
  ]
^exit:
  func.return
}
// CHECK-LABEL: llvm.func @narrow_switch(%flag: i8) {
// CHECK-NEXT:    %[[WIDE:.*]] = llvm.sext %flag : i8 to i32
// CHECK-NEXT:    llvmx.switch %[[WIDE]] : i32, ^[[EXIT:.*]] [
// CHECK-NEXT:      -1: ^[[EXIT]],
// CHECK-NEXT:      -56: ^[[EXIT]]
// CHECK-NEXT:    ]

// -----

// cf.assert: the kernel promises the condition; a failed assertion is undefined.
func.func @assert(%c: i1, %x: f32) -> f32 {
  %y = arith.addf %x, %x : f32
  cf.assert %c, "c must hold"
  %z = arith.mulf %y, %y : f32
  func.return %z : f32
}
// CHECK-LABEL: llvm.func @assert(%c: i1, %x: f32) -> f32 {
// CHECK-NEXT:    %y = llvm.fadd %x, %x : f32
// CHECK-NEXT:    llvm.cond_br %c, ^[[HOLDS:.*]], ^[[FAILED:.*]]
// CHECK-NEXT:  ^[[FAILED]]:
// CHECK-NEXT:    llvm.unreachable
// CHECK-NEXT:  ^[[HOLDS]]:
// CHECK-NEXT:    %z = llvm.fmul %y, %y : f32
// CHECK-NEXT:    llvm.return %z : f32
