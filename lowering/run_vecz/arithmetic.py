"""The vectoriser's `arith` and `math` ops on values that differ between lanes: kept
linear where the result is (sums, differences, products by a uniform value,
narrowing casts), piecewise for a clamp of a linear value by a uniform one, a
scalar division for a linear value divided by a uniform one, and otherwise the op
on vectors (comparisons, selects and casts as their `llvm` ops)."""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    IntegerType,
    VectorType,
    i1,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.utils.hints import isa

from dialects import llvmx
from lowering.common.builders import const, constant_int
from lowering.common.intrinsics import intrinsic_name
from lowering.common.llvm_casts import CASTS
from lowering.run_vecz.checks import is_elementwise, lanewise_intrinsic
from lowering.run_vecz.values import (
    Linear,
    LinearKind,
    PacketValues,
    Piecewise,
    is_zero,
)

_INTEGER_DIVISIONS = (
    arith.DivSIOp,
    arith.DivUIOp,
    arith.RemSIOp,
    arith.RemUIOp,
    arith.CeilDivSIOp,
    arith.CeilDivUIOp,
    arith.FloorDivSIOp,
)

_CLAMPS: dict[type[Operation], str] = {
    # the linear operand wins where it compares so with the uniform one
    arith.MaxSIOp: "sge",
    arith.MaxUIOp: "uge",
    arith.MinSIOp: "sle",
    arith.MinUIOp: "ule",
}


