// RUN: mux-opt %s --split-input-file -p check-access-bounds | filecheck %s
//
// Checked mode: each memref access is put in an `scf.if` of its bounds, a load
// out of bounds giving 0. A `memref<?xT>` parameter's extent is the size in
// bytes the runtime writes to the check record (the last parameter,
// `mux.check_record`; word 34 + 2 * index + 1), a static shape's is constant;
// the index is checked linearly, as unsigned (a negative index is a huge one).
// In a kernel without barriers each extent is loaded once, at the entry (a load
// at each access would be repeated after every store: LLVM cannot tell the
// record from the buffers), and the fault branch only keeps the work-item's
// first fault in private words (site + 1, element, byte offset; and a count),
// reported to the record when the work-item returns: no call in the work-item
// loop, which LLVM then vectorises.

// CHECK:      builtin.module attributes {mux.check_sites = [
// CHECK-SAME:   "load from parameter 'a' (memref<?xf32, 1 : i64>) at {{.*}}memref.mlir:{{[0-9]+}}:3",
// CHECK-SAME:   "store to parameter 'c' (memref<?xf32, 1 : i64>) at {{.*}}memref.mlir:{{[0-9]+}}:3"]}
// CHECK:      func.func @vadd(%a: memref<?xf32, 1 : i64>, %c: memref<?xf32, 1 : i64>, %[[RECORD:.*]]: memref<?xi64, 1 : i64>)
// CHECK-SAME:    mux.check_record = 2 : i64
// CHECK-NEXT:    %[[WORD:.*]] = arith.constant 35 : index
// CHECK-NEXT:    %[[BYTES:.*]] = memref.load %[[RECORD]][%[[WORD]]] {mux.invariant_load} : memref<?xi64, 1 : i64>
// CHECK-NEXT:    %[[BYTESI:.*]] = arith.index_cast %[[BYTES]] : i64 to index
// CHECK-NEXT:    %[[SIZE:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[COUNT:.*]] = arith.divui %[[BYTESI]], %[[SIZE]] : index
// CHECK-NEXT:    %[[WORD2:.*]] = arith.constant 37 : index
// CHECK-NEXT:    memref.load %[[RECORD]][%[[WORD2]]]
// CHECK:         %[[SITE:.*]] = memref.alloca() : memref<1xi64>
// CHECK-NEXT:    %[[ELEMENT:.*]] = memref.alloca() : memref<1xi64>
// CHECK-NEXT:    %[[OFFSET:.*]] = memref.alloca() : memref<1xi64>
// CHECK-NEXT:    %[[COUNTED:.*]] = memref.alloca() : memref<1xi64>
// CHECK:         %i = mux.get_global_id
// CHECK-NEXT:    %[[OK:.*]] = arith.cmpi ult, %i, %[[COUNT]] : index
// CHECK-NEXT:    %x = scf.if %[[OK]] -> (f32) {
// CHECK-NEXT:      %{{.*}} = memref.load %a[%i] : memref<?xf32, 1 : i64>
// CHECK:         } else {
// CHECK-NOT:       func.call
// CHECK:           %[[KEPT:.*]] = memref.load %[[COUNTED]][%{{.*}}] : memref<1xi64>
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-NEXT:      %[[MORE:.*]] = arith.addi %[[KEPT]], %[[ONE]] : i64
// CHECK-NEXT:      memref.store %[[MORE]], %[[COUNTED]][%{{.*}}] : memref<1xi64>
// CHECK-NEXT:      %[[NONE:.*]] = arith.constant 0 : i64
// CHECK-NEXT:      %[[FIRST:.*]] = arith.cmpi eq, %[[KEPT]], %[[NONE]] : i64
// CHECK-NEXT:      scf.if %[[FIRST]] {
// CHECK-NEXT:        %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-NEXT:        memref.store %[[ONE]], %[[SITE]][%{{.*}}] : memref<1xi64>
// CHECK:             memref.store %{{.*}}, %[[ELEMENT]][%{{.*}}] : memref<1xi64>
// CHECK:             memref.store %{{.*}}, %[[OFFSET]][%{{.*}}] : memref<1xi64>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:      scf.yield %[[ZERO]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %{{.*}} = arith.cmpi ult, %i, %{{.*}} : index
// CHECK-NEXT:    scf.if %{{.*}} {
// CHECK-NEXT:      memref.store %x, %c[%i] : memref<?xf32, 1 : i64>
// CHECK-NEXT:    } else {
// At the return, a fault kept is recorded out of line, in a function never
// inlined: the first fault wins a compare-and-swap of word 0, the others count.
// CHECK:         %[[KEPT2:.*]] = memref.load %[[SITE]][%{{.*}}] : memref<1xi64>
// CHECK-NEXT:    memref.load %[[ELEMENT]]
// CHECK-NEXT:    memref.load %[[OFFSET]]
// CHECK-NEXT:    %[[N:.*]] = memref.load %[[COUNTED]]
// CHECK:         scf.if %{{.*}} {
// CHECK:           %[[NUMBER:.*]] = arith.subi %[[KEPT2]], %{{.*}} : i64
// CHECK:           func.call @__mux_check_report_out_of_bounds(%[[RECORD]], %[[NUMBER]], %{{.*}}) : (memref<?xi64, 1 : i64>, i64, i64, i64, i64) -> ()
// CHECK-NEXT:      %[[OTHERS:.*]] = arith.subi %[[N]], %{{.*}} : i64
// CHECK:           atomic.rmw add monotonic %[[RECORD]][%{{.*}}], %[[OTHERS]]
// CHECK:         }
// CHECK-NEXT:    func.return
// CHECK:       func.func private @__mux_check_report_out_of_bounds(%{{.*}}: memref<?xi64, 1 : i64>, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64)
// CHECK-SAME:    passthrough = ["noinline", "cold"]
// CHECK:         mux.get_global_id
// CHECK:         atomic.cmpxchg monotonic monotonic
// CHECK:         atomic.rmw add monotonic
func.func @vadd(%a: memref<?xf32, 1>, %c: memref<?xf32, 1>) attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %i = mux.get_global_id %d
  %x = memref.load %a[%i] : memref<?xf32, 1>
  memref.store %x, %c[%i] : memref<?xf32, 1>
  func.return
}

