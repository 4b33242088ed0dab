// RUN: mux-opt --split-input-file --parsing-diagnostics --verify-diagnostics %s | filecheck %s
//
// The barriers' rules: at most one ordering in MemSemantics, non-negative barrier ids,
// and the spec's enum values only. Errors in an attribute are found while parsing, so
// those cases print the parser's diagnostic (the offending line) instead of the module.

// Two orderings (RULE_ONE_ORDERING).
func.func @two_orderings() {
  mux.mem_barrier scope(device) semantics(acquire | release)
  func.return
}
// CHECK: mux_barriers_invalid.mlir:[[# @LINE - 3]]:60
// CHECK-NEXT: mux.mem_barrier scope(device) semantics(acquire | release)
// CHECK-NEXT: ^
// CHECK-NEXT: MemSemantics sets at most one ordering, got acquire, release

// -----

// Two orderings and a kind of memory, on a control barrier (RULE_ONE_ORDERING).
func.func @two_orderings_control_barrier() {
  mux.work_group_barrier id(0) scope(work_group) semantics(seq_cst | acq_rel | work_group_memory)
  func.return
}
// CHECK: mux_barriers_invalid.mlir:[[# @LINE - 3]]:97
// CHECK-NEXT: mux.work_group_barrier id(0) scope(work_group) semantics(seq_cst | acq_rel | work_group_memory)
// CHECK-NEXT: ^
// CHECK-NEXT: MemSemantics sets at most one ordering, got seq_cst, acq_rel

// -----

