"""`encode-kernel-metadata{name=... local-sizes=... order=...}`: the spec's
EncodeKernelMetadataPass.

compiler-utils-passes.rst, "TransferKernelMetadataPass & EncodeKernelMetadataPass":
like `transfer-kernel-metadata`, but on *one* kernel supplied by name, and with the
local work-group size "optionally passed to the pass on construction", which becomes
its `mux.reqd_work_group_size` if it has none. This is how a kernel is specialised for
one local size (the spec's deferred compilation): the work-item loops then get
constant trip counts that LLVM can vectorise.

Before: a function named `name` exists (a diagnostic otherwise). After: it is a
kernel entry point with a work-item order and, when `local-sizes` is given, a required
work-group size. Other functions are untouched.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from lowering.transfer_kernel_metadata import encode_kernel, parse_order
from lowering.utils import NameOption, PassError, functions


@dataclass(frozen=True)
class EncodeKernelMetadataPass(NameOption, ModulePass):
    """Marks the kernel `name` an entry point, with `local-sizes` as its required
    work-group size."""

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
        encode_kernel(fn, parse_order(self.order), self.local_sizes)
