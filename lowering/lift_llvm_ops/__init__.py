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

- scalar integer and float constants, integer arithmetic, float `+ - * /` and
  `fcmp` with their fast-math flags (arith's `fastmath`), `icmp`, `select` on one
  condition, the casts, and calls of the integer min/max intrinsics and of
  `llvm.usub.sat` (`maxui(x, y) - y`);
- a load or store of an integer or float `T` at a chain of `getelementptr`s
  from a memref's pointer (a buffer argument, a local variable, the byte buffer
  of local variables): a `memref.load`/`memref.store` at the flat index of the
  address in `T`s (an `index`; `arith.index_cast` of an `index_cast` to `i64`
  is the `index` itself), in the memref itself if it is a 1-D one of `T`, else
  in a 1-D view of `T`s of its pointer; GEPs of rows (`!llvm.array`), struct
  members and several indices are multiples of their sizes. Only when `T`'s size
  divides each of them and the access is naturally aligned: `memory.py`;
- a `freeze` of a value that is never undef nor poison (the kernel's arguments,
  constants, work-item queries, and the lifted integer ops that make no poison
  of them): the value itself (clang freezes `l` before its `l % d` as
  `l - l / d * d`);
- what is left (other accesses, atomics, volatile ones, vectors) stays
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
from xdsl.dialects import arith, func, llvm
from xdsl.dialects.builtin import (
    FloatAttr,
    IntegerAttr,
    ModuleOp,
    UnrealizedConversionCastOp,
    VectorType,
)
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from dialects import llvmx, mux
from lowering.common.functions import kernel_entry_points
from lowering.common.intrinsics import lanewise_base
from lowering.common.llvm_casts import (
    CASTS,
    FLOAT_ARITHMETIC,
    INTEGER_BINARY,
    INTEGER_MIN_MAX,
)
from lowering.lift_llvm_ops.control_flow import lift_branches
from lowering.lift_llvm_ops.memory import Addresses

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
                _Lifter(kernel).lift(blocks.first)


_POISONLESS = (
    arith.AddiOp,
    arith.SubiOp,
    arith.MuliOp,
    arith.DivUIOp,
    arith.RemUIOp,
    arith.AndIOp,
    arith.OrIOp,
    arith.XOrIOp,
    arith.IndexCastOp,
    arith.ExtUIOp,
    arith.ExtSIOp,
    arith.TruncIOp,
    arith.CmpiOp,
    arith.SelectOp,
    arith.MaxUIOp,
    arith.MinUIOp,
    arith.MaxSIOp,
    arith.MinSIOp,
)
"""Ops that make no poison of operands that are not (a division by 0 is undefined
behaviour, not poison), without overflow flags (`nsw`: poison on an overflow;
the lifted ones have none)."""


class _Lifter:
    def __init__(self, kernel: func.FuncOp) -> None:
        self.kernel = kernel
        self.addresses = Addresses()
        self.poisonless: dict[SSAValue, bool] = {}

    def lift(self, block: Block) -> None:
        for op in list(block.ops):
            for region in op.regions:  # scf.if, scf.while
                for inner in region.blocks:
                    self.lift(inner)
            if isinstance(op, llvmx.FreezeOp) and self.never_poison(op.val):
                Rewriter.replace_op(op, [], [op.val])  # freeze of a value: itself
                continue
            new = self.lifted(op)
            if new is not None:
                new.location = op.location  # where checked mode's faults point
                Rewriter.insert_op(new, InsertPoint.before(op))
                Rewriter.replace_op(op, [], new.results or None)
        for op in reversed(list(block.ops)):  # the addresses nothing uses any more
            if isinstance(op, llvm.GEPOp) and not op.result.uses:
                Rewriter.erase_op(op)

    def never_poison(self, value: SSAValue) -> bool:
        """Whether `value` is never undef nor poison: an argument of the kernel
        (the host's), a constant, a work-item query, or an op of such values
        that makes no poison of them (the lifted `arith` ops have no overflow
        flags; a shift may shift too far, a load read what was never written:
        they may). clang freezes `l` before `l / d` and `l - l / d * d` (its
        `l % d`), so that both see one value even if `l` were poison."""
        if value not in self.poisonless:
            owner = value.owner
            if isinstance(owner, Block):
                found = owner.parent_op() is self.kernel
            elif isinstance(owner, (*mux.QUERY_OPS, llvmx.FreezeOp, arith.ConstantOp)):
                found = True
            else:
                flags = owner.properties.get("overflowFlags")
                found = (
                    isinstance(owner, _POISONLESS)
                    and not (
                        isinstance(flags, arith.IntegerOverflowAttr) and flags.data
                    )
                    and all(self.never_poison(o) for o in owner.operands)
                )
            self.poisonless[value] = found
        return self.poisonless[value]

    def lifted(self, op: Operation) -> Operation | None:
        """The op replacing `op`, inserted before it (the index computations
        too); None to keep `op`."""
        if any(isinstance(v.type, VectorType) for v in (*op.operands, *op.results)):
            return None
        if isinstance(op, UnrealizedConversionCastOp | llvm.GEPOp):
            self.addresses.note(op)
        elif isinstance(op, llvm.LoadOp | llvm.StoreOp):
            return self.addresses.access(op)
        elif isinstance(op, llvm.ConstantOp):
            if isinstance(op.value, IntegerAttr | FloatAttr):
                return arith.ConstantOp(op.value)
        elif type(op) in _INTEGER:
            return _INTEGER[type(op)](*op.operands)
        elif type(op) in _FLOAT:
            return _FLOAT[type(op)](*op.operands, flags=_flags(op.fastmathFlags))
        elif isinstance(op, llvm.ICmpOp):
            name = llvm.ICmpPredicateFlag.from_int(op.predicate.value.data).value
            return arith.CmpiOp(op.lhs, op.rhs, name)
        elif isinstance(op, llvm.FCmpOp):
            name = llvm.FCmpPredicateFlag.from_int(op.predicate.value.data).value
            flags = _flags(op.fastmathFlags)
            return arith.CmpfOp(op.lhs, op.rhs, name.lstrip("_"), flags)
        elif isinstance(op, llvm.SelectOp):
            return arith.SelectOp(op.cond, op.lhs, op.rhs)
        elif type(op) in _CASTS:
            return _CASTS[type(op)](op.operands[0], op.results[0].type)
        elif isinstance(op, llvm.CallIntrinsicOp):
            return _intrinsic(op)
        return None


def _flags(flags: llvm.FastMathAttr) -> arith.FastMathFlagsAttr:
    """An op's fast-math flags as `arith`'s: the same set of names
    (`-cl-fast-relaxed-math` makes clang put them on every float op; dropping
    them would be right too, only slower)."""
    return arith.FastMathFlagsAttr(flags.data)


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
