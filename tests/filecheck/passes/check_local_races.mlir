// RUN: mux-opt %s -p check-local-races | filecheck %s
// RUN: mux-opt %s -p 'host{checked=true}' | filecheck %s --check-prefix=HOST
// RUN: mux-opt %s -p 'host{checked=true}' | filecheck %s --check-prefix=SCALAR
// RUN: mux-opt %s -p host | filecheck %s --check-prefix=UNCHECKED
//
// check-local-races (checked mode): the shadow has a word per cell of
// 2**mux.local_cell bytes (here 4: every local access of @k is of 4 bytes at a
// multiple of 4). Each access of one cell is checked inline: its access word
// (kind | local linear id << 3 | tag << 24 | site << 32: a write is 3, a read
// 2, an atomic access 1; the tag, the low 8 bits of the shadow's epoch, word 0;
// a uniform write 1 << 23), the cell's word loaded; unless the access leaves it
// as it is, the word is replaced (a word of an older epoch: the first access
// since the barrier) or updated (functions.step), and a race reported. The
// epochs are the wrapper's to start (work-item-loops: after each barrier, a call
// of @__mux_check_local_epoch), not the kernel's. A read in a barrier interval
// where nothing writes local memory cannot race, and is not checked (@reads).
// The kernel gets the shadow (mux.local_shadow) and the check record
// (mux.check_record) as parameters; the module gets the site table.

