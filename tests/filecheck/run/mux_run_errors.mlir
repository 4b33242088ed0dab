// mux-run's bad inputs: one line on stderr, `mux-run: ...`, naming the problem, and
// an error exit; never a Python traceback.
//
// RUN: not mux-run %s.nope scatter --global 4 zeros:4 1 2>&1 | filecheck %s --check-prefix=FILE
// FILE: mux-run: cannot read {{.*}}mux_run_errors.mlir.nope: No such file or directory
// FILE-NOT: Traceback
//
// --out into a directory that does not exist: refused before the kernel runs.
// RUN: not mux-run %s scatter --global 4 zeros:4 1 --out %t.nodir/out.npz 2>&1 | filecheck %s --check-prefix=OUT
// OUT: mux-run: cannot write {{.*}}.nodir/out.npz: No such file or directory
// OUT-NOT: Traceback
//
// A .npy argument that is not there, or not a .npy file.
// RUN: not mux-run %s scatter --global 4 %t.missing.npy 1 2>&1 | filecheck %s --check-prefix=NPY
// NPY: mux-run: 'out': cannot read {{.*}}.missing.npy: No such file or directory
// RUN: echo garbage > %t.bad.npy
// RUN: not mux-run %s scatter --global 4 %t.bad.npy 1 2>&1 | filecheck %s --check-prefix=BADNPY
// BADNPY: mux-run: 'out': {{.*}}.bad.npy is not a .npy file of numbers
// BADNPY-NOT: Traceback
//
// A buffer larger than memory, a seed that is not a number.
// RUN: not mux-run %s scatter --global 4 zeros:99999999999999999 1 2>&1 | filecheck %s --check-prefix=HUGE
// HUGE: mux-run: 'out': cannot allocate 99999999999999999 elements of int32
// HUGE-NOT: Traceback
// RUN: not mux-run %s scatter --global 4 random:4:x 1 2>&1 | filecheck %s --check-prefix=SEED
// SEED: mux-run: 'out' is a buffer: give zeros:N, ones:N, range:N, random:N[:SEED] or a .npy file, got 'random:4:x'
//
// A module that is not UTF-8 text, or does not parse: a compile error with its place.
// RUN: printf '\377\376' > %t.bin.mlir
// RUN: not mux-run %t.bin.mlir k --global 4 2>&1 | filecheck %s --check-prefix=UTF8
// UTF8: mux-run: {{.*}}.bin.mlir is not UTF-8 text
// UTF8-NOT: Traceback
// RUN: not mux-run %S/../tools/Inputs/invalid_op.mlir bad --global 4 2>&1 | filecheck %s --check-prefix=PARSE
// PARSE: mux-run: {{.*}}invalid_op.mlir:2:{{[0-9]+}}
// PARSE-NOT: Traceback
//
// Too few arguments, an unknown kernel, a bad size.
// RUN: not mux-run %s scatter --global 4 2>&1 | filecheck %s --check-prefix=FEW
// FEW: mux-run: scatter takes 2 arguments (out n), got 0
// RUN: not mux-run %s nope --global 4 2>&1 | filecheck %s --check-prefix=KERNEL
// KERNEL: mux-run: no kernel 'nope' (kernels: scatter)
// RUN: not mux-run %s scatter --global 4,x zeros:4 1 2>&1 | filecheck %s --check-prefix=GLOBAL
// GLOBAL: mux-run: error: argument --global: sizes are integers: '4,x'
// RUN: not mux-run %s scatter --global 0 zeros:4 1 2>&1 | filecheck %s --check-prefix=ZERO
// ZERO: mux-run: global_size
// ZERO-NOT: Traceback
func.func @scatter(%out: memref<?xi32, 1>, %n: i32) attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %gid = mux.get_global_id %d
  %g = arith.index_cast %gid : index to i32
  memref.store %g, %out[%gid] : memref<?xi32, 1>
  func.return
}