// -----

// A private array and a static view of local memory: their extent is their shape; a
// 2-D index is checked as the row-major linear index (i * 8 + j < 32).

// CHECK:      "store to private array 'tmp' (memref<4x8xi32>) at
// CHECK-SAME: "load from local variable 'tile' (memref<16xi32, 3 : i64>) at
// CHECK-LABEL: func.func @static
// CHECK:         %[[COUNT:.*]] = arith.constant 32 : index
// CHECK-NEXT:    %[[EIGHT:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[ROW:.*]] = arith.muli %i, %[[EIGHT]] : index
// CHECK-NEXT:    %[[LINEAR:.*]] = arith.addi %[[ROW]], %j : index
// CHECK-NEXT:    %[[OK:.*]] = arith.cmpi ult, %[[LINEAR]], %[[COUNT]] : index
// CHECK-NEXT:    scf.if %[[OK]] {
// CHECK-NEXT:      memref.store %v, %tmp[%i, %j] : memref<4x8xi32>
// CHECK:         %[[COUNT2:.*]] = arith.constant 16 : index
// CHECK-NEXT:    %[[OK2:.*]] = arith.cmpi ult, %j, %[[COUNT2]] : index
// CHECK-NEXT:    %w = scf.if %[[OK2]] -> (i32) {
// CHECK-NEXT:      %{{.*}} = memref.load %tile[%j] : memref<16xi32, 3 : i64>
// CHECK:           scf.if
// CHECK:           }
// CHECK-NEXT:      %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:      scf.yield %[[Z]] : i32
func.func @static(%i: index, %j: index, %v: i32, %lv: memref<64xi8, 3>) attributes {mux.kernel = "entry-point"} {
  %p = builtin.unrealized_conversion_cast %lv : memref<64xi8, 3> to !llvm.ptr<3>
  %tile = builtin.unrealized_conversion_cast %p : !llvm.ptr<3> to memref<16xi32, 3>
  %tmp = memref.alloca() : memref<4x8xi32>
  memref.store %v, %tmp[%i, %j] : memref<4x8xi32>
  %w = memref.load %tile[%j] : memref<16xi32, 3>
  func.return
}

