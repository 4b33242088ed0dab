// RUN: mux-opt %s --split-input-file -p convert-to-llvm | filecheck %s
//
// convert-to-llvm on memref: bare pointers, accesses by GEP over the element type
// with the row-major linear index, private arrays as allocas, globals.

func.func @access(%a: memref<?xf32, 1>, %b: memref<?x4x8xi16, 3>, %i: index, %j: index, %k: index) {
  %x = memref.load %a[%i] : memref<?xf32, 1>
  memref.store %x, %a[%j] : memref<?xf32, 1>
  %y = memref.load %b[%i, %j, %k] : memref<?x4x8xi16, 3>
  func.return
}
// CHECK-LABEL: llvm.func @access(%a: !llvm.ptr<1>, %b: !llvm.ptr<3>, %i: i64, %j: i64, %k: i64) {
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %a[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    %x = llvm.load %[[P]] {alignment = 4 : i64} : !llvm.ptr<1> -> f32
// CHECK-NEXT:    %[[Q:.*]] = llvm.getelementptr inbounds %a[%j] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
// CHECK-NEXT:    llvm.store %x, %[[Q]] {alignment = 4 : i64} : f32, !llvm.ptr<1>
// CHECK-NEXT:    %[[S0:.*]] = llvm.mlir.constant(32) : i64
// CHECK-NEXT:    %[[T0:.*]] = llvm.mul %i, %[[S0]] overflow<nsw> : i64
// CHECK-NEXT:    %[[S1:.*]] = llvm.mlir.constant(8) : i64
// CHECK-NEXT:    %[[T1:.*]] = llvm.mul %j, %[[S1]] overflow<nsw> : i64
// CHECK-NEXT:    %[[L1:.*]] = llvm.add %[[T0]], %[[T1]] overflow<nsw> : i64
// CHECK-NEXT:    %[[L2:.*]] = llvm.add %[[L1]], %k overflow<nsw> : i64
// CHECK-NEXT:    %[[R:.*]] = llvm.getelementptr inbounds %b[%[[L2]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i16
// CHECK-NEXT:    %y = llvm.load %[[R]] {alignment = 2 : i64} : !llvm.ptr<3> -> i16
// CHECK-NEXT:    llvm.return

// -----

// A 0-d memref is its pointer; an index element is an i64; a nontemporal store
// stays nontemporal, an invariant load invariant.
func.func @scalar(%s: memref<index, 1>, %v: memref<?xvector<4xf32>, 1>, %i: index) {
  %x = memref.load %s[] {mux.invariant_load} : memref<index, 1>
  memref.store %x, %s[] {nontemporal = true} : memref<index, 1>
  %w = memref.load %v[%i] : memref<?xvector<4xf32>, 1>
  func.return
}
// CHECK-LABEL: llvm.func @scalar(%s: !llvm.ptr<1>, %v: !llvm.ptr<1>, %i: i64) {
// CHECK-NEXT:    %x = llvm.load %s {mux.invariant_load, alignment = 8 : i64} : !llvm.ptr<1> -> i64
// CHECK-NEXT:    llvm.store %x, %s {alignment = 8 : i64, nontemporal} : i64, !llvm.ptr<1>
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %v[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, vector<4xf32>
// CHECK-NEXT:    %w = llvm.load %[[P]] {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>

// -----

// A private array is an alloca of its element count at the start of the entry
// block (in program order), even from inside a loop, aligned at least naturally.
func.func @private_array(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %first = memref.alloca() : memref<4x4xf32>
  scf.for %i = %c0 to %n step %c1 {
    %inner = memref.alloca() {alignment = 32 : i64} : memref<3xi8>
    %bytes = memref.alloca() {alignment = 1 : i64} : memref<2xi64>
    %x = memref.load %first[%c1, %c1] : memref<4x4xf32>
  }
  func.return
}
// CHECK-LABEL: llvm.func @private_array(%n: i64) {
// CHECK-NEXT:    %[[N1:.*]] = llvm.mlir.constant(16) : i64
// CHECK-NEXT:    %first = llvm.alloca %[[N1]] x f32 {alignment = 4 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT:    %[[N2:.*]] = llvm.mlir.constant(3) : i64
// CHECK-NEXT:    %inner = llvm.alloca %[[N2]] x i8 {alignment = 32 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT:    %[[N3:.*]] = llvm.mlir.constant(2) : i64
// CHECK-NEXT:    %bytes = llvm.alloca %[[N3]] x i64 {alignment = 8 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT:    %c0 = llvm.mlir.constant(0) : i64
// CHECK:         %[[P:.*]] = llvm.getelementptr inbounds %first[%{{.*}}] : (!llvm.ptr, i64) -> !llvm.ptr, f32
// CHECK-NEXT:    %x = llvm.load %[[P]] {alignment = 4 : i64} : !llvm.ptr -> f32

// -----

// Globals: arrays of the element count in their address space, the initial value
// flattened; uninitialized ones get zeros; private ones are internal.
"memref.global"() <{sym_name = "tile", sym_visibility = "private", type = memref<2x4xf32, 3>, initial_value}> : () -> ()
"memref.global"() <{sym_name = "table", sym_visibility = "public", type = memref<2x2xi32, 2>, initial_value = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>, constant, alignment = 16 : i64}> : () -> ()
"memref.global"() <{sym_name = "counter", sym_visibility = "private", type = memref<index>, initial_value = dense<7> : tensor<index>}> : () -> ()
func.func @globals(%i: index) -> f32 {
  %tile = memref.get_global @tile : memref<2x4xf32, 3>
  %table = memref.get_global @table : memref<2x2xi32, 2>
  %counter = memref.get_global @counter : memref<index>
  %x = memref.load %tile[%i, %i] : memref<2x4xf32, 3>
  func.return %x : f32
}
// CHECK:       builtin.module {
// CHECK-NEXT:    llvm.mlir.global internal @tile(dense<0.000000e+00> : tensor<8xf32>) {addr_space = 3 : i32} : !llvm.array<8 x f32>
// CHECK-NEXT:    llvm.mlir.global external constant @table(dense<[1, 2, 3, 4]> : tensor<4xi32>) {addr_space = 2 : i32, alignment = 16 : i64} : !llvm.array<4 x i32>
// CHECK-NEXT:    llvm.mlir.global internal @counter(7 : i64) {addr_space = 0 : i32} : i64
// CHECK-NEXT:    llvm.func @globals(%i: i64) -> f32 {
// CHECK-NEXT:      %tile = llvm.mlir.addressof @tile : !llvm.ptr<3>
// CHECK-NEXT:      %table = llvm.mlir.addressof @table : !llvm.ptr<2>
// CHECK-NEXT:      %counter = llvm.mlir.addressof @counter : !llvm.ptr
// CHECK-NEXT:      %[[S:.*]] = llvm.mlir.constant(4) : i64
// CHECK-NEXT:      %[[T:.*]] = llvm.mul %i, %[[S]] overflow<nsw> : i64
// CHECK-NEXT:      %[[L:.*]] = llvm.add %[[T]], %i overflow<nsw> : i64
// CHECK-NEXT:      %[[P:.*]] = llvm.getelementptr inbounds %tile[%[[L]]] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, f32

// -----

// memref.cast and assume_alignment are the pointer itself; memory_space_cast is an
// addrspacecast; memref.dim of a static size is the constant.
func.func @casts(%a: memref<4x8xf32, 1>) -> index {
  %c1 = arith.constant 1 : index
  %dynamic = "memref.cast"(%a) : (memref<4x8xf32, 1>) -> memref<?x8xf32, 1>
  %aligned = "memref.assume_alignment"(%dynamic) <{alignment = 16 : i32}> : (memref<?x8xf32, 1>) -> memref<?x8xf32, 1>
  %generic = "memref.memory_space_cast"(%aligned) : (memref<?x8xf32, 1>) -> memref<?x8xf32, 4>
  %x = memref.load %generic[%c1, %c1] : memref<?x8xf32, 4>
  %size = memref.dim %dynamic, %c1 : memref<?x8xf32, 1>
  func.return %size : index
}
// CHECK-LABEL: llvm.func @casts(%a: !llvm.ptr<1>) -> i64 {
// CHECK-NEXT:    %c1 = llvm.mlir.constant(1) : i64
// CHECK-NEXT:    %generic = llvmx.addrspacecast %a : !llvm.ptr<1> to !llvm.ptr<4>
// CHECK:         llvm.getelementptr inbounds %generic[%{{.*}}] : (!llvm.ptr<4>, i64) -> !llvm.ptr<4>, f32
// CHECK-NEXT:    %x = llvm.load
// CHECK-NEXT:    %size = llvm.mlir.constant(8) : i64
// CHECK-NEXT:    llvm.return %size : i64

// -----

// Booleans are a byte each in memory (types.memory_type), as numpy's bool: an i1
// element is loaded as an i8 and compared with 0 (any byte but 0 is true), and
// stored zero-extended; a vector<4xi1> element is 4 bytes. Private arrays and
// globals of i1 are arrays of i8, a true initial value the byte 1.
"memref.global"() <{sym_name = "flags", sym_visibility = "private", type = memref<3xi1, 3>, initial_value = dense<[true, false, true]> : tensor<3xi1>}> : () -> ()
func.func @booleans(%a: memref<?xi1, 1>, %v: memref<?xvector<4xi1>, 1>, %i: index) {
  %x = memref.load %a[%i] : memref<?xi1, 1>
  memref.store %x, %a[%i] : memref<?xi1, 1>
  %w = memref.load %v[%i] : memref<?xvector<4xi1>, 1>
  memref.store %w, %v[%i] : memref<?xvector<4xi1>, 1>
  %private = memref.alloca() : memref<5xi1>
  memref.store %x, %private[%i] : memref<5xi1>
  %flags = memref.get_global @flags : memref<3xi1, 3>
  %f = memref.load %flags[%i] : memref<3xi1, 3>
  func.return
}
// CHECK:         llvm.mlir.global internal @flags(dense<[1, 0, 1]> : tensor<3xi8>) {addr_space = 3 : i32} : !llvm.array<3 x i8>
// CHECK-LABEL: llvm.func @booleans(%a: !llvm.ptr<1>, %v: !llvm.ptr<1>, %i: i64) {
// CHECK-NEXT:    %[[N:.*]] = llvm.mlir.constant(5) : i64
// CHECK-NEXT:    %private = llvm.alloca %[[N]] x i8 {alignment = 1 : i64} : (i64) -> !llvm.ptr
// CHECK-NEXT:    %[[P:.*]] = llvm.getelementptr inbounds %a[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT:    %[[B:.*]] = llvm.load %[[P]] {alignment = 1 : i64} : !llvm.ptr<1> -> i8
// CHECK-NEXT:    %[[Z:.*]] = llvm.mlir.constant(0 : i8) : i8
// CHECK-NEXT:    %x = llvm.icmp "ne" %[[B]], %[[Z]] : i8
// CHECK-NEXT:    %[[Q:.*]] = llvm.getelementptr inbounds %a[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i8
// CHECK-NEXT:    %[[XB:.*]] = llvm.zext %x : i1 to i8
// CHECK-NEXT:    llvm.store %[[XB]], %[[Q]] {alignment = 1 : i64} : i8, !llvm.ptr<1>
// CHECK-NEXT:    %[[R:.*]] = llvm.getelementptr inbounds %v[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, vector<4xi8>
// CHECK-NEXT:    %[[VB:.*]] = llvm.load %[[R]] {alignment = 4 : i64} : !llvm.ptr<1> -> vector<4xi8>
// CHECK-NEXT:    %[[VZ:.*]] = llvm.mlir.constant(dense<0> : vector<4xi8>) : vector<4xi8>
// CHECK-NEXT:    %w = llvm.icmp "ne" %[[VB]], %[[VZ]] : vector<4xi8>
// CHECK-NEXT:    %[[S:.*]] = llvm.getelementptr inbounds %v[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, vector<4xi8>
// CHECK-NEXT:    %[[WB:.*]] = llvm.zext %w : vector<4xi1> to vector<4xi8>
// CHECK-NEXT:    llvm.store %[[WB]], %[[S]] {alignment = 4 : i64} : vector<4xi8>, !llvm.ptr<1>
// CHECK-NEXT:    %[[T:.*]] = llvm.getelementptr inbounds %private[%i] : (!llvm.ptr, i64) -> !llvm.ptr, i8
// CHECK-NEXT:    %[[PB:.*]] = llvm.zext %x : i1 to i8
// CHECK-NEXT:    llvm.store %[[PB]], %[[T]] {alignment = 1 : i64} : i8, !llvm.ptr
// CHECK-NEXT:    %flags = llvm.mlir.addressof @flags : !llvm.ptr<3>
// CHECK-NEXT:    %[[U:.*]] = llvm.getelementptr inbounds %flags[%i] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    %[[FB:.*]] = llvm.load %[[U]] {alignment = 1 : i64} : !llvm.ptr<3> -> i8
// CHECK-NEXT:    %[[FZ:.*]] = llvm.mlir.constant(0 : i8) : i8
// CHECK-NEXT:    %f = llvm.icmp "ne" %[[FB]], %[[FZ]] : i8
// CHECK-NEXT:    llvm.return
