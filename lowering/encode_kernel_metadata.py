"""`encode-kernel-metadata{name=... local-sizes=... order=...}`: the spec's
EncodeKernelMetadataPass.

compiler-utils-passes.rst, "TransferKernelMetadataPass & EncodeKernelMetadataPass":
like `transfer-kernel-metadata`, but on *one* kernel supplied by name, and with the
local work-group size "optionally passed to the pass on construction", which becomes
its `mux.reqd_work_group_size` if it has none. This is how a kernel is specialised for
one local size (the spec's deferred compilation): the work-item loops then get
constant trip counts that LLVM can vectorise.

**The one kernel under compilation.** mux-compiler-spec.rst, "`mux-kernel`
attribute": "a ComputeMux implementation may know that an even smaller subset of
kernels are in fact considered *kernels under compilation*"; the attribute "is used
to communicate *kernels under compilation* and *kernel entry points* (a subset of
those) between passes"; "Entry points are kernels which may be invoked from the
runtime. Other kernels in the module may only be run when invoked indirectly:
called from kernel entry points". The spec's front-ends mark kernels otherwise
(`!opencl.kernels`, SPIR_KERNEL), and the metadata passes' job is "To add
mux-kernel entry-point function attributes to the kernels covered by each pass":
after this pass the named kernel is the only function with the attribute. Our input
marks its kernels with `mux.kernel` already, so the pass drops that mark from every
other function (the spec's `dropIsKernel`). No later pass wraps them then, and a
kernel that `name` calls is an ordinary function, as OpenCL C has it: "It is just a
regular function call if a __kernel function is called by another kernel
function". Its body runs in each of the caller's work-items with the caller's
work-item builtins, and `prepare-barriers` inlines it if it holds a barrier. Its
other attributes stay, describing its own launches: a callee's
`mux.reqd_work_group_size` binds its own launches, not the caller's, whose
work-groups it runs in when called (its `get_local_size` is theirs). A kernel that
`name` reaches and that calls itself is a diagnostic (the rule is
`transfer-kernel-metadata`'s).

Before: a function named `name` exists (a diagnostic otherwise). After: it is the
one kernel, an entry point with a work-item order and, when `local-sizes` is given,
a required work-group size; no other function is marked `mux.kernel`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from dialects import attributes as mux_attrs
from lowering.common.errors import PassError
from lowering.common.functions import functions, reachable_from
from lowering.common.name_option import NameOption
from lowering.transfer_kernel_metadata import (
    check_no_recursive_kernel,
    encode_kernel,
    parse_order,
)


@dataclass(frozen=True)
class EncodeKernelMetadataPass(NameOption, ModulePass):
    """Marks the kernel `name` an entry point, with `local-sizes` as its required
    work-group size, and the only kernel of the module."""

    name = "encode-kernel-metadata"

    kernel_name: str = ""
    """The kernel, by function name (the pass option is `name`)."""
    local_sizes: tuple[int, ...] = ()
    """The local size, 1 to 3 positive integers; none: no required size."""
    order: str = "xyz"
    """The work-item order, if the kernel has none."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        fns = functions(op)
        fn = fns.get(self.kernel_name)
        if fn is None or fn.is_declaration:
            known = ", ".join(n for n, f in fns.items() if not f.is_declaration)
            raise PassError(
                f"encode-kernel-metadata: no function '{self.kernel_name}' to encode "
                f"(defined functions: {known or 'none'})"
            )
        if any(size < 1 for size in self.local_sizes):
            raise PassError(
                f"encode-kernel-metadata: local sizes must be positive, got "
                f"{self.local_sizes}"
            )
        reached = reachable_from(op, [self.kernel_name])
        kernels = [self.kernel_name] + [
            n
            for n, f in fns.items()
            if n in reached and n != self.kernel_name and mux_attrs.is_kernel(f)
        ]
        check_no_recursive_kernel(op, kernels, self.name)
        for other in fns.values():
            if other is not fn:
                mux_attrs.drop_is_kernel(other)
        encode_kernel(fn, parse_order(self.order), self.local_sizes)
