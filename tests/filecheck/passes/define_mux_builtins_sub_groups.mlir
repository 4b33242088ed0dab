// RUN: mux-opt %s -p define-mux-builtins | filecheck %s
//
// Sub-groups of the spec's default size 1: each work-item is its own sub-group, so
// the collectives and shuffles are the work-item's own values (out-of-range lanes
// give the work-item's own value); an exclusive scan is the operation's identity.
// CHECK-LABEL: func.func @one(
// CHECK-NEXT:    %size = arith.constant 1 : i32
// CHECK-NEXT:    %lid = arith.constant 0 : i32
// CHECK-NEXT:    %exc = arith.constant 1 : i32
// CHECK-NEXT:    %fexc = arith.constant 0x7f800000 : f32
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[UP:.*]] = arith.cmpi eq, %d, %[[C1]] : i32
// CHECK-NEXT:    %su = arith.select %[[UP]], %w, %x : i32
// CHECK-NEXT:    %[[C1B:.*]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[DOWN:.*]] = arith.cmpi eq, %d, %[[C1B]] : i32
// CHECK-NEXT:    %sd = arith.select %[[DOWN]], %w, %x : i32
// CHECK-NEXT:    %alsox = arith.addi %size, %lid : i32
// CHECK-NEXT:    func.return %x, %b, %b, %x, %x, %exc, %fexc, %x, %x, %x, %su, %sd
func.func @one(%x: i32, %w: i32, %d: i32, %b: i1, %f: f32) -> (i32, i1, i1, i32, i32, i32, f32, i32, i32, i32, i32, i32) attributes {mux.scheduled_fn = array<i32: -1, -1>} {
  %size = mux.get_sub_group_size
  %lid = mux.get_sub_group_local_id
  %r = mux.sub_group_reduce add %x : i32
  %any = mux.sub_group_any %b
  %all = mux.sub_group_all %b
  %inc = mux.sub_group_scan_inclusive mul %x : i32
  %bc = mux.sub_group_broadcast %x, %d : i32
  %exc = mux.sub_group_scan_exclusive mul %x : i32
  %fexc = mux.sub_group_scan_exclusive fmin %f : f32
  %sh = mux.sub_group_shuffle %x, %d : i32
  %sx = mux.sub_group_shuffle_xor %x, %d : i32
  %su = mux.sub_group_shuffle_up %w, %x, %d : i32
  %sd = mux.sub_group_shuffle_down %x, %w, %d : i32
  %alsox = arith.addi %size, %lid : i32
  func.return %r, %any, %all, %inc, %bc, %exc, %fexc, %sh, %sx, %x, %su, %sd : i32, i1, i1, i32, i32, i32, f32, i32, i32, i32, i32, i32
}
