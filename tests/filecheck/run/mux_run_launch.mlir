// mux-run reports the launch checks of the runtime in one line, not a traceback.
// RUN: not mux-run %s scratch --global 4 --local 4 zeros:4 local:0 1 2>&1 | filecheck %s --check-prefix=LOCAL0
// LOCAL0: mux-run: 'tile' is local memory: give local:BYTES (a positive number), got 'local:0'
// RUN: not mux-run %s scratch --global 4 zeros:4 local:16 x 2>&1 | filecheck %s --check-prefix=INDEX
// INDEX: mux-run: 'n' is an index scalar, got 'x'
// RUN: not mux-run %s scratch --global 4 zeros:4 local:16 18446744073709551616 2>&1 | filecheck %s --check-prefix=RANGE
// RANGE: mux-run: argument 'n': 18446744073709551616 is out of range for index: an integer from -9223372036854775808 to 18446744073709551615
// RUN: not mux-run %s scratch --global 4,4 zeros:4 local:16 1 2>&1 | filecheck %s --check-prefix=DIMS
// DIMS: mux-run: global_size: the kernel's mux.max_work_dim = 1 allows 1 dimension at most, got 2 ((4, 4))
// RUN: not mux-run %s nope --global 4 zeros:4 local:16 1 2>&1 | filecheck %s --check-prefix=KERNEL
// KERNEL: mux-run: no kernel 'nope' (kernels: scratch)
func.func @scratch(%out: memref<?xi32, 1>, %tile: memref<?xi32, 3>, %n: index)
    attributes {mux.kernel = "entry-point", mux.max_work_dim = 1 : i32} {
  func.return
}
