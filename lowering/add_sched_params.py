"""`add-sched-params`: the spec's AddSchedulingParametersPass.

compiler-utils-passes.rst, "AddSchedulingParametersPass": the target's scheduling
parameters (by default pointers to MuxWorkItemInfo and MuxWorkGroupInfo,
`dialects.scheduling`) are "added to all kernel entry points and to all mux builtins
that require them", then to every function calling those, transitively, "until the
entire call graph is covered". All parameters are added to every such function, so
later passes know they are "entirely present or entirely not present".

Here a function requires them when it holds a work-item query or setter (`mux.get_*`,
`mux.set_*`; the three maths queries are constants and need nothing). Each function
that needs them gets two `!llvm.ptr` parameters at the end, `%wi` and `%wg`, and
`mux.scheduled_fn = array<i32: i, i+1>` (their indices, the spec's
`!mux_scheduled_fn`); each call of it passes the caller's own. The module gets
`mux.scheduling_params = ["MuxWorkItemInfo", "MuxWorkGroupInfo"]`
(`!mux-scheduling-params`).

The spec clones each function, renaming the old one `.old` or the new one
`.mux-sched-wrapper`; we rewrite in place, since every caller is in the module and is
rewritten too, which keeps names stable.

Before: `work-item-loops`. After: every function that reads or writes work-item state,
and every caller of one, has the scheduling parameters.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from dialects import attributes as mux_attrs
from dialects import mux
from dialects.scheduling import DEFAULT_SCHEDULING_PARAMETERS
from lowering.common.builders import POINTER
from lowering.common.functions import (
    append_arguments,
    callers_of,
    enclosing_function,
    functions,
)

NEEDS_SCHEDULING_PARAMETERS = tuple(
    op
    for op in (*mux.QUERY_OPS, *mux.SETTER_OPS)
    if op not in (mux.IsFtzOp, mux.UseFastOp, mux.IsEmbeddedProfileOp)
)


def _caller(call: func.CallOp) -> str:
    fn = enclosing_function(call)
    assert fn is not None, "a call outside a function"
    return fn.sym_name.data


@dataclass(frozen=True)
class AddSchedParamsPass(ModulePass):
    """Adds the MuxWorkItemInfo and MuxWorkGroupInfo pointers to the kernels and to
    every function that needs them, and passes them at every call."""

    name = "add-sched-params"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        fns = functions(op)
        callers = callers_of(op)
        needs = {
            name
            for name, fn in fns.items()
            if mux_attrs.is_kernel_entry_point(fn)
            or any(isinstance(o, NEEDS_SCHEDULING_PARAMETERS) for o in fn.walk())
        }
        work = list(needs)
        while work:
            for call in callers.get(work.pop(), []):
                caller = _caller(call)
                if caller not in needs:
                    needs.add(caller)
                    work.append(caller)

        names = [s.name for s in DEFAULT_SCHEDULING_PARAMETERS]
        params = {}
        for name in sorted(needs):
            fn = fns[name]
            first = len(fn.function_type.inputs)
            params[name] = append_arguments(fn, [POINTER] * len(names))
            for arg, hint in zip(params[name], ("wi", "wg"), strict=True):
                arg.name_hint = hint
            mux_attrs.SCHEDULED_FN.set(fn, (first, first + 1))
        for name in needs:
            for call in callers.get(name, []):
                caller = _caller(call)
                call.operands = [*call.operands, *params[caller]]
        if needs:
            mux_attrs.SCHEDULING_PARAMS.set(op, tuple(names))
