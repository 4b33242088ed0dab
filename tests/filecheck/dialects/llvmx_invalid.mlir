// RUN: mux-opt --split-input-file --verify-diagnostics %s | filecheck %s
//
// What LLVM requires of each llvmx instruction, checked by the op verifiers.

llvm.func @fptosi_from_int(%x: i32) {
  %0 = llvmx.fptosi %x : i32 to i32
  llvm.return
}
// CHECK: llvmx.fptosi operand must be a float or a vector of them, got i32

// -----

llvm.func @fptoui_to_float(%x: f32) {
  %0 = llvmx.fptoui %x : f32 to f64
  llvm.return
}
// CHECK: llvmx.fptoui result must be an integer or a vector of them, got f64

// -----

llvm.func @fptosi_shape(%x: vector<4xf32>) {
  %0 = llvmx.fptosi %x : vector<4xf32> to vector<8xi32>
  llvm.return
}
// CHECK: llvmx.fptosi operand and result must have the same vector shape

// -----

llvm.func @uitofp_scalar_to_vector(%x: i32) {
  %0 = llvmx.uitofp %x : i32 to vector<4xf32>
  llvm.return
}
// CHECK: llvmx.uitofp operand and result must have the same vector shape

// -----

llvm.func @uitofp_from_float(%x: f32) {
  %0 = llvmx.uitofp %x : f32 to f32
  llvm.return
}
// CHECK: llvmx.uitofp operand must be an integer or a vector of them, got f32

// -----

llvm.func @addrspacecast_int(%x: i64) {
  %0 = "llvmx.addrspacecast"(%x) : (i64) -> !llvm.ptr
  llvm.return
}
// CHECK: operand 'arg' at position 0 does not verify

// -----

func.func @extractelement_2d(%v: vector<2x2xf32>, %i: i32) {
  %0 = llvmx.extractelement %v[%i : i32] : vector<2x2xf32>
  func.return
}
// CHECK: llvmx.extractelement takes a 1-D vector, got vector<2x2xf32>

// -----

llvm.func @extractelement_wrong_result(%v: vector<4xf32>, %i: i32) {
  %0 = "llvmx.extractelement"(%v, %i) : (vector<4xf32>, i32) -> f64
  llvm.return
}
// CHECK: attribute f32 expected from variable 'ELEMENT', but got f64

// -----

llvm.func @freeze_type(%x: i32) {
  %0 = "llvmx.freeze"(%x) : (i32) -> i64
  llvm.return
}
// CHECK: attribute i32 expected from variable 'T', but got i64

// -----

llvm.func @switch_i8(%x: i8) {
  llvmx.switch %x : i8, ^bb1 []
^bb1:
  llvm.return
}
// CHECK: llvmx.switch flag must be i32 or i64, got i8

// -----

