// RUN: mux-opt --split-input-file %s -p replace-module-scope-vars | filecheck %s
//
// replace-module-scope-vars: the module's variables in local memory (address space
// 3) become places in one buffer per work-group, `memref<N x i8, 3>`, passed to the
// functions that use them as a last parameter `%local_vars`; the kernel entry
// points record it in mux.local_vars_param = array<i64: index, size, alignment>.
// The op giving a variable's address records the variable: mux.local_variable =
// {name, offset, size, type} (its place in the buffer, for checked mode).

// One variable: at offset 0, the buffer itself; the global is gone.
// CHECK-NOT:   memref.global
// CHECK-LABEL: func.func @one(%out: memref<?xf32, 1 : i64>, %local_vars: memref<64xi8, 3 : i64>) attributes {mux.kernel = "entry-point", mux.local_vars_param = array<i64: 1, 64, 4>} {
// CHECK-NEXT:    %i = arith.constant 3 : index
// CHECK-NEXT:    %[[P:.*]] = builtin.unrealized_conversion_cast %local_vars : memref<64xi8, 3 : i64> to !llvm.ptr<3>
// CHECK-NEXT:    %tile = builtin.unrealized_conversion_cast %[[P]] : !llvm.ptr<3> to memref<16xf32, 3 : i64> {mux.local_variable = {name = "tile", offset = 0 : i64, size = 64 : i64, type = memref<16xf32, 3 : i64>}}
// CHECK-NEXT:    %v = memref.load %tile[%i] : memref<16xf32, 3 : i64>
"memref.global"() <{sym_name = "tile", type = memref<16xf32, 3>, initial_value, sym_visibility = "private"}> : () -> ()
func.func @one(%out: memref<?xf32, 1>) attributes {mux.kernel = "entry-point"} {
  %i = arith.constant 3 : index
  %tile = memref.get_global @tile : memref<16xf32, 3>
  %v = memref.load %tile[%i] : memref<16xf32, 3>
  memref.store %v, %out[%i] : memref<?xf32, 1>
  func.return
}

// -----

// The layout (ir-conventions.rst, "Alignment"): in module order, each variable at
// the next multiple of its alignment, its element type's size rounded up to a power
// of two (a vector of 3 as one of 4) or the global's larger `alignment`; the buffer
// is aligned to the largest and its size rounded up to it. An unused variable takes
// no room and is erased too; a global in another address space stays.
//   @flag  i8             1 byte   align 1   offset 0
//   @sums  4 x f64        32 bytes align 8   offset 8
//   @pos   2 x vec<3xf32> 32 bytes align 16  offset 48
//   @big   i32, align 64  4 bytes  align 64  offset 128  -> size 192, align 64
// CHECK:       "memref.global"() <{sym_name = "global_table"
// CHECK-NOT:   "memref.global"()
// CHECK-LABEL: func.func @layout(%local_vars: memref<192xi8, 3 : i64>) attributes {mux.kernel = "entry-point", mux.local_vars_param = array<i64: 0, 192, 64>} {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %table = memref.get_global @global_table : memref<4xf32, 1 : i64>
// CHECK-NEXT:    %[[F:.*]] = builtin.unrealized_conversion_cast %local_vars
// CHECK-NEXT:    %flag = builtin.unrealized_conversion_cast %[[F]] : !llvm.ptr<3> to memref<i8, 3 : i64>
// CHECK-NEXT:    memref.load %flag[]
// CHECK-NEXT:    %[[S0:.*]] = builtin.unrealized_conversion_cast %local_vars
// CHECK-NEXT:    %[[S:.*]] = llvm.getelementptr inbounds %[[S0]][8] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    %sums = builtin.unrealized_conversion_cast %[[S]] : !llvm.ptr<3> to memref<4xf64, 3 : i64> {mux.local_variable = {name = "sums", offset = 8 : i64, size = 32 : i64, type = memref<4xf64, 3 : i64>}}
// CHECK-NEXT:    memref.load %sums[%c0]
// CHECK:         llvm.getelementptr inbounds %{{.*}}[48] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    %pos = builtin.unrealized_conversion_cast %{{.*}} : !llvm.ptr<3> to memref<2xvector<3xf32>, 3 : i64>
// CHECK:         llvm.getelementptr inbounds %{{.*}}[128] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    %big = builtin.unrealized_conversion_cast %{{.*}} : !llvm.ptr<3> to memref<i32, 3 : i64> {mux.local_variable = {name = "big", offset = 128 : i64, size = 4 : i64, type = memref<i32, 3 : i64>}}
"memref.global"() <{sym_name = "flag", type = memref<i8, 3>, initial_value, sym_visibility = "private"}> : () -> ()
"memref.global"() <{sym_name = "unused", type = memref<1024xf32, 3>, initial_value, sym_visibility = "private"}> : () -> ()
"memref.global"() <{sym_name = "sums", type = memref<4xf64, 3>, initial_value, sym_visibility = "private"}> : () -> ()
"memref.global"() <{sym_name = "pos", type = memref<2xvector<3xf32>, 3>, initial_value, sym_visibility = "private"}> : () -> ()
"memref.global"() <{sym_name = "big", type = memref<i32, 3>, initial_value, sym_visibility = "private", alignment = 64 : i64}> : () -> ()
"memref.global"() <{sym_name = "global_table", type = memref<4xf32, 1>, initial_value = dense<1.0> : tensor<4xf32>, sym_visibility = "private"}> : () -> ()
func.func @layout() attributes {mux.kernel = "entry-point"} {
  %c0 = arith.constant 0 : index
  %flag = memref.get_global @flag : memref<i8, 3>
  %sums = memref.get_global @sums : memref<4xf64, 3>
  %pos = memref.get_global @pos : memref<2xvector<3xf32>, 3>
  %big = memref.get_global @big : memref<i32, 3>
  %table = memref.get_global @global_table : memref<4xf32, 1>
  %0 = memref.load %flag[] : memref<i8, 3>
  %1 = memref.load %sums[%c0] : memref<4xf64, 3>
  %2 = memref.load %pos[%c0] : memref<2xvector<3xf32>, 3>
  %3 = memref.load %big[] : memref<i32, 3>
  %4 = memref.load %table[%c0] : memref<4xf32, 1>
  func.return
}

