// RUN: mux-opt %s -p check-access-bounds | filecheck %s
//
// Checked mode in a kernel with a barrier: each access is put in an `scf.if`
// of its bounds, as in a kernel without, but the fault branch reports at once,
// by a call of the module's cold recording function (site, element, byte
// offset, lane), and each extent is loaded from the record at the access (a
// value of the entry would live across the barrier: work-item-loops would keep
// it per work-item). The loads are `mux.invariant_load`: LLVM hoists them out
// of the work-item loops. Keeping the fault in private words until the return,
// as a kernel without barriers does, was measured slower here
// (docs/performance.md, "Checked mode").

func.func @shift(%src: memref<?xf32, 1>, %out: memref<?xf32, 1>, %tmp: memref<?xf32, 3>)
    attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %g = mux.get_global_id %d
  %l = mux.get_local_id %d
  %v = memref.load %src[%g] : memref<?xf32, 1>
  memref.store %v, %tmp[%l] : memref<?xf32, 3>
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %one = arith.constant 1 : index
  %n = arith.addi %l, %one : index
  %w = memref.load %tmp[%n] : memref<?xf32, 3>
  memref.store %w, %out[%g] : memref<?xf32, 1>
  func.return
}

// CHECK:      builtin.module attributes {mux.check_sites = [
// CHECK-SAME:   "load from parameter 'src' (memref<?xf32, 1 : i64>) at {{.*}}barriers.mlir:18:3",
// CHECK-SAME:   "store to parameter 'tmp' (memref<?xf32, 3 : i64>) at {{.*}}barriers.mlir:19:3",
// CHECK-SAME:   "load from parameter 'tmp' (memref<?xf32, 3 : i64>) at {{.*}}barriers.mlir:23:3",
// CHECK-SAME:   "store to parameter 'out' (memref<?xf32, 1 : i64>) at {{.*}}barriers.mlir:24:3"]}
// CHECK:      func.func @shift({{.*}}, %[[RECORD:.*]]: memref<?xi64, 1 : i64>)
// CHECK-SAME:    mux.check_record = 3 : i64
// CHECK-NOT:     memref.alloca
// CHECK:         %[[WORD:.*]] = arith.constant 35 : index
// CHECK-NEXT:    %[[BYTES:.*]] = memref.load %[[RECORD]][%[[WORD]]] {mux.invariant_load}
// CHECK-NEXT:    %[[BYTESI:.*]] = arith.index_cast %[[BYTES]] : i64 to index
// CHECK-NEXT:    %[[SIZE:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[COUNT:.*]] = arith.divui %[[BYTESI]], %[[SIZE]] : index
// CHECK-NEXT:    %[[OK:.*]] = arith.cmpi ult, %g, %[[COUNT]] : index
// CHECK-NEXT:    %v = scf.if %[[OK]] -> (f32) {
// CHECK-NEXT:      %[[V:.*]] = memref.load %src[%g]
// CHECK-NEXT:      scf.yield %[[V]] : f32
// CHECK-NEXT:    } else {
// CHECK:           func.call @__mux_check_report_out_of_bounds(%[[RECORD]], {{.*}})
// CHECK:           scf.yield %{{.*}} : f32
// CHECK-NEXT:    }
// CHECK:         arith.constant 39 : index
// CHECK-NEXT:    memref.load %[[RECORD]]
// CHECK:         scf.if
// CHECK-NEXT:      memref.store %v, %tmp[%l]
// CHECK:           func.call @__mux_check_report_out_of_bounds
// CHECK:         mux.work_group_barrier id(0)
// The extent of `tmp` again, after the barrier
// CHECK:         %[[TMPWORD:.*]] = arith.constant 39 : index
// CHECK-NEXT:    memref.load %[[RECORD]][%[[TMPWORD]]] {mux.invariant_load}
// CHECK:         %w = scf.if
// CHECK-NEXT:      memref.load %tmp[%n]
// CHECK:           func.call @__mux_check_report_out_of_bounds
// CHECK:         scf.if
// CHECK-NEXT:      memref.store %w, %out[%g]
// CHECK:           func.call @__mux_check_report_out_of_bounds
// CHECK:         func.return
// CHECK:      func.func private @__mux_check_report_out_of_bounds({{.*}}) attributes {passthrough = ["noinline", "cold"]}
