"""`verify-reqd-sub-group-satisfied`: the spec's VerifyReqdSubGroupSizeSatisfiedPass.

compiler-utils-passes.rst, "VerifyReqdSubGroupSizeLegalPass &
VerifyReqdSubGroupSizeSatisfiedPass": it "searches for any kernel entry point with a
required sub-group size and checks whether the vectorizer was able to satisfy that
requirement ... A compiler diagnostic is raised for each kernel for which this does
not hold."

Here sub-groups are made by `work-item-loops`, not by a vectorizer, so the pass runs
after it and compares each entry point's `mux.reqd_sub_group_size` with what it was
scheduled for:

- `mux.sub_group_size` (which `work-item-loops` records) must be the required size;
- with degenerate sub-groups (`mux.degenerate_subgroups`: one sub-group per
  work-group) the requirement holds only if the kernel's `mux.reqd_work_group_size`
  has that many work-items;
- an entry point with neither was not scheduled: a diagnostic too.

Before: `work-item-loops`. After: unchanged; every entry point with a required
sub-group size runs with sub-groups of that size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from dialects import attributes as mux_attrs
from lowering.common.errors import PassError
from lowering.common.functions import kernel_entry_points


@dataclass(frozen=True)
class VerifyReqdSubGroupSatisfiedPass(ModulePass):
    """Rejects an entry point not scheduled with its required sub-group size."""

    name = "verify-reqd-sub-group-satisfied"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for entry in kernel_entry_points(op):
            required = mux_attrs.REQD_SUB_GROUP_SIZE.get(entry)
            if required is None:
                continue
            name = entry.sym_name.data
            prefix = f"verify-reqd-sub-group-satisfied: kernel '{name}' requires "
            if mux_attrs.DEGENERATE_SUBGROUPS.get(entry):
                work_group = mux_attrs.REQD_WORK_GROUP_SIZE.get(entry)
                count = None if work_group is None else math.prod(work_group)
                if count != required:
                    raise PassError(
                        f"{prefix}sub-group size {required}, but its sub-groups are "
                        "degenerate (one per work-group) and its work-group size is "
                        f"{'not fixed' if count is None else count}"
                    )
                continue
            scheduled = mux_attrs.SUB_GROUP_SIZE.get(entry)
            if scheduled is None:
                raise PassError(
                    f"{prefix}sub-group size {required}, but it was not scheduled: "
                    "run work-item-loops first"
                )
            if scheduled != required:
                raise PassError(
                    f"{prefix}sub-group size {required}, but was scheduled with "
                    f"sub-groups of {scheduled}"
                )
