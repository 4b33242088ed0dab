"""`define-mux-dma`: software definitions of the DMA builtins.

ir-conventions.rst, "DMA": "For targets unable to support hardware DMA oneAPI
Construction Kit provides software implementations of the DMA builtins in the form of
compiler passes that any target may use." compiler-utils-passes.rst has no section on
the pass (the reference implementation calls it DefineMuxDmaPass); the semantics are
those of the builtins in mux-compiler-spec.rst, "Builtins":

- `__mux_dma_read_2D(dst, src, width, dst_stride, src_stride, height, event)`: "DMA
  2D read from `%src` to `%dst` of `%width` bytes and `%height` rows, with
  `%dst_stride` bytes between dst rows and `%src_stride` bytes between src rows. May
  use `%event` from previous DMA call. Returns event used." The 1-D form has one row,
  the 3-D form adds `%depth` planes with plane strides on each side; writes are the
  same from local to global memory.
- `__mux_dma_wait(i32 %num_events, __mux_dma_event_t*)`: "Wait on events initiated by
  a DMA read or write."
- "`__mux_dma_event_t` represents an event object and may be defined as *any* type
  chosen by the Mux implementation ... This type **may** change throughout the
  compilation process."

Every work-item of a work-group reaches a DMA builtin with the same arguments (they
are work-group functions, like OpenCL's `async_work_group_copy`), so the transfer is
done once per work-group:

    %lid = mux.get_local_linear_id
    scf.if (%lid == 0) {
      // for each plane p < depth, each row r < height (none for 1-D):
      llvmx.memcpy dst + p * dst_plane_stride + r * dst_line_stride,
                   src + p * src_plane_stride + r * src_line_stride, width
    }

one `llvmx.memcpy` (the `llvm.memcpy` intrinsic) per row: a bulk copy, not a byte
loop. A memref operand is its bare pointer (`builtin.unrealized_conversion_cast` to
`!llvm.ptr<N>`, which `convert-to-llvm` resolves), so it must have the identity
layout. The copy is complete when work-item 0 has run it, and `mux.dma_wait` becomes
`mux.work_group_barrier scope(work_group) semantics(acq_rel | work_group_memory |
cross_work_group_memory)`: the other work-items wait there until the data is in
place, and see it. (A write of local data that other work-items stored needs a
barrier before it, as in OpenCL: work-item 0 may run ahead to the write otherwise.)

Events: `!mux.dma_event` becomes `!llvm.ptr` everywhere (block arguments, results,
function types). A transfer returns the event it was given, or a new one, the null
pointer; events carry nothing, since every copy is finished by the next barrier. A
pointer because it is how LLVM lays out clang's `target("spirv.Event")` and so how
the LLVM IR importer types an OpenCL C `event_t`, 8 bytes apart in an array of
events: `lower-to-mux-builtins` casts such a pointer to `!mux.dma_event` for a DMA
op and the op's event back, and the pass folds those casts, which then cast a
pointer to itself.

Rejected, with a diagnostic: a memref operand that no bare pointer can stand for (a
strided layout, a dynamic inner dimension), and a kernel entry point that takes or
returns an event (the runtime has none to pass).

Before: kernel metadata; it must run before `prepare-barriers` and `work-item-loops`,
since it introduces barriers (as compiler-utils-passes.rst says of ReplaceWGCPass).
After: no DMA op or `!mux.dma_event` remains; each transfer is a guarded copy made of
`scf`, `arith`, `llvm.getelementptr` and `llvmx.memcpy`, each wait a work-group
barrier with id 0 (`prepare-barriers` numbers them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    FunctionType,
    MemRefType,
    ModuleOp,
    UnrealizedConversionCastOp,
    i8,
    i64,
)
from xdsl.dialects.llvm import GEPOp, LLVMPointerType, ZeroOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter

from dialects import attributes as mux_attrs
from dialects import llvmx, mux
from lowering.common.builders import build_for, build_if, const, from_index
from lowering.common.errors import PassError, in_function
from lowering.common.llvm_types import ConversionError, check_memref, convert_type

EVENT_TYPE = LLVMPointerType()
"""What `!mux.dma_event` becomes."""

TRANSFERS: tuple[type[Operation], ...] = tuple(
    op for op in mux.DMA_OPS if op is not mux.DmaWaitOp
)

WAIT_SEMANTICS = (
    mux.MemSemantics.ACQ_REL,
    mux.MemSemantics.WORK_GROUP_MEMORY,
    mux.MemSemantics.CROSS_WORK_GROUP_MEMORY,
)
"""A read fills local memory, a write global memory: the wait orders both."""


@dataclass(frozen=True)
class DefineMuxDmaPass(ModulePass):
    """Defines the DMA transfers as copies by work-item 0 and `dma_wait` as a
    work-group barrier; events become `i32`."""

    name = "define-mux-dma"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        _check_kernels(op)
        _check_transfers(op)
        PatternRewriteWalker(
            GreedyRewritePatternApplier([DefineTransfer(), DefineWait()]),
            apply_recursively=False,
        ).rewrite_module(op)
        _retype_events(op)


# --------------------------------------------------------------------------------------
# Transfers.
# --------------------------------------------------------------------------------------


def _lines(op: Operation) -> list[tuple[SSAValue, SSAValue, SSAValue]]:
    """The (count, dst stride, src stride) of each loop around the row copy, outer
    first: planes and rows for 3-D, rows for 2-D, none for 1-D."""
    if isinstance(op, mux.DmaRead3DOp | mux.DmaWrite3DOp):
        return [
            (op.depth, op.dst_plane_stride, op.src_plane_stride),
            (op.height, op.dst_line_stride, op.src_line_stride),
        ]
    if isinstance(op, mux.DmaRead2DOp | mux.DmaWrite2DOp):
        return [(op.height, op.dst_stride, op.src_stride)]
    return []


def _pointer(b: Builder, value: SSAValue, name: str) -> SSAValue:
    """`value` as an `!llvm.ptr<N>`: a memref is its bare pointer."""
    if isinstance(value.type, LLVMPointerType):
        return value
    pointer_type = convert_type(value.type)  # checked by `_check_transfers`
    pointer = b.insert(UnrealizedConversionCastOp.get([value], [pointer_type]))
    pointer.results[0].name_hint = name
    return pointer.results[0]


def _byte_address(b: Builder, base: SSAValue, offset: SSAValue | None) -> SSAValue:
    """`base + offset` bytes (`offset` an index; None is 0)."""
    if offset is None:
        return base
    assert isinstance(base.type, LLVMPointerType)
    gep = GEPOp.from_mixed_indices(
        base, [from_index(b, offset, i64)], i8, result_type=base.type
    )
    return b.insert(gep).result


def _plus(b: Builder, offset: SSAValue | None, step: SSAValue) -> SSAValue:
    if offset is None:
        return step
    return b.insert(arith.AddiOp(offset, step)).result


_LOOP_NAMES = ("plane", "row")


def build_copy(
    b: Builder,
    dst: SSAValue,
    src: SSAValue,
    width: SSAValue,
    lines: Sequence[tuple[SSAValue, SSAValue, SSAValue]],
) -> None:
    """Copies `width` bytes from `src` to `dst` (pointers) at each point of the loop
    nest `lines` (count, dst stride, src stride; all `index`), with one
    `llvmx.memcpy` per row."""
    bytes_ = from_index(b, width, i64)
    names = _LOOP_NAMES[-len(lines) :] if lines else ()
    zero, one = (const(b, 0), const(b, 1)) if lines else (None, None)

    def level(
        inner: Builder, depth: int, dst_at: SSAValue | None, src_at: SSAValue | None
    ) -> None:
        if depth == len(lines):
            to = _byte_address(inner, dst, dst_at)
            from_ = _byte_address(inner, src, src_at)
            inner.insert(llvmx.MemcpyOp(to, from_, bytes_))
            return
        count, dst_stride, src_stride = lines[depth]

        def body(loop: Builder, iv: SSAValue) -> None:
            dst_step = loop.insert(arith.MuliOp(iv, dst_stride)).result
            src_step = loop.insert(arith.MuliOp(iv, src_stride)).result
            level(
                loop,
                depth + 1,
                _plus(loop, dst_at, dst_step),
                _plus(loop, src_at, src_step),
            )

        assert zero is not None and one is not None
        build_for(inner, zero, count, one, body, names[depth])

    level(b, 0, None, None)


def _check_transfers(module: ModuleOp) -> None:
    """Each memref operand of a transfer can be a bare pointer."""
    for op in module.walk():
        if not isinstance(op, TRANSFERS):
            continue
        for value in (op.dst, op.src):
            if isinstance(value.type, MemRefType):
                try:
                    check_memref(value.type)
                except ConversionError as error:
                    raise PassError(
                        f"define-mux-dma: {op.name}{in_function(op)}: {error}", op
                    ) from None


class DefineTransfer(RewritePattern):
    """A DMA read or write: the copy, guarded by `local linear id == 0`."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /):
        if not isinstance(op, TRANSFERS):
            return
        b = Builder(InsertPoint.before(op))
        lid = b.insert(mux.GetLocalLinearIdOp()).result
        first = b.insert(arith.CmpiOp(lid, const(b, 0), "eq")).result
        lid.name_hint, first.name_hint = "lid", "first"

        def copy(inner: Builder) -> None:
            dst = _pointer(inner, op.dst, "dst")
            src = _pointer(inner, op.src, "src")
            build_copy(inner, dst, src, op.width, _lines(op))

        guard = build_if(b, first, copy)
        for new in guard.walk():  # where a checked-mode fault in the copy points
            new.location = op.location
        event = op.event
        if event is None:
            event = b.insert(ZeroOp(result_types=[EVENT_TYPE])).results[0]
        rewriter.replace(op, [], [event])


