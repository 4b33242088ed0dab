"""The values a kernel's integer arithmetic takes in every work-item of one
work-group of known size: what checked mode's static proofs compute from.

A kernel compiled for a launch has its work-group size (`mux.reqd_work_group_size`,
which `mux.compile` sets for the sizes it specialises to), so
`mux.get_local_size` is a constant and `mux.get_local_id` ranges over a known
set. `GroupValues.values(v, env)` gives `v` for every work-item of the group as
one numpy array (work-items in local linear id order, `x` fastest; a 0-d array
when `v` is the same in all of them), with `env` giving the values of block
arguments. It follows `v`'s operands through `arith`'s integer ops, the
work-item queries above, the results of loops whose trip is fixed
(`loop_trace`: a loop run at compile time) and of `scf.if`s (the branch each
work-item takes), and gives None for anything else:
a kernel argument, a loaded value, a global id (its group is not known).

The arithmetic is exact, as LLVM does it: `index` is 64 bits wide, sums and
products wrap at their width, unsigned ops and comparisons see the bits
unsigned; a division by zero or a shift past the width (poison) gives None.

Each value computed costs one *step* of the `GroupValues`' budget
(`MAX_STEPS`; its users charge their own work too, `spend`); once it is spent,
every further value is not known. What is proven from these values is then
what unknown values allow (nothing, or less), so the budget bounds the
compile time of a checked kernel, and never makes a proof wrong.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType
from xdsl.ir import (
    Attribute,
    Block,
    BlockArgument,
    Operation,
    OpResult,
    Region,
    SSAValue,
)

from dialects import attributes as mux_attrs
from dialects import mux
from lowering.common.cfg import reachable
from lowering.common.device import HOST
from lowering.common.llvm_types import bit_width

Values = np.ndarray
"""One value per work-item (shape `(n,)`), or one for all of them (0-d): int64
(an integer, sign-extended from its width) or bool (an `i1`)."""

Env = Mapping[BlockArgument, "int | np.ndarray"]
"""The values given to block arguments: one for every work-item, or one each."""

MAX_TRIPS = 4096
"""The most iterations `loop_trace` runs a loop for before giving up."""

MAX_EVALUATIONS = 1 << 20
"""The most values (combinations of loop values x work-items) `largest`
computes for one index before giving up: a bound on the compile time."""

MAX_STEPS = 100_000
"""The steps one `GroupValues` may take (module docstring): one to three
seconds of compile time. The proofs of the examples take at most a few
thousand (docs/performance.md, "Checked mode")."""


def width(type_: Attribute) -> int | None:
    """The bits of an integer or index type; None for any other type."""
    return bit_width(type_) if isinstance(type_, IntegerType | IndexType) else None


def _wrap(x: Values, bits: int) -> Values:
    """`x` reduced to `bits` bits, sign-extended (int64's own wrap at 64)."""
    if bits == 1:
        return (x & 1).astype(bool)
    if bits >= 64:
        return x.astype(np.int64)
    shift = np.int64(64 - bits)
    return (x.astype(np.int64) << shift) >> shift


def _unsigned(x: Values, bits: int) -> Values:
    """The bits of `x` read unsigned."""
    u = x.astype(np.int64).astype(np.uint64)
    return u if bits >= 64 else u & np.uint64((1 << bits) - 1)


def _int(x: Values) -> Values:
    return x.astype(np.int64)


def _signed(x: Values, bits: int) -> Values:
    """The bits of `x` read signed: as int64, an `i1`'s true is -1."""
    value = _int(x)
    return -value if bits == 1 else value


def _signed_division(a: Values, b: Values, bits: int, remainder: bool) -> Values | None:
    """`arith.divsi` (towards zero) or `arith.remsi` of `bits`-bit integers;
    None where the quotient overflows (the lowest value by -1: poison)."""
    a, b = _signed(a, bits), _signed(b, bits)
    if np.any((a == -(1 << (bits - 1))) & (b == -1)):
        return None
    floor = a // b  # towards minus infinity: one less where signs differ
    q = floor + ((floor * b != a) & ((a < 0) != (b < 0)))
    return a - q * b if remainder else q


_BINARY: dict[type[Operation], Callable[[Values, Values, int], Values | None]] = {
    arith.AddiOp: lambda a, b, w: _wrap(_int(a) + _int(b), w),
    arith.SubiOp: lambda a, b, w: _wrap(_int(a) - _int(b), w),
    arith.MuliOp: lambda a, b, w: _wrap(_int(a) * _int(b), w),
    arith.AndIOp: lambda a, b, w: _wrap(_int(a) & _int(b), w),
    arith.OrIOp: lambda a, b, w: _wrap(_int(a) | _int(b), w),
    arith.XOrIOp: lambda a, b, w: _wrap(_int(a) ^ _int(b), w),
    arith.MaxSIOp: lambda a, b, w: np.where(_signed(a, w) >= _signed(b, w), a, b),
    arith.MinSIOp: lambda a, b, w: np.where(_signed(a, w) <= _signed(b, w), a, b),
    arith.MaxUIOp: lambda a, b, w: np.where(_unsigned(a, w) >= _unsigned(b, w), a, b),
    arith.MinUIOp: lambda a, b, w: np.where(_unsigned(a, w) <= _unsigned(b, w), a, b),
}


def _divide(kind: type[Operation], a: Values, b: Values, w: int) -> Values | None:
    if np.any(_int(b) == 0):
        return None  # poison where it happens: nothing is known
    if kind in (arith.DivUIOp, arith.RemUIOp):
        ua, ub = _unsigned(a, w), _unsigned(b, w)
        return _wrap(
            (ua % ub if kind is arith.RemUIOp else ua // ub).astype(np.int64), w
        )
    found = _signed_division(a, b, w, kind is arith.RemSIOp)
    return None if found is None else _wrap(found, w)


def _shift(kind: type[Operation], a: Values, b: Values, w: int) -> Values | None:
    amount = _unsigned(b, w)
    if np.any(amount >= np.uint64(w)):
        return None
    n = amount.astype(np.int64)
    if kind is arith.ShLIOp:
        return _wrap(_int(a) << n, w)
    if kind is arith.ShRSIOp:
        return _wrap(_int(a) >> n, w)
    return _wrap((_unsigned(a, w) >> n.astype(np.uint64)).astype(np.int64), w)


_DIVISIONS = (arith.DivUIOp, arith.DivSIOp, arith.RemUIOp, arith.RemSIOp)
_SHIFTS = (arith.ShLIOp, arith.ShRSIOp, arith.ShRUIOp)


def _compare(predicate: int, a: Values, b: Values, w: int) -> Values:
    """`arith.cmpi`'s predicates, in their order: eq ne slt sle sgt sge ult ule
    ugt uge."""
    if predicate <= 1:
        equal = _int(a) == _int(b)
        return equal if predicate == 0 else ~equal
    if predicate >= 6:
        a, b = _unsigned(a, w), _unsigned(b, w)
        predicate -= 4
    else:
        a, b = _signed(a, w), _signed(b, w)
    order = (a < b, a <= b, a > b, a >= b)
    return np.asarray(order[predicate - 2])


@dataclass
class LoopTrace:
    """A loop run at compile time: its block arguments' values at each entry of
    their block (a tuple per entry, block by block), and its results."""

    entries: dict[int, list[tuple[int, ...]]]
    """For each region of the loop (by index), the values of its block's
    arguments each time the block was entered."""
    results: tuple[int, ...]


class GroupValues:
    """The values of `kernel`'s integer arithmetic over one work-group of
    its required size (module docstring); `GroupValues.of` is None if it
    has none, one larger than the device allows (no launch runs it), or is
    `run-vecz`'s packet of a kernel."""

    def __init__(self, kernel: func.FuncOp, sizes: tuple[int, int, int]):
        self.kernel = kernel
        self.sizes = sizes
        linear = np.arange(math.prod(sizes), dtype=np.int64)
        x, y, _ = sizes
        self.ids = (linear % x, linear // x % y, linear // (x * y))
        self.linear = linear
        self._loops: dict[Operation, LoopTrace | None] = {}
        self.steps = MAX_STEPS
        """The steps of the budget left (module docstring)."""

    @staticmethod
    def of(kernel: func.FuncOp) -> GroupValues | None:
        sizes = mux_attrs.REQD_WORK_GROUP_SIZE.get(kernel)
        if sizes is None or mux_attrs.VECZ_DERIVED.get(kernel) is not None:
            return None  # a packet's values are its lanes', not one work-item's
        if math.prod(sizes) > HOST.max_work_group_size:
            return None  # no launch runs it (the runtime refuses the size)
        x, y, z = sizes
        return GroupValues(kernel, (x, y, z))

    @property
    def work_items(self) -> int:
        return len(self.linear)

    def values(self, value: SSAValue, env: Env) -> Values | None:
        """`value` in every work-item, the block arguments in `env` having
        the values given; None if it is not known."""
        return self.frame(env)(value)

    def spend(self, steps: int) -> bool:
        """Takes `steps` from the budget; False (and none taken) if fewer
        are left."""
        if steps > self.steps:
            return False
        self.steps -= steps
        return True

    def frame(self, env: Env) -> Callable[[SSAValue], Values | None]:
        """`values` for one `env`, each value computed once."""
        return _Frame(self, env).get

    def uniform(self, value: SSAValue, env: Env) -> int | None:
        """`value` if it is known and the same in every work-item."""
        return _one(self.values(value, env))

    def loop_values(self, block: Block) -> list[tuple[int, ...]] | None:
        """The values of `block`'s arguments each time it is entered, if it
        is a region's of a loop `loop_trace` runs."""
        loop = block.parent_op()
        region = block.parent_region()
        if loop is None or region is None:
            return None
        trace = self.loop_trace(loop)
        return None if trace is None else trace.entries[loop.regions.index(region)]

    def largest(self, value: SSAValue, at: Operation) -> int | None:
        """The largest value, read unsigned, that `value` has at `at` in any
        work-item of the group the known conditions of the `scf.if`s around
        `at` let through, for any values of the loop variables it is computed
        from (loops `loop_trace` runs); None if it is not known."""
        blocks = list(argument_blocks([value]))
        choices = [self.loop_values(block) for block in blocks]
        known = [c for c in choices if c is not None]
        combinations = math.prod(map(len, known))
        if (
            len(known) < len(choices)
            or combinations * self.work_items > MAX_EVALUATIONS
        ):
            return None
        bits = width(value.type)
        conditions = list(guards(at))
        largest = None
        for env in environments(list(zip(blocks, known, strict=True))):
            frame = self.frame(env)
            found = frame(value)
            if found is None or bits is None:
                return None
            everyone = np.ones(self.work_items, dtype=bool)
            active = admitted(frame, conditions, everyone)
            found = np.broadcast_to(_unsigned(found, bits), active.shape)[active]
            if len(found):
                largest = max(largest or 0, int(found.max()))
        return largest

    def loop_trace(self, loop: Operation) -> LoopTrace | None:
        """`loop` (`scf.while`, `scf.for`) run at compile time, if its
        operands and the values it passes from one iteration to the next are
        known and uniform without any other block argument's value, and it
        ends within `MAX_TRIPS` iterations; else None."""
        if loop not in self._loops:
            self._loops[loop] = None  # a loop depending on itself is not known
            self._loops[loop] = self._trace(loop)
        return self._loops[loop]

    def _trace(self, loop: Operation) -> LoopTrace | None:
        if isinstance(loop, scf.WhileOp):
            return self._trace_while(loop)
        if isinstance(loop, scf.ForOp):
            return self._trace_for(loop)
        return None

    def _all_uniform(
        self, values: Sequence[SSAValue], env: Env
    ) -> tuple[int, ...] | None:
        """`values`, each known and the same in every work-item, computed in
        one frame; else None."""
        frame = self.frame(env)
        found = [_one(frame(v)) for v in values]
        known = tuple(f for f in found if f is not None)
        return known if len(known) == len(found) else None

    def _trace_while(self, loop: scf.WhileOp) -> LoopTrace | None:
        before, after = loop.before_region.block, loop.after_region.block
        condition = before.last_op
        yield_ = after.last_op
        if not isinstance(condition, scf.ConditionOp) or not isinstance(
            yield_, scf.YieldOp
        ):
            return None
        state = self._all_uniform(list(loop.arguments), {})
        entries: dict[int, list[tuple[int, ...]]] = {0: [], 1: []}
        for _ in range(MAX_TRIPS):
            if state is None:
                return None
            entries[0].append(state)
            env = dict(zip(before.args, state, strict=True))
            decided = self._all_uniform([condition.condition, *condition.args], env)
            if decided is None:
                return None
            more, *rest = decided
            passed = tuple(rest)
            if not more:
                return LoopTrace(entries, passed)
            entries[1].append(passed)
            env = dict(zip(after.args, passed, strict=True))
            state = self._all_uniform(list(yield_.operands), env)
        return None

    def _trace_for(self, loop: scf.ForOp) -> LoopTrace | None:
        body = loop.body.block
        yield_ = body.last_op
        bounds = self._all_uniform([loop.lb, loop.ub, loop.step], {})
        state = self._all_uniform(list(loop.iter_args), {})
        if bounds is None or state is None or not isinstance(yield_, scf.YieldOp):
            return None
        start, stop, step = bounds
        if step <= 0 or (stop - start) // step > MAX_TRIPS:
            return None
        entries: dict[int, list[tuple[int, ...]]] = {0: []}
        for iv in range(start, stop, step):
            entries[0].append((iv, *state))
            env = dict(zip(body.args, (iv, *state), strict=True))
            state = self._all_uniform(list(yield_.operands), env)
            if state is None:
                return None
        return LoopTrace(entries, state)


def _one(found: Values | None) -> int | None:
    """`found` if it is the same in every work-item."""
    if found is None or (found.ndim and np.any(found != found.flat[0])):
        return None
    return int(found.flat[0]) if found.size else None


def environments(
    blocks: list[tuple[Block, list[tuple[int, ...]]]],
) -> Iterator[dict[BlockArgument, int]]:
    """Every combination of the values the arguments of `blocks` take (each
    block with its list of entries, as `loop_values` gives them)."""
    for chosen in itertools.product(*(entries for _, entries in blocks)):
        yield {
            arg: value
            for (block, _), entry in zip(blocks, chosen, strict=True)
            for arg, value in zip(block.args, entry, strict=True)
        }


def admitted(
    values: Callable[[SSAValue], Values | None],
    conditions: list[tuple[SSAValue, bool]],
    active: Values,
) -> Values:
    """The work-items of `active` that `conditions` (as `guards` gives them)
    let through; a condition not known may be true for all."""
    for condition, branch in conditions:
        holds = values(condition)
        if holds is not None:
            active = active & (holds if branch else ~holds)
    return active


def guards(op: Operation) -> Iterator[tuple[SSAValue, bool]]:
    """The conditions of the `scf.if`s around `op`, with the branch `op` is in
    (true: the `then` branch)."""
    inner: Operation = op
    while (parent := inner.parent_op()) is not None:
        if isinstance(parent, scf.IfOp):
            yield parent.cond, inner.parent_region() is parent.true_region
        inner = parent


def argument_blocks(values: list[SSAValue]) -> set[Block]:
    """The blocks whose arguments `values` are computed from, through the ops
    `GroupValues` follows (a loop's result is the loop's own: not followed)."""

    def operands(value: SSAValue) -> Sequence[SSAValue]:
        owner = value.owner
        if isinstance(owner, Operation) and not isinstance(
            owner, scf.WhileOp | scf.ForOp
        ):
            return owner.operands
        return ()

    found = reachable(values, operands)
    return {value.block for value in found if isinstance(value, BlockArgument)}


class _Frame:
    """One evaluation, for one `env`: each value computed once."""

    def __init__(self, group: GroupValues, env: Env):
        self.group = group
        self.env = env
        self.known: dict[SSAValue, Values | None] = {}

    def get(self, value: SSAValue) -> Values | None:
        if value not in self.known:
            self.known[value] = None  # a cycle is not known
            self.known[value] = self._compute(value)
        return self.known[value]

    def _compute(self, value: SSAValue) -> Values | None:
        bits = width(value.type)
        if bits is None or not self.group.spend(1):
            return None
        if isinstance(value, BlockArgument):
            if value in self.env:
                return _wrap(np.asarray(self.env[value], dtype=np.int64), bits)
            return None
        op = value.owner
        assert isinstance(op, Operation)
        if isinstance(op, scf.WhileOp | scf.ForOp) and isinstance(value, OpResult):
            trace = self.group.loop_trace(op)
            if trace is None:
                return None
            return _wrap(np.asarray(trace.results[value.index], dtype=np.int64), bits)
        if isinstance(op, scf.IfOp) and isinstance(value, OpResult):
            return self._chosen(op, value.index)
        return self._op(op, bits)

    def _chosen(self, op: scf.IfOp, index: int) -> Values | None:
        """Result `index` of `op`: its branch's, in each work-item."""
        condition = self.get(op.cond)
        if condition is None:
            return None
        uniform = not condition.ndim or bool(np.all(condition == condition.flat[0]))
        if uniform:
            taken = op.true_region if bool(condition.flat[0]) else op.false_region
            return self._yielded(taken, index)
        then = self._yielded(op.true_region, index)
        otherwise = self._yielded(op.false_region, index)
        if then is None or otherwise is None:
            return None
        return np.where(condition, then, otherwise)

    def _yielded(self, region: Region, index: int) -> Values | None:
        block = region.blocks.first
        terminator = block.last_op if block is not None else None
        if not isinstance(terminator, scf.YieldOp):
            return None
        return self.get(terminator.operands[index])

    def _op(self, op: Operation, bits: int) -> Values | None:
        if isinstance(op, arith.ConstantOp):
            attr = op.value
            if not isinstance(attr, IntegerAttr):
                return None
            data = attr.value.data % (1 << 64)  # as unsigned, then int64's bits
            return _wrap(np.asarray(data, dtype=np.uint64).astype(np.int64), bits)
        if isinstance(
            op, mux.GetLocalIdOp | mux.GetLocalSizeOp | mux.GetEnqueuedLocalSizeOp
        ):
            return self._query(op)
        if isinstance(op, mux.GetLocalLinearIdOp):
            return self.group.linear
        operands = [self.get(o) for o in op.operands]
        if any(o is None for o in operands):
            return None
        known = [o for o in operands if o is not None]
        with np.errstate(over="ignore"):  # the wrap is LLVM's too: no news
            return _arith(op, known, bits)

    def _query(self, op: Operation) -> Values | None:
        dim = _one(self.get(op.operands[0]))
        if dim is None:
            return None
        local_id = isinstance(op, mux.GetLocalIdOp)
        if not 0 <= dim < 3:
            return np.asarray(0 if local_id else 1, dtype=np.int64)  # the spec's
        if local_id:
            return self.group.ids[dim]
        return np.asarray(self.group.sizes[dim], dtype=np.int64)


def _arith(op: Operation, operands: list[Values], bits: int) -> Values | None:
    """`op`, an `arith` op of integers, on known operands; None for any other."""
    kind = type(op)
    if kind in _BINARY:
        return _BINARY[kind](operands[0], operands[1], bits)
    if isinstance(op, _DIVISIONS):
        return _divide(kind, operands[0], operands[1], bits)
    if isinstance(op, _SHIFTS):
        return _shift(kind, operands[0], operands[1], bits)
    if isinstance(op, arith.CmpiOp):
        source = width(op.lhs.type)
        if source is None:
            return None
        return _compare(op.predicate.value.data, operands[0], operands[1], source)
    if isinstance(op, arith.SelectOp):
        return np.where(operands[0].astype(bool), operands[1], operands[2])
    if isinstance(op, arith.IndexCastOp | arith.ExtSIOp | arith.TruncIOp):
        source = width(op.operands[0].type)
        if source is None:
            return None
        return _wrap(_signed(operands[0], source), bits)
    if isinstance(op, arith.ExtUIOp):
        source = width(op.operands[0].type)
        if source is None:
            return None
        return _wrap(_unsigned(operands[0], source).astype(np.int64), bits)
    return None