// CHECK:      builtin.module attributes {mux.check_sites = [
// CHECK-SAME:   "store to local parameter 'tile' at {{[^"]*}}check_local_races.mlir:{{[0-9]+}}:3",
// CHECK-SAME:   "load from local parameter 'tile' at {{[^"]*}}check_local_races.mlir:{{[0-9]+}}:3",
// CHECK-SAME:   "atomic on local parameter 'count' at {{[^"]*}}check_local_races.mlir:{{[0-9]+}}:3",
// CHECK-SAME:   "load from local parameter 'count' at {{[^"]*}}check_local_races.mlir:{{[0-9]+}}:3",
// CHECK-LABEL: func.func @k(%out: memref<?xf32, 1 : i64>, %tile: memref<4x8xf32, 3 : i64>, %count: !llvm.ptr<3>, %local_shadow: memref<?xi64>, %0: memref<?xi64, 1 : i64>)
// CHECK-SAME:    attributes {mux.kernel = "entry-point", mux.local_shadow = 3 : i64, mux.local_cell = 2 : i64, mux.check_record = 4 : i64}
// The store to tile[1][lid]: 4 bytes at tile + (1 * 8 + lid) * 4, a write at site 0.
// CHECK:         %[[P:.*]] = builtin.unrealized_conversion_cast %tile : memref<4x8xf32, 3 : i64> to !llvm.ptr<3>
// CHECK-NEXT:    %[[START0:.*]] = llvm.ptrtoint %[[P]] : !llvm.ptr<3> to i64
// CHECK-NEXT:    %[[EIGHT:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[ROW:.*]] = arith.muli %c1, %[[EIGHT]] : index
// CHECK-NEXT:    %[[LINEAR:.*]] = arith.addi %[[ROW]], %lid : index
// CHECK-NEXT:    %[[L64:.*]] = arith.index_cast %[[LINEAR]] : index to i64
// CHECK-NEXT:    %[[FOUR:.*]] = arith.constant 4 : i64
// CHECK-NEXT:    %[[OFFSET:.*]] = arith.muli %[[L64]], %[[FOUR]] : i64
// CHECK-NEXT:    %[[ADDRESS:.*]] = arith.addi %[[START0]], %[[OFFSET]] : i64
// CHECK-NEXT:    %[[SIZE:.*]] = arith.constant 4 : i64
// CHECK-NEXT:    %[[ITEM:.*]] = mux.get_local_linear_id
// CHECK-NEXT:    %[[I64:.*]] = arith.index_cast %[[ITEM]] : index to i64
// CHECK-NEXT:    %[[THREE:.*]] = arith.constant 3 : i64
// CHECK-NEXT:    %[[SHIFTED:.*]] = arith.shli %[[I64]], %[[THREE]] : i64
// CHECK-NEXT:    %[[WRITE:.*]] = arith.constant 3 : i64
// CHECK-NEXT:    %[[PLAIN:.*]] = arith.ori %[[SHIFTED]], %[[WRITE]] : i64
// The tag: the shadow's epoch (word 0) << 24, 8 bits.
// CHECK-NEXT:    %[[W0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[EPOCH0:.*]] = memref.load %local_shadow[%[[W0]]] : memref<?xi64>
// CHECK-NEXT:    %[[C24:.*]] = arith.constant 24 : i64
// CHECK-NEXT:    %[[UP:.*]] = arith.shli %[[EPOCH0]], %[[C24]] : i64
// CHECK-NEXT:    %[[TAGMASK:.*]] = arith.constant 4278190080 : i64
// CHECK-NEXT:    %[[TAG:.*]] = arith.andi %[[UP]], %[[TAGMASK]] : i64
// CHECK-NEXT:    %[[TAGGED:.*]] = arith.ori %[[PLAIN]], %[[TAG]] : i64
// A store of the value the element holds already is a uniform write (1 << 23).
// CHECK-NEXT:    %[[HELD:.*]] = memref.load %tile[%c1, %lid] : memref<4x8xf32, 3 : i64>
// CHECK-NEXT:    %[[HELD_BITS:.*]] = arith.bitcast %[[HELD]] : f32 to i32
// CHECK-NEXT:    %[[V_BITS:.*]] = arith.bitcast %v : f32 to i32
// CHECK-NEXT:    %[[SAME:.*]] = arith.cmpi eq, %[[HELD_BITS]], %[[V_BITS]] : i32
// CHECK-NEXT:    %[[UNIFORM:.*]] = arith.constant 8388608 : i64
// CHECK-NEXT:    %[[NOT:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[FLAG:.*]] = arith.select %[[SAME]], %[[UNIFORM]], %[[NOT]] : i64
// CHECK-NEXT:    %[[WORD:.*]] = arith.ori %[[TAGGED]], %[[FLAG]] : i64
// The cell: (address - base, word 1) >> 2; its word after the 5 header words,
// or the scratch word 4 if the cell is not one of the block's (word 3).
// CHECK-NEXT:    %[[W1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[BASE:.*]] = memref.load %local_shadow[%[[W1]]] : memref<?xi64>
// CHECK-NEXT:    %[[REL:.*]] = arith.subi %[[ADDRESS]], %[[BASE]] : i64
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant 2 : i64
// CHECK-NEXT:    %[[CELL:.*]] = arith.shrui %[[REL]], %[[TWO]] : i64
// CHECK-NEXT:    %[[W3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[CELLS:.*]] = memref.load %local_shadow[%[[W3]]] : memref<?xi64>
// CHECK-NEXT:    %[[INSIDE:.*]] = arith.cmpi ult, %[[CELL]], %[[CELLS]] : i64
// CHECK-NEXT:    %[[FIVE:.*]] = arith.constant 5 : i64
// CHECK-NEXT:    %[[WORDAT:.*]] = arith.addi %[[CELL]], %[[FIVE]] : i64
// CHECK-NEXT:    %[[SCRATCH:.*]] = arith.constant 4 : i64
// CHECK-NEXT:    %[[AT64:.*]] = arith.select %[[INSIDE]], %[[WORDAT]], %[[SCRATCH]] : i64
// CHECK-NEXT:    %[[AT:.*]] = arith.index_cast %[[AT64]] : i64 to index
// CHECK-NEXT:    %[[OLD:.*]] = memref.load %local_shadow[%[[AT]]] : memref<?xi64>
// Unchanged: the same word, or a shared word of this kind and tag (kind |
// shared | tag: 4278190087).
// CHECK-NEXT:    %[[KEEP:.*]] = arith.constant 4278190087 : i64
// CHECK:         %[[SAMEWORD:.*]] = arith.cmpi eq, %[[OLD]], %[[WORD]] : i64
// CHECK:         %[[UNCHANGED:.*]] = arith.ori %[[SAMEWORD]], %{{.*}} : i1
// CHECK-NEXT:    %[[R:.*]] = scf.if %[[UNCHANGED]] -> (i64) {
// CHECK:         } else {
// A word of this epoch (its tag, not empty): the branch-free update.
// CHECK-NEXT:      %[[X:.*]] = arith.xori %[[OLD]], %[[WORD]] : i64
// CHECK:           scf.if %{{.*}} -> (i64) {
// CHECK:             memref.store %{{.*}}, %local_shadow[%[[AT]]] : memref<?xi64>
// CHECK:           } else {
// Of an older epoch: the access's word (none for a uniform write), no race.
// CHECK:             %[[FIRST:.*]] = arith.select %{{.*}}, %{{.*}}, %[[WORD]] : i64
// CHECK-NEXT:        memref.store %[[FIRST]], %local_shadow[%[[AT]]] : memref<?xi64>
// CHECK:         %[[RACE:.*]] = arith.select %[[INSIDE]], %[[R]], %{{.*}} : i64
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %[[RACING:.*]] = arith.cmpi ne, %[[RACE]], %[[ZERO]] : i64
// The report: the byte offset of the access in 'tile', the race, the site,
// lane 0 (a scalar kernel's work-item is the one running).
// CHECK-NEXT:    scf.if %[[RACING]] {
// CHECK-NEXT:      %[[P2:.*]] = builtin.unrealized_conversion_cast %tile : memref<4x8xf32, 3 : i64> to !llvm.ptr<3>
// CHECK-NEXT:      %[[START:.*]] = llvm.ptrtoint %[[P2]] : !llvm.ptr<3> to i64
// CHECK-NEXT:      %[[IN:.*]] = arith.subi %[[ADDRESS]], %[[START]] : i64
// CHECK-NEXT:      %[[SITE:.*]] = arith.constant 0 : i64
// CHECK-NEXT:      %[[LANE0:.*]] = arith.constant 0 : i64
// CHECK-NEXT:      func.call @__mux_report_local_race(%0, %[[RACE]], %[[IN]], %[[SIZE]], %[[SITE]], %[[LANE0]])
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.store %v, %tile[%c1, %lid]
// After the barrier, no epoch code: the read of the interval after it is
// checked, since the interval has an atomic access of local memory. The read
// at site 1: 2 | 1 << 32.
// CHECK-NEXT:    mux.work_group_barrier
// CHECK-NEXT:    %{{.*}} = builtin.unrealized_conversion_cast %tile
// CHECK:         arith.constant 4294967298 : i64
// CHECK:         memref.load %tile[%c1, %c1]
// An llvm pointer is its own address; the atomic at site 2: 1 | 2 << 32.
// CHECK:         llvm.ptrtoint %count : !llvm.ptr<3> to i64
// CHECK:         arith.constant 8589934593 : i64
// CHECK:         atomic.rmw add monotonic %count
// CHECK:         llvm.ptrtoint %count : !llvm.ptr<3> to i64
// CHECK:         llvm.load %count
func.func @k(%out: memref<?xf32, 1>, %tile: memref<4x8xf32, 3>, %count: !llvm.ptr<3>) attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %lid = mux.get_local_id %d0
  %c1 = arith.constant 1 : index
  %v = arith.constant 1.0 : f32
  memref.store %v, %tile[%c1, %lid] : memref<4x8xf32, 3>
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %x = memref.load %tile[%c1, %c1] : memref<4x8xf32, 3>
  %one = arith.constant 1 : i32
  %old = atomic.rmw add monotonic %count, %one : !llvm.ptr<3>, i32
  %n = llvm.load %count : !llvm.ptr<3> -> i32
  memref.store %x, %out[%lid] : memref<?xf32, 1>
  func.return
}