llvm.func @switch_value_type(%x: i32) {
  "llvmx.switch"(%x) [^bb1, ^bb1] <{case_values = array<i64: 1>, case_operand_segments = array<i32: 0>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> ()
^bb1:
  llvm.return
}
// CHECK: llvmx.switch case values must have the flag's type i32, got i64

// -----

llvm.func @switch_missing_value(%x: i32) {
  "llvmx.switch"(%x) [^bb1, ^bb1, ^bb1] <{case_values = array<i32: 1>, case_operand_segments = array<i32: 0, 0>, operandSegmentSizes = array<i32: 1, 0, 0>}> : (i32) -> ()
^bb1:
  llvm.return
}
// CHECK: llvmx.switch needs one case value and one operand segment per case successor: 1 values, 2 segments, 2 successors

// -----

llvm.func @switch_segments(%x: i32) {
  "llvmx.switch"(%x, %x) [^bb1, ^bb1] <{case_values = array<i32: 1>, case_operand_segments = array<i32: 0>, operandSegmentSizes = array<i32: 1, 0, 1>}> : (i32, i32) -> ()
^bb1:
  llvm.return
}
// CHECK: llvmx.switch case operand segments do not add up to the number of case operands

// -----

llvm.func @switch_duplicate(%x: i32) {
  llvmx.switch %x : i32, ^bb1 [
    3: ^bb1,
    3: ^bb1
  ]
^bb1:
  llvm.return
}
// CHECK: llvmx.switch case values must be unique

// -----

llvm.func @fence_monotonic() {
  llvmx.fence monotonic
  llvm.return
}
// CHECK: llvmx.fence ordering must be acquire, release, acq_rel or seq_cst, got monotonic

// -----

llvm.func @atomicrmw_unordered(%p: !llvm.ptr, %x: i32) {
  %0 = llvmx.atomicrmw add %p, %x unordered : !llvm.ptr, i32
  llvm.return
}
// CHECK: llvmx.atomicrmw ordering must be at least monotonic, got unordered

// -----

llvm.func @atomicrmw_fadd_int(%p: !llvm.ptr, %x: i32) {
  %0 = llvmx.atomicrmw fadd %p, %x monotonic : !llvm.ptr, i32
  llvm.return
}
// CHECK: llvmx.atomicrmw fadd needs a float value, got i32

// -----

llvm.func @atomicrmw_add_float(%p: !llvm.ptr, %x: f32) {
  %0 = llvmx.atomicrmw add %p, %x monotonic : !llvm.ptr, f32
  llvm.return
}
// CHECK: llvmx.atomicrmw add needs an integer value, got f32

// -----

llvm.func @atomicrmw_align(%p: !llvm.ptr, %x: i32) {
  %0 = llvmx.atomicrmw add %p, %x monotonic align 3 : !llvm.ptr, i32
  llvm.return
}
// CHECK: llvmx.atomicrmw alignment must be a power of two, got 3

// -----

llvm.func @cmpxchg_failure_release(%p: !llvm.ptr, %x: i32) {
  %0 = llvmx.cmpxchg %p, %x, %x acq_rel release : !llvm.ptr, i32
  llvm.return
}
// CHECK: llvmx.cmpxchg failure ordering cannot be release

// -----

llvm.func @cmpxchg_failure_acq_rel(%p: !llvm.ptr, %x: i32) {
  %0 = llvmx.cmpxchg %p, %x, %x seq_cst acq_rel : !llvm.ptr, i32
  llvm.return
}
// CHECK: llvmx.cmpxchg failure ordering cannot be acq_rel

// -----

llvm.func @cmpxchg_failure_stronger(%p: !llvm.ptr, %x: i32) {
  %0 = llvmx.cmpxchg %p, %x, %x monotonic seq_cst : !llvm.ptr, i32
  llvm.return
}
// CHECK: llvmx.cmpxchg failure ordering seq_cst is stronger than the success ordering monotonic

// -----

llvm.func @cmpxchg_not_atomic(%p: !llvm.ptr, %x: i32) {
  %0 = llvmx.cmpxchg %p, %x, %x not_atomic not_atomic : !llvm.ptr, i32
  llvm.return
}
// CHECK: llvmx.cmpxchg ordering must be at least monotonic, got not_atomic

// -----

llvm.func @cmpxchg_float(%p: !llvm.ptr, %x: f32) {
  %0 = "llvmx.cmpxchg"(%p, %x, %x) <{success_ordering = #llvmx<ordering seq_cst>, failure_ordering = #llvmx<ordering seq_cst>}> : (!llvm.ptr, f32, f32) -> !llvm.struct<(f32, i1)>
  llvm.return
}
// CHECK: operand 'cmp' at position 1 does not verify

// -----

llvm.func @cmpxchg_result(%p: !llvm.ptr, %x: i32) {
  %0 = "llvmx.cmpxchg"(%p, %x, %x) <{success_ordering = #llvmx<ordering seq_cst>, failure_ordering = #llvmx<ordering seq_cst>}> : (!llvm.ptr, i32, i32) -> !llvm.struct<(i32, i8)>
  llvm.return
}
// CHECK: expected !llvm.struct<(T, i1)>, got !llvm.struct<(i32, i8)>

// -----

func.func @select_shape(%c: vector<2xi1>, %a: vector<4xf32>) -> vector<4xf32> {
  %r = llvmx.select %c, %a, %a : vector<2xi1>, vector<4xf32>
  func.return %r : vector<4xf32>
}
// CHECK: llvmx.select takes a vector of i1 of the result's shape, got vector<2xi1> for vector<4xf32>

// -----

func.func @fcmp_predicate(%a: vector<4xf32>) -> vector<4xi1> {
  %r = llvmx.fcmp "bigger" %a, %a : vector<4xf32> to vector<4xi1>
  func.return %r : vector<4xi1>
}
// CHECK: llvmx.fcmp: unknown predicate 'bigger' (known: oeq, ogt, oge, olt, ole, one, ord, ueq, ugt, uge, ult, ule, une, uno)

// -----

func.func @fcmp_shape(%a: vector<4xf32>) -> vector<2xi1> {
  %r = llvmx.fcmp "olt" %a, %a : vector<4xf32> to vector<2xi1>
  func.return %r : vector<2xi1>
}
// CHECK: llvmx.fcmp gives a vector of i1 of its operands' shape, got vector<2xi1> for vector<4xf32>

// -----

llvm.func @volatile_load_align(%p: !llvm.ptr) {
  %0 = llvmx.load volatile %p align 6 : !llvm.ptr -> i32
  llvm.return
}
// CHECK: llvmx.load alignment must be a power of two, got 6
