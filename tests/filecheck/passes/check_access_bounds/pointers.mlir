// RUN: mux-opt %s --split-input-file -p check-access-bounds | filecheck %s
//
// An llvm-level access (an OpenCL C kernel's that lift-llvm-ops left) is
// checked by addresses: its pointer is traced back through GEPs, casts and
// selects to every object it may point into, and `[p, p + size)` must lie
// within one of them (offset = p - base, unsigned: offset <= bytes and
// offset + size <= bytes).

// CHECK:      "load from parameter 'a' (memref<?xf32, 1 : i64>) or parameter 'b' (memref<?xf32, 1 : i64>) at
// CHECK-LABEL: func.func @select
// CHECK-NEXT:    %[[W:.*]] = arith.constant 35 : index
// CHECK-NEXT:    %[[BYTES:.*]] = memref.load %{{.*}}[%[[W]]] {mux.invariant_load} : memref<?xi64, 1 : i64>
// CHECK:         %[[P:.*]] = llvm.ptrtoint %e : !llvm.ptr<1> to i64
// CHECK-NEXT:    %[[SIZE:.*]] = arith.constant 4 : i64
// CHECK-NEXT:    %[[A:.*]] = builtin.unrealized_conversion_cast %a : memref<?xf32, 1 : i64> to !llvm.ptr<1>
// CHECK-NEXT:    %[[AI:.*]] = llvm.ptrtoint %[[A]] : !llvm.ptr<1> to i64
// CHECK-NEXT:    %[[OFF:.*]] = arith.subi %[[P]], %[[AI]] : i64
// CHECK-NEXT:    %[[END:.*]] = arith.addi %[[OFF]], %[[SIZE]] : i64
// CHECK-NEXT:    %[[LOW:.*]] = arith.cmpi ule, %[[OFF]], %[[BYTES]] : i64
// CHECK-NEXT:    %[[HIGH:.*]] = arith.cmpi ule, %[[END]], %[[BYTES]] : i64
// CHECK-NEXT:    %[[INA:.*]] = arith.andi %[[LOW]], %[[HIGH]] : i1
// CHECK:         %[[INB:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK-NEXT:    %[[OK:.*]] = arith.ori %[[INA]], %[[INB]] : i1
// CHECK-NEXT:    %v = scf.if %[[OK]] -> (f32) {
// CHECK-NEXT:      %{{.*}} = llvm.load %e : !llvm.ptr<1> -> f32
func.func @select(%a: memref<?xf32, 1>, %b: memref<?xf32, 1>, %n: i64) attributes {mux.kernel = "entry-point"} {
  %pa = builtin.unrealized_conversion_cast %a : memref<?xf32, 1> to !llvm.ptr<1>
  %pb = builtin.unrealized_conversion_cast %b : memref<?xf32, 1> to !llvm.ptr<1>
  %c = llvm.icmp "slt" %n, %n : i64
  %p = llvm.select %c, %pa, %pb : i1, !llvm.ptr<1>
  %e = llvm.getelementptr %p[%n] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %v = llvm.load %e : !llvm.ptr<1> -> f32
  func.return
}

// -----

// A pointer moved in a loop (a phi) keeps its base: the check compares
// addresses, so the loop needs no analysis. A private array (`llvm.alloca`
// of a constant count) has its static size: 4 x i32 = 16 bytes.

// CHECK:      "store to private array 'arr' at
// CHECK-LABEL: func.func @phi
// CHECK:       ^bb1(%p: !llvm.ptr):
// CHECK:         %[[BASE:.*]] = llvm.ptrtoint %arr : !llvm.ptr to i64
// CHECK-NEXT:    %[[OFF:.*]] = arith.subi %{{.*}}, %[[BASE]] : i64
// CHECK-NEXT:    %{{.*}} = arith.constant 16 : i64
// CHECK:         scf.if %{{.*}} {
// CHECK-NEXT:      llvm.store %z, %p : i32, !llvm.ptr
func.func @phi(%n: i64) attributes {mux.kernel = "entry-point"} {
  %four = llvm.mlir.constant(4 : i64) : i64
  %arr = llvm.alloca %four x i32 : (i64) -> !llvm.ptr
  %z = llvm.mlir.constant(0 : i32) : i32
  cf.br ^bb1(%arr : !llvm.ptr)
^bb1(%p: !llvm.ptr):
  llvm.store %z, %p : i32, !llvm.ptr
  %next = llvm.getelementptr %p[1] : (!llvm.ptr) -> !llvm.ptr, i32
  %c = llvm.icmp "slt" %n, %n : i64
  cf.cond_br %c, ^bb1(%next : !llvm.ptr), ^bb2
^bb2:
  func.return
}

// -----

// A DMA transfer is an `llvmx.memcpy` by now (define-mux-dma): its destination
// and source ranges are both checked; the fault branch reports the first that
// failed (destination first).