// -----

// In a vectorised kernel (`mux.vecz_derived`) a packet's vector access is ONE
// range check of its elements: i < n and i + 8 <= n; the fault names the
// first element out of bounds and its lane (added to the ids in x).

// CHECK-LABEL: func.func private @__vecz_v8_k
// CHECK:         %[[COUNT:.*]] = arith.divui
// CHECK:         %i = mux.get_global_id
// CHECK-NEXT:    %[[LOW:.*]] = arith.cmpi ult, %i, %[[COUNT]] : index
// CHECK-NEXT:    %[[W:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[END:.*]] = arith.addi %i, %[[W]] : index
// CHECK-NEXT:    %[[HIGH:.*]] = arith.cmpi ule, %[[END]], %[[COUNT]] : index
// CHECK-NEXT:    %[[OK:.*]] = arith.andi %[[LOW]], %[[HIGH]] : i1
// CHECK-NEXT:    %v = scf.if %[[OK]] -> (vector<8xf32>) {
// CHECK-NEXT:      %{{.*}} = vector.load %a[%i] : memref<?xf32, 1 : i64>, vector<8xf32>
// CHECK:         } else {
// CHECK-NEXT:      %[[INSIDE:.*]] = arith.cmpi ult, %i, %[[COUNT]] : index
// CHECK-NEXT:      %[[FIRST:.*]] = arith.select %[[INSIDE]], %[[COUNT]], %i : index
// CHECK:           %[[LANE:.*]] = arith.subi %[[FIRST]], %i : index
// CHECK:           %[[LANE64:.*]] = arith.index_cast %[[LANE]] : index to i64
// CHECK-NEXT:      func.call @__mux_check_report_out_of_bounds(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[LANE64]])
// CHECK:           arith.constant dense<0.000000e+00> : vector<8xf32>
func.func private @__vecz_v8_k(%a: memref<?xf32, 1>) attributes {mux.vecz_derived = [8 : i32, "k"]} {
  %d = arith.constant 0 : i32
  %i = mux.get_global_id %d
  %v = vector.load %a[%i] : memref<?xf32, 1>, vector<8xf32>
  func.return
}

// -----

// A masked packet access: the whole packet in bounds is one scalar range check
// (whatever its mask); only if that fails (a packet across the end of its
// object) are its active lanes checked, reduced to one condition. The fault's
// lane is the first active lane out of bounds.

