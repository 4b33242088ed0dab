// RUN: mux-opt --split-input-file %s -p check-local-races | filecheck %s
//
// check-local-races keeps run-vecz's packet (@__vecz_v8_k: lane i is the
// work-item of local linear id get_local_linear_id + i) when every local access
// of it is a contiguous vector access: it gets the kernel's shadow and record
// parameters, and before each access the check of its lanes, each as its
// work-item's. Lanes of one cell each (here 4 bytes, the cell) are checked as
// vectors: the 8 cells' words loaded, each lane's update computed as the scalar
// check computes it, and unless an active lane races, the new words stored.
// Otherwise, or if the cells are not all in the block,
// @__mux_check_local_lanes checks the lanes in order, given lane 0's address
// and access word, the bytes per lane, the lanes, the active lanes as bits (the
// mask's; 255 unmasked), the uniform writes as bits, the cell shift, the
// address the report's byte offset is from, and the site.

func.func @k(%tile: memref<?xf32, 3>, %v: f32)
    attributes {mux.kernel = "entry-point", mux.reqd_work_group_size = array<i32: 16, 1, 1>,
                mux.vecz_base = [8 : i32, "__vecz_v8_k"]} {
  %d0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : index
  %lid = mux.get_local_id %d0
  %next = arith.addi %lid, %c1 : index
  %x = memref.load %tile[%next] : memref<?xf32, 3>
  memref.store %v, %tile[%lid] : memref<?xf32, 3>
  func.return
}

func.func private @__vecz_v8_k(%tile: memref<?xf32, 3>, %v: f32)
    attributes {mux.vecz_derived = [8 : i32, "k"]} {
  %d0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : index
  %lid = mux.get_local_id %d0
  %next = arith.addi %lid, %c1 : index
  %odd = arith.constant dense<[false, true, false, true, false, true, false, true]> : vector<8xi1>
  %zeros = arith.constant dense<0.0> : vector<8xf32>
  %x = vector.maskedload %tile[%next], %odd, %zeros : memref<?xf32, 3>, vector<8xi1>, vector<8xf32> into vector<8xf32>
  %vs = vector.broadcast %v : f32 to vector<8xf32>
  vector.store %vs, %tile[%lid] : memref<?xf32, 3>, vector<8xf32>
  func.return
}

