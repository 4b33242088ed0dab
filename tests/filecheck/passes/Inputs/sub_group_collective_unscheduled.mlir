func.func @helper(%x: i32) -> i32 attributes {mux.scheduled_fn = array<i32: -1, -1>} {
  %r = mux.sub_group_reduce add %x : i32
  func.return %r : i32
}
func.func @k(%x: i32) attributes {mux.kernel = "entry-point", mux.sub_group_size = 8 : i32, mux.scheduled_fn = array<i32: -1, -1>} {
  %r = func.call @helper(%x) : (i32) -> i32
  func.return
}
