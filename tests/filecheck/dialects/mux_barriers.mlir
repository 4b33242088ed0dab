// RUN: mux-opt --split-input-file %s | filecheck %s
// RUN: %roundtrip | filecheck %s
//
// The memory and control barriers of the spec ("Memory and Control Barriers"), in the
// custom form; the second RUN line goes through the generic form and back.

// Every MemScope value.
// CHECK-LABEL: func.func @mem_barrier_scopes
func.func @mem_barrier_scopes() {
  // CHECK-NEXT: mux.mem_barrier scope(cross_device) semantics(relaxed)
  // CHECK-NEXT: mux.mem_barrier scope(device) semantics(relaxed)
  // CHECK-NEXT: mux.mem_barrier scope(work_group) semantics(relaxed)
  // CHECK-NEXT: mux.mem_barrier scope(sub_group) semantics(relaxed)
  // CHECK-NEXT: mux.mem_barrier scope(work_item) semantics(relaxed)
  // CHECK-NEXT: func.return
  mux.mem_barrier scope(cross_device) semantics(relaxed)
  mux.mem_barrier scope(device) semantics(relaxed)
  mux.mem_barrier scope(work_group) semantics(relaxed)
  mux.mem_barrier scope(sub_group) semantics(relaxed)
  mux.mem_barrier scope(work_item) semantics(relaxed)
  func.return
}

// -----

// Relaxed and each of the four orderings, without memory kinds.
// CHECK-LABEL: func.func @mem_barrier_orderings
func.func @mem_barrier_orderings() {
  // CHECK-NEXT: mux.mem_barrier scope(device) semantics(relaxed)
  // CHECK-NEXT: mux.mem_barrier scope(device) semantics(acquire)
  // CHECK-NEXT: mux.mem_barrier scope(device) semantics(release)
  // CHECK-NEXT: mux.mem_barrier scope(device) semantics(acq_rel)
  // CHECK-NEXT: mux.mem_barrier scope(device) semantics(seq_cst)
  // CHECK-NEXT: func.return
  mux.mem_barrier scope(device) semantics(relaxed)
  mux.mem_barrier scope(device) semantics(acquire)
  mux.mem_barrier scope(device) semantics(release)
  mux.mem_barrier scope(device) semantics(acq_rel)
  mux.mem_barrier scope(device) semantics(seq_cst)
  func.return
}

// -----

// The kinds of memory, alone and combined, with and without an ordering.
// CHECK-LABEL: func.func @mem_barrier_memory_kinds
func.func @mem_barrier_memory_kinds() {
  // CHECK-NEXT: mux.mem_barrier scope(sub_group) semantics(relaxed | sub_group_memory)
  // CHECK-NEXT: mux.mem_barrier scope(work_group) semantics(acquire | work_group_memory)
  // CHECK-NEXT: mux.mem_barrier scope(device) semantics(release | cross_work_group_memory)
  // CHECK-NEXT: mux.mem_barrier scope(work_group) semantics(acq_rel | sub_group_memory | work_group_memory)
  // CHECK-NEXT: mux.mem_barrier scope(cross_device) semantics(seq_cst | sub_group_memory | work_group_memory | cross_work_group_memory)
  // CHECK-NEXT: mux.mem_barrier scope(work_item) semantics(relaxed | sub_group_memory | work_group_memory | cross_work_group_memory)
  // CHECK-NEXT: func.return
  mux.mem_barrier scope(sub_group) semantics(relaxed | sub_group_memory)
  mux.mem_barrier scope(work_group) semantics(acquire | work_group_memory)
  mux.mem_barrier scope(device) semantics(release | cross_work_group_memory)
  mux.mem_barrier scope(work_group) semantics(acq_rel | sub_group_memory | work_group_memory)
  mux.mem_barrier scope(cross_device) semantics(seq_cst | sub_group_memory | work_group_memory | cross_work_group_memory)
  mux.mem_barrier scope(work_item) semantics(relaxed | sub_group_memory | work_group_memory | cross_work_group_memory)
  func.return
}

// -----

// The flags may be written in any order and `relaxed` may be left out: the printer
// puts the ordering (or `relaxed`) first, then the memory kinds in the spec's order.
// CHECK-LABEL: func.func @mem_barrier_normalized
func.func @mem_barrier_normalized() {
  // CHECK-NEXT: mux.mem_barrier scope(work_group) semantics(relaxed | work_group_memory)
  // CHECK-NEXT: mux.mem_barrier scope(work_group) semantics(acquire | sub_group_memory | cross_work_group_memory)
  // CHECK-NEXT: mux.mem_barrier scope(device) semantics(seq_cst | work_group_memory)
  // CHECK-NEXT: func.return
  mux.mem_barrier scope(work_group) semantics(work_group_memory)
  mux.mem_barrier scope(work_group) semantics(cross_work_group_memory | sub_group_memory | acquire)
  mux.mem_barrier scope(device) semantics(work_group_memory | seq_cst)
  func.return
}

// -----

