"""Which elements of its buffers a kernel accesses in a launch, checked before it.

A launch whose global size is larger than its arrays, or whose `mux.LocalBuffer` is
smaller than the kernel indexes, reads and writes outside the user's memory: the
process may die, or, worse, go on with corrupted data. Memrefs are bare pointers
(the runtime passes an array's address and nothing else), so the compiled kernel
cannot check its indices; the runtime checks them before the launch, where it can.

The analysis works on the kernel as the user wrote it (level 1 of DESIGN.md) and,
for one launch (global size, local size, global offset and the values of the integer
scalar arguments), checks the buffer parameters, the module-scope variables
(`memref.get_global`) and the private arrays (`memref.alloca`) of static shape, each
as a whole (row-major linearised) and each static dimension on its own; a DMA
transfer covers the bytes its width, strides and counts give. It is not a pass: it
changes nothing, and it needs the launch's values, which no pass sees. A launch is
refused only when a work-item that exists in it provably accesses outside a buffer;
when the analysis cannot tell, the launch runs as before.

The modules, from the entry point down:

- `kernel`: `KernelBounds`, prepared once per kernel; `check` per launch (called
  from `mux.api.Kernel.__call__`), with the may/must questions and the cache;
- `messages`: the `LaunchError` messages of a refused launch;
- `memory`: what is checked (`Buffer`, `Key`) and what each access addresses;
- `launch`: `Launch`, `WorkItem`, the values of the work-item queries, and the
  work-items the concrete runs try;
- `interpreter`: the abstract and concrete runs over regions and branches;
- `ops`: what each known op computes; `arith`: the integer ops on intervals;
- `conditions`: narrowing on the paths a condition guards; `relations`: the exact
  relations of values with the ids (global id = group id * size + local id);
- `termination`: widening, loop fixpoints and the runs' budgets;
- `intervals`: the abstract domain.
"""

from mux.access_bounds.kernel import KernelBounds
from mux.access_bounds.launch import Launch, WorkItem
from mux.access_bounds.memory import Key

__all__ = ["KernelBounds", "Key", "Launch", "WorkItem"]
