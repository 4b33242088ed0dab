"""`transfer-kernel-metadata`: the spec's TransferKernelMetadataPass.

compiler-utils-passes.rst, "TransferKernelMetadataPass & EncodeKernelMetadataPass":
sets up the metadata of the kernels under compilation, which later passes rely on.
It runs over every kernel of the module; here a kernel is a function with a
`mux.kernel` attribute, as a front-end marks them (the spec's front-ends use
`!opencl.kernels` or the SPIR_KERNEL calling convention). For each one it

- adds the entry-point attribute, `mux.kernel = "entry-point"`;
- keeps a `mux.reqd_work_group_size` the kernel already has (the front-end's
  `reqd_work_group_size`): nothing to transfer from elsewhere;
- adds `mux.work_item_order` if absent: the pass's `order` option, `xyz` by default.

A kernel may call another, an ordinary call in OpenCL C (`encode-kernel-metadata`
quotes the rule). Both stay entry points here (each can be launched); where one
calls the other, the callee's body runs in the caller's work-items as any
function's does (`prepare-barriers` inlines a copy of it when it holds a barrier).
A kernel that calls itself, directly or through other functions, is a diagnostic
naming the cycle: OpenCL C's "Restrictions" say "Recursion is not supported".
Cycles among functions that are not kernels are not checked here
(`prepare-barriers` rejects those that hold a barrier).

Before: kernels marked `mux.kernel`. After: every kernel is an entry point with a
work-item order. Running it twice changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from dialects import attributes as mux_attrs
from dialects.mux import WorkItemOrder
from lowering.common.errors import PassError
from lowering.common.functions import call_cycle, functions


def parse_order(order: str) -> WorkItemOrder:
    """The `order` option of the metadata passes, with a diagnostic if unknown."""
    try:
        return WorkItemOrder(order)
    except ValueError:
        known = ", ".join(o.value for o in WorkItemOrder)
        raise PassError(f"unknown work-item order '{order}' (one of {known})") from None


def encode_kernel(
    fn: func.FuncOp,
    order: WorkItemOrder,
    local_sizes: tuple[int, ...] = (),
) -> None:
    """Marks `fn` a kernel entry point with its work-item order and, when
    `local_sizes` is given and the kernel has none, its required work-group size
    (missing trailing dimensions are 1)."""
    mux_attrs.set_is_kernel_entry_point(fn)
    if local_sizes and mux_attrs.REQD_WORK_GROUP_SIZE.get(fn) is None:
        if not 1 <= len(local_sizes) <= 3:
            raise PassError(f"local-sizes has 1 to 3 sizes, got {local_sizes}")
        padded = (*local_sizes, *(1,) * (3 - len(local_sizes)))
        mux_attrs.REQD_WORK_GROUP_SIZE.set(fn, padded)
    if mux_attrs.WORK_ITEM_ORDER.get(fn) is None:
        mux_attrs.WORK_ITEM_ORDER.set(fn, order)


def check_no_recursive_kernel(
    module: ModuleOp, kernels: Iterable[str], pass_name: str
) -> None:
    """A diagnostic if one of `kernels` calls itself, directly or through other
    functions (OpenCL C: no recursion), naming the cycle."""
    cycle = call_cycle(module, kernels)
    if cycle is not None:
        path = " -> ".join(f"'{name}'" for name in cycle)
        raise PassError(
            f"{pass_name}: kernel '{cycle[0]}' calls itself, and OpenCL C has no "
            f"recursion: {path}"
        )


@dataclass(frozen=True)
class TransferKernelMetadataPass(ModulePass):
    """Marks every kernel (`mux.kernel`) an entry point with a work-item order."""

    name = "transfer-kernel-metadata"

    order: str = "xyz"
    """The work-item order of kernels that have none."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        order = parse_order(self.order)
        kernels = [
            fn
            for fn in functions(op).values()
            if mux_attrs.is_kernel(fn) and not fn.is_declaration
        ]
        check_no_recursive_kernel(op, (k.sym_name.data for k in kernels), self.name)
        for fn in kernels:
            encode_kernel(fn, order)
