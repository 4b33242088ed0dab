// RUN: mux-opt --split-input-file --parsing-diagnostics --verify-diagnostics %s | filecheck %s
//
// The DMA builtins' rules: a read copies from global (address space 1) to local
// (address space 3) memory, a write the other way (RULE_DMA_READ_SPACES,
// RULE_DMA_WRITE_SPACES); sizes and strides are `index`; events are !mux.dma_event.
// Each case checks the message, the function it is in and the op it is reported on.

// A 1-D read with the address spaces swapped (RULE_DMA_READ_SPACES).
func.func @read_1d_swapped(%local: memref<64xf32, 3>, %global: memref<64xf32, 1>, %w: index) {
  %0 = mux.dma_read_1d %global, %local width(%w) : memref<64xf32, 1>, memref<64xf32, 3>
  func.return
}
// CHECK: a DMA read copies from global memory (address space 1) to local memory (address space 3): destination in address space 1, source in address space 3
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "read_1d_swapped"
// CHECK: %0 = "mux.dma_read_1d"(%global, %local, %w)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: a DMA read copies from global memory (address space 1) to local memory (address space 3): destination in address space 1, source in address space 3

// -----

// A 3-D read with the address spaces swapped, on pointers (RULE_DMA_READ_SPACES).
func.func @read_3d_swapped(%local: !llvm.ptr<3>, %global: !llvm.ptr<1>, %w: index) {
  %0 = mux.dma_read_3d %global, %local width(%w) dst_line_stride(%w) src_line_stride(%w) height(%w) dst_plane_stride(%w) src_plane_stride(%w) depth(%w) : !llvm.ptr<1>, !llvm.ptr<3>
  func.return
}
// CHECK: a DMA read copies from global memory (address space 1) to local memory (address space 3): destination in address space 1, source in address space 3
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "read_3d_swapped"
// CHECK: %0 = "mux.dma_read_3d"(%global, %local, %w, %w, %w, %w, %w, %w, %w)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: a DMA read copies from global memory (address space 1) to local memory (address space 3): destination in address space 1, source in address space 3

// -----

// A 2-D write with the address spaces swapped (RULE_DMA_WRITE_SPACES).
func.func @write_2d_swapped(%local: !llvm.ptr<3>, %global: !llvm.ptr<1>, %w: index) {
  %0 = mux.dma_write_2d %local, %global width(%w) dst_stride(%w) src_stride(%w) height(%w) : !llvm.ptr<3>, !llvm.ptr<1>
  func.return
}
// CHECK: a DMA write copies from local memory (address space 3) to global memory (address space 1): destination in address space 3, source in address space 1
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "write_2d_swapped"
// CHECK: %0 = "mux.dma_write_2d"(%local, %global, %w, %w, %w, %w)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: a DMA write copies from local memory (address space 3) to global memory (address space 1): destination in address space 3, source in address space 1

// -----

// A 1-D write with the address spaces swapped, on memrefs (RULE_DMA_WRITE_SPACES).
func.func @write_1d_swapped(%local: memref<64xf32, 3>, %global: memref<64xf32, 1>, %w: index) {
  %0 = mux.dma_write_1d %local, %global width(%w) : memref<64xf32, 3>, memref<64xf32, 1>
  func.return
}
// CHECK: a DMA write copies from local memory (address space 3) to global memory (address space 1): destination in address space 3, source in address space 1
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "write_1d_swapped"
// CHECK: %0 = "mux.dma_write_1d"(%local, %global, %w)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: a DMA write copies from local memory (address space 3) to global memory (address space 1): destination in address space 3, source in address space 1

// -----

