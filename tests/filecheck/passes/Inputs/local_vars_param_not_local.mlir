func.func @k(%local_vars: memref<16xi8, 1>, %wi: !llvm.ptr, %wg: !llvm.ptr) attributes {mux.kernel = "entry-point", mux.scheduled_fn = array<i32: 1, 2>, mux.local_vars_param = array<i64: 0, 16, 4>} {
  func.return
}
