"""`lift-llvm-ops`: an imported kernel's `llvm` ops as the `arith` and `memref` ops a
kernel written in MLIR has, so that the passes after it treat both alike.

The OpenCL C front-end gives kernel bodies at the `llvm` level (the IR contract of
docs/architecture.md, "Other ways in"): `llvm.add`, `llvm.fadd`, `llvm.icmp`, and
memory accesses as an `llvm.getelementptr` from a buffer argument's pointer (the
`builtin.unrealized_conversion_cast` of its `memref<?xT, AS>`) then `llvm.load` or
`llvm.store`. The spec has no such pass: its vectoriser (compiler-utils-passes.rst,
"RunVeczPass") works on LLVM IR, ours on the structured form. `run-vecz` finds
what is uniform and linear between work-items, and which accesses are
contiguous, on `arith` and `memref` ops (docs/performance.md, "Kernels from
OpenCL C"); rather than teach it a second spelling of each op and an address
analysis of pointers, this pass lifts the ops that have an exact `arith`/`memref`
equivalent (the inverse of `convert-to-llvm`'s tables,
`lowering.common.llvm_casts`):

- scalar integer and float constants, integer arithmetic, float `+ - * /` without
  fast-math flags, `icmp`, `fcmp` without fast-math flags, `select` on one
  condition, the casts, and calls of the integer min/max intrinsics and of
  `llvm.usub.sat` (`maxui(x, y) - y`);
- a load or store of the element type `T` of a buffer `memref<?xT>` at a chain
  of `getelementptr`s of `T` with one index each from its pointer: a
  `memref.load`/`memref.store` at the sum of the indices (an `index`;
  `arith.index_cast` of an `index_cast` to `i64` is the `index` itself);
- what is left (other accesses, atomics, volatile ones, vectors, fast-math) stays
  as it was, and the pointers they use with it.

First the kernel's branches: its CFG becomes one block of `scf.if` and
`scf.while` (`control_flow.py`: diamonds, and loops with one latch and one way
out, clang's rotated loops among them, whatever diamonds and loops their bodies
hold), which `run-vecz` handles (it does not vectorise `llvm.br`) and
`work-item-loops`' bound functions read (an `&&` is then nested `scf.if`s, which
`lowering/scheduling/bounds.py` takes as one guard). The ops are lifted in
kernel entry points that are one block then (nested regions included);
a kernel whose CFG has another shape keeps it and its `llvm` ops (`run-vecz`
would refuse it anyway).

Before: `lower-to-mux-builtins` and `link-builtins` (the calls are mux ops or
inlined code), `prepare-barriers`. After: `run-vecz`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, llvm, memref
from xdsl.dialects.builtin import (
    FloatAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    UnrealizedConversionCastOp,
    VectorType,
    i64,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from lowering.common.functions import kernel_entry_points
from lowering.common.intrinsics import lanewise_base
from lowering.common.llvm_casts import (
    CASTS,
    FLOAT_ARITHMETIC,
    INTEGER_BINARY,
    INTEGER_MIN_MAX,
)
from lowering.lift_llvm_ops.control_flow import lift_branches

_INTEGER = {llvm_op: arith_op for arith_op, llvm_op in INTEGER_BINARY.items()}
_FLOAT = {llvm_op: arith_op for arith_op, llvm_op in FLOAT_ARITHMETIC.items()}
_CASTS = {llvm_op: arith_op for arith_op, llvm_op in CASTS.items()}
_MIN_MAX = {name: arith_op for arith_op, name in INTEGER_MIN_MAX.items()}


@dataclass(frozen=True)
class LiftLLVMOpsPass(ModulePass):
    """Kernel entry points' branches as `scf` ops where their shape allows
    (diamonds, loops with one latch and one way out), then the `llvm` ops of
    those that are one block that have an exact `arith` or `memref`
    equivalent, as that."""

    name = "lift-llvm-ops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for kernel in kernel_entry_points(op):
            lift_branches(kernel)
            blocks = kernel.body.blocks
            if blocks.first is not None and blocks.first is blocks.last:
                _Lifter().lift(blocks.first)


class _Lifter:
    def __init__(self) -> None:
        self.addresses: dict[SSAValue, tuple[SSAValue, SSAValue | None]] = {}
        """A pointer into a buffer: (the memref, the element index, an i64; None
        for the first element)."""

    def lift(self, block: Block) -> None:
        for op in list(block.ops):
            for region in op.regions:  # scf.if, scf.while
                for inner in region.blocks:
                    self.lift(inner)
            new = self.lifted(op)
            if new is not None:
                Rewriter.insert_op(new, InsertPoint.before(op))
                Rewriter.replace_op(op, [], new.results or None)
        for op in reversed(list(block.ops)):  # the addresses nothing uses any more
            if isinstance(op, llvm.GEPOp) and not op.result.uses:
                Rewriter.erase_op(op)

    def lifted(self, op: Operation) -> Operation | None:
        """The op replacing `op`, inserted before it (the index computations
        too); None to keep `op`."""
        if any(isinstance(v.type, VectorType) for v in (*op.operands, *op.results)):
            return None
        if isinstance(op, UnrealizedConversionCastOp):
            self.note_buffer(op)
        elif isinstance(op, llvm.GEPOp):
            self.note_element(op)
        elif isinstance(op, llvm.LoadOp | llvm.StoreOp):
            return self.access(op)
        elif isinstance(op, llvm.ConstantOp):
            if isinstance(op.value, IntegerAttr | FloatAttr):
                return arith.ConstantOp(op.value)
        elif type(op) in _INTEGER:
            return _INTEGER[type(op)](*op.operands)
        elif type(op) in _FLOAT and not op.fastmathFlags.data:
            return _FLOAT[type(op)](*op.operands)
        elif isinstance(op, llvm.ICmpOp):
            name = llvm.ICmpPredicateFlag.from_int(op.predicate.value.data).value
            return arith.CmpiOp(op.lhs, op.rhs, name)
        elif isinstance(op, llvm.FCmpOp) and not op.fastmathFlags.data:
            name = llvm.FCmpPredicateFlag.from_int(op.predicate.value.data).value
            return arith.CmpfOp(op.lhs, op.rhs, name.lstrip("_"))
        elif isinstance(op, llvm.SelectOp):
            return arith.SelectOp(op.cond, op.lhs, op.rhs)
        elif type(op) in _CASTS:
            return _CASTS[type(op)](op.operands[0], op.results[0].type)
        elif isinstance(op, llvm.CallIntrinsicOp):
            return _intrinsic(op)
        return None

    def note_buffer(self, op: UnrealizedConversionCastOp) -> None:
        """A buffer argument's pointer: its first element."""
        if len(op.inputs) != 1 or len(op.outputs) != 1:
            return
        type_ = op.inputs[0].type
        if (
            isinstance(type_, MemRefType)
            and isinstance(type_.layout, NoneAttr)
            and len(type_.shape) == 1
            and isinstance(op.outputs[0].type, llvm.LLVMPointerType)
        ):
            self.addresses[op.outputs[0]] = (op.inputs[0], None)

    def note_element(self, op: llvm.GEPOp) -> None:
        """A `getelementptr` of the buffer's element type and one index."""
        base = self.addresses.get(op.ptr)
        if base is None or len(op.ssa_indices) != 1:
            return
        ref, index = base
        if tuple(op.rawConstantIndices.iter_values()) != (llvm.GEP_USE_SSA_VAL,):
            return
        assert isinstance(ref.type, MemRefType)
        (step,) = op.ssa_indices
        if op.elem_type != ref.type.element_type or step.type != i64:
            return
        if index is not None:
            add = arith.AddiOp(index, step)
            Rewriter.insert_op(add, InsertPoint.before(op))
            step = add.result
        self.addresses[op.result] = (ref, step)

    def access(self, op: llvm.LoadOp | llvm.StoreOp) -> Operation | None:
        address = self.addresses.get(op.ptr)
        if address is None or (op.ordering is not None and op.ordering.value.data):
            return None
        ref, index = address
        assert isinstance(ref.type, MemRefType)
        element = ref.type.element_type
        if isinstance(op, llvm.LoadOp):
            if op.dereferenced_value.type != element:
                return None
        elif op.value.type != element or op.volatile_ or op.nontemporal:
            return None
        at = _as_index(op, index)
        if isinstance(op, llvm.LoadOp):
            return memref.LoadOp.get(ref, [at])
        return memref.StoreOp.get(op.value, ref, [at])


