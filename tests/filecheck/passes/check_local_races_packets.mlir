// RUN: mux-opt --split-input-file %s -p check-local-races | filecheck %s
//
// check-local-races keeps run-vecz's packet (@__vecz_v8_k: lane i is the
// work-item of local linear id get_local_linear_id + i) when every local access
// of it is a contiguous vector access: it gets the kernel's shadow and record
// parameters, and before each access a call of @__mux_check_local_lanes with
// lane 0's address and access word, the bytes per lane (4), the lanes (8), the
// active lanes as bits (the mask's; 255 unmasked), the lanes that store the
// value their element holds (uniform writes), the cell shift, the address the
// report's byte offset is from, and the site.

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
// The masked load: lane 0's address (tile + next * 4) and read word (2 | id << 3 | tag);
// the active lanes, the mask's bits.
// CHECK:         %[[LOAD_AT:.*]] = arith.addi %{{.*}}, %{{.*}} : i64
// CHECK-NEXT:    %[[ITEM:.*]] = mux.get_local_linear_id
// CHECK:         arith.constant 4278190080 : i64
// CHECK-NEXT:    arith.andi
// CHECK-NEXT:    %[[READ:.*]] = arith.ori %{{.*}}, %{{.*}} : i64
// CHECK:         %[[FROM:.*]] = llvm.ptrtoint %{{.*}} : !llvm.ptr<3> to i64
// CHECK-NEXT:    %[[POW:.*]] = arith.constant dense<[1, 2, 4, 8, 16, 32, 64, 128]> : vector<8xi64>
// CHECK-NEXT:    %[[NONE:.*]] = arith.constant dense<0> : vector<8xi64>
// CHECK-NEXT:    %[[PICK:.*]] = llvmx.select %odd, %[[POW]], %[[NONE]] : vector<8xi1>, vector<8xi64>
// CHECK-NEXT:    %[[ACTIVE:.*]] = vector.reduction <or>, %[[PICK]] : vector<8xi64> into i64
// A load has no uniform lanes.
// CHECK-NEXT:    %[[NO:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[BYTES:.*]] = arith.constant 4 : i64
// CHECK-NEXT:    %[[LANES:.*]] = arith.constant 8 : i64
// CHECK-NEXT:    %[[SHIFT:.*]] = arith.constant 2 : i64
// CHECK-NEXT:    %[[SITE:.*]] = arith.constant 2 : i64
// CHECK-NEXT:    func.call @__mux_check_local_lanes(%local_shadow, %0, %[[LOAD_AT]], %[[BYTES]], %[[LANES]], %[[ACTIVE]], %[[NO]], %[[READ]], %[[SHIFT]], %[[FROM]], %[[SITE]])
// CHECK-NEXT:    %x = vector.maskedload %tile[%next], %odd, %zeros
// The store: every lane active (255); lane i is a uniform write if its element
// holds its value already, bit for bit.
// CHECK:         %[[STORE_AT:.*]] = arith.addi %{{.*}}, %{{.*}} : i64
// CHECK:         arith.constant 4278190080 : i64
// CHECK-NEXT:    arith.andi
// CHECK-NEXT:    %[[WRITE:.*]] = arith.ori %{{.*}}, %{{.*}} : i64
// CHECK:         %[[ALL:.*]] = arith.constant 255 : i64
// CHECK-NEXT:    %[[HELD:.*]] = vector.load %tile[%lid] : memref<?xf32, 3 : i64>, vector<8xf32>
// CHECK-NEXT:    %[[HELD_BITS:.*]] = arith.bitcast %[[HELD]] : vector<8xf32> to vector<8xi32>
// CHECK-NEXT:    %[[V_BITS:.*]] = arith.bitcast %vs : vector<8xf32> to vector<8xi32>
// CHECK-NEXT:    %[[SAME:.*]] = llvm.icmp "eq" %[[HELD_BITS]], %[[V_BITS]] : vector<8xi32>
// CHECK:         %[[UNIFORM:.*]] = vector.reduction <or>, %{{.*}} : vector<8xi64> into i64
// CHECK:         func.call @__mux_check_local_lanes(%local_shadow, %0, %[[STORE_AT]], %{{.*}}, %{{.*}}, %[[ALL]], %[[UNIFORM]], %[[WRITE]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NEXT:    vector.store %vs, %tile[%lid]

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
// runs scalar.

func.func @k(%tile: memref<?xf32, 3>, %v: f32)
    attributes {mux.kernel = "entry-point", mux.reqd_work_group_size = array<i32: 16, 1, 1>,
                mux.vecz_base = [8 : i32, "__vecz_v8_k"]} {
  %d0 = arith.constant 0 : i32
  %lid = mux.get_local_id %d0
  memref.store %v, %tile[%lid] : memref<?xf32, 3>
  func.return
}

func.func private @__vecz_v8_k(%tile: memref<?xf32, 3>, %v: f32)
    attributes {mux.vecz_derived = [8 : i32, "k"]} {
  %d0 = arith.constant 0 : i32
  %lid = mux.get_local_id %d0
  memref.store %v, %tile[%lid] : memref<?xf32, 3>
  func.return
}

// CHECK-LABEL: func.func @k(
// CHECK-SAME:    mux.vecz_fail = [8 : i32, "checked mode: local-memory accesses are checked work-item by work-item: a local access that is not one contiguous vector access (memref.store)"]
// CHECK-NOT:   @__vecz_v8_k
// CHECK-NOT:   @__mux_check_local_lanes