class DefineWait(RewritePattern):
    """`mux.dma_wait` is a work-group barrier."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: mux.DmaWaitOp, rewriter: PatternRewriter, /):
        barrier = mux.WorkGroupBarrierOp(0, mux.MemScope.WORK_GROUP, WAIT_SEMANTICS)
        rewriter.replace(op, barrier)


# --------------------------------------------------------------------------------------
# Events.
# --------------------------------------------------------------------------------------


def _has_event(types: Sequence[Attribute]) -> bool:
    return any(isinstance(t, mux.DmaEventType) for t in types)


def _check_kernels(module: ModuleOp) -> None:
    for fn in module.walk():
        if not isinstance(fn, func.FuncOp) or not mux_attrs.is_kernel(fn):
            continue
        signature = fn.function_type
        if _has_event([*signature.inputs.data, *signature.outputs.data]):
            raise PassError(
                f"define-mux-dma: kernel '{fn.sym_name.data}' takes or returns a DMA "
                "event: the runtime has none to pass (events stay inside kernels)",
                fn,
            )


def _event_free(types: Sequence[Attribute]) -> list[Attribute]:
    return [EVENT_TYPE if isinstance(t, mux.DmaEventType) else t for t in types]


def _retype_events(module: ModuleOp) -> None:
    """Every `!mux.dma_event` value, and function type, becomes `EVENT_TYPE`;
    the casts between events and pointers are then casts to the same type, and
    go."""
    for op in list(module.walk()):
        for result in list(op.results):
            if isinstance(result.type, mux.DmaEventType):
                Rewriter.replace_value_with_new_type(result, EVENT_TYPE)
        for region in op.regions:
            for block in region.blocks:
                for arg in list(block.args):
                    if isinstance(arg.type, mux.DmaEventType):
                        Rewriter.replace_value_with_new_type(arg, EVENT_TYPE)
        if isinstance(op, func.FuncOp):
            signature = op.function_type
            if _has_event([*signature.inputs.data, *signature.outputs.data]):
                op.function_type = FunctionType.from_lists(
                    _event_free(signature.inputs.data),
                    _event_free(signature.outputs.data),
                )
    for op in list(module.walk()):
        if _is_identity_cast(op):
            Rewriter.replace_op(op, [], [op.operands[0]])


def _is_identity_cast(op: Operation) -> bool:
    """An `unrealized_conversion_cast` of a value to its own type."""
    return (
        isinstance(op, UnrealizedConversionCastOp)
        and len(op.inputs) == len(op.outputs) == 1
        and op.inputs[0].type == op.outputs[0].type
    )