// Reads in an interval where nothing writes local memory are not checked (the
// loop's interval: its barrier cuts it from the store before the loop and the
// store after it); the stores are.
// CHECK-LABEL: func.func @reads(
// CHECK:         func.call @__mux_report_local_race
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.store %v, %buf[%lid]
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      mux.work_group_barrier
// CHECK-NEXT:      %{{.*}} = memref.load %buf[%i]
// CHECK-NEXT:      %{{.*}} = memref.load %buf[%lid]
// CHECK-NEXT:      mux.work_group_barrier
// CHECK-NEXT:    }
// CHECK:         func.call @__mux_report_local_race
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.store %v, %buf[%lid]
func.func @reads(%buf: memref<?xf32, 3>) attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %lid = mux.get_local_id %d0
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %v = arith.constant 1.0 : f32
  memref.store %v, %buf[%lid] : memref<?xf32, 3>
  scf.for %i = %c0 to %c4 step %c1 {
    mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
    %x = memref.load %buf[%i] : memref<?xf32, 3>
    %y = memref.load %buf[%lid] : memref<?xf32, 3>
    mux.work_group_barrier id(1) scope(work_group) semantics(acq_rel | work_group_memory)
  }
  memref.store %v, %buf[%lid] : memref<?xf32, 3>
  func.return
}

