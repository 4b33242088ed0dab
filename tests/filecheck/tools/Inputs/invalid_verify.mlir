func.func @bad(%x: i32) -> i32 {
  %r = mux.sub_group_reduce fadd %x : i32
  func.return %r : i32
}
