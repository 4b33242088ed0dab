// RUN: mux-opt %s -p check-access-bounds | filecheck %s
//
// Checked mode in a kernel with a barrier: each access is put in an `scf.if`
// of its bounds, as in a kernel without, and the fault branch keeps the
// work-item's first fault in private words (site + 1, element, byte offset;
// and a count), with no call: the words are marked `mux.check_fault_word` and
// left for `work-item-loops`, which gives each region function its own,
// zeroed, copies them to the wrapper after each region of a work-item that
// faulted and reports the group's first fault when the group ends
// (`lowering.scheduling.region_faults`; tests/test_checked_bounds_barriers.py
// runs them). The work-item loops then hold no call. Each extent is loaded
// from the record at the access (a value of the entry would live across the
// barrier); the loads are `mux.invariant_load`, which LLVM hoists out of the
// loops.

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
// CHECK-SAME:   "load from parameter 'src' (memref<?xf32, 1 : i64>) at {{.*}}barriers.mlir:21:3",
// CHECK-SAME:   "store to parameter 'tmp' (memref<?xf32, 3 : i64>) at {{.*}}barriers.mlir:22:3",
// CHECK-SAME:   "load from parameter 'tmp' (memref<?xf32, 3 : i64>) at {{.*}}barriers.mlir:26:3",
// CHECK-SAME:   "store to parameter 'out' (memref<?xf32, 1 : i64>) at {{.*}}barriers.mlir:27:3"]}
// CHECK:      func.func @shift({{.*}}, %[[RECORD:.*]]: memref<?xi64, 1 : i64>)
// CHECK-SAME:    mux.check_record = 3 : i64
// CHECK-NEXT:    %[[SITE:.*]] = memref.alloca() {mux.check_fault_word = 0 : i64} : memref<1xi64>
// CHECK-NEXT:    %[[ELEMENT:.*]] = memref.alloca() {mux.check_fault_word = 1 : i64} : memref<1xi64>
// CHECK-NEXT:    %[[OFFSET:.*]] = memref.alloca() {mux.check_fault_word = 2 : i64} : memref<1xi64>
// CHECK-NEXT:    %[[COUNTED:.*]] = memref.alloca() {mux.check_fault_word = 3 : i64} : memref<1xi64>
// CHECK-NOT:     memref.store
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
// CHECK-NOT:       func.call
// CHECK:           %[[KEPT:.*]] = memref.load %[[COUNTED]]
// CHECK:           memref.store %{{.*}}, %[[COUNTED]]
// CHECK:           scf.if
// CHECK-NEXT:        %[[NUMBER:.*]] = arith.constant 1 : i64
// CHECK-NEXT:        memref.store %[[NUMBER]], %[[SITE]]
// CHECK:             memref.store %{{.*}}, %[[ELEMENT]]
// CHECK:             memref.store %{{.*}}, %[[OFFSET]]
// CHECK-NEXT:      }
// CHECK:           scf.yield %{{.*}} : f32
// CHECK-NEXT:    }
// CHECK:         arith.constant 39 : index
// CHECK-NEXT:    memref.load %[[RECORD]]
// CHECK:         scf.if
// CHECK-NEXT:      memref.store %v, %tmp[%l]
// CHECK-NOT:       func.call
// CHECK:         mux.work_group_barrier id(0)
// The extent of `tmp` again, after the barrier
// CHECK:         %[[TMPWORD:.*]] = arith.constant 39 : index
// CHECK-NEXT:    memref.load %[[RECORD]][%[[TMPWORD]]] {mux.invariant_load}
// CHECK:         %w = scf.if
// CHECK-NEXT:      memref.load %tmp[%n]
// CHECK:           arith.constant 3 : i64
// CHECK-NEXT:      memref.store %{{.*}}, %[[SITE]]
// CHECK:         scf.if
// CHECK-NEXT:      memref.store %w, %out[%g]
// CHECK:           arith.constant 4 : i64
// CHECK-NEXT:      memref.store %{{.*}}, %[[SITE]]
// The return reports nothing: work-item-loops does
// CHECK-NOT:     func.call
// CHECK:         func.return
// CHECK-NOT:  func.func
