// verify-reqd-sub-group-legal rejects a required sub-group size the device does not
// offer (any kernel, entry point or not); its `sizes` option is the device's list.
//
// RUN: not mux-opt %s -p verify-reqd-sub-group-legal 2>&1 | filecheck %s
// CHECK: verify-reqd-sub-group-legal: kernel 'three' requires sub-group size 3, which the device does not support (sub-group sizes: 1, 2, 4, 8, 16, 32, 64)
//
// RUN: not mux-opt %S/Inputs/reqd_sub_group_sizes.mlir -p 'verify-reqd-sub-group-legal{sizes=1,4}' 2>&1 | filecheck %s --check-prefix=OPTION
// OPTION: verify-reqd-sub-group-legal: kernel 'not_an_entry_point' requires sub-group size 8, which the device does not support (sub-group sizes: 1, 4)
//
// verify-reqd-sub-group-satisfied rejects an entry point scheduled with another
// size, one not scheduled at all, and degenerate sub-groups whose work-group size
// is not fixed to the required size.
// RUN: mux-opt --split-input-file --verify-diagnostics %S/Inputs/reqd_sub_group_unsatisfied.mlir -p verify-reqd-sub-group-satisfied 2>&1 | filecheck %s --check-prefix=SATISFIED
// SATISFIED: verify-reqd-sub-group-satisfied: kernel 'wrong' requires sub-group size 8, but was scheduled with sub-groups of 4
// SATISFIED: verify-reqd-sub-group-satisfied: kernel 'unscheduled' requires sub-group size 8, but it was not scheduled: run work-item-loops first
// SATISFIED: verify-reqd-sub-group-satisfied: kernel 'degenerate' requires sub-group size 8, but its sub-groups are degenerate (one per work-group) and its work-group size is not fixed
// SATISFIED: verify-reqd-sub-group-satisfied: kernel 'degenerate_other_size' requires sub-group size 8, but its sub-groups are degenerate (one per work-group) and its work-group size is 4
func.func @three() attributes {mux.kernel = "entry-point", mux.reqd_sub_group_size = 3 : i32} {
  func.return
}
