"""`make-unique-func{name=...}`: the spec's MakeFunctionNameUniquePass.

compiler-utils-passes.rst, "MakeFunctionNameUniquePass": gives a scheduled kernel a
distinct name, "since a single kernel can be run more than once across different work
sizes and we want to be able differentiate them". It "looks for all functions with
mux-kernel entry-point attributes and sets the function's name" to the given one, and
so, as the spec notes, is for just-in-time compilation where one kernel is under
compilation: a module with several entry points is a diagnostic, as is a name that
another function already has. Calls of the renamed function follow it.

Before: one kernel entry point. After: it is named `name`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr, SymbolRefAttr
from xdsl.passes import ModulePass

from lowering.common.errors import PassError
from lowering.common.functions import callers_of, functions, kernel_entry_points
from lowering.common.name_option import NameOption


@dataclass(frozen=True)
class MakeUniqueFuncPass(NameOption, ModulePass):
    """Renames the module's one kernel entry point."""

    name = "make-unique-func"

    kernel_name: str = ""
    """The new name of the entry point (the pass option is `name`)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not self.kernel_name:
            raise PassError("make-unique-func: give the new name: {name=...}")
        entry_points = kernel_entry_points(op)
        if len(entry_points) != 1:
            names = ", ".join(f.sym_name.data for f in entry_points) or "none"
            raise PassError(
                f"make-unique-func: needs exactly one kernel entry point, found {names}"
            )
        (kernel,) = entry_points
        old = kernel.sym_name.data
        if old == self.kernel_name:
            return
        if self.kernel_name in functions(op):
            raise PassError(
                f"make-unique-func: a function named '{self.kernel_name}' exists"
            )
        for call in callers_of(op).get(old, []):
            call.callee = SymbolRefAttr(self.kernel_name)
        kernel.sym_name = StringAttr(self.kernel_name)