// CHECK-LABEL: func.func @k(%tile: memref<?xf32, 3 : i64>, %v: f32, %local_shadow: memref<?xi64>, %0: memref<?xi64, 1 : i64>)
// CHECK-SAME:    mux.vecz_base = [8 : i32, "__vecz_v8_k"]
// CHECK-SAME:    mux.local_shadow = 2 : i64, mux.local_cell = 2 : i64, mux.check_record = 3 : i64
// CHECK-LABEL: func.func private @__vecz_v8_k(%tile: memref<?xf32, 3 : i64>, %v: f32, %local_shadow: memref<?xi64>, %0: memref<?xi64, 1 : i64>)
// CHECK-SAME:    mux.local_shadow = 2 : i64, mux.local_cell = 2 : i64, mux.check_record = 3 : i64
// The masked load: lane 0's address (tile + next * 4) and read word (2 | id << 3 | tag).
// CHECK:         %[[LOAD_AT:.*]] = arith.addi %{{.*}}, %{{.*}} : i64
// CHECK-NEXT:    mux.get_local_linear_id
// CHECK:         arith.constant 4278190080 : i64
// CHECK-NEXT:    arith.andi
// CHECK-NEXT:    %[[READ:.*]] = arith.ori %{{.*}}, %{{.*}} : i64
// CHECK:         %[[FROM:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i64
// Its first cell, and whether its 8 cells are in the block (shadow words 1 and 3).
// CHECK-NEXT:    %[[W1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[BASE:.*]] = memref.load %local_shadow[%[[W1]]] : memref<?xi64>
// CHECK-NEXT:    %[[W3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[CELLS:.*]] = memref.load %local_shadow[%[[W3]]] : memref<?xi64>
// CHECK-NEXT:    %[[OFF:.*]] = arith.subi %[[LOAD_AT]], %[[BASE]] : i64
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant 2 : i64
// CHECK-NEXT:    %[[FIRST:.*]] = arith.shrui %[[OFF]], %[[TWO]] : i64
// CHECK-NEXT:    %[[EIGHT:.*]] = arith.constant 8 : i64
// CHECK-NEXT:    %[[END:.*]] = arith.addi %[[FIRST]], %[[EIGHT]] : i64
// CHECK-NEXT:    %[[IN1:.*]] = arith.cmpi ult, %[[FIRST]], %[[CELLS]] : i64
// CHECK-NEXT:    %[[IN2:.*]] = arith.cmpi ule, %[[END]], %[[CELLS]] : i64
// CHECK-NEXT:    %[[INSIDE:.*]] = arith.andi %[[IN1]], %[[IN2]] : i1
// CHECK-NEXT:    scf.if %[[INSIDE]] {
// The cells' words (after the 5 header words), and each lane's access word.
// CHECK:           %[[OLD:.*]] = vector.load %local_shadow[%{{.*}}] : memref<?xi64>, vector<8xi64>
// CHECK-NEXT:      %[[SPLAT:.*]] = vector.broadcast %[[READ]] : i64 to vector<8xi64>
// CHECK-NEXT:      %[[IDS:.*]] = arith.constant dense<[0, 8, 16, 24, 32, 40, 48, 56]> : vector<8xi64>
// CHECK-NEXT:      %[[WORDS:.*]] = arith.addi %[[SPLAT]], %[[IDS]] : vector<8xi64>
// Changed: not the same word, not one more read of a shared one (functions.unchanged,
// negated); active lanes only.
// CHECK:           %[[SAME_WORD:.*]] = llvm.icmp "eq" %[[OLD]], %[[WORDS]] : vector<8xi64>
// CHECK:           %[[KEPT:.*]] = arith.ori %[[SAME_WORD]], %{{.*}} : vector<8xi1>
// CHECK-NEXT:      %[[TRUE:.*]] = arith.constant dense<true> : vector<8xi1>
// CHECK-NEXT:      %[[NOT_KEPT:.*]] = arith.xori %[[KEPT]], %[[TRUE]] : vector<8xi1>
// CHECK-NEXT:      %[[CHANGED:.*]] = arith.andi %[[NOT_KEPT]], %odd : vector<8xi1>
// The word of another epoch as empty (functions.current), and functions.step: the
// new words and the races.
// CHECK:           %[[RACING:.*]] = arith.andi %[[CHANGED]], %{{.*}} : vector<8xi1>
// CHECK-NEXT:      %[[ANY:.*]] = vector.reduction <or>, %[[RACING]] : vector<8xi1> into i1
// CHECK-NEXT:      scf.if %[[ANY]] {
// CHECK:             %[[POW:.*]] = arith.constant dense<[1, 2, 4, 8, 16, 32, 64, 128]> : vector<8xi64>
// CHECK-NEXT:        %[[NONE:.*]] = arith.constant dense<0> : vector<8xi64>
// CHECK-NEXT:        %[[PICK:.*]] = llvmx.select %odd, %[[POW]], %[[NONE]] : vector<8xi1>, vector<8xi64>
// CHECK-NEXT:        %[[ACTIVE:.*]] = vector.reduction <or>, %[[PICK]] : vector<8xi64> into i64
// A load has no uniform lanes.
// CHECK-NEXT:        %[[NO:.*]] = arith.constant 0 : i64
// CHECK-NEXT:        %[[BYTES:.*]] = arith.constant 4 : i64
// CHECK-NEXT:        %[[LANES:.*]] = arith.constant 8 : i64
// CHECK-NEXT:        %[[SHIFT:.*]] = arith.constant 2 : i64
// CHECK-NEXT:        %[[SITE:.*]] = arith.constant 2 : i64
// CHECK-NEXT:        func.call @__mux_check_local_lanes(%local_shadow, %0, %[[LOAD_AT]], %[[BYTES]], %[[LANES]], %[[ACTIVE]], %[[NO]], %[[READ]], %[[SHIFT]], %[[FROM]], %[[SITE]])
// CHECK-NEXT:      } else {
// CHECK-NEXT:        %[[STORED:.*]] = llvmx.select %[[CHANGED]], %{{.*}}, %[[OLD]] : vector<8xi1>, vector<8xi64>
// CHECK-NEXT:        vector.store %[[STORED]], %local_shadow[%{{.*}}] : memref<?xi64>, vector<8xi64>
// CHECK-NEXT:      }
// CHECK-NEXT:    } else {
// CHECK:           func.call @__mux_check_local_lanes(%local_shadow, %0, %[[LOAD_AT]],
// CHECK-NEXT:    }
// CHECK-NEXT:    %x = vector.maskedload %tile[%next], %odd, %zeros
// The store: lane i is a uniform write (1 << 23 in its word) if its element holds
// its value already, bit for bit.
// CHECK:         %[[HELD:.*]] = vector.load %tile[%lid] : memref<?xf32, 3 : i64>, vector<8xf32>
// CHECK-NEXT:    %[[HELD_BITS:.*]] = arith.bitcast %[[HELD]] : vector<8xf32> to vector<8xi32>
// CHECK-NEXT:    %[[V_BITS:.*]] = arith.bitcast %vs : vector<8xf32> to vector<8xi32>
// CHECK-NEXT:    %[[SAME:.*]] = llvm.icmp "eq" %[[HELD_BITS]], %[[V_BITS]] : vector<8xi32>
// CHECK:           %[[UNIFORM:.*]] = arith.constant dense<8388608> : vector<8xi64>
// CHECK-NEXT:      %[[PLAIN:.*]] = arith.constant dense<0> : vector<8xi64>
// CHECK-NEXT:      %[[FLAGS:.*]] = llvmx.select %[[SAME]], %[[UNIFORM]], %[[PLAIN]] : vector<8xi1>, vector<8xi64>
// CHECK-NEXT:      %[[STORE_WORDS:.*]] = arith.ori %{{.*}}, %[[FLAGS]] : vector<8xi64>
// CHECK:           } else {
// CHECK-NEXT:        %[[NEW_WORDS:.*]] = llvmx.select %{{.*}}, %{{.*}}, %{{.*}} : vector<8xi1>, vector<8xi64>
// CHECK-NEXT:        vector.store %[[NEW_WORDS]], %local_shadow
// CHECK:         vector.store %vs, %tile[%lid]

