"""`verify-reqd-sub-group-legal`: the spec's VerifyReqdSubGroupSizeLegalPass.

compiler-utils-passes.rst, "VerifyReqdSubGroupSizeLegalPass &
VerifyReqdSubGroupSizeSatisfiedPass": it "searches for any kernel with a required
sub-group size and checks whether the device supports such a size ... Any
unsupported size results in a compiler diagnostic".

The device is the host CPU, whose sub-groups `work-item-loops` builds in software
from consecutive local linear ids: it offers the sizes of `DeviceInfo.sub_group_sizes`
(powers of two from 1 to 64), which the pass option `sizes` can replace (a target
that offers others). Every function marked `mux.kernel` (entry point or not) with a
`mux.reqd_sub_group_size` outside them is a diagnostic naming the kernel, its size
and the device's.

Before: kernel metadata (`transfer-kernel-metadata` or `encode-kernel-metadata`).
After: unchanged; every required sub-group size is one the device supports, which
`work-item-loops` then uses for that kernel.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from dialects import attributes as mux_attrs
from lowering.common.device import HOST
from lowering.common.errors import PassError


@dataclass(frozen=True)
class VerifyReqdSubGroupLegalPass(ModulePass):
    """Rejects a kernel whose required sub-group size the device does not offer."""

    name = "verify-reqd-sub-group-legal"

    sizes: tuple[int, ...] = HOST.sub_group_sizes
    """The sub-group sizes the device supports."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for fn in op.walk():
            if not (isinstance(fn, func.FuncOp) and mux_attrs.is_kernel(fn)):
                continue
            required = mux_attrs.REQD_SUB_GROUP_SIZE.get(fn)
            if required is not None and required not in self.sizes:
                offered = ", ".join(map(str, self.sizes))
                raise PassError(
                    f"verify-reqd-sub-group-legal: kernel '{fn.sym_name.data}' "
                    f"requires sub-group size {required}, which the device does not "
                    f"support (sub-group sizes: {offered})"
                )