def _intrinsic(op: llvm.CallIntrinsicOp) -> Operation | None:
    """An integer min or max as the `arith` op; `usub.sat(x, y)` (clang's
    `x > 0 ? x - 1 : 0`) as `maxui(x, y) - y`, the form of a clamp `run-vecz` keeps
    piecewise rather than lane by lane."""
    base = lanewise_base(op.intrin.data, [a.type for a in op.args])
    if base in _MIN_MAX:
        return _MIN_MAX[base](*op.args)
    if base == "llvm.usub.sat":
        x, y = op.args
        top = arith.MaxUIOp(x, y)
        Rewriter.insert_op(top, InsertPoint.before(op))
        return arith.SubiOp(top, y)
    return None


def _as_index(before: Operation, index: SSAValue | None) -> SSAValue:
    """`index` (an i64; None for 0) as an `index`, computed before `before`."""
    if index is None:
        new: Operation = arith.ConstantOp(IntegerAttr(0, IndexType()))
    else:
        owner = index.owner
        if isinstance(owner, arith.IndexCastOp) and isinstance(
            owner.input.type, IndexType
        ):
            return owner.input  # index -> i64 -> index: the index itself
        new = arith.IndexCastOp(index, IndexType())
    Rewriter.insert_op(new, InsertPoint.before(before))
    return new.results[0]
