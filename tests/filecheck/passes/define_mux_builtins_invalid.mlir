// define-mux-builtins needs the scheduling parameters of add-sched-params.
//
// RUN: not mux-opt %s -p define-mux-builtins 2>&1 | filecheck %s
// CHECK: define-mux-builtins: mux.get_local_id in 'no_params' needs the scheduling parameters: run add-sched-params first
func.func @no_params(%d: i32) -> index {
  %id = mux.get_local_id %d
  func.return %id : index
}
//
// RUN: not mux-opt %S/Inputs/set_local_id_runtime.mlir -p add-sched-params,define-mux-builtins 2>&1 | filecheck %s --check-prefix=SETTER
// SETTER: define-mux-builtins: mux.set_local_id needs a constant dimension 0 to 2
//
// With sub-groups larger than 1, sub-group collectives are work-item-loops' work:
// one left in a function an entry point of sub-group size 8 reaches is a diagnostic.
// RUN: not mux-opt %S/Inputs/sub_group_collective_unscheduled.mlir -p define-mux-builtins 2>&1 | filecheck %s --check-prefix=SUB-GROUP
// SUB-GROUP: define-mux-builtins: mux.sub_group_reduce in 'helper' with sub-groups of more than one work-item: work-item-loops schedules these in the kernel (run prepare-barriers and work-item-loops first)