class Arithmetic(PacketValues):
    """Emits elementwise ops (`arith`, `math`) whose results the analysis found
    varying."""

    def became_uniform(self, op: Operation) -> bool:
        """Whether `op`, an `arith` or `math` op the analysis found varying, has
        only uniform operands as emitted: the lanes of a linear value may cancel out
        (`(x0 + lane) / 16` is `x0 / 16` for `x0` a multiple of 16 and W <= 16)."""
        return is_elementwise(op) and all(self.is_uniform(o) for o in op.operands)

    # -- linear and piecewise results -------------------------------------------------

    def emit_linear(self, b: Builder, op: Operation) -> bool:
        """`op` on linear and uniform operands, if its result is linear too (or
        uniform: the lanes may cancel out); a clamp of a linear value by a uniform
        one, or an offset or a multiple of a clamp, is piecewise."""
        if isinstance(op, tuple(_CLAMPS)):
            return self.emit_clamp(b, op)
        if isinstance(op, arith.IndexCastOp):
            return self.emit_linear_cast(b, op)
        if not isinstance(op, arith.AddiOp | arith.SubiOp | arith.MuliOp):
            return False
        operands = list(op.operands)
        piecewise = [o for o in operands if o in self.piecewise]
        if piecewise and all(
            o in self.piecewise or self.is_uniform(o) for o in operands
        ):
            return len(piecewise) == 1 and self.emit_piecewise(b, op, piecewise[0])
        if not all(o in self.linear or self.is_uniform(o) for o in operands):
            return False
        forms = [
            self.linear[o] if o in self.linear else self.scalar(o) for o in operands
        ]
        result = self.combine(b, type(op), *forms)
        if result is None:
            return False
        if isinstance(result, Linear):
            if result.base.name_hint is None:  # lane 0's value: the original's name
                result.base.name_hint = op.results[0].name_hint
            self.linear[op.results[0]] = result
        else:
            self.uniform[op.results[0]] = result  # the lanes cancel out
            self.varying.discard(op.results[0])
        return True

    def emit_linear_cast(self, b: Builder, op: arith.IndexCastOp) -> bool:
        """An index cast of a linear value to a narrower type, or between `i64` and
        `index` (the same 64 bits: `convert-to-llvm` makes `index` an `i64`):
        linear (a sign extension of a linear value may not be). The same cast of a
        piecewise value is piecewise, the cast of each piece: a cast is lane by
        lane, so it commutes with the choice between the pieces (an imported
        kernel's clamped index is an `i64` cast to `index` at its load)."""
        (source,) = op.operands
        narrower = not isinstance(op.result.type, IndexType)
        if not (narrower or source.type == i64):
            return False
        if source in self.piecewise:
            piecewise = self.piecewise[source]
            linear = self.cast_linear(b, piecewise.linear, op.result.type)
            other = b.insert(arith.IndexCastOp(piecewise.other, op.result.type))
            self.piecewise[op.result] = Piecewise(piecewise.cond, linear, other.result)
            return True
        if source not in self.linear:
            return False
        self.linear[op.result] = self.cast_linear(
            b, self.linear[source], op.result.type
        )
        return True

    def cast_linear(self, b: Builder, linear: Linear, type_: Attribute) -> Linear:
        """`linear` index-cast to `type_` (a cast emit_linear_cast allows)."""
        base = b.insert(arith.IndexCastOp(linear.base, type_)).result
        rs = linear.row_stride
        if not isinstance(rs, int):
            rs = b.insert(arith.IndexCastOp(rs, type_)).result
        return Linear(base, linear.stride, rs)

    def emit_piecewise(
        self, b: Builder, op: arith.AddiOp | arith.SubiOp | arith.MuliOp, old: SSAValue
    ) -> bool:
        """`op` (add, sub or mul) of the piecewise value `old` and a uniform one:
        piecewise, if its linear part stays linear."""
        forms = [self.piecewise[o] if o is old else self.scalar(o) for o in op.operands]
        lhs, rhs = (f.linear if isinstance(f, Piecewise) else f for f in forms)
        linear = self.combine(b, type(op), lhs, rhs)
        if not isinstance(linear, Linear):
            return False
        lhs, rhs = (f.other if isinstance(f, Piecewise) else f for f in forms)
        other = b.insert(type(op)(lhs, rhs)).results[0]
        self.piecewise[op.results[0]] = Piecewise(
            self.piecewise[old].cond, linear, other
        )
        return True

    def combine(
        self,
        b: Builder,
        kind: LinearKind,
        lhs: Linear | SSAValue,
        rhs: Linear | SSAValue,
    ) -> Linear | SSAValue | None:
        """`lhs <kind> rhs` (add, sub or mul) of linear values and uniform scalars:
        linear, a uniform scalar, or None when it is not linear."""
        if kind is arith.MuliOp:
            if not isinstance(lhs, Linear):
                lhs, rhs = rhs, lhs
            if isinstance(rhs, Linear):
                return None
            assert isinstance(lhs, Linear)  # became_uniform took uniform operands
            factor = constant_int(rhs)
            if factor is None and lhs.stride:
                return None  # the step between lanes would not be a constant
            base = b.insert(arith.MuliOp(lhs.base, rhs)).result
            type_ = base.type
            if factor is not None:
                row_stride = self.row_arith(b, kind, lhs.row_stride, factor, type_)
                return Linear(base, lhs.stride * factor, row_stride)
            row_stride = self.row_arith(b, kind, lhs.row_stride, rhs, type_)
            return Linear(base, 0, row_stride)  # the same in a row: `y * n`
        bases = [f.base if isinstance(f, Linear) else f for f in (lhs, rhs)]
        sign = -1 if kind is arith.SubiOp else 1
        stride = (lhs.stride if isinstance(lhs, Linear) else 0) + sign * (
            rhs.stride if isinstance(rhs, Linear) else 0
        )
        base = b.insert(kind(bases[0], bases[1])).results[0]
        lhs_rows, rhs_rows = (
            f.row_stride if isinstance(f, Linear) else 0 for f in (lhs, rhs)
        )
        row_stride = self.row_arith(b, kind, lhs_rows, rhs_rows, base.type)
        if stride or not is_zero(row_stride):
            return Linear(base, stride, row_stride)
        return base

    def emit_clamp(self, b: Builder, op: Operation) -> bool:
        """`max`/`min` of a linear value and a uniform one: piecewise, the lanes
        where the linear value wins in a vector of i1."""
        lhs, rhs = op.operands
        if lhs not in self.linear:
            lhs, rhs = rhs, lhs
        if lhs not in self.linear or not self.is_uniform(rhs):
            return False
        predicate = _CLAMPS[type(op)]
        flag = IntegerAttr(llvm.ICmpPredicateFlag(predicate).to_int(), i64)
        cond = b.insert(llvm.ICmpOp(self.widen(b, lhs), self.widen(b, rhs), flag)).res
        self.piecewise[op.results[0]] = Piecewise(
            cond, self.linear[lhs], self.scalar(rhs)
        )
        return True

    # -- vectors ----------------------------------------------------------------------

    def emit_varying(self, b: Builder, op: Operation, mask: SSAValue | None) -> None:
        """`op` on vectors of its operands' lanes. An integer division under a mask
        divides by 1 in the inactive lanes (a division by 0 or an overflowing one
        there must not trap)."""
        if self.emit_linear_division(b, op):
            return
        operands = [self.widen(b, o) for o in op.operands]
        if mask is not None and isinstance(op, _INTEGER_DIVISIONS):
            ones = self.splat(b, const(b, 1, op.operands[1].type))
            operands[1] = b.insert(llvmx.SelectOp(mask, operands[1], ones)).res
        self.set_vector(op.results[0], self.vector_op(b, op, operands))

    def vector_op(
        self, b: Builder, op: Operation, operands: list[SSAValue]
    ) -> SSAValue:
        """`op` on the vectors `operands`: comparisons and casts as their `llvm` ops
        (xDSL 0.74's `arith` ones give one i1 and take scalars), a select on a
        vector of conditions `llvmx.select`, the others the `arith` or `math` op on
        vectors."""
        if isinstance(op, arith.CmpiOp):
            name = arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]
            predicate = IntegerAttr(llvm.ICmpPredicateFlag(name).to_int(), i64)
            return b.insert(llvm.ICmpOp(operands[0], operands[1], predicate)).res
        if isinstance(op, arith.CmpfOp):
            name = arith.CMPF_COMPARISON_OPERATIONS[op.predicate.value.data]
            if name in ("false", "true"):
                return self.splat(b, const(b, name == "true", i1))
            return b.insert(llvmx.FCmpOp(name, operands[0], operands[1])).res
        if isinstance(op, arith.SelectOp) and not self.is_uniform(op.cond):
            return b.insert(llvmx.SelectOp(*operands)).res
        if isinstance(op, arith.SelectOp):
            cond = self.scalar(op.cond)
            return b.insert(arith.SelectOp(cond, operands[1], operands[2])).result
        if isinstance(op, arith.IndexCastOp):
            return self.resize(b, op, operands[0])
        if type(op) in CASTS:
            target = self.vector_type(op.results[0].type)
            return b.insert(CASTS[type(op)](operands[0], target)).results[0]
        if isinstance(op, llvm.CallIntrinsicOp):  # its overload on vectors
            base = lanewise_intrinsic(op)
            assert base is not None  # is_elementwise
            target = self.vector_type(op.results[0].type)
            call = llvm.CallIntrinsicOp(
                intrinsic_name(base, target), operands, [target]
            )
            call.properties["fastmathFlags"] = op.fastmathFlags
            return b.insert(call).results[0]
        result_types = [self.vector_type(r.type) for r in op.results]
        new = op.create(
            operands=operands,
            result_types=result_types,
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        b.insert(new)
        (result,) = new.results
        return result

    def resize(self, b: Builder, op: arith.IndexCastOp, operand: SSAValue) -> SSAValue:
        """An index cast on a vector (index lanes are i64): an extension, a
        truncation or nothing."""
        source = operand.type
        target = self.vector_type(op.results[0].type)
        assert isa(source, VectorType[IntegerType])
        assert isa(target, VectorType[IntegerType])
        to_width = target.get_element_type().width.data
        from_width = source.get_element_type().width.data
        if to_width == from_width:
            return operand
        if to_width < from_width:
            return b.insert(llvm.TruncOp(operand, target)).res
        return b.insert(llvm.SExtOp(operand, target)).res  # index_cast: signed

    # -- division of a linear value ---------------------------------------------------

    def emit_linear_division(self, b: Builder, op: Operation) -> bool:
        """`divui`/`remui` of a linear value of stride 1 by a uniform `d`, with
        scalar divisions (a vector division is a scalar division per lane, 64-bit
        ones costing tens of cycles: `reduce`'s `lid % step`): `divide_aligned`
        when lane 0's value and `d` are multiples of W, else `divide_by_steps`."""
        if not isinstance(op, arith.DivUIOp | arith.RemUIOp):
            return False
        lhs, rhs = op.operands
        linear = self.linear.get(lhs)
        if (
            linear is None
            or linear.stride != 1
            or not is_zero(linear.row_stride)
            or not self.is_uniform(rhs)
        ):
            return False
        d = self.scalar(rhs)
        divisor = self.known_int(d)
        if (
            divisor is not None
            and divisor > 0
            and divisor % self.width == 0
            and self.alignment(linear.base) % self.width == 0
        ):
            self.divide_aligned(b, op, linear.base, d)
        else:
            self.divide_by_steps(b, op, linear.base, d)
        return True

    def divide_aligned(
        self, b: Builder, op: Operation, base: SSAValue, d: SSAValue
    ) -> None:
        """`base` and `d` multiples of W: `base % d + W - 1 < d`, so the lanes share
        lane 0's quotient (uniform) and their remainders are consecutive (linear)."""
        if isinstance(op, arith.DivUIOp):
            quotient = b.insert(arith.DivUIOp(base, d)).result
            quotient.name_hint = op.results[0].name_hint
            self.uniform[op.results[0]] = quotient
            self.varying.discard(op.results[0])
        else:
            r0 = b.insert(arith.RemUIOp(base, d)).result
            r0.name_hint = op.results[0].name_hint
            self.linear[op.results[0]] = Linear(r0, 1)
            self.aligned[r0] = self.width

    def divide_by_steps(
        self, b: Builder, op: Operation, base: SSAValue, d: SSAValue
    ) -> None:
        """One scalar division of lane 0's value, `base = q0 * d + r0`; lane `l` is
        `r0 + l` past `q0 * d`, less than `d + W`, so its quotient past `q0` is
        below `2W`: found by subtracting `W * d`, `W/2 * d`, ..., `d` where they
        fit."""
        type_ = op.operands[0].type
        r0 = b.insert(arith.RemUIOp(base, d)).result
        rest = b.insert(arith.AddiOp(self.splat(b, r0), self.lanes(b, type_, 1))).result
        quotient = None
        if isinstance(op, arith.DivUIOp):
            quotient = self.splat(b, b.insert(arith.DivUIOp(base, d)).result)
        assert isinstance(type_, IntegerType | IndexType)  # an integer division
        bits = 64 if isinstance(type_, IndexType) else type_.width.data
        uge = IntegerAttr(llvm.ICmpPredicateFlag("uge").to_int(), i64)
        k = self.width
        while k >= 1:
            # k * d, or the largest value if it overflows (then nothing is >= it)
            fits = b.insert(
                arith.CmpiOp(d, const(b, ((1 << bits) - 1) // k, type_), "ule")
            ).result
            product = b.insert(arith.MuliOp(d, const(b, k, type_))).result
            largest = const(b, -1, type_)
            step = b.insert(arith.SelectOp(fits, product, largest)).result
            steps = self.splat(b, step)
            over = b.insert(llvm.ICmpOp(rest, steps, uge)).res
            less = b.insert(arith.SubiOp(rest, steps)).result
            rest = b.insert(llvmx.SelectOp(over, less, rest)).res
            if quotient is not None:
                more = b.insert(
                    arith.AddiOp(quotient, self.splat(b, const(b, k, type_)))
                ).result
                quotient = b.insert(llvmx.SelectOp(over, more, quotient)).res
            k //= 2
        self.set_vector(op.results[0], quotient if quotient is not None else rest)
