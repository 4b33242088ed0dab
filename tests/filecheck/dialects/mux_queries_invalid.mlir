// RUN: mux-opt --split-input-file --verify-diagnostics %s | filecheck %s
//
// The queries' types are the spec's signatures.

func.func @i64_dimension(%d: i64) {
  %0 = "mux.get_global_id"(%d) : (i64) -> index
  func.return
}
// CHECK: operand 'dim' at position 0 does not verify
// CHECK: Expected attribute i32 but got i64

// -----

func.func @i64_result(%d: i32) {
  %0 = "mux.get_local_size"(%d) : (i32) -> i64
  func.return
}
// CHECK: result 'result' at position 0 does not verify
// CHECK: i64 should be of base attribute index

// -----

func.func @index_work_dim() {
  %0 = "mux.get_work_dim"() : () -> index
  func.return
}
// CHECK: result 'result' at position 0 does not verify
// CHECK: Expected attribute i32 but got index
