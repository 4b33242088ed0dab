// work-item-loops rejects what it cannot schedule yet, naming the kernel and the op.
//
// RUN: not mux-opt %s -p work-item-loops 2>&1 | filecheck %s
// CHECK: work-item-loops: kernel 'with_barrier' uses mux.work_group_barrier: barriers and work-group collectives are not supported yet
func.func @with_barrier() attributes {mux.kernel = "entry-point"} {
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  func.return
}
//
// RUN: not mux-opt %S/Inputs/kernel_with_result.mlir -p work-item-loops 2>&1 | filecheck %s --check-prefix=RESULT
// RESULT: work-item-loops: kernel 'returns' returns values