// CHECK-LABEL: func.func private @__vecz_v4_m
// CHECK:         %[[COUNT:.*]] = arith.divui
// CHECK-NEXT:    %[[LOW:.*]] = arith.cmpi ult, %i, %[[COUNT]] : index
// CHECK-NEXT:    %[[W:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[END:.*]] = arith.addi %i, %[[W]] : index
// CHECK-NEXT:    %[[HIGH:.*]] = arith.cmpi ule, %[[END]], %[[COUNT]] : index
// CHECK-NEXT:    %[[WHOLE:.*]] = arith.andi %[[LOW]], %[[HIGH]] : i1
// CHECK-NEXT:    %[[OK:.*]] = scf.if %[[WHOLE]] -> (i1) {
// CHECK-NEXT:      %[[TRUE:.*]] = arith.constant true
// CHECK-NEXT:      scf.yield %[[TRUE]] : i1
// CHECK-NEXT:    } else {
// CHECK-NEXT:      %[[IOTA:.*]] = arith.constant dense<[0, 1, 2, 3]> : vector<4xi64>
// CHECK:           %[[IDX:.*]] = arith.addi %{{.*}}, %[[IOTA]] : vector<4xi64>
// CHECK-NEXT:      %[[OUT:.*]] = llvm.icmp "uge" %[[IDX]], %{{.*}} : vector<4xi64>
// CHECK-NEXT:      %[[BAD:.*]] = arith.andi %[[OUT]], %mask : vector<4xi1>
// CHECK-NEXT:      %[[ANY:.*]] = vector.reduction <or>, %[[BAD]] : vector<4xi1> into i1
// CHECK:           %[[ALL:.*]] = arith.xori %[[ANY]], %{{.*}} : i1
// CHECK-NEXT:      scf.yield %[[ALL]] : i1
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %[[OK]] {
// CHECK-NEXT:      vector.maskedstore %c[%i], %mask, %v : memref<?xi32, 1 : i64>, vector<4xi1>, vector<4xi32>
// CHECK:         } else {
// CHECK:           vector.reduction <minui>
func.func private @__vecz_v4_m(%c: memref<?xi32, 1>, %i: index, %mask: vector<4xi1>, %v: vector<4xi32>) attributes {mux.vecz_derived = [4 : i32, "m"]} {
  vector.maskedstore %c[%i], %mask, %v : memref<?xi32, 1>, vector<4xi1>, vector<4xi32>
  func.return
}

// -----

// Atomics on a memref are checked as loads and stores are; a function the
// kernel calls is inlined first, its accesses then checked against the
// kernel's buffers.

// CHECK:      "atomic on parameter 'bins' (memref<?xi32, 1 : i64>) at
// CHECK-LABEL: func.func @hist
// CHECK-NOT:     func.call
// CHECK:         scf.if %{{.*}} -> (i32) {
// CHECK-NEXT:      %{{.*}} = atomic.rmw add monotonic %bins[%i], %one : memref<?xi32, 1 : i64>
func.func private @bump(%b: memref<?xi32, 1>, %i: index) {
  %one = arith.constant 1 : i32
  %old = atomic.rmw add monotonic %b[%i], %one : memref<?xi32, 1>
  func.return
}
func.func @hist(%bins: memref<?xi32, 1>, %i: index) attributes {mux.kernel = "entry-point"} {
  func.call @bump(%bins, %i) : (memref<?xi32, 1>, index) -> ()
  func.return
}

// -----

// A module-scope local variable (replace-module-scope-vars's view of it records it:
// mux.local_variable) is named by the variable, and so is a view of its address
// (a cast to a pointer and back, as lift-llvm-ops makes for an OpenCL C kernel):
// each is checked against its own shape, the variable's 16 elements.

// CHECK:      "load from local variable 'tile' (memref<16xi32, 3 : i64>) at
// CHECK-SAME: "load from local variable 'tile' (memref<16xi32, 3 : i64>) at
// CHECK-LABEL: func.func @variable
// CHECK:         arith.constant 16 : index
// CHECK:         arith.constant 16 : index
func.func @variable(%j: index, %local_vars: memref<80xi8, 3>) attributes {mux.kernel = "entry-point", mux.local_vars_param = array<i64: 1, 80, 4>} {
  %p = builtin.unrealized_conversion_cast %local_vars : memref<80xi8, 3> to !llvm.ptr<3>
  %g = llvm.getelementptr inbounds %p[16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  %0 = builtin.unrealized_conversion_cast %g : !llvm.ptr<3> to memref<16xi32, 3> {mux.local_variable = {name = "tile", offset = 16 : i64, size = 64 : i64, type = memref<16xi32, 3>}}
  %w = memref.load %0[%j] : memref<16xi32, 3>
  %q = builtin.unrealized_conversion_cast %0 : memref<16xi32, 3> to !llvm.ptr<3>
  %1 = builtin.unrealized_conversion_cast %q : !llvm.ptr<3> to memref<16xi32, 3>
  %x = memref.load %1[%j] : memref<16xi32, 3>
  func.return
}