// The lanes, in order: an active lane's access word is lane 0's plus the lane
// in its work-item (<< 3), UNIFORM (1 << 23) if its bit says so; its cells are
// checked as a work-item's, and a race is reported for the lane.
// CHECK-LABEL: func.func private @__mux_check_local_lanes(%shadow: memref<?xi64>, %record: memref<?xi64, 1 : i64>, %address: i64, %bytes: i64, %lanes: i64, %active: i64, %uniform: i64, %access: i64, %shift: i64, %base: i64, %site: i64)
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[LANE:.*]] = arith.index_cast %[[I]] : index to i64
// CHECK:           scf.if %{{.*}} {
// CHECK-NEXT:        %[[STEP:.*]] = arith.muli %[[LANE]], %bytes : i64
// CHECK-NEXT:        %[[AT:.*]] = arith.addi %address, %[[STEP]] : i64
// CHECK:             %[[MINE:.*]] = arith.addi %access, %{{.*}} : i64
// CHECK:             %[[RACE:.*]] = func.call @__mux_check_local_access(%shadow, %[[AT]], %bytes, %{{.*}}, %shift)
// CHECK:             scf.if %{{.*}} {
// CHECK-NEXT:          %[[OFFSET:.*]] = arith.subi %[[AT]], %base : i64
// CHECK-NEXT:          func.call @__mux_report_local_race(%record, %[[RACE]], %[[OFFSET]], %bytes, %site, %[[LANE]])

// -----

// A scalar access to local memory in the packet (here one a single lane makes):
// which lanes make it is not known, so the packet is dropped and the kernel
// runs scalar. (The store is indexed by the global id, which proof.py cannot
// compute: it needs a check.)

func.func @k(%tile: memref<?xf32, 3>, %v: f32)
    attributes {mux.kernel = "entry-point", mux.reqd_work_group_size = array<i32: 16, 1, 1>,
                mux.vecz_base = [8 : i32, "__vecz_v8_k"]} {
  %d0 = arith.constant 0 : i32
  %gid = mux.get_global_id %d0
  memref.store %v, %tile[%gid] : memref<?xf32, 3>
  func.return
}

func.func private @__vecz_v8_k(%tile: memref<?xf32, 3>, %v: f32)
    attributes {mux.vecz_derived = [8 : i32, "k"]} {
  %d0 = arith.constant 0 : i32
  %gid = mux.get_global_id %d0
  memref.store %v, %tile[%gid] : memref<?xf32, 3>
  func.return
}

// CHECK-LABEL: func.func @k(
// CHECK-SAME:    mux.vecz_fail = [8 : i32, "checked mode: local-memory accesses are checked work-item by work-item: a local access that is not one contiguous vector access (memref.store)"]
// CHECK-NOT:   @__vecz_v8_k
// CHECK-NOT:   @__mux_check_local_lanes
