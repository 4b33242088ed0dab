// RUN: mux-opt %s --split-input-file -p convert-to-llvm | filecheck %s
//
// convert-to-llvm on func: llvm.func with the converted signature, attributes and
// linkage; calls and returns.

// Memrefs are bare pointers in their address space (none and 0 are !llvm.ptr),
// index is i64, vectors of index are vectors of i64.
func.func @signature(%global: memref<?xf32, 1>, %constant: memref<16xi32, 2>,
                     %local: memref<?x4x4xi8, 3>, %generic: memref<f64, 4>,
                     %private: memref<8xf32>, %zero: memref<8xf32, 0>,
                     %identity: memref<2x2xf32, affine_map<(d0, d1) -> (d0, d1)>>,
                     %of_vectors: memref<?xvector<4xf32>, 1>,
                     %i: index, %v: vector<4xindex>, %x: f16, %ptr: !llvm.ptr<1>) {
  func.return
}
// CHECK-LABEL: llvm.func @signature(%global: !llvm.ptr<1>, %constant: !llvm.ptr<2>,
// CHECK-SAME:    %local: !llvm.ptr<3>, %generic: !llvm.ptr<4>, %private: !llvm.ptr,
// CHECK-SAME:    %zero: !llvm.ptr, %identity: !llvm.ptr, %of_vectors: !llvm.ptr<1>,
// CHECK-SAME:    %i: i64, %v: vector<4xi64>, %x: f16, %ptr: !llvm.ptr<1>) {
// CHECK-NEXT:    llvm.return
// CHECK-NEXT:  }

// -----

// The function's attributes and its argument and result attributes are kept.
func.func @kernel(%a: memref<?xf32, 1> {llvm.noalias, llvm.align = 16 : i64},
                  %n: index) -> (i32 {llvm.zeroext})
    attributes {mux.kernel = "entry-point",
                mux.reqd_work_group_size = array<i32: 8, 4, 1>} {
  %c = arith.constant 0 : i32
  func.return %c : i32
}
// CHECK-LABEL: llvm.func @kernel(%a: !llvm.ptr<1> {llvm.noalias, llvm.align = 16 : i64}, %n: i64) -> (i32 {llvm.zeroext})
// CHECK-SAME:    attributes {mux.kernel = "entry-point", mux.reqd_work_group_size = array<i32: 8, 4, 1>} {
// CHECK-NEXT:    %c = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:    llvm.return %c : i32

// -----

// Linkage: a private definition is internal; a declaration, even private, and a
// public definition are external; llvm.linkage overrides both.
func.func private @helper(%x: i32) -> i32 {
  func.return %x : i32
}
func.func private @external_function(i32) -> i32
func.func @public(%x: i32) -> i32 {
  func.return %x : i32
}
func.func @weak(%x: i32) -> i32 attributes {llvm.linkage = #llvm.linkage<weak>} {
  func.return %x : i32
}
// CHECK:       llvm.func internal @helper(%x: i32) -> i32 {
// CHECK:       llvm.func @external_function(i32) -> i32
// CHECK-NEXT:  llvm.func @public(%{{.*}}: i32) -> i32 {
// CHECK:       llvm.func weak @weak(%{{.*}}: i32) -> i32 {

// -----

// Calls pass llvm values (the memref as its pointer, the index as i64).
func.func private @callee(memref<?xf32, 1>, index) -> index
func.func private @no_result()
func.func @caller(%a: memref<?xf32, 1>, %i: index) -> index {
  %r = func.call @callee(%a, %i) : (memref<?xf32, 1>, index) -> index
  func.call @no_result() : () -> ()
  %s = arith.addi %r, %i : index
  func.return %s : index
}
// CHECK:       llvm.func @callee(!llvm.ptr<1>, i64) -> i64
// CHECK-NEXT:  llvm.func @no_result()
// CHECK-LABEL: llvm.func @caller(%a: !llvm.ptr<1>, %i: i64) -> i64 {
// CHECK-NEXT:    %r = llvm.call @callee(%a, %i) : (!llvm.ptr<1>, i64) -> i64
// CHECK-NEXT:    llvm.call @no_result() : () -> ()
// CHECK-NEXT:    %s = llvm.add %r, %i : i64
// CHECK-NEXT:    llvm.return %s : i64

// -----

// A function returning a memref returns its pointer.
func.func @identity(%a: memref<?xf32, 3>) -> memref<?xf32, 3> {
  func.return %a : memref<?xf32, 3>
}
// CHECK-LABEL: llvm.func @identity(%a: !llvm.ptr<3>) -> !llvm.ptr<3> {
// CHECK-NEXT:    llvm.return %a : !llvm.ptr<3>

// -----

// Several results: the function returns them in a struct (as MLIR's
// convert-func-to-llvm does), packed by llvm.insertvalue into an llvm.mlir.undef;
// a call takes them out with llvm.extractvalue.
func.func @pair(%a: i32, %i: index) -> (i32, index) {
  func.return %a, %i : i32, index
}
func.func private @declared(i32) -> (i32, f32)
func.func @caller(%a: i32, %i: index) -> index {
  %x, %y = func.call @pair(%a, %i) : (i32, index) -> (i32, index)
  func.return %y : index
}
// CHECK-LABEL: llvm.func @pair(%a: i32, %i: i64) -> !llvm.struct<(i32, i64)> {
// CHECK-NEXT:    %[[UNDEF:.*]] = llvm.mlir.undef : !llvm.struct<(i32, i64)>
// CHECK-NEXT:    %[[FIRST:.*]] = llvm.insertvalue %a, %[[UNDEF]][0] : !llvm.struct<(i32, i64)>
// CHECK-NEXT:    %[[BOTH:.*]] = llvm.insertvalue %i, %[[FIRST]][1] : !llvm.struct<(i32, i64)>
// CHECK-NEXT:    llvm.return %[[BOTH]] : !llvm.struct<(i32, i64)>
// CHECK-LABEL: llvm.func @declared(i32) -> !llvm.struct<(i32, f32)>
// CHECK-LABEL: llvm.func @caller(%a_1: i32, %i_1: i64) -> i64 {
// CHECK-NEXT:    %[[PAIR:.*]] = llvm.call @pair(%a_1, %i_1) : (i32, i64) -> !llvm.struct<(i32, i64)>
// CHECK-NEXT:    %x = llvm.extractvalue %[[PAIR]][0] : !llvm.struct<(i32, i64)>
// CHECK-NEXT:    %y = llvm.extractvalue %[[PAIR]][1] : !llvm.struct<(i32, i64)>
// CHECK-NEXT:    llvm.return %y : i64