// A kernel with a byte access has cells of a byte (mux.local_cell = 0): its
// 4-byte access covers 4 cells, checked by @__mux_check_local_access with the
// cell shift.
// CHECK-LABEL: func.func @bytes(
// CHECK-SAME:    mux.local_cell = 0 : i64
// CHECK:         memref.store %{{.*}}, %buf[%lid] : memref<?xi8, 3 : i64>
// CHECK:         %[[SHIFT:.*]] = arith.constant 0 : i64
// CHECK-NEXT:    %{{.*}} = func.call @__mux_check_local_access(%local_shadow, %{{.*}}, %{{.*}}, %{{.*}}, %[[SHIFT]])
// CHECK:         memref.load %words[%lid] : memref<?xi32, 3 : i64>
func.func @bytes(%buf: memref<?xi8, 3>, %words: memref<?xi32, 3>) attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %lid = mux.get_local_id %d0
  %c = arith.constant 7 : i8
  memref.store %c, %buf[%lid] : memref<?xi8, 3>
  %w = memref.load %words[%lid] : memref<?xi32, 3>
  func.return
}

// A kernel without local memory is left as it is.
// CHECK-LABEL: func.func @plain(%out: memref<?xf32, 1 : i64>) attributes {mux.kernel = "entry-point"} {
// CHECK-NOT:     __mux_check
// CHECK:         func.return
func.func @plain(%out: memref<?xf32, 1>) attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %gid = mux.get_global_id %d0
  %v = arith.constant 1.0 : f32
  memref.store %v, %out[%gid] : memref<?xf32, 1>
  func.return
}

// With its work-group size known (mux.reqd_work_group_size: mux.compile
// specialises a kernel to its launch's), a class of intervals whose local
// accesses are indexed by arithmetic on the local id and on loop variables
// (loops run at compile time) is proven free of races (proof.py): here a tree
// reduction's steps (the work-items with lid % 2s == 0 add tile[lid + s] into
// tile[lid]), and nothing of @tree is checked: no shadow, no check.
// CHECK-LABEL: func.func @tree(%tile: memref<?xi32, 3 : i64>)
// CHECK-NOT:     local_shadow
// CHECK-NOT:     __mux_check
// CHECK:         func.return
// In a group of two rows, work-items (x, 0) and (x, 1) share tile[x]: checked.
// CHECK-LABEL: func.func @tree_of_two_rows(%tile: memref<?xi32, 3 : i64>, %local_shadow: memref<?xi64>
// CHECK:         func.call @__mux_report_local_race
func.func @tree(%tile: memref<?xi32, 3>)
    attributes {mux.kernel = "entry-point", mux.reqd_work_group_size = array<i32: 8, 1, 1>} {
  %d0 = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %lid = mux.get_local_id %d0
  %n = mux.get_local_size %d0
  %x = arith.index_cast %lid : index to i32
  memref.store %x, %tile[%lid] : memref<?xi32, 3>
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %last = scf.while (%stride = %c1) : (index) -> index {
    %more = arith.cmpi ult, %stride, %n : index
    scf.condition(%more) %stride : index
  } do {
  ^bb0(%s: index):
    %step = arith.muli %s, %c2 : index
    %rem = arith.remui %lid, %step : index
    %head = arith.cmpi eq, %rem, %c0 : index
    %other = arith.addi %lid, %s : index
    %inside = arith.cmpi ult, %other, %n : index
    %active = arith.andi %head, %inside : i1
    scf.if %active {
      %mine = memref.load %tile[%lid] : memref<?xi32, 3>
      %theirs = memref.load %tile[%other] : memref<?xi32, 3>
      %sum = arith.addi %mine, %theirs : i32
      memref.store %sum, %tile[%lid] : memref<?xi32, 3>
    }
    mux.work_group_barrier id(1) scope(work_group) semantics(acq_rel | work_group_memory)
    scf.yield %step : index
  }
  func.return
}

