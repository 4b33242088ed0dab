"""The vectoriser's control flow: kept where every lane goes the same way, replaced
by masks where lanes diverge. An `scf.if` on a varying condition runs both
branches, each under its mask and only if a lane of it is active, and selects the
results; an `scf.for` from a linear lower bound is one loop over lane 0's values,
and one whose bounds otherwise differ between lanes an `scf.while` running while a
lane iterates, the body under the mask of the lanes that do; an `scf.while` has a
uniform condition (`varying.py` refuses others)."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.builder import Builder
from xdsl.dialects import arith, llvm, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, UnknownLoc, i64
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint

from dialects import llvmx
from lowering.common.builders import build_if_else
from lowering.run_vecz.regions import has_ops, terminator, yielded_values
from lowering.run_vecz.values import Linear, PacketValues, any_lane

_SLT = IntegerAttr(llvm.ICmpPredicateFlag("slt").to_int(), i64)
"""`llvm.icmp`'s predicate for `iv < ub`, signed as `scf.for` compares."""


class ControlFlow(PacketValues):
    """Emits blocks, `scf.if`, `scf.for` and `scf.while`."""

    def emit_block(self, b: Builder, block: Block, mask: SSAValue | None) -> None:
        """Emits the ops of `block` but its terminator, under `mask` (None: every
        lane is active)."""
        for op in block.ops:
            if op is block.last_op and isinstance(op, scf.YieldOp):
                return
            point = b.insertion_point
            last = point.block.last_op if point.insert_before is None else None
            self.emit(b, op, mask)
            if point.insert_before is None:
                _locate(point.block, last, op)