// A private memref (no memory space: address space 0) as the read's destination
// (RULE_DMA_READ_SPACES).
func.func @read_private_destination(%private: memref<64xf32>, %global: memref<64xf32, 1>, %w: index) {
  %0 = mux.dma_read_3d %private, %global width(%w) dst_line_stride(%w) src_line_stride(%w) height(%w) dst_plane_stride(%w) src_plane_stride(%w) depth(%w) : memref<64xf32>, memref<64xf32, 1>
  func.return
}
// CHECK: a DMA read copies from global memory (address space 1) to local memory (address space 3): destination in address space 0, source in address space 1
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "read_private_destination"
// CHECK: %0 = "mux.dma_read_3d"(%private, %global, %w, %w, %w, %w, %w, %w, %w)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: a DMA read copies from global memory (address space 1) to local memory (address space 3): destination in address space 0, source in address space 1

// -----

// A private memref as the write's source (RULE_DMA_WRITE_SPACES).
func.func @write_private_source(%private: memref<64xf32>, %global: memref<64xf32, 1>, %w: index) {
  %0 = mux.dma_write_1d %global, %private width(%w) : memref<64xf32, 1>, memref<64xf32>
  func.return
}
// CHECK: a DMA write copies from local memory (address space 3) to global memory (address space 1): destination in address space 1, source in address space 0
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "write_private_source"
// CHECK: %0 = "mux.dma_write_1d"(%global, %private, %w)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: a DMA write copies from local memory (address space 3) to global memory (address space 1): destination in address space 1, source in address space 0

// -----

// An opaque `!llvm.ptr` is in address space 0 (RULE_DMA_READ_SPACES).
func.func @read_opaque_pointer(%p: !llvm.ptr, %global: !llvm.ptr<1>, %w: index) {
  %0 = mux.dma_read_1d %p, %global width(%w) : !llvm.ptr, !llvm.ptr<1>
  func.return
}
// CHECK: a DMA read copies from global memory (address space 1) to local memory (address space 3): destination in address space 0, source in address space 1
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "read_opaque_pointer"
// CHECK: %0 = "mux.dma_read_1d"(%p, %global, %w)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: a DMA read copies from global memory (address space 1) to local memory (address space 3): destination in address space 0, source in address space 1

// -----

// Constant memory (address space 2) is not global memory (RULE_DMA_READ_SPACES).
func.func @read_from_constant(%local: !llvm.ptr<3>, %constant: !llvm.ptr<2>, %w: index) {
  %0 = mux.dma_read_1d %local, %constant width(%w) : !llvm.ptr<3>, !llvm.ptr<2>
  func.return
}
// CHECK: a DMA read copies from global memory (address space 1) to local memory (address space 3): destination in address space 3, source in address space 2
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "read_from_constant"
// CHECK: %0 = "mux.dma_read_1d"(%local, %constant, %w)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: a DMA read copies from global memory (address space 1) to local memory (address space 3): destination in address space 3, source in address space 2

// -----

// Local to local is not a write (RULE_DMA_WRITE_SPACES).
func.func @write_local_to_local(%a: memref<64xf32, 3>, %b: memref<64xf32, 3>, %w: index) {
  %0 = mux.dma_write_1d %a, %b width(%w) : memref<64xf32, 3>, memref<64xf32, 3>
  func.return
}
// CHECK: a DMA write copies from local memory (address space 3) to global memory (address space 1): destination in address space 3, source in address space 3
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "write_local_to_local"
// CHECK: %0 = "mux.dma_write_1d"(%a, %b, %w)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: a DMA write copies from local memory (address space 3) to global memory (address space 1): destination in address space 3, source in address space 3

// -----

// A width that is not an index.
func.func @read_i64_width(%local: memref<64xf32, 3>, %global: memref<64xf32, 1>, %w: i64) {
  %0 = "mux.dma_read_1d"(%local, %global, %w) : (memref<64xf32, 3>, memref<64xf32, 1>, i64) -> !mux.dma_event
  func.return
}
// CHECK: operand 'width' at position 2 does not verify:
// CHECK-NEXT: i64 should be of base attribute index
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "read_i64_width"
// CHECK: %0 = "mux.dma_read_1d"(%local, %global, %w)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: operand 'width' at position 2 does not verify:

