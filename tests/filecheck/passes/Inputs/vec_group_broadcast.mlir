// A vec-group broadcast from a runtime lane.
func.func @broadcast(%v: vector<8xf32>, %lane: i32) -> f32 {
  %x = mux.vec_group_broadcast %v, %lane : vector<8xf32> -> f32
  func.return %x : f32
}