// CHECK:      "copy (DMA transfer or memcpy) to parameter 'dst' (memref<?xf32, 3 : i64>) at
// CHECK-SAME: "copy (DMA transfer or memcpy) from parameter 'src' (memref<?xf32, 1 : i64>) at
// CHECK-LABEL: func.func @dma
// CHECK:         scf.if %{{.*}} {
// CHECK-NEXT:      llvmx.memcpy %d, %s, %len : !llvm.ptr<3>, !llvm.ptr<1>, i64
// CHECK-NEXT:    } else {
// CHECK:           scf.if %{{.*}} {
func.func @dma(%dst: memref<?xf32, 3>, %src: memref<?xf32, 1>, %len: i64) attributes {mux.kernel = "entry-point"} {
  %d = builtin.unrealized_conversion_cast %dst : memref<?xf32, 3> to !llvm.ptr<3>
  %s = builtin.unrealized_conversion_cast %src : memref<?xf32, 1> to !llvm.ptr<1>
  llvmx.memcpy %d, %s, %len : !llvm.ptr<3>, !llvm.ptr<1>, i64
  func.return
}

// -----

// Never a false report: a pointer whose base is not known (loaded from memory
// here) is left unchecked, and listed with the reason in
// `mux.check_unchecked`.

// CHECK:      mux.check_unchecked = ["store to !llvm.ptr<1> at {{.*}}pointers.mlir:{{[0-9]+}}:3 in 'unknown': a pointer whose base is not known"]
// CHECK-LABEL: func.func @unknown
// CHECK:         %p = llvm.inttoptr %i : i64 to !llvm.ptr<1>
// CHECK-NEXT:    llvm.store %v, %p : f32, !llvm.ptr<1>
// CHECK:         func.return
func.func @unknown(%q: memref<?xi64, 1>, %v: f32) attributes {mux.kernel = "entry-point"} {
  %pq = builtin.unrealized_conversion_cast %q : memref<?xi64, 1> to !llvm.ptr<1>
  %i = llvm.load %pq : !llvm.ptr<1> -> i64
  %p = llvm.inttoptr %i : i64 to !llvm.ptr<1>
  llvm.store %v, %p : f32, !llvm.ptr<1>
  func.return
}

// -----

// A module-scope local variable: the address replace-module-scope-vars gives it
// records the variable (mux.local_variable), so an access through it is checked
// against that variable alone, its 16 bytes at offset 16 of the buffer (recomputed
// from the buffer parameter, which dominates every access: the address itself is
// made in the block of its use), and the fault's offset is within the variable. A
// pointer made from the buffer another way is checked against the whole buffer.

// CHECK:      "store to local variable 'sums' (!llvm.array<4 x i32>) at
// CHECK-SAME: "store to the module-scope local variables (memref<32xi8, 3 : i64>) at
// CHECK-LABEL: func.func @local_variables
// CHECK:       ^bb1:
// CHECK:         %[[P:.*]] = llvm.ptrtoint %e : !llvm.ptr<3> to i64
// CHECK-NEXT:    %[[SIZE:.*]] = arith.constant 4 : i64
// CHECK-NEXT:    %[[B:.*]] = builtin.unrealized_conversion_cast %local_vars : memref<32xi8, 3 : i64> to !llvm.ptr<3>
// CHECK-NEXT:    %[[V:.*]] = llvm.getelementptr %[[B]][16] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT:    %[[VI:.*]] = llvm.ptrtoint %[[V]] : !llvm.ptr<3> to i64
// CHECK-NEXT:    %[[OFF:.*]] = arith.subi %[[P]], %[[VI]] : i64
// CHECK-NEXT:    %{{.*}} = arith.constant 16 : i64
// CHECK:       ^bb2:
// CHECK:         arith.constant 32 : i64
func.func @local_variables(%n: i64, %local_vars: memref<32xi8, 3>) attributes {mux.kernel = "entry-point", mux.local_vars_param = array<i64: 1, 32, 4>} {
  %z = llvm.mlir.constant(0 : i32) : i32
  %c = llvm.icmp "slt" %n, %n : i64
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %b1 = builtin.unrealized_conversion_cast %local_vars : memref<32xi8, 3> to !llvm.ptr<3>
  %sums = llvm.getelementptr inbounds %b1[16] {mux.local_variable = {name = "sums", offset = 16 : i64, size = 16 : i64, type = !llvm.array<4 x i32>}} : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
  %e = llvm.getelementptr %sums[%n] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i32
  llvm.store %z, %e : i32, !llvm.ptr<3>
  cf.br ^bb2
^bb2:
  %b2 = builtin.unrealized_conversion_cast %local_vars : memref<32xi8, 3> to !llvm.ptr<3>
  %f = llvm.getelementptr %b2[%n] : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, i32
  llvm.store %z, %f : i32, !llvm.ptr<3>
  func.return
}
