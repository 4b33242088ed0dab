"""How the vectoriser carries each value of the kernel over the lanes of a packet:
the forms of the package docstring (uniform scalars, `Linear` and `Piecewise`
values, vectors) and `PacketValues`, the record of what each original value became
in the new function, with the operations every part of the vectoriser uses to move
between the forms (`widen` to a vector, `lane` to one lane's scalar, `splat`, ...)
and what is known of scalars (`known_int`, `alignment`)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeAlias

from xdsl.builder import Builder
from xdsl.dialects import arith, func, vector
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerType,
    VectorType,
    i1,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.utils.hints import isa

from dialects import attributes as mux_attrs
from dialects import llvmx, mux
from lowering.common.builders import const, constant_int
from lowering.run_vecz.checks import Unsupported

MAX_ALIGNMENT = 1 << 32

LinearKind: TypeAlias = type[arith.AddiOp] | type[arith.SubiOp] | type[arith.MuliOp]
"""The ops whose result may be linear in linear operands: `+`, `-`, `*`."""


@dataclass(frozen=True)
class Linear:
    """`base + stride * i + row_stride * j` in the lane of work-item `(x + i, y + j)`
    of the packet: `base` a scalar of the new function (lane 0's value), `stride` a
    constant, `row_stride` a constant or a scalar of the new function (`y * n`)."""

    base: SSAValue
    stride: int
    row_stride: int | SSAValue = 0


def is_zero(row_stride: int | SSAValue) -> bool:
    """Whether a row stride is the constant 0 (the value is the same in every row)."""
    return isinstance(row_stride, int) and row_stride == 0


@dataclass(frozen=True)
class Piecewise:
    """`cond ? linear : other` lane by lane, `other` a uniform scalar: a linear value
    clamped by a uniform one, as image kernels clamp neighbours at a border
    (`maxsi(x - 1, 0)`); `cond` (a vector of i1) is where the linear value wins."""

    cond: SSAValue
    linear: Linear
    other: SSAValue


def any_lane(mask: SSAValue) -> Operation:
    """Whether a lane of `mask` is 1: its `or` reduction (an i1)."""
    return vector.ReductionOp.create(
        operands=[mask],
        result_types=[i1],
        properties={
            "kind": vector.CombiningKindAttr(vector.CombiningKindFlag.OR),
            "fastmath": arith.FastMathFlagsAttr("none"),
        },
    )


class PacketValues(ABC):
    """What each value of `kernel` became in the vectorised function, and the
    operations on those forms. The vectoriser's parts (arithmetic, memory, control
    flow) are mixins over this class; `emit` is the vectoriser's dispatch."""

    def __init__(
        self, kernel: func.FuncOp, width: int, varying: set[SSAValue], rows: int = 1
    ):
        self.kernel = kernel
        self.width = width
        self.rows = rows
        self.count = width * rows
        """Lanes: `width` work-items of dimension 0 in each of `rows` of dimension 1,
        row after row (lane `i + width * j` is work-item `(x + i, y + j)`)."""
        self.varying = set(varying)
        self.uniform: dict[SSAValue, SSAValue] = {}
        self.linear: dict[SSAValue, Linear] = {}
        self.piecewise: dict[SSAValue, Piecewise] = {}
        self.vectors: dict[SSAValue, SSAValue] = {}
        self.widened: dict[tuple[SSAValue, Block], SSAValue] = {}
        self.aligned: dict[SSAValue, int] = {}
        """Scalars of the new function known to be multiples of a power of 2 beyond
        what `alignment` finds from their definitions (packet starts, loop ivs)."""
        self.vector_accesses = 0
        """Loads and stores of whole vectors (contiguous or clamped)."""
        self.lane_accesses = 0
        """Loads and stores done lane by lane."""

    @abstractmethod
    def emit(self, b: Builder, op: Operation, mask: SSAValue | None) -> None:
        """Emits `op` of the kernel under `mask` (None: every lane is active)."""

    def emit_uniform(self, b: Builder, op: Operation) -> list[SSAValue]:
        """`op` once, on scalars."""
        new = op.clone(value_mapper=self.uniform)
        b.insert(new)
        for old, result in zip(op.results, new.results, strict=True):
            self.uniform[old] = result
        return list(new.results)

    # -- the forms of a value ---------------------------------------------------------

    def is_uniform(self, value: SSAValue) -> bool:
        return value not in self.varying

    def scalar(self, value: SSAValue) -> SSAValue:
        return self.uniform[value]

    def set_vector(self, original: SSAValue, new: SSAValue) -> None:
        new.name_hint = original.name_hint
        self.vectors[original] = new

    def map_args(self, olds: Sequence[SSAValue], news: Sequence[SSAValue]) -> None:
        """`news` stand for `olds` (block arguments, results), scalars for the
        uniform ones, vectors for the others."""
        for old, new in zip(olds, news, strict=True):
            if self.is_uniform(old):
                self.uniform[old] = new
            else:
                self.set_vector(old, new)

    def vector_type(self, type_: Attribute) -> VectorType:
        if isinstance(type_, IndexType):
            type_ = i64
        if not isinstance(type_, IntegerType | AnyFloat):
            raise Unsupported(f"a value of type {type_} differs between lanes")
        return VectorType(type_, [self.count])

    def result_type(self, value: SSAValue) -> Attribute:
        return value.type if self.is_uniform(value) else self.vector_type(value.type)

    def yielded(
        self, b: Builder, values: Sequence[SSAValue], targets: Sequence[SSAValue]
    ) -> list[SSAValue]:
        """`values` in the form of `targets` (uniform: scalars, else vectors)."""
        return [
            self.scalar(v) if self.is_uniform(t) else self.widen(b, v)
            for v, t in zip(values, targets, strict=True)
        ]

    # -- vectors ----------------------------------------------------------------------

    def lanes(
        self, b: Builder, type_: Attribute, stride: int, row_stride: int = 0
    ) -> SSAValue:
        """The constant vector of `type_` whose lane `i + width * j` is
        `i * stride + j * row_stride`."""
        vtype = self.vector_type(type_)
        # lanes of linear values and of integer divisions' operands: integers
        assert isa(vtype, VectorType[IntegerType]), vtype
        values = [
            i * stride + j * row_stride
            for j in range(self.rows)
            for i in range(self.width)
        ]
        # The lanes' arithmetic wraps, as the scalar `arith` ops it stands for
        # do: a stride near the type's limit gives the two's complement values.
        width = vtype.get_element_type().width.data
        half = 1 << (width - 1)
        values = [(v + half) % (1 << width) - half for v in values]
        attr = DenseIntOrFPElementsAttr.from_list(vtype, values)
        return b.insert(arith.ConstantOp(attr, vtype)).result

    def splat(self, b: Builder, scalar: SSAValue, count: int | None = None) -> SSAValue:
        """`scalar` in every lane (in `count` lanes, if given)."""
        if isinstance(scalar.type, IndexType):
            scalar = b.insert(arith.IndexCastOp(scalar, i64)).result
        vtype = self.vector_type(scalar.type)
        if count is not None:
            vtype = VectorType(vtype.get_element_type(), [count])
        return b.insert(vector.BroadcastOp(scalar, vtype)).vector

    def zeros(self, b: Builder, vtype: VectorType) -> SSAValue:
        count = vtype.get_shape()[0]
        if isa(vtype, VectorType[AnyFloat]):
            attr = DenseIntOrFPElementsAttr.from_list(vtype, [0.0] * count)
        else:  # the other lanes vector_type makes: integers
            assert isa(vtype, VectorType[IntegerType]), vtype
            attr = DenseIntOrFPElementsAttr.from_list(vtype, [0] * count)
        return b.insert(arith.ConstantOp(attr, vtype)).result

    def negate(self, b: Builder, mask: SSAValue) -> SSAValue:
        """The lanes not in `mask`."""
        true = self.splat(b, const(b, 1, i1))
        return b.insert(arith.XOrIOp(mask, true)).result

    def widen(self, b: Builder, value: SSAValue) -> SSAValue:
        """`value` as a vector of its lanes."""
        if value in self.vectors:
            return self.vectors[value]
        assert b.insertion_point.block is not None
        key = (value, b.insertion_point.block)
        if key not in self.widened:
            if value in self.linear:
                self.widened[key] = self.materialise(b, self.linear[value])
            elif value in self.piecewise:
                piecewise = self.piecewise[value]
                linear = self.materialise(b, piecewise.linear)
                other = self.splat(b, piecewise.other)
                select = llvmx.SelectOp(piecewise.cond, linear, other)
                self.widened[key] = b.insert(select).res
            else:
                self.widened[key] = self.splat(b, self.scalar(value))
        return self.widened[key]

    def materialise(self, b: Builder, linear: Linear) -> SSAValue:
        base = self.splat(b, linear.base)
        type_, rs = linear.base.type, linear.row_stride
        if isinstance(rs, int):
            steps = self.lanes(b, type_, linear.stride, rs)
        else:  # the lanes' steps in x, plus row_stride times their row
            rows = self.lanes(b, type_, 0, 1)
            down = b.insert(arith.MuliOp(self.splat(b, rs), rows)).result
            across = self.lanes(b, type_, linear.stride)
            steps = b.insert(arith.AddiOp(across, down)).result
        return b.insert(arith.AddiOp(base, steps)).result

    # -- lanes and rows of linear values ----------------------------------------------

    def lane(self, b: Builder, value: SSAValue, lane: int) -> SSAValue:
        """Lane `lane` of `value`, a scalar of its original type."""
        if self.is_uniform(value):
            return self.scalar(value)
        if value in self.linear:
            linear = self.linear[value]
            i, j = lane % self.width, lane // self.width
            down = self.row_step(b, linear, j)
            step = i * linear.stride + (down if isinstance(down, int) else 0)
            offset = const(b, step, linear.base.type)
            value = b.insert(arith.AddiOp(linear.base, offset)).result
            if not isinstance(down, int):
                value = b.insert(arith.AddiOp(value, down)).result
            return value
        vec = self.widen(b, value)
        assert isinstance(vec.type, VectorType)
        element = vec.type.get_element_type()
        scalar = b.insert(vector.ExtractOp(vec, [lane], element)).result
        if isinstance(value.type, IndexType):
            scalar = b.insert(arith.IndexCastOp(scalar, IndexType())).result
        return scalar

    def row_step(self, b: Builder, linear: Linear, row: int) -> SSAValue | int:
        """`row * row_stride`: a constant, or a scalar."""
        rs = linear.row_stride
        if isinstance(rs, int):
            return row * rs
        if row == 1:
            return rs
        return b.insert(arith.MuliOp(rs, const(b, row, rs.type))).result

    def row_arith(
        self,
        b: Builder,
        kind: LinearKind,
        lhs: int | SSAValue,
        rhs: int | SSAValue,
        type_: Attribute,
    ) -> int | SSAValue:
        """`lhs <kind> rhs` of two row strides (constants or scalars of `type_`)."""
        if isinstance(lhs, int) and isinstance(rhs, int):
            return {arith.AddiOp: lhs + rhs, arith.SubiOp: lhs - rhs}.get(
                kind, lhs * rhs
            )
        if kind is arith.MuliOp and 1 in (lhs, rhs):
            return rhs if lhs == 1 else lhs
        if kind is arith.MuliOp and 0 in (lhs, rhs):
            return 0
        if kind is not arith.MuliOp and is_zero(rhs):
            return lhs
        if kind is arith.AddiOp and is_zero(lhs):
            return rhs
        x, y = (const(b, v, type_) if isinstance(v, int) else v for v in (lhs, rhs))
        return b.insert(kind(x, y)).results[0]

    # -- what is known of scalars -----------------------------------------------------

    def known_int(self, value: SSAValue) -> int | None:
        """The value of `value`, a scalar of the new function, if it is known: a
        constant, or the local size of a kernel with a required work-group size
        (`work-item-loops` and `define-mux-builtins` use that size), or a cast
        of one between `index` and `i64`."""
        constant = constant_int(value)
        if constant is not None:
            return constant
        op = value.owner
        if isinstance(op, arith.IndexCastOp) and {op.input.type, value.type} <= {
            IndexType(),
            i64,
        }:  # the same 64 bits (an imported kernel's size_t is an i64)
            return self.known_int(op.input)
        if not isinstance(op, mux.GetLocalSizeOp | mux.GetEnqueuedLocalSizeOp):
            return None
        reqd = mux_attrs.REQD_WORK_GROUP_SIZE.get(self.kernel)
        dim = constant_int(op.dim)
        if reqd is None or dim is None or not 0 <= dim < len(reqd):
            return None
        return reqd[dim]

    def alignment(self, value: SSAValue) -> int:
        """A power of 2 (at most 2^32) that divides `value`, a scalar integer of the
        new function, from the ops that define it: constants, sums, products, the
        packet's first local id, the required work-group size."""
        if value in self.aligned:
            return self.aligned[value]
        op = value.owner
        found = 1
        constant = constant_int(value)
        if constant is not None:
            found = constant & -constant if constant else MAX_ALIGNMENT
        elif isinstance(op, arith.MuliOp):
            found = self.alignment(op.lhs) * self.alignment(op.rhs)
        elif isinstance(op, arith.AddiOp | arith.SubiOp):
            found = min(self.alignment(op.lhs), self.alignment(op.rhs))
        elif isinstance(op, arith.IndexCastOp):
            found = self.alignment(op.input)
        elif (size := self.known_int(value)) is not None:
            found = size & -size
        found = min(found, MAX_ALIGNMENT)
        self.aligned[value] = found
        return found
