// RUN: mux-opt %s -p replace-module-scope-vars,check-local-races | filecheck %s
//
// check-local-races names a module-scope local variable by its name (the address
// replace-module-scope-vars gives it records it: mux.local_variable), and a race's
// byte offset is within the variable: the access's address minus the variable's
// (@sums is at offset 16 of the buffer; its element lid is at byte lid * 4 of it).

// CHECK:      builtin.module attributes {mux.check_sites = [
// CHECK-SAME:   "load from local variable 'tile' at {{[^"]*}}check_local_races_variables.mlir:{{[0-9]+}}:3",
// CHECK-SAME:   "store to local variable 'sums' at {{[^"]*}}check_local_races_variables.mlir:{{[0-9]+}}:3"]}
// CHECK:         %sums = builtin.unrealized_conversion_cast %{{.*}} : !llvm.ptr<3> to memref<8xf32, 3 : i64> {mux.local_variable = {name = "sums", offset = 16 : i64
// CHECK:         %[[P:.*]] = builtin.unrealized_conversion_cast %sums : memref<8xf32, 3 : i64> to !llvm.ptr<3>
// CHECK-NEXT:    %[[BASE:.*]] = llvm.ptrtoint %[[P]] : !llvm.ptr<3> to i64
// CHECK:         %[[ADDRESS:.*]] = arith.addi %[[BASE]], %{{.*}} : i64
// CHECK:         scf.if %{{[0-9a-z_]+}} {
// CHECK-NEXT:      %[[Q:.*]] = builtin.unrealized_conversion_cast %sums : memref<8xf32, 3 : i64> to !llvm.ptr<3>
// CHECK-NEXT:      %[[START:.*]] = llvm.ptrtoint %[[Q]] : !llvm.ptr<3> to i64
// CHECK-NEXT:      %[[OFFSET:.*]] = arith.subi %[[ADDRESS]], %[[START]] : i64
// CHECK:           func.call @__mux_report_local_race(%{{.*}}, %{{.*}}, %[[OFFSET]],
"memref.global"() <{sym_name = "tile", type = memref<4xf32, 3>, initial_value, sym_visibility = "private"}> : () -> ()
"memref.global"() <{sym_name = "sums", type = memref<8xf32, 3>, initial_value, sym_visibility = "private"}> : () -> ()
func.func @k(%out: memref<?xf32, 1>) attributes {mux.kernel = "entry-point"} {
  %c0_i32 = arith.constant 0 : i32
  %lid = mux.get_local_id %c0_i32
  %tile = memref.get_global @tile : memref<4xf32, 3>
  %sums = memref.get_global @sums : memref<8xf32, 3>
  %c0 = arith.constant 0 : index
  %v = memref.load %tile[%c0] : memref<4xf32, 3>
  memref.store %v, %sums[%lid] : memref<8xf32, 3>
  func.return
}
