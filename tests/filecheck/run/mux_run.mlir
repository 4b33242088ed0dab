// Execution through mux-run: the kernel below, compiled and run on the command line.
//
// scatter(out, n): out[gid] = gid * n + local_id; in 1-D with 3 work-groups of 4,
// the last one smaller (10 work-items).
// RUN: mux-run %s scatter --global 10 --local 4 zeros:10 100 | filecheck %s
// CHECK: out = [   0  101  202  303  400  501  602  703  800  901]
//
// A global offset moves the ids: work-items 5..9 write out[5..9].
// RUN: mux-run %s scatter --global 5 --local 5 --offset 5 zeros:10 1 | filecheck %s --check-prefix=OFFSET
// OFFSET: out = [ 0  0  0  0  0  5  7  9 11 13]
//
// One thread or all of them: the same result.
// RUN: mux-run %s scatter --global 10 --local 2 --threads 1 zeros:10 2 | filecheck %s --check-prefix=THREADS
// RUN: mux-run %s scatter --global 10 --local 2 --threads 2 zeros:10 2 | filecheck %s --check-prefix=THREADS
// THREADS: out = [ 0  3  4  7  8 11 12 15 16 19]
//
// Vectorised 4 work-items at a time (the groups of 4 are whole packets, the last
// group of 2 runs scalar), or not at all: the same result.
// RUN: mux-run %s scatter --global 10 --local 4 --vecz-width 4 zeros:10 100 | filecheck %s
// RUN: mux-run %s scatter --global 10 --local 4 --vecz-width 1 zeros:10 100 | filecheck %s
// RUN: not mux-run %s scatter --global 4 --vecz-width 3 zeros:4 1 2>&1 | filecheck %s --check-prefix=WIDTH
// WIDTH: mux-run: vecz_width: one of 0, 1, 2, 4, 8, 16, 32, got 3
//
// Buffers can be written to a .npz file instead, and read from .npy files.
// RUN: rm -f %t.npz && mux-run %s scatter --global 3 --local 3 zeros:3 5 --out %t.npz
// RUN: python -c "import numpy as np; print(np.load('%t.npz')['out'])" | filecheck %s --check-prefix=NPZ
// NPZ: [ 0  6 12]
// RUN: python -c "import numpy as np; np.save('%t.npy', np.full(4, 9, np.int32))"
// RUN: mux-run %s scatter --global 2 --local 1 %t.npy 1 | filecheck %s --check-prefix=NPY
// NPY: out = [0 1 9 9]
//
// Mistakes are reported, not crashes.
// RUN: not mux-run %s scatter --global 4 zeros:4 2>&1 | filecheck %s --check-prefix=COUNT
// COUNT: mux-run: scatter takes 2 arguments (out n), got 1
// RUN: not mux-run %s scatter --global 4 zeros:4 1.5 2>&1 | filecheck %s --check-prefix=SCALAR
// SCALAR: mux-run: 'n' is an i32 scalar, got '1.5'
// RUN: not mux-run %s scatter --global 4 lots:4 1 2>&1 | filecheck %s --check-prefix=BUFFER
// BUFFER: mux-run: 'out' is a buffer: give zeros:N, ones:N, range:N, random:N[:SEED] or a .npy file, got 'lots:4'
// RUN: not mux-run %s gather --global 4 zeros:4 1 2>&1 | filecheck %s --check-prefix=KERNEL
// KERNEL: mux-run: no kernel 'gather' (kernels: scatter)
// RUN: not mux-run %s scatter --global 4 --local 4,1 zeros:4 1 2>&1 | filecheck %s --check-prefix=LAUNCH
// LAUNCH: mux-run: local_size: 2 dimensions, global_size has 1
func.func @scatter(%out: memref<?xi32, 1>, %n: i32) attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %gid = mux.get_global_id %d
  %lid = mux.get_local_id %d
  %g = arith.index_cast %gid : index to i32
  %l = arith.index_cast %lid : index to i32
  %scaled = arith.muli %g, %n : i32
  %value = arith.addi %scaled, %l : i32
  memref.store %value, %out[%gid] : memref<?xi32, 1>
  func.return
}
