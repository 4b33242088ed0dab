"""`prepare-barriers`: the spec's PrepareBarriersPass.

compiler-utils-passes.rst, "PrepareBarriersPass": the pass is "useful in order to
satisfy the requirements the WorkItemLoopsPass has on kernels containing
barrier-like functions"; "it gives each barrier a unique ID ... meaning the
`WorkItemLoopsPass` can correctly schedule the work-item loops for each barrier
region". mux-compiler-spec.rst, "Group operation builtins": for work-group
collectives, "implementations **must** ensure uniqueness of these IDs themselves,
e.g., by running the `compiler::utils::PrepareBarriersPass`".

Barrier-like ops are the control barriers (`mux.work_group_barrier`,
`mux.sub_group_barrier`) and the work-group collectives (`mux.work_group_any`, `_all`,
`_broadcast`, `_reduce`, `_scan_inclusive`, `_scan_exclusive`), whose `id` property
is the barrier id. `mux.mem_barrier` is only a fence and is not barrier-like.

1. **Inlining.** Every function that holds a barrier-like op, or calls such a
   function transitively, is inlined at each of its `func.call`s, callees before
   callers (kernel -> f -> g with the barrier in g: g goes
   into f, then f, with g's body, into the kernel). A callee whose body is one block
   ending in `func.return` is spliced in at the call, its results replacing the
   call's. A callee with several blocks splits the caller's block at the call: the
   callee's entry block continues the first half, its other blocks follow, and each
   `func.return` becomes a `cf.br` to the second half, whose block arguments replace
   the call's results. Nested regions (`scf.for`, ...) are cloned with their op.
   A call of a multi-block callee inside a nested region (whose one block cannot
   take several) has the caller's `scf` lowered to `cf` first, as `work-item-loops`
   would; inside any other region op it is a diagnostic, as is recursion through
   such functions (naming them). Functions holding a sub-group collective or
   shuffle are inlined too: `work-item-loops` schedules those as barriers when
   sub-groups have more than one work-item. A kernel that another kernel calls is
   inlined like any function (a call of a kernel is an ordinary call in OpenCL C:
   `encode-kernel-metadata`): the copy's barriers are the caller's work-group's, and
   the kernel itself stays an entry point. Functions
   with none of these below them stay calls; inlined functions stay in the module
   (`reduce-to-func` drops the unused ones).
2. **Ids.** In each kernel entry point the barrier-like ops are renumbered 0, 1, 2,
   ... in program order (a walk of the function: blocks in order, nested regions
   where their op is), so two inlined copies of one barrier get distinct ids.

Before: kernel entry points marked (`transfer-kernel-metadata` or
`encode-kernel-metadata`). After: every barrier-like op a kernel entry point reaches
is in the entry point itself, with ids 0..n-1 in program order; `work-item-loops`
splits the kernel at them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i32
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from dialects import mux
from lowering.common.errors import PassError
from lowering.common.functions import (
    callers_of,
    calls_in,
    functions,
    kernel_entry_points,
)
from lowering.common.inlining import inline_call
from lowering.scheduling.group_exchanges import SUB_GROUP_EXCHANGES

BARRIER_LIKE: tuple[type[Operation], ...] = (
    mux.WorkGroupBarrierOp,
    mux.SubGroupBarrierOp,
    *mux.WORK_GROUP_COLLECTIVE_OPS,
)
"""The ops with a barrier id: control barriers and work-group collectives."""

INLINED: tuple[type[Operation], ...] = (*BARRIER_LIKE, *SUB_GROUP_EXCHANGES)
"""The ops whose functions are inlined: the barrier-like ones, and the sub-group
collectives and shuffles, which `work-item-loops` schedules as barriers when
sub-groups have more than one work-item."""


@dataclass(frozen=True)
class PrepareBarriersPass(ModulePass):
    """Inlines every function with a barrier-like op below it into its callers,
    then numbers the barrier-like ops of each kernel entry point."""

    name = "prepare-barriers"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        fns = functions(op)
        graph = {
            name: [c.callee.root_reference.data for c in calls_in(fn)]
            for name, fn in fns.items()
        }
        with_barriers = _with_barriers(fns, graph)
        for name in _callees_first(graph, with_barriers):
            for call in callers_of(op).get(name, []):
                inline_call(call, fns[name], self.name)
        for kernel in kernel_entry_points(op):
            number_barriers(kernel)


def barrier_like_ops(fn: Operation) -> Iterator[Operation]:
    """The barrier-like ops of `fn`, in program order."""
    return (o for o in fn.walk() if isinstance(o, BARRIER_LIKE))


def number_barriers(fn: Operation) -> None:
    """Sets the ids of the barrier-like ops of `fn` to 0, 1, 2, ... in program
    order."""
    for index, barrier in enumerate(list(barrier_like_ops(fn))):
        barrier.properties["id"] = IntegerAttr(index, i32)


def _with_barriers(
    fns: dict[str, func.FuncOp], graph: dict[str, list[str]]
) -> list[str]:
    """The functions holding a barrier-like op or calling one that does,
    transitively, in module order."""
    found = {
        name
        for name, fn in fns.items()
        if any(isinstance(o, INLINED) for o in fn.walk())
    }
    changed = True
    while changed:
        changed = False
        for name, callees in graph.items():
            if name not in found and any(c in found for c in callees):
                found.add(name)
                changed = True
    return [name for name in fns if name in found]


def _callees_first(graph: dict[str, list[str]], names: list[str]) -> list[str]:
    """`names` ordered so that each comes after the ones it calls (a post-order
    walk of the call graph restricted to `names`); a cycle is a diagnostic."""
    members = set(names)
    order: list[str] = []
    done: set[str] = set()
    for root in names:
        if root in done:
            continue
        # The path from the root to the function being visited, with the callees
        # each still has to visit.
        path: list[tuple[str, Iterator[str]]] = [(root, iter(graph[root]))]
        while path:
            name, callees = path[-1]
            for callee in callees:
                if callee not in members or callee in done:
                    continue
                on_path = [n for n, _ in path]
                if callee in on_path:
                    cycle = [*on_path[on_path.index(callee) :], callee]
                    raise PassError(
                        "prepare-barriers: cannot inline recursive functions with "
                        "barriers: " + " -> ".join(f"'{n}'" for n in cycle)
                    )
                path.append((callee, iter(graph[callee])))
                break
            else:
                path.pop()
                done.add(name)
                order.append(name)
    return order
