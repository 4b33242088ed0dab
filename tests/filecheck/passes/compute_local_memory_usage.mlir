// RUN: mux-opt %s -p compute-local-memory-usage | filecheck %s
// RUN: mux-opt %s -p replace-module-scope-vars,compute-local-memory-usage | filecheck %s
// RUN: mux-opt %s -p 'host{to-llvm=false},compute-local-memory-usage' | filecheck %s --check-prefix=HOST
//
// compute-local-memory-usage: each kernel entry point records the bytes of local
// memory its module-scope local variables take (mux.local_mem_usage), the size of the
// buffer replace-module-scope-vars gives it, 0 if it uses none. The same number
// before replace-module-scope-vars, after it, and on the entry hook of the host
// pipeline. Local buffer arguments are not counted (their size comes at launch).
//   @tile 64 x f32 at 0, @count i32 at 256, @acc vector<3xf32> at 272: 288 bytes.

// CHECK-LABEL: func.func @direct(
// CHECK-SAME:    mux.local_mem_usage = 288 : i64
// CHECK-LABEL: func.func @through_a_call(
// CHECK-SAME:    mux.local_mem_usage = 288 : i64
// CHECK-LABEL: func.func @none(
// CHECK-SAME:    mux.local_mem_usage = 0 : i64
// CHECK-LABEL: func.func @buffer_argument(
// CHECK-SAME:    mux.local_mem_usage = 0 : i64
// HOST-DAG:    func.func @"direct.host-entry-hook"({{.*}}mux.local_mem_usage = 288 : i64
// HOST-DAG:    func.func @"through_a_call.host-entry-hook"({{.*}}mux.local_mem_usage = 288 : i64
// HOST-DAG:    func.func @"none.host-entry-hook"({{.*}}mux.local_mem_usage = 0 : i64
"memref.global"() <{sym_name = "tile", type = memref<64xf32, 3>, initial_value, sym_visibility = "private"}> : () -> ()
"memref.global"() <{sym_name = "count", type = memref<i32, 3>, initial_value, sym_visibility = "private"}> : () -> ()
"memref.global"() <{sym_name = "acc", type = memref<vector<3xf32>, 3>, initial_value, sym_visibility = "private"}> : () -> ()
func.func @direct(%out: memref<?xf32, 1>) attributes {mux.kernel = "entry-point"} {
  %tile = memref.get_global @tile : memref<64xf32, 3>
  %acc = memref.get_global @acc : memref<vector<3xf32>, 3>
  %i = arith.constant 0 : index
  %t = memref.load %tile[%i] : memref<64xf32, 3>
  %a = memref.load %acc[] : memref<vector<3xf32>, 3>
  func.return
}
func.func @helper() -> i32 {
  %count = memref.get_global @count : memref<i32, 3>
  %v = memref.load %count[] : memref<i32, 3>
  func.return %v : i32
}
func.func @through_a_call() attributes {mux.kernel = "entry-point"} {
  %v = func.call @helper() : () -> i32
  func.return
}
func.func @none(%out: memref<?xf32, 1>) attributes {mux.kernel = "entry-point"} {
  func.return
}
func.func @buffer_argument(%scratch: memref<?xf32, 3>) attributes {mux.kernel = "entry-point"} {
  func.return
}