// Work-group control barriers: every scope, and each schedule or none.
// CHECK-LABEL: func.func @work_group_barriers
func.func @work_group_barriers() {
  // CHECK-NEXT: mux.work_group_barrier id(0) scope(cross_device) semantics(relaxed)
  // CHECK-NEXT: mux.work_group_barrier id(1) scope(device) semantics(acquire | cross_work_group_memory) schedule(unordered)
  // CHECK-NEXT: mux.work_group_barrier id(2) scope(work_group) semantics(seq_cst | work_group_memory) schedule(once)
  // CHECK-NEXT: mux.work_group_barrier id(3) scope(sub_group) semantics(release | sub_group_memory) schedule(linear)
  // CHECK-NEXT: mux.work_group_barrier id(4) scope(work_item) semantics(acq_rel | sub_group_memory | work_group_memory | cross_work_group_memory)
  // CHECK-NEXT: mux.work_group_barrier id(2147483647) scope(work_group) semantics(relaxed | work_group_memory) schedule(linear)
  // CHECK-NEXT: func.return
  mux.work_group_barrier id(0) scope(cross_device) semantics(relaxed)
  mux.work_group_barrier id(1) scope(device) semantics(acquire | cross_work_group_memory) schedule(unordered)
  mux.work_group_barrier id(2) scope(work_group) semantics(seq_cst | work_group_memory) schedule(once)
  mux.work_group_barrier id(3) scope(sub_group) semantics(release | sub_group_memory) schedule(linear)
  mux.work_group_barrier id(4) scope(work_item) semantics(acq_rel | sub_group_memory | work_group_memory | cross_work_group_memory)
  mux.work_group_barrier id(2147483647) scope(work_group) semantics(relaxed | work_group_memory) schedule(linear)
  func.return
}

// -----

// Sub-group control barriers: every scope, and each schedule or none.
// CHECK-LABEL: func.func @sub_group_barriers
func.func @sub_group_barriers() {
  // CHECK-NEXT: mux.sub_group_barrier id(0) scope(sub_group) semantics(relaxed)
  // CHECK-NEXT: mux.sub_group_barrier id(5) scope(cross_device) semantics(seq_cst) schedule(unordered)
  // CHECK-NEXT: mux.sub_group_barrier id(6) scope(device) semantics(acquire | sub_group_memory) schedule(once)
  // CHECK-NEXT: mux.sub_group_barrier id(7) scope(work_group) semantics(release | work_group_memory) schedule(linear)
  // CHECK-NEXT: mux.sub_group_barrier id(8) scope(work_item) semantics(acq_rel | cross_work_group_memory)
  // CHECK-NEXT: func.return
  mux.sub_group_barrier id(0) scope(sub_group) semantics(relaxed)
  mux.sub_group_barrier id(5) scope(cross_device) semantics(seq_cst) schedule(unordered)
  mux.sub_group_barrier id(6) scope(device) semantics(acquire | sub_group_memory) schedule(once)
  mux.sub_group_barrier id(7) scope(work_group) semantics(release | work_group_memory) schedule(linear)
  mux.sub_group_barrier id(8) scope(work_item) semantics(acq_rel | cross_work_group_memory)
  func.return
}

// -----

// Barriers of the three kinds one after the other, in a kernel.
// CHECK-LABEL: func.func @barrier_sequence
func.func @barrier_sequence() attributes {mux.kernel = "entry-point"} {
  // CHECK-NEXT: mux.mem_barrier scope(work_group) semantics(release | work_group_memory)
  // CHECK-NEXT: mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  // CHECK-NEXT: mux.sub_group_barrier id(1) scope(sub_group) semantics(acq_rel | sub_group_memory)
  // CHECK-NEXT: mux.mem_barrier scope(work_group) semantics(acquire | work_group_memory)
  // CHECK-NEXT: func.return
  mux.mem_barrier scope(work_group) semantics(release | work_group_memory)
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  mux.sub_group_barrier id(1) scope(sub_group) semantics(acq_rel | sub_group_memory)
  mux.mem_barrier scope(work_group) semantics(acquire | work_group_memory)
  func.return
}

// -----

// The generic form, properties and all, prints in the custom form.
// CHECK-LABEL: func.func @generic_form
func.func @generic_form() {
  // CHECK-NEXT: mux.mem_barrier scope(device) semantics(release | work_group_memory)
  // CHECK-NEXT: mux.mem_barrier scope(sub_group) semantics(relaxed)
  // CHECK-NEXT: mux.work_group_barrier id(9) scope(work_group) semantics(acq_rel | work_group_memory) schedule(once)
  // CHECK-NEXT: mux.sub_group_barrier id(10) scope(work_item) semantics(seq_cst | sub_group_memory)
  // CHECK-NEXT: func.return
  "mux.mem_barrier"() <{scope = #mux<scope device>, semantics = #mux<semantics release | work_group_memory>}> : () -> ()
  "mux.mem_barrier"() <{scope = #mux<scope sub_group>, semantics = #mux<semantics relaxed>}> : () -> ()
  "mux.work_group_barrier"() <{id = 9 : i32, scope = #mux<scope work_group>, semantics = #mux<semantics acq_rel | work_group_memory>, schedule = #mux<barrier_schedule once>}> : () -> ()
  "mux.sub_group_barrier"() <{id = 10 : i32, scope = #mux<scope work_item>, semantics = #mux<semantics seq_cst | sub_group_memory>}> : () -> ()
  func.return
}