// -----

// A stride that is not an index.
func.func @write_i32_stride(%local: !llvm.ptr<3>, %global: !llvm.ptr<1>, %w: index, %s: i32) {
  %0 = "mux.dma_write_2d"(%global, %local, %w, %s, %w, %w) : (!llvm.ptr<1>, !llvm.ptr<3>, index, i32, index, index) -> !mux.dma_event
  func.return
}
// CHECK: operand 'dst_stride' at position 3 does not verify:
// CHECK-NEXT: i32 should be of base attribute index
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "write_i32_stride"
// CHECK: %0 = "mux.dma_write_2d"(%global, %local, %w, %s, %w, %w)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: operand 'dst_stride' at position 3 does not verify:

// -----

// In the custom form the width is an index: an i32 is a type mismatch.
func.func @read_i32_width_custom(%local: memref<64xf32, 3>, %global: memref<64xf32, 1>, %w: i32) {
  %0 = mux.dma_read_1d %local, %global width(%w) : memref<64xf32, 3>, memref<64xf32, 1>
  func.return
}
// CHECK: mux_dma_invalid.mlir:[[# @LINE - 3]]:46
// CHECK-NEXT: %0 = mux.dma_read_1d %local, %global width(%w) : memref<64xf32, 3>, memref<64xf32, 1>
// CHECK-NEXT: ^^
// CHECK-NEXT: operand is used with type index, but has been previously used or defined with type i32

// -----

// A tensor is not a pointer.
func.func @read_tensor(%t: tensor<64xf32>, %global: memref<64xf32, 1>, %w: index) {
  %0 = "mux.dma_read_1d"(%t, %global, %w) : (tensor<64xf32>, memref<64xf32, 1>, index) -> !mux.dma_event
  func.return
}
// CHECK: operand 'dst' at position 0 does not verify:
// CHECK-NEXT: Unexpected attribute tensor<64xf32>
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "read_tensor"
// CHECK: %0 = "mux.dma_read_1d"(%t, %global, %w)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: operand 'dst' at position 0 does not verify:

// -----

// The event operand is a !mux.dma_event.
func.func @read_i32_event(%local: !llvm.ptr<3>, %global: !llvm.ptr<1>, %w: index, %e: i32) {
  %0 = "mux.dma_read_1d"(%local, %global, %w, %e) : (!llvm.ptr<3>, !llvm.ptr<1>, index, i32) -> !mux.dma_event
  func.return
}
// CHECK: operand 'event' at position 3 does not verify:
// CHECK-NEXT: i32 should be of base attribute mux.dma_event
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "read_i32_event"
// CHECK: %0 = "mux.dma_read_1d"(%local, %global, %w, %e)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: operand 'event' at position 3 does not verify:

// -----

// dma_wait waits on !mux.dma_event values only.
func.func @wait_i32(%local: !llvm.ptr<3>, %global: !llvm.ptr<1>, %w: index, %x: i32) {
  %e = mux.dma_read_1d %local, %global width(%w) : !llvm.ptr<3>, !llvm.ptr<1>
  "mux.dma_wait"(%e, %x) : (!mux.dma_event, i32) -> ()
  func.return
}
// CHECK: operand 'events' at positions 0 to 1 does not verify:
// CHECK-NEXT: i32 should be of base attribute mux.dma_event
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "wait_i32"
// CHECK: "mux.dma_wait"(%e, %x)
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: operand 'events' at positions 0 to 1 does not verify:

// -----

// A memory space that is not a number has no address space.
func.func @read_named_space(%l: memref<64xf32, "local">, %g: memref<64xf32, 1>, %n: index) {
  %e = mux.dma_read_1d %l, %g width(%n) : memref<64xf32, "local">, memref<64xf32, 1>
  func.return
}
// CHECK: a DMA read copies from global memory (address space 1) to local memory (address space 3): destination in no numbered address space, source in address space 1