def _locate(block: Block, last: Operation | None, op: Operation) -> None:
    """Gives the ops emitted for `op` (after `last` in `block`) its location where
    they have none, so that a diagnostic or a checked-mode fault in the
    vectorised kernel points at the source line."""
    start = block.first_op if last is None else last.next_op
    while start is not None:
        for new in start.walk():
            if isinstance(new.location, UnknownLoc):
                new.location = op.location
        start = start.next_op

    def branch(
        self, region: Region, mask, results
    ) -> Callable[[Builder], list[SSAValue]]:
        """The body of a new block running `region` under `mask` (for
        `build_if_else`): it returns what `region` yields, in `results`' forms."""

        def body(inner: Builder) -> list[SSAValue]:
            if region.blocks:
                self.emit_block(inner, region.block, mask)
            return self.yielded(inner, yielded_values(region), results)

        return body

    # -- scf.if -----------------------------------------------------------------------

    def emit_if(self, b: Builder, op: scf.IfOp, mask: SSAValue | None) -> None:
        if self.is_uniform(op.cond):
            types = [self.result_type(r) for r in op.results]
            otherwise = (
                self.branch(op.false_region, mask, op.results)
                if op.false_region.blocks or op.results
                else None
            )
            then = self.branch(op.true_region, mask, op.results)
            new = build_if_else(b, self.scalar(op.cond), types, then, otherwise)
            self.map_args(op.results, new.results)
            return
        cond = self.widen(b, op.cond)
        values = []
        for region in op.regions:
            if not has_ops(region):  # nothing to run: its yields, if any
                values.append([self.widen(b, v) for v in yielded_values(region)])
                continue
            branch_mask = self.negate(b, cond) if region is op.false_region else cond
            if mask is not None:
                branch_mask = b.insert(arith.AndIOp(mask, branch_mask)).result
            values.append(self.masked_branch(b, op, region, branch_mask))
        for old, then_value, else_value in zip(op.results, *values, strict=True):
            select = b.insert(llvmx.SelectOp(cond, then_value, else_value)).res
            self.set_vector(old, select)

    def masked_branch(self, b: Builder, op: scf.IfOp, region: Region, mask) -> list:
        """Runs `region` under `mask` if a lane of it is active; its results as
        vectors (zeros when no lane ran it)."""
        types = [self.vector_type(r.type) for r in op.results]
        active = b.insert(any_lane(mask)).results[0]

        def zeros(inner: Builder) -> list[SSAValue]:
            return [self.zeros(inner, t) for t in types]

        then = self.branch(region, mask, op.results)
        new = build_if_else(b, active, types, then, zeros if types else None)
        return list(new.results)

    # -- loops ------------------------------------------------------------------------

    def emit_for(self, b: Builder, op: scf.ForOp, mask: SSAValue | None) -> None:
        start = self.linear.get(op.lb)
        if (
            start is not None
            and start.stride > 0
            and isinstance(start.row_stride, int)
            and start.row_stride >= 0
            and self.is_uniform(op.ub)
            and self.is_uniform(op.step)
        ):
            self.emit_linear_for(b, op, mask, start)
        elif not all(self.is_uniform(v) for v in (op.lb, op.ub, op.step)):
            self.emit_divergent_for(b, op, mask)
        else:
            self.emit_uniform_for(b, op, mask)

    def emit_uniform_for(
        self, b: Builder, op: scf.ForOp, mask: SSAValue | None
    ) -> None:
        """A loop with uniform bounds: every lane iterates alike, carrying scalars or
        vectors as its values are."""
        args = op.body.block.args[1:]
        inits = self.yielded(b, op.iter_args, args)
        block = Block(arg_types=[IndexType(), *(self.result_type(a) for a in args)])
        block.args[0].name_hint = op.body.block.args[0].name_hint
        self.uniform[op.body.block.args[0]] = block.args[0]
        self.map_args(args, block.args[1:])
        inner = Builder(InsertPoint.at_end(block))
        self.emit_block(inner, op.body.block, mask)
        values = terminator(op.body).operands
        inner.insert(scf.YieldOp(*self.yielded(inner, values, args)))
        bounds = [self.scalar(v) for v in (op.lb, op.ub, op.step)]
        new_for = b.insert(scf.ForOp(*bounds, inits, Region(block)))
        self.map_args(op.results, new_for.results)

    def emit_linear_for(
        self, b: Builder, op: scf.ForOp, mask: SSAValue | None, start: Linear
    ) -> None:
        """A loop from a linear lower bound (`for e = lid; e < n; e += count`, each
        work-item taking every count-th element): lane `l` counts `lb_l + m * step`,
        lane 0's count plus `stride * l`, so the induction variable stays linear. One
        scalar loop over lane 0's values (the lane that iterates longest, its bound
        the lowest) runs the body under the mask of the lanes still below `ub`;
        the others keep their values, as in `emit_divergent_for`. Without an
        enclosing mask lane 0 is active in every iteration; under one, lane 0 may be
        inactive, and an iteration runs the body only if a lane is active (so that a
        load the body makes once for all lanes is one that an active lane makes)."""
        iv, *args = op.body.block.args
        inits = [self.widen(b, v) for v in op.iter_args]
        types = [v.type for v in inits]
        block = Block(arg_types=[IndexType(), *types])
        lane0, *olds = block.args
        lane0.name_hint = iv.name_hint
        self.aligned[lane0] = min(
            self.alignment(start.base), self.alignment(self.scalar(op.step))
        )
        self.linear[iv] = Linear(lane0, start.stride, start.row_stride)
        for old, new in zip(args, olds, strict=True):
            self.set_vector(old, new)
        inner = Builder(InsertPoint.at_end(block))
        ivs = self.materialise(inner, self.linear[iv])
        lanes = inner.insert(llvm.ICmpOp(ivs, self.widen(inner, op.ub), _SLT)).res
        if mask is None:
            kept = self.masked_body(inner, op, lanes, olds)
        else:
            lanes = inner.insert(arith.AndIOp(mask, lanes)).result
            active = inner.insert(any_lane(lanes)).results[0]
            guarded = build_if_else(
                inner,
                active,
                types,
                lambda then: self.masked_body(then, op, lanes, olds),
                lambda _: olds,
            )
            kept = list(guarded.results)
        inner.insert(scf.YieldOp(*kept))
        bounds = [start.base, self.scalar(op.ub), self.scalar(op.step)]
        new = b.insert(scf.ForOp(*bounds, inits, Region(block)))
        for old, result in zip(op.results, new.results, strict=True):
            self.set_vector(old, result)

    def emit_divergent_for(
        self, b: Builder, op: scf.ForOp, mask: SSAValue | None
    ) -> None:
        """A loop whose bounds differ between lanes: an `scf.while` on vectors that
        runs while a lane still iterates (`iv < ub`, signed, as `scf.for`), the body
        under the mask of the lanes that do; the others keep their values."""
        iv, *args = op.body.block.args
        ub, step = self.widen(b, op.ub), self.widen(b, op.step)
        inits = [self.widen(b, v) for v in (op.lb, *op.iter_args)]
        types = [v.type for v in inits]

        def iterating(inner: Builder, ivs: SSAValue) -> SSAValue:
            lanes = inner.insert(llvm.ICmpOp(ivs, ub, _SLT)).res
            if mask is not None:
                lanes = inner.insert(arith.AndIOp(mask, lanes)).result
            return lanes

        before = Block(arg_types=types)
        inner = Builder(InsertPoint.at_end(before))
        running = inner.insert(any_lane(iterating(inner, before.args[0]))).results[0]
        inner.insert(scf.ConditionOp(running, *before.args))
        after = Block(arg_types=types)
        inner = Builder(InsertPoint.at_end(after))
        lanes = iterating(inner, after.args[0])
        self.set_vector(iv, after.args[0])
        for old, new in zip(args, after.args[1:], strict=True):
            self.set_vector(old, new)
        kept = self.masked_body(inner, op, lanes, after.args[1:])
        next_iv = inner.insert(arith.AddiOp(after.args[0], step)).result
        inner.insert(scf.YieldOp(next_iv, *kept))
        new = b.insert(scf.WhileOp(inits, types, Region(before), Region(after)))
        for old, result in zip(op.results, new.res[1:], strict=True):
            self.set_vector(old, result)

    def masked_body(
        self, b: Builder, op: scf.ForOp, lanes: SSAValue, olds
    ) -> list[SSAValue]:
        """The body of loop `op` under `lanes` (the lanes still iterating): the
        values it carries on, new in `lanes` and `olds` in the other lanes."""
        self.emit_block(b, op.body.block, lanes)
        values = [self.widen(b, v) for v in terminator(op.body).operands]
        return [
            b.insert(llvmx.SelectOp(lanes, new, old)).res
            for new, old in zip(values, olds, strict=True)
        ]

    def emit_while(self, b: Builder, op: scf.WhileOp, mask: SSAValue | None) -> None:
        """A loop whose condition is uniform: every lane iterates alike, carrying
        scalars or vectors as its values are."""
        before_args = op.before_region.block.args
        after_args = op.after_region.block.args
        inits = self.yielded(b, op.arguments, before_args)
        before = Block(arg_types=[self.result_type(a) for a in before_args])
        self.map_args(before_args, before.args)
        inner = Builder(InsertPoint.at_end(before))
        condition = op.before_region.block.last_op
        assert isinstance(condition, scf.ConditionOp)
        for child in op.before_region.block.ops:
            if child is not condition:
                self.emit(inner, child, mask)
        forwarded = self.yielded(inner, condition.args, after_args)
        inner.insert(scf.ConditionOp(self.scalar(condition.condition), *forwarded))
        after = Block(arg_types=[self.result_type(a) for a in after_args])
        self.map_args(after_args, after.args)
        inner = Builder(InsertPoint.at_end(after))
        self.emit_block(inner, op.after_region.block, mask)
        values = terminator(op.after_region).operands
        inner.insert(scf.YieldOp(*self.yielded(inner, values, before_args)))
        types = [self.result_type(r) for r in op.res]
        new = b.insert(scf.WhileOp(inits, types, Region(before), Region(after)))
        self.map_args(op.res, new.res)