func.func @tree_of_two_rows(%tile: memref<?xi32, 3>)
    attributes {mux.kernel = "entry-point", mux.reqd_work_group_size = array<i32: 8, 2, 1>} {
  %d0 = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %lid = mux.get_local_id %d0
  %n = mux.get_local_size %d0
  %x = arith.index_cast %lid : index to i32
  memref.store %x, %tile[%lid] : memref<?xi32, 3>
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %last = scf.while (%stride = %c1) : (index) -> index {
    %more = arith.cmpi ult, %stride, %n : index
    scf.condition(%more) %stride : index
  } do {
  ^bb0(%s: index):
    %step = arith.muli %s, %c2 : index
    %rem = arith.remui %lid, %step : index
    %head = arith.cmpi eq, %rem, %c0 : index
    %other = arith.addi %lid, %s : index
    %inside = arith.cmpi ult, %other, %n : index
    %active = arith.andi %head, %inside : i1
    scf.if %active {
      %mine = memref.load %tile[%lid] : memref<?xi32, 3>
      %theirs = memref.load %tile[%other] : memref<?xi32, 3>
      %sum = arith.addi %mine, %theirs : i32
      memref.store %sum, %tile[%lid] : memref<?xi32, 3>
    }
    mux.work_group_barrier id(1) scope(work_group) semantics(acq_rel | work_group_memory)
    scf.yield %step : index
  }
  func.return
}

// The three functions, once in the module.
// CHECK:       func.func private @__mux_check_local_access(%shadow: memref<?xi64>, %address: i64, %bytes: i64, %access: i64, %shift: i64) -> i64
// CHECK:       func.func private @__mux_check_local_epoch(%shadow: memref<?xi64>)
// CHECK:       func.func private @__mux_report_local_race(%record: memref<?xi64, 1 : i64>, %race: i64, %offset: i64, %bytes: i64, %site: i64, %lane: i64)

// In the host pipeline, checked: the wrapper allocates the local buffers and the
// shadow per work-group, and the kernel is scalar (check-local-races drops the
// vectorised copy).
// After each barrier (its fence), the barrier wrapper starts the shadow's next
// epoch, then runs the work-item loops of the region after it.
// HOST:     llvm.func internal @"k.mux-barrier-wrapper"
// HOST:       llvmx.fence acq_rel
// HOST-NEXT:  llvm.call @__mux_check_local_epoch(%{{.*}}) : (!llvm.ptr) -> ()
// HOST:     llvm.func internal @"k.mux-kernel-wrapper"
// HOST:       llvm.alloca %{{.*}} x i8 {alignment = 128 : i64}
// HOST:       llvm.alloca %{{.*}} x i64 {alignment = 8 : i64}
// HOST:       llvm.call @__mux_check_local_epoch
// HOST:     llvm.func internal @__mux_report_local_race

// SCALAR-NOT: @__vecz_v{{[0-9]+}}_k(

// Unchecked, nothing of it.
// UNCHECKED-NOT: __mux_check
