"""`reduce-to-func`: the spec's ReduceToFunctionPass.

compiler-utils-passes.rst, "ReduceToFunctionPass": "removes dead functions not used by
the target kernels". The functions to keep are those with a `mux.kernel` attribute
(kernels and entry points) "and so are any functions called inside" them,
transitively; every other function of the module is erased. The spec's deprecated
form, "a string list of functions names to preserve", is the `keep` option: the
host pipeline uses it to single out the one kernel it compiles.

Before: the kernels to keep carry `mux.kernel`. After: only they and what they call
remain.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from dialects import attributes as mux_attrs
from lowering.common.functions import functions, reachable_from


@dataclass(frozen=True)
class ReduceToFuncPass(ModulePass):
    """Erases the functions no kernel uses."""

    name = "reduce-to-func"

    keep: tuple[str, ...] = ()
    """The functions to preserve, by name, instead of the kernels."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        fns = functions(op)
        roots = self.keep or [n for n, fn in fns.items() if mux_attrs.is_kernel(fn)]
        keep = reachable_from(op, roots)
        for name, fn in fns.items():
            if name not in keep:
                fn.detach()
                fn.erase()