// -----

// Through calls: a function using a variable, and every caller of one, takes the
// buffer; calls pass the caller's. Two kernels share one layout, so the helper
// finds @b at the same offset for both. A function using none is unchanged.
// CHECK-LABEL: func.func @leaf(%i: index, %local_vars: memref<48xi8, 3 : i64>) -> i32 {
// CHECK:         llvm.getelementptr inbounds %{{.*}}[32]
// CHECK-NEXT:    %b = builtin.unrealized_conversion_cast %{{.*}} : !llvm.ptr<3> to memref<4xi32, 3 : i64>
// CHECK-LABEL: func.func @middle(%i: index, %local_vars: memref<48xi8, 3 : i64>) -> i32 {
// CHECK-NEXT:    %v = func.call @leaf(%i, %local_vars) : (index, memref<48xi8, 3 : i64>) -> i32
// CHECK-LABEL: func.func @pure(%x: i32) -> i32 {
// CHECK-LABEL: func.func @first(%out: memref<?xi32, 1 : i64>, %local_vars: memref<48xi8, 3 : i64>) attributes {mux.kernel = "entry-point", mux.local_vars_param = array<i64: 1, 48, 4>} {
// CHECK:         func.call @middle(%i, %local_vars)
// CHECK:         func.call @pure(%v)
// CHECK-LABEL: func.func @second(%local_vars: memref<48xi8, 3 : i64>) attributes {mux.kernel = "entry-point", mux.local_vars_param = array<i64: 0, 48, 4>} {
// CHECK-NEXT:    %i = arith.constant 0 : index
// CHECK-NEXT:    %[[A:.*]] = builtin.unrealized_conversion_cast %local_vars
// CHECK-NEXT:    %a = builtin.unrealized_conversion_cast %[[A]] : !llvm.ptr<3> to memref<8xf32, 3 : i64>
// CHECK:         func.call @leaf(%i, %local_vars)
// CHECK-LABEL: func.func @third() attributes {mux.kernel = "entry-point"} {
"memref.global"() <{sym_name = "a", type = memref<8xf32, 3>, initial_value, sym_visibility = "private"}> : () -> ()
"memref.global"() <{sym_name = "b", type = memref<4xi32, 3>, initial_value, sym_visibility = "private"}> : () -> ()
func.func @leaf(%i: index) -> i32 {
  %b = memref.get_global @b : memref<4xi32, 3>
  %v = memref.load %b[%i] : memref<4xi32, 3>
  func.return %v : i32
}
func.func @middle(%i: index) -> i32 {
  %v = func.call @leaf(%i) : (index) -> i32
  func.return %v : i32
}
func.func @pure(%x: i32) -> i32 {
  func.return %x : i32
}
func.func @first(%out: memref<?xi32, 1>) attributes {mux.kernel = "entry-point"} {
  %i = arith.constant 0 : index
  %v = func.call @middle(%i) : (index) -> i32
  %w = func.call @pure(%v) : (i32) -> i32
  memref.store %w, %out[%i] : memref<?xi32, 1>
  func.return
}
func.func @second() attributes {mux.kernel = "entry-point"} {
  %a = memref.get_global @a : memref<8xf32, 3>
  %i = arith.constant 0 : index
  %x = memref.load %a[%i] : memref<8xf32, 3>
  %v = func.call @leaf(%i) : (index) -> i32
  func.return
}
func.func @third() attributes {mux.kernel = "entry-point"} {
  func.return
}

// -----