// Two orderings in the generic form (RULE_ONE_ORDERING).
func.func @two_orderings_generic() {
  "mux.sub_group_barrier"() <{id = 0 : i32, scope = #mux<scope sub_group>, semantics = #mux<semantics acquire | seq_cst>}> : () -> ()
  func.return
}
// CHECK: mux_barriers_invalid.mlir:[[# @LINE - 3]]:120
// CHECK-NEXT: "mux.sub_group_barrier"() <{id = 0 : i32, scope = #mux<scope sub_group>, semantics = #mux<semantics acquire | seq_cst>}> : () -> ()
// CHECK-NEXT: ^
// CHECK-NEXT: MemSemantics sets at most one ordering, got acquire, seq_cst

// -----

// `relaxed` is an ordering too (RULE_ONE_ORDERING), caught by the parser.
func.func @relaxed_and_acquire() {
  mux.mem_barrier scope(device) semantics(relaxed | acquire)
  func.return
}
// CHECK: mux_barriers_invalid.mlir:[[# @LINE - 3]]:60
// CHECK-NEXT: mux.mem_barrier scope(device) semantics(relaxed | acquire)
// CHECK-NEXT: ^
// CHECK-NEXT: MemSemantics sets at most one ordering, got relaxed, acquire

// -----

// `relaxed` after an ordering (RULE_ONE_ORDERING).
func.func @release_and_relaxed() {
  mux.sub_group_barrier id(1) scope(sub_group) semantics(release | relaxed | sub_group_memory)
  func.return
}
// CHECK: mux_barriers_invalid.mlir:[[# @LINE - 3]]:94
// CHECK-NEXT: mux.sub_group_barrier id(1) scope(sub_group) semantics(release | relaxed | sub_group_memory)
// CHECK-NEXT: ^
// CHECK-NEXT: MemSemantics sets at most one ordering, got release, relaxed

// -----

// A negative work-group barrier id (RULE_BARRIER_ID).
func.func @work_group_barrier_negative_id() {
  mux.work_group_barrier id(-1) scope(work_group) semantics(relaxed)
  func.return
}
// CHECK: a barrier identifier is a non-negative i32, got -1
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "work_group_barrier_negative_id"
// CHECK-NEXT: "mux.work_group_barrier"() <{id = -1 : i32
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: a barrier identifier is a non-negative i32, got -1

// -----

// A negative sub-group barrier id (RULE_BARRIER_ID).
func.func @sub_group_barrier_negative_id() {
  mux.sub_group_barrier id(-7) scope(sub_group) semantics(acq_rel | sub_group_memory) schedule(once)
  func.return
}
// CHECK: a barrier identifier is a non-negative i32, got -7
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "sub_group_barrier_negative_id"
// CHECK-NEXT: "mux.sub_group_barrier"() <{id = -7 : i32
// CHECK-NEXT: ^
// CHECK-NEXT: | Operation does not verify: a barrier identifier is a non-negative i32, got -7

// -----

// A negative barrier id in the generic form (RULE_BARRIER_ID).
func.func @negative_id_generic() {
  "mux.work_group_barrier"() <{id = -3 : i32, scope = #mux<scope device>, semantics = #mux<semantics relaxed>}> : () -> ()
  func.return
}
// CHECK: a barrier identifier is a non-negative i32, got -3
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "negative_id_generic"
// CHECK-NEXT: "mux.work_group_barrier"() <{id = -3 : i32
// CHECK-NEXT: ^

// -----

// The barrier id is an i32, not an i64.
func.func @i64_id() {
  "mux.work_group_barrier"() <{id = 1 : i64, scope = #mux<scope work_group>, semantics = #mux<semantics relaxed>}> : () -> ()
  func.return
}
// CHECK: Expected attribute i32 but got i64
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "i64_id"
// CHECK-NEXT: "mux.work_group_barrier"() <{id = 1 : i64
// CHECK-NEXT: ^

// -----

// An unknown scope name: `system` is no MemScope.
func.func @unknown_scope() {
  mux.mem_barrier scope(system) semantics(relaxed)
  func.return
}
// CHECK: mux_barriers_invalid.mlir:[[# @LINE - 3]]:25
// CHECK-NEXT: mux.mem_barrier scope(system) semantics(relaxed)
// CHECK-NEXT: ^^^^^^
// CHECK-NEXT: Expected `cross_device`, `device`, `work_group`, `sub_group`, or `work_item`.

// -----

// An unknown scope name on a control barrier.
func.func @unknown_scope_control_barrier() {
  mux.work_group_barrier id(0) scope(workgroup) semantics(relaxed)
  func.return
}
// CHECK: mux_barriers_invalid.mlir:[[# @LINE - 3]]:38
// CHECK-NEXT: mux.work_group_barrier id(0) scope(workgroup) semantics(relaxed)
// CHECK-NEXT: ^^^^^^^^^
// CHECK-NEXT: Expected `cross_device`, `device`, `work_group`, `sub_group`, or `work_item`.

// -----

// An unknown kind of memory.
func.func @unknown_memory_kind() {
  mux.mem_barrier scope(device) semantics(acquire | image_memory)
  func.return
}
// CHECK: mux_barriers_invalid.mlir:[[# @LINE - 3]]:53
// CHECK-NEXT: mux.mem_barrier scope(device) semantics(acquire | image_memory)
// CHECK-NEXT: ^^^^^^^^^^^^
// CHECK-NEXT: Expected `acquire`, `release`, `acq_rel`, `seq_cst`, `sub_group_memory`, `work_group_memory`, or `cross_work_group_memory`.

// -----

// Empty semantics: `relaxed` must be written.
func.func @empty_semantics() {
  mux.mem_barrier scope(device) semantics()
  func.return
}
// CHECK: mux_barriers_invalid.mlir:[[# @LINE - 3]]:43
// CHECK-NEXT: mux.mem_barrier scope(device) semantics()
// CHECK-NEXT: ^
// CHECK-NEXT: Expected `acquire`, `release`, `acq_rel`, `seq_cst`, `sub_group_memory`, `work_group_memory`, or `cross_work_group_memory`.

// -----

// An unknown barrier schedule.
func.func @unknown_schedule() {
  mux.sub_group_barrier id(0) scope(sub_group) semantics(relaxed) schedule(random)
  func.return
}
// CHECK: mux_barriers_invalid.mlir:[[# @LINE - 3]]:76
// CHECK-NEXT: mux.sub_group_barrier id(0) scope(sub_group) semantics(relaxed) schedule(random)
// CHECK-NEXT: ^^^^^^
// CHECK-NEXT: Expected `unordered`, `once`, or `linear`.

// -----

// A memory barrier has no schedule (it is not a control barrier).
func.func @mem_barrier_schedule() {
  "mux.mem_barrier"() <{scope = #mux<scope work_group>, semantics = #mux<semantics relaxed>, schedule = #mux<barrier_schedule once>}> : () -> ()
  func.return
}
// CHECK: property 'schedule' is not defined by the operation 'mux.mem_barrier'
// CHECK-NEXT: "builtin.module"() ({
// CHECK-NEXT: "func.func"() <{sym_name = "mem_barrier_schedule"
// CHECK-NEXT: "mux.mem_barrier"()
// CHECK-NEXT: ^

// -----

// A control barrier needs its id.
func.func @missing_id() {
  mux.work_group_barrier scope(work_group) semantics(relaxed)
  func.return
}
// CHECK: mux_barriers_invalid.mlir:[[# @LINE - 3]]:26
// CHECK-NEXT: mux.work_group_barrier scope(work_group) semantics(relaxed)
// CHECK-NEXT: ^^^^^
// CHECK-NEXT: Expected 'id'
