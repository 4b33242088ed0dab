// work-item-loops rejects what it cannot schedule, naming the kernel and the op.
//
// A work-group collective in a called function, like a barrier, must be inlined
// first (collectives are scheduled as barriers).
// RUN: not mux-opt %s -p work-item-loops 2>&1 | filecheck %s
// CHECK: work-item-loops: kernel 'calls_collective' calls a function with a barrier (sum): run prepare-barriers first
func.func @sum(%x: i32) -> i32 {
  %r = mux.work_group_reduce add id(0) %x : i32
  func.return %r : i32
}
func.func @calls_collective(%x: i32) attributes {mux.kernel = "entry-point"} {
  %r = func.call @sum(%x) : (i32) -> i32
  func.return
}
//
// RUN: not mux-opt %S/Inputs/kernel_with_result.mlir -p work-item-loops 2>&1 | filecheck %s --check-prefix=RESULT
// RESULT: work-item-loops: kernel 'returns' returns values
//
// A barrier in a called function must be inlined first.
// RUN: not mux-opt %S/Inputs/barrier_in_callee.mlir -p work-item-loops 2>&1 | filecheck %s --check-prefix=CALLEE
// CALLEE: work-item-loops: kernel 'calls' calls a function with a barrier (helper): run prepare-barriers first
//
// A kernel whose mux.vecz_base names a function the module does not have.
// RUN: not mux-opt %S/Inputs/vecz_missing.mlir -p work-item-loops 2>&1 | filecheck %s --check-prefix=VECZ
// VECZ: work-item-loops: kernel 'linked' names a vectorised version '__vecz_v8_linked' (mux.vecz_base) the module does not have
//
// A vectorised kernel with barriers needs a required size whose x is a multiple of
// its width: there is no scalar tail for it.
// RUN: not mux-opt %S/Inputs/vecz_barrier_tail.mlir -p work-item-loops 2>&1 | filecheck %s --check-prefix=TAIL
// TAIL: work-item-loops: kernel 'tail' has barriers and a vectorised version of width 8, but no required work-group size whose x is a multiple of it (a vectorised kernel with barriers runs alone)
//
// A vectorised kernel of rows needs a required size whose y is a multiple of them.
// RUN: not mux-opt %S/Inputs/vecz_rows_odd.mlir -p work-item-loops 2>&1 | filecheck %s --check-prefix=ROWS
// ROWS: work-item-loops: a vectorised kernel of 2 rows needs a required work-group size whose y is a multiple of them
//
// ... and dimension 1 looped right outside dimension 0.
// RUN: not mux-opt %S/Inputs/vecz_rows_1d.mlir -p work-item-loops 2>&1 | filecheck %s --check-prefix=ROWS1D
// ROWS1D: work-item-loops: a vectorised kernel of 2 rows needs dimension 1 looped right outside dimension 0 (mux.work_item_order, mux.max_work_dim)
//
// Packets with barriers are one row.
// RUN: not mux-opt %S/Inputs/vecz_rows_barrier.mlir -p work-item-loops 2>&1 | filecheck %s --check-prefix=ROWSBAR
// ROWSBAR: work-item-loops: kernel 'tiles' has barriers and a vectorised version of more than one row (mux.vecz_rows): packets with barriers are one row