// The LLVM form: an llvm.mlir.global in address space 3 (no initialiser, or undef,
// as clang emits local variables), used through llvm.mlir.addressof: the address is
// the pointer itself. An !llvm.struct has LLVM's natural layout: {i8, i64} is 16
// bytes aligned to 8. @tile is at 0, @s at 64, @pair at 80: 88 bytes.
// CHECK-NOT:   llvm.mlir.global
// CHECK-LABEL: func.func @llvm_form(%n: i64, %local_vars: memref<88xi8, 3 : i64>) attributes {mux.kernel = "entry-point", mux.local_vars_param = array<i64: 1, 88, 8>} {
// CHECK-NEXT:    %tile = builtin.unrealized_conversion_cast %local_vars : memref<88xi8, 3 : i64> to !llvm.ptr<3> {mux.local_variable = {name = "tile", offset = 0 : i64, size = 64 : i64, type = !llvm.array<16 x f32>}}
// CHECK-NEXT:    %p = llvm.getelementptr inbounds %tile[%n] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
// CHECK-NEXT:    %[[C:.*]] = builtin.unrealized_conversion_cast %local_vars : memref<88xi8, 3 : i64> to !llvm.ptr<3>
// CHECK-NEXT:    %s = llvm.getelementptr inbounds %[[C]][64] {mux.local_variable = {name = "s", offset = 64 : i64, size = 16 : i64, type = !llvm.struct<(i8, i64)>}} : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    %byte = llvm.load %s : !llvm.ptr<3> -> i8
// CHECK-NEXT:    %[[B:.*]] = builtin.unrealized_conversion_cast %local_vars : memref<88xi8, 3 : i64> to !llvm.ptr<3>
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %[[B]][80] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    %pair = builtin.unrealized_conversion_cast %[[P]] : !llvm.ptr<3> to memref<f64, 3 : i64>
// CHECK-NEXT:    %d = memref.load %pair[] : memref<f64, 3 : i64>
llvm.mlir.global internal @tile() {addr_space = 3 : i32} : !llvm.array<16 x f32> {
  %0 = llvm.mlir.undef : !llvm.array<16 x f32>
  llvm.return %0 : !llvm.array<16 x f32>
}
llvm.mlir.global internal @s() {addr_space = 3 : i32} : !llvm.struct<(i8, i64)>
"memref.global"() <{sym_name = "pair", type = memref<f64, 3>, initial_value, sym_visibility = "private"}> : () -> ()
func.func @llvm_form(%n: i64) attributes {mux.kernel = "entry-point"} {
  %pair = memref.get_global @pair : memref<f64, 3>
  %tile = llvm.mlir.addressof @tile : !llvm.ptr<3>
  %p = llvm.getelementptr inbounds %tile[%n] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32
  %s = llvm.mlir.addressof @s : !llvm.ptr<3>
  %byte = llvm.load %s : !llvm.ptr<3> -> i8
  %d = memref.load %pair[] : memref<f64, 3>
  func.return
}

// -----

// No local variable: nothing changes.
// CHECK-LABEL: func.func @none(%x: memref<?xf32, 1 : i64>) attributes {mux.kernel = "entry-point"} {
// CHECK-NEXT:    func.return
func.func @none(%x: memref<?xf32, 1>) attributes {mux.kernel = "entry-point"} {
  func.return
}

// -----

// The address is computed right before each op that uses it, from the buffer: a
// value derived from it never crosses a barrier (work-item-loops, which runs next,
// would keep such a value per work-item), nor is one computed outside the loop
// that uses it. A variable's get_global with no use is erased with it.
// CHECK-LABEL: func.func @each_use(%n: index, %local_vars: memref<32xi8, 3 : i64>) attributes {mux.kernel = "entry-point", mux.local_vars_param = array<i64: 1, 32, 4>} {
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %[[A:.*]] = builtin.unrealized_conversion_cast %local_vars
// CHECK-NEXT:    %tile = builtin.unrealized_conversion_cast %[[A]] : !llvm.ptr<3> to memref<8xf32, 3 : i64>
// CHECK-NEXT:    %v = memref.load %tile[%c0] : memref<8xf32, 3 : i64>
// CHECK-NEXT:    mux.work_group_barrier id(0)
// CHECK-NEXT:    scf.for %i = %c0 to %n step %c1 {
// CHECK-NEXT:      %[[B:.*]] = builtin.unrealized_conversion_cast %local_vars
// CHECK-NEXT:      %[[T:.*]] = builtin.unrealized_conversion_cast %[[B]] : !llvm.ptr<3> to memref<8xf32, 3 : i64>
// CHECK-NEXT:      memref.store %v, %[[T]][%i] : memref<8xf32, 3 : i64>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return
"memref.global"() <{sym_name = "tile", type = memref<8xf32, 3>, initial_value, sym_visibility = "private"}> : () -> ()
"memref.global"() <{sym_name = "dead", type = memref<8xf32, 3>, initial_value, sym_visibility = "private"}> : () -> ()
func.func @each_use(%n: index) attributes {mux.kernel = "entry-point"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %tile = memref.get_global @tile : memref<8xf32, 3>
  %dead = memref.get_global @dead : memref<8xf32, 3>
  %v = memref.load %tile[%c0] : memref<8xf32, 3>
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  scf.for %i = %c0 to %n step %c1 {
    memref.store %v, %tile[%i] : memref<8xf32, 3>
  }
  func.return
}
