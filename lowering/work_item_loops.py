"""`work-item-loops`: the spec's WorkItemLoopsPass (barrier-free kernels).

compiler-utils-passes.rst, "WorkItemLoopsPass": "adding explicit parallelism to
implicitly parallel SIMT kernels ... by wrapping each kernel up in a triple-nested loop
over all work-items in the work-group. Thus, kernels scheduled by this pass can be
invoked once per work-group." For each kernel entry point `@k` it creates

    func.func @k.mux-barrier-wrapper(<k's parameters>) {   // the new entry point
      for z in [0, local_size(2)):  mux.set_local_id 2, z
        for y in [0, local_size(1)):  mux.set_local_id 1, y
          for x in [0, local_size(0)):  mux.set_local_id 0, x
            func.call @k(<parameters>)
    }

- The loops nest in the kernel's work-item order (`mux.work_item_order`, innermost
  dimension first, `xyz` by default).
- With a `mux.reqd_work_group_size` the bounds are constants (LLVM then knows the trip
  counts and vectorises); otherwise they are `mux.get_local_size`, the actual size of
  this work-group (smaller for the last one of a non-uniform range).
- Dimensions at or beyond `mux.max_work_dim` have one work-item: no loop, the local
  id is set to 0 once.
- Sub-groups have the spec's default size 1: if the kernel (or a function it calls)
  uses a sub-group query, the wrapper sets the maximum sub-group size (1), the number
  of sub-groups (the work-group size) and, per work-item, the sub-group id (the local
  linear id).

"Newly-created functions steal the mux-kernel attributes from the original
functions": the wrapper takes `@k`'s entry-point attribute and metadata, records
`mux.orig_fn` and `mux.base_fn_name`, and `@k` becomes private, to be inlined by LLVM.

Before: kernel entry points (`transfer-kernel-metadata` or `encode-kernel-metadata`).
Kernels with barriers or work-group collectives are rejected with a diagnostic for now:
their barrier regions and live variables are the next stage of this pass.
After: each entry point is a `.mux-barrier-wrapper` that runs once per work-group.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import ModuleOp, i32
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass

from dialects import attributes as mux_attrs
from dialects import mux
from lowering.utils import (
    PassError,
    base_name,
    build_for,
    const,
    from_index,
    functions,
    kernel_entry_points,
    mark_internal,
    new_function,
    reachable_from,
)

SUFFIX = ".mux-barrier-wrapper"

_SUB_GROUP_QUERIES = (
    mux.GetSubGroupIdOp,
    mux.GetNumSubGroupsOp,
    mux.GetMaxSubGroupSizeOp,
    mux.GetSubGroupSizeOp,
    mux.GetSubGroupLocalIdOp,
)
_NOT_YET = (
    mux.WorkGroupBarrierOp,
    mux.SubGroupBarrierOp,
    mux.WorkGroupAnyOp,
    mux.WorkGroupAllOp,
    mux.WorkGroupBroadcastOp,
    mux.WorkGroupReduceOp,
    mux.WorkGroupScanInclusiveOp,
    mux.WorkGroupScanExclusiveOp,
)


@dataclass(frozen=True)
class WorkItemLoopsPass(ModulePass):
    """Wraps each kernel entry point in loops over the work-items of a work-group."""

    name = "work-item-loops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for kernel in kernel_entry_points(op):
            wrapper = _wrap(op, kernel)
            op.body.block.insert_op_after(wrapper, kernel)


def _ops_reachable(module: ModuleOp, kernel: func.FuncOp) -> list[type]:
    fns = functions(module)
    names = reachable_from(module, [kernel.sym_name.data])
    return [type(o) for name in names if name in fns for o in fns[name].walk()]


def _wrap(module: ModuleOp, kernel: func.FuncOp) -> func.FuncOp:
    name = kernel.sym_name.data
    if kernel.function_type.outputs.data:
        raise PassError(f"work-item-loops: kernel '{name}' returns values")
    used = _ops_reachable(module, kernel)
    for unsupported in _NOT_YET:
        if unsupported in used:
            raise PassError(
                f"work-item-loops: kernel '{name}' uses {unsupported.name}: barriers "
                "and work-group collectives are not supported yet"
            )

    base = base_name(kernel)
    wrapper, b = new_function(
        base + SUFFIX,
        kernel.function_type.inputs.data,
        arg_names=[a.name_hint for a in kernel.args],
    )
    wrapper.arg_attrs = kernel.arg_attrs
    mux_attrs.take_is_kernel(wrapper, kernel)
    for accessor in mux_attrs.FUNCTION_ATTRIBUTES:
        accessor.take(wrapper, kernel)
    mux_attrs.ORIG_FN.set(wrapper, mux_attrs.ORIG_FN.get(wrapper) or name)
    mux_attrs.BASE_FN_NAME.set(wrapper, base)
    mark_internal(kernel)

    reqd = mux_attrs.REQD_WORK_GROUP_SIZE.get(wrapper)
    max_dim = mux_attrs.max_work_dim(wrapper)
    dims = [const(b, d, i32) for d in range(3)]
    sizes: list[SSAValue] = []
    for d in range(3):
        if d >= max_dim:
            sizes.append(const(b, 1))
        elif reqd is not None:
            sizes.append(const(b, reqd[d]))
        else:
            sizes.append(b.insert(mux.GetLocalSizeOp(dims[d])).result)

    sub_groups = any(q in used for q in _SUB_GROUP_QUERIES)
    if sub_groups:
        count = b.insert(arith.MuliOp(sizes[0], sizes[1])).result
        count = b.insert(arith.MuliOp(count, sizes[2])).result
        b.insert(mux.SetMaxSubGroupSizeOp(const(b, 1, i32)))
        b.insert(mux.SetNumSubGroupsOp(from_index(b, count, i32)))

    looped = [d for d in mux_attrs.work_item_order(wrapper).dimensions if d < max_dim]
    zero, one = const(b, 0), const(b, 1)
    for d in range(max_dim, 3):
        b.insert(mux.SetLocalIdOp(dims[d], zero))
    ids: dict[int, SSAValue] = {d: zero for d in range(max_dim, 3)}

    def innermost(inner: Builder) -> None:
        if sub_groups:
            linear = inner.insert(arith.MuliOp(ids[2], sizes[1])).result
            linear = inner.insert(arith.AddiOp(linear, ids[1])).result
            linear = inner.insert(arith.MuliOp(linear, sizes[0])).result
            linear = inner.insert(arith.AddiOp(linear, ids[0])).result
            inner.insert(mux.SetSubGroupIdOp(from_index(inner, linear, i32)))
        args = list(wrapper.body.block.args)
        inner.insert(func.CallOp(name, args, []))

    def loop(level: int, inner: Builder) -> None:
        """The loop over dimension `looped[level]`, outermost first."""
        if level < 0:
            innermost(inner)
            return
        d = looped[level]

        def body(body_builder: Builder, iv: SSAValue) -> None:
            ids[d] = iv
            body_builder.insert(mux.SetLocalIdOp(dims[d], iv))
            loop(level - 1, body_builder)

        build_for(inner, zero, sizes[d], one, body, name="xyz"[d])

    loop(len(looped) - 1, b)
    b.insert(func.ReturnOp())
    return wrapper
