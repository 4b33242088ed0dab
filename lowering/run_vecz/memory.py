"""The vectoriser's loads and stores: one scalar access at a uniform address, a
vector access per row (or one for all rows) where the lanes of a row are at
consecutive elements, one scalar load per row where they share an element, a
masked contiguous load and one at the clamp for a clamped index, and otherwise an
access per lane, lanes in order. Masked lanes are not accessed."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith, llvm, memref, vector
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IndexType,
    MemRefType,
    VectorType,
    i1,
    i32,
    i64,
)
from xdsl.ir import SSAValue

from dialects import attributes as mux_attrs
from dialects import llvmx
from lowering.common.builders import build_if, build_if_else, const
from lowering.run_vecz.values import PacketValues, any_lane, is_zero


def _index_elements(ref: SSAValue) -> bool:
    """Whether `ref`'s elements are `index` (a vector of them has i64 lanes)."""
    type_ = ref.type
    return isinstance(type_, MemRefType) and isinstance(type_.element_type, IndexType)


class Memory(PacketValues):
    """Emits `memref.load` and `memref.store`."""

    # -- the shape of an access -------------------------------------------------------

    def contiguous(self, ref: SSAValue, indices: Sequence[SSAValue]) -> bool:
        """The lanes of each row at consecutive elements: the last index linear of
        stride 1, the others the same along a row (and elements that are not
        `index`, whose lanes are i64)."""
        if not indices or _index_elements(ref):
            return False
        *outer, last = indices
        linear = self.linear.get(last)
        return (
            linear is not None
            and linear.stride == 1
            and all(self.along_row(i) for i in outer)
        )

    def along_row(self, value: SSAValue) -> bool:
        """Whether `value` is the same in the lanes of a row (it may differ between
        rows)."""
        return self.is_uniform(value) or (
            value in self.linear and self.linear[value].stride == 0
        )

    def same_in_rows(self, value: SSAValue) -> bool:
        """Whether `value` is the same in every row (its lanes may differ)."""
        return value not in self.linear or is_zero(self.linear[value].row_stride)

    def clamped(self, indices: Sequence[SSAValue]) -> bool:
        """The last index piecewise, contiguous where it is linear; the others
        uniform."""
        if not indices:
            return False
        *outer, last = indices
        piecewise = self.piecewise.get(last)
        return (
            piecewise is not None
            and piecewise.linear.stride == 1
            and is_zero(piecewise.linear.row_stride)
            and self.rows == 1
            and all(self.is_uniform(i) for i in outer)
        )

    def row_indices(
        self, b: Builder, indices: Sequence[SSAValue], row: int
    ) -> list[SSAValue]:
        """The scalar indices of the first lane of row `row`: uniform ones as they
        are, linear ones lane 0's value plus `row * row_stride`."""
        found: list[SSAValue] = []
        for index in indices:
            if self.is_uniform(index):
                found.append(self.scalar(index))
                continue
            linear = self.linear[index]
            value = linear.base
            if row and not is_zero(linear.row_stride):
                step = self.row_step(b, linear, row)
                if isinstance(step, int):
                    step = const(b, step, value.type)
                value = b.insert(arith.AddiOp(value, step)).result
            found.append(value)
        return found

    # -- rows of lanes (packets of more than one row) ---------------------------------

    def shuffle(
        self, b: Builder, v1: SSAValue, v2: SSAValue, picks: Sequence[int]
    ) -> SSAValue:
        assert isinstance(v1.type, VectorType)
        element = v1.type.get_element_type()
        result_type = VectorType(element, [len(picks)])
        picked = DenseArrayBase.from_list(i32, list(picks))
        return b.insert(llvm.ShuffleVectorOp(v1, v2, picked, result_type)).res

    def row_of(self, b: Builder, lanes: SSAValue, row: int) -> SSAValue:
        """The `width` lanes of row `row`."""
        return self.shuffle(
            b, lanes, lanes, range(row * self.width, (row + 1) * self.width)
        )

    def any_row(self, b: Builder, mask: SSAValue) -> SSAValue:
        """The lanes `i` of a row active in some row."""
        found = self.row_of(b, mask, 0)
        for row in range(1, self.rows):
            found = b.insert(arith.OrIOp(found, self.row_of(b, mask, row))).result
        return found

    def join_rows(self, b: Builder, rows: list[SSAValue]) -> SSAValue:
        """One vector of all lanes from a vector per row (or one for every row)."""
        if len(rows) == 1:
            picks = [i for _ in range(self.rows) for i in range(self.width)]
            return self.shuffle(b, rows[0], rows[0], picks)
        while len(rows) > 1:
            assert isinstance(rows[0].type, VectorType)
            size = rows[0].type.get_shape()[0]
            rows = [
                self.shuffle(b, rows[k], rows[k + 1], range(2 * size))
                for k in range(0, len(rows), 2)
            ]
        return rows[0]

    def row_type(self, value: SSAValue) -> VectorType:
        """The vector of one row of `value`'s lanes."""
        return VectorType(self.vector_type(value.type).get_element_type(), [self.width])

    # -- loads ------------------------------------------------------------------------

    def emit_load(self, b: Builder, op: memref.LoadOp, mask: SSAValue | None) -> None:
        ref = self.scalar(op.memref)
        if self.is_uniform(op.res):  # a uniform address: one load
            self.emit_uniform(b, op)
            return
        if all(self.is_uniform(i) for i in op.indices):
            # indices that turned out uniform as emitted: one load too (a lane is
            # active wherever the vectorised kernel runs code)
            self.emit_uniform(b, op)
            self.varying.discard(op.res)
            return
        if self.contiguous(ref, op.indices):
            self.vector_accesses += 1
            self.set_vector(op.res, self.contiguous_load(b, op, ref, mask))
            return
        if self.rows > 1 and all(self.along_row(i) for i in op.indices):
            self.vector_accesses += 1
            self.set_vector(op.res, self.row_load(b, op, ref, mask))
            return
        if self.clamped(op.indices) and not _index_elements(ref):
            self.vector_accesses += 1
            self.set_vector(op.res, self.clamped_load(b, op, ref, mask))
            return
        self.lane_accesses += 1
        self.set_vector(op.res, self.lane_load(b, op, ref, mask))

    def contiguous_load(
        self, b: Builder, op: memref.LoadOp, ref: SSAValue, mask: SSAValue | None
    ) -> SSAValue:
        """A vector load per row, or one for all rows when the rows load the same
        elements (B's row in an inner product over a packet of rows)."""
        shared = all(self.same_in_rows(i) for i in op.indices)
        if self.rows == 1:
            rows, masks = [0], [mask]
        elif shared:
            rows, masks = [0], [None if mask is None else self.any_row(b, mask)]
        else:
            rows = list(range(self.rows))
            masks = [None if mask is None else self.row_of(b, mask, r) for r in rows]
        rtype = self.row_type(op.res)
        parts = []
        for row, row_mask in zip(rows, masks, strict=True):
            indices = self.row_indices(b, op.indices, row)
            if row_mask is None:
                parts.append(b.insert(vector.LoadOp(ref, indices, rtype)).result)
            else:
                zeros = self.zeros(b, rtype)
                load = vector.MaskedLoadOp(ref, indices, row_mask, zeros, rtype)
                parts.append(b.insert(load).result)
        return parts[0] if self.rows == 1 else self.join_rows(b, parts)

    def row_load(
        self, b: Builder, op: memref.LoadOp, ref: SSAValue, mask: SSAValue | None
    ) -> SSAValue:
        """A load at an address that is the same along each row (`A[y][k]` in an
        inner product): one scalar load per row, if a lane of the row is active,
        splat over the row."""
        rtype = self.row_type(op.res)
        parts = []
        for row in range(self.rows):

            def load(inner: Builder, row: int = row) -> list[SSAValue]:
                indices = self.row_indices(inner, op.indices, row)
                value = inner.insert(memref.LoadOp.get(ref, indices)).res
                return [self.splat(inner, value, self.width)]

            if mask is None:
                parts += load(b)
                continue
            active = b.insert(any_lane(self.row_of(b, mask, row))).results[0]
            guarded = build_if_else(
                b, active, [rtype], load, lambda inner: [self.zeros(inner, rtype)]
            )
            parts.append(guarded.results[0])
        return self.join_rows(b, parts)

    def clamped_load(
        self, b: Builder, op: memref.LoadOp, ref: SSAValue, mask: SSAValue | None
    ) -> SSAValue:
        """A load at a clamped index: a masked contiguous load for the lanes where
        the index is linear, and one load at the clamp, if a lane (an active one)
        takes it, for the others."""
        vtype = self.vector_type(op.res.type)
        *outer, last = op.indices
        piecewise = self.piecewise[last]
        outer = [self.scalar(i) for i in outer]
        linear_lanes = piecewise.cond
        other_lanes = self.negate(b, piecewise.cond)
        if mask is not None:
            linear_lanes = b.insert(arith.AndIOp(mask, linear_lanes)).result
            other_lanes = b.insert(arith.AndIOp(mask, other_lanes)).result
        zeros = self.zeros(b, vtype)
        indices = [*outer, piecewise.linear.base]
        linear = vector.MaskedLoadOp(ref, indices, linear_lanes, zeros, vtype)
        linear_value = b.insert(linear).result

        def load_clamp(inner: Builder) -> list[SSAValue]:
            at_clamp = memref.LoadOp.get(ref, [*outer, piecewise.other])
            return [self.splat(inner, inner.insert(at_clamp).res)]

        any_other = b.insert(any_lane(other_lanes)).results[0]
        other = build_if_else(b, any_other, [vtype], load_clamp, lambda _: [zeros])
        select = llvmx.SelectOp(piecewise.cond, linear_value, other.results[0])
        return b.insert(select).res

    def lane_load(
        self, b: Builder, op: memref.LoadOp, ref: SSAValue, mask: SSAValue | None
    ) -> SSAValue:
        """A load per lane (active lanes only), inserted into a vector."""
        vtype = self.vector_type(op.res.type)
        result = self.zeros(b, vtype)
        for lane in range(self.count):

            def load(
                inner: Builder, lane: int = lane, current: SSAValue = result
            ) -> SSAValue:
                indices = [self.lane(inner, i, lane) for i in op.indices]
                load = memref.LoadOp.get(ref, indices)
                mux_attrs.VECZ_LANE.set(load, lane)
                value = inner.insert(load).res
                if isinstance(value.type, IndexType):
                    value = inner.insert(arith.IndexCastOp(value, i64)).result
                return inner.insert(vector.InsertOp(value, current, [lane])).result

            result = self.if_lane_value(b, mask, lane, load, result)
        return result

    def if_lane(
        self,
        b: Builder,
        mask: SSAValue | None,
        lane: int,
        body: Callable[[Builder], None],
    ) -> None:
        """`body(builder)` for lane `lane`: directly without a mask, else under
        `scf.if` on its mask bit."""
        if mask is None:
            body(b)
            return
        build_if(b, self.mask_bit(b, mask, lane), body)

    def if_lane_value(
        self,
        b: Builder,
        mask: SSAValue | None,
        lane: int,
        body: Callable[[Builder], SSAValue],
        current: SSAValue,
    ) -> SSAValue:
        """`if_lane` for a `body` that returns the new value of `current`, which
        stays as it is where the lane is masked."""
        if mask is None:
            return body(b)
        return build_if_else(
            b,
            self.mask_bit(b, mask, lane),
            [current.type],
            lambda inner: [body(inner)],
            lambda _: [current],
        ).results[0]

    @staticmethod
    def mask_bit(b: Builder, mask: SSAValue, lane: int) -> SSAValue:
        return b.insert(vector.ExtractOp(mask, [lane], i1)).result

    # -- stores -----------------------------------------------------------------------

    def emit_store(self, b: Builder, op: memref.StoreOp, mask: SSAValue | None) -> None:
        ref = self.scalar(op.memref)
        if all(self.is_uniform(o) for o in op.operands):  # the same store in every lane
            self.emit_uniform(b, op)
            return
        if self.contiguous(ref, op.indices):
            self.vector_accesses += 1
            self.contiguous_store(b, op, ref, mask)
            return
        self.lane_accesses += 1
        for lane in range(self.count):  # lane by lane, in order

            def store(inner: Builder, lane: int = lane) -> None:
                value = self.lane(inner, op.value, lane)
                indices = [self.lane(inner, i, lane) for i in op.indices]
                store = memref.StoreOp.get(value, ref, indices)
                mux_attrs.VECZ_LANE.set(store, lane)
                inner.insert(store)

            self.if_lane(b, mask, lane, store)

    def contiguous_store(
        self, b: Builder, op: memref.StoreOp, ref: SSAValue, mask: SSAValue | None
    ) -> None:
        """A vector store per row, rows in order."""
        value = self.widen(b, op.value)
        for row in range(self.rows):
            part, row_mask = value, mask
            if self.rows > 1:
                part = self.row_of(b, value, row)
                row_mask = None if mask is None else self.row_of(b, mask, row)
            indices = self.row_indices(b, op.indices, row)
            if row_mask is None:
                b.insert(vector.StoreOp(part, ref, indices))
            else:
                b.insert(vector.MaskedStoreOp(ref, indices, row_mask, part))
