// A pass that fails at an op shows the op at its place in the source, with its line,
// not the module (MUX_DIAGNOSTIC_IR=1 adds the IR); in a chunk of --split-input-file
// the line is the file's.
//
// RUN: not mux-opt %S/Inputs/kernel_fpowi.mlir -p host 2>&1 | filecheck %s --check-prefix=FPOWI
// FPOWI: kernel_fpowi.mlir:6:3: error: convert-to-llvm: math.fpowi has no conversion to the llvm dialect
// FPOWI-NEXT: %y = math.fpowi %x, %three : f32, i32
// FPOWI-NEXT: ^
// FPOWI-NOT: llvm.func
//
// RUN: env MUX_DIAGNOSTIC_IR=1 not mux-opt %S/Inputs/kernel_fpowi.mlir -p host 2>&1 | filecheck %s --check-prefix=IR
// IR: kernel_fpowi.mlir:6:3: error: convert-to-llvm: math.fpowi
// IR: func.func
// IR: math.fpowi
// IR-NEXT: ^^^^
//
// RUN: not mux-opt --split-input-file %s -p work-item-loops 2>&1 | filecheck %s --check-prefix=SPLIT
// SPLIT: mux_opt_locations.mlir:29:3: error: func.return: work-item-loops: kernel 'k' returns values
// SPLIT-NEXT: func.return %d : i32
//
// A type an op's syntax refuses is an error at that op.
// RUN: not mux-opt --split-input-file %s 2>&1 | filecheck %s --check-prefix=ADDF
// ADDF: mux_opt_locations.mlir:35:3
// ADDF-NEXT: %y = arith.addf %x, %x : i32
// ADDF: arith.addf: Unexpected attribute i32

func.func @k() -> i32 attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  func.return %d : i32
}

// -----

func.func @f(%x: i32) {
  %y = arith.addf %x, %x : i32
  func.return
}
