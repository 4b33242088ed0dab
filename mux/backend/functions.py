"""`llvm.func`s as LLVM functions: declarations (linkage, attributes, argument names)
and bodies (blocks in dominance order, block arguments as phis, loop metadata).

**Linkage.** An `llvm.func` is emitted with its own linkage (xDSL ignores it: every
function came out external): `internal` and `private` ones are invisible outside
the module (and LLVM deletes them once inlined), `external` ones are exported. The
conversion to LLVM decides which functions are internal.

**Function attributes** come from MLIR's `passthrough` array on `llvm.func` (as a
property or a discardable attribute: `llvm.func @f() attributes {passthrough =
["alwaysinline", "nounwind"]}`), plus the `no_inline`, `no_unwind` and
`optimize_none` unit properties. Each entry must be an attribute llvmlite knows
(`alwaysinline`, `noinline`, `nounwind`, `norecurse`, ...); key-value entries are
rejected.

**Block order.** Blocks are translated in dominance order (reverse post-order), so
that a block listed before the block defining a value it uses finds the value
translated. The branch that closes a loop (to a block at or before its own in
that order) carries `!llvm.loop` with `LOOP_HINTS`.
"""

from __future__ import annotations

from collections.abc import Iterable

from llvmlite import ir
from xdsl.backend.llvm.convert import _declare_func
from xdsl.backend.llvm.convert_type import convert_type
from xdsl.dialects import llvm
from xdsl.dialects.builtin import ArrayAttr, StringAttr
from xdsl.ir import Block

from lowering.common.cfg import reverse_post_order
from mux.backend.errors import TranslationError, diagnostics
from mux.backend.op_translators import BlockMap, ValueMap, translate_op

_UNIT_FUNCTION_ATTRIBUTES = {
    "no_inline": "noinline",
    "no_unwind": "nounwind",
    "optimize_none": "optnone",
}


def declare_function(op: llvm.FuncOp, llvm_module: ir.Module) -> None:
    """Declares the function with xDSL (signature and argument attributes such as
    `llvm.noalias`), then sets its linkage, attributes and argument names."""
    _declare_func(op, llvm_module)
    function = llvm_module.get_global(op.sym_name.data)
    linkage = op.linkage.linkage.data
    function.linkage = "" if linkage == "external" else linkage
    for attribute in _function_attributes(op):
        function.attributes.add(attribute)
    if op.body.blocks:
        for argument, block_argument in zip(
            function.args, op.body.blocks[0].args, strict=True
        ):
            argument.name = block_argument.name_hint or ""


def _function_attributes(op: llvm.FuncOp) -> Iterable[str]:
    for prop, attribute in _UNIT_FUNCTION_ATTRIBUTES.items():
        if op.properties.get(prop) is not None:
            yield attribute
    passthrough = op.passthrough or op.attributes.get("passthrough")
    if passthrough is None:
        return
    if not isinstance(passthrough, ArrayAttr):
        raise TranslationError(f"@{op.sym_name.data}: passthrough must be an array")
    known = ir.values.FunctionAttributes._known
    for entry in passthrough:
        if not isinstance(entry, StringAttr) or entry.data not in known:
            raise TranslationError(
                f"@{op.sym_name.data}: unsupported function attribute {entry} in "
                f"passthrough (supported: {', '.join(sorted(known))})"
            )
        yield entry.data


def define_function(op: llvm.FuncOp, llvm_module: ir.Module) -> None:
    """Translates the body of `op` into its declared LLVM function: one LLVM block
    per block, the arguments of the blocks but the entry one as phis, the ops in
    dominance order, then the loop metadata."""
    function = llvm_module.get_global(op.sym_name.data)
    blocks = list(op.body.blocks)
    block_map: BlockMap = {
        block: function.append_basic_block(block.name_hint or f"bb{i}")
        for i, block in enumerate(blocks)
    }
    values: ValueMap = dict(zip(blocks[0].args, function.args, strict=True))
    # The arguments of the other blocks are phis; the branches to a block add the
    # incoming values.
    for block in blocks[1:]:
        builder = ir.IRBuilder(block_map[block])
        for argument in block.args:
            with diagnostics(f"a block argument of @{op.sym_name.data}"):
                values[argument] = builder.phi(
                    convert_type(argument.type), name=argument.name_hint or ""
                )
    order = _dominance_order(blocks)
    for block in order:
        builder = ir.IRBuilder(block_map[block])  # at the end, after the phis
        for inner in block.ops:
            with diagnostics(inner.name, inner):
                translate_op(inner, builder, values, block_map)
    _mark_loops(order, block_map, llvm_module)


def _mark_loops(
    order: list[Block], block_map: BlockMap, llvm_module: ir.Module
) -> None:
    """Attaches a loop id with `LOOP_HINTS` (`!llvm.loop`) to the branch of every
    block that jumps back to a block at or before it in reverse post-order: the
    latch of a loop. Each loop gets its own id, a node that refers to itself."""
    position = {block: i for i, block in enumerate(order)}
    hints = None
    for block in order:
        terminator = block.last_op
        branch = block_map[block].terminator
        if branch is None or terminator is None:
            continue
        if not any(
            position.get(successor, len(order)) <= position[block]
            for successor in terminator.successors
        ):
            continue
        if hints is None:
            hints = [
                llvm_module.add_metadata([ir.MetaDataString(llvm_module, hint)])
                for hint in LOOP_HINTS
            ]
        name = str(len(llvm_module.metadata))
        loop = ir.values.MDValue(llvm_module, [], name=name)  # distinct: not cached
        loop.operands = (loop, *hints)
        branch.set_metadata("llvm.loop", loop)


LOOP_HINTS = ("llvm.loop.unroll.runtime.disable",)
"""The `llvm.loop` metadata of every loop: no unrolling of loops whose trip count is
only known at run time. The loops of a kernel are work-item loops, whose trip
counts are constants when the work-group size is (LLVM still unrolls those fully or
partly), and the kernel's own loops, which `run-vecz` made 8 to 64 lanes wide:
unrolling those more at run time bought no speed and cost LLVM a good part of its
time (docs/performance.md, "LLVM's unrolling of kernel loops")."""


def _dominance_order(blocks: list[Block]) -> list[Block]:
    """The blocks in reverse post-order from the entry (a block comes after every
    block that dominates it), then the unreachable blocks in their own order."""
    order = reverse_post_order(blocks[0])
    reached = set(order)
    return order + [block for block in blocks if block not in reached]
