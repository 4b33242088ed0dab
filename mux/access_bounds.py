"""Which elements of its buffer arguments a kernel accesses in a launch.

A launch whose global size is larger than its arrays, or whose `mux.LocalBuffer` is
smaller than the kernel indexes, reads and writes outside the user's memory: the
process may die, or, worse, go on with corrupted data. Memrefs are bare pointers
(the runtime passes an array's address and nothing else), so the compiled kernel
cannot check its indices; the runtime checks them before the launch, where it can.

This module works on the kernel as the user wrote it (level 1 of DESIGN.md: a
`func.func` with `arith`, `scf`, `cf`, `memref`, `vector`, `atomic` and `mux` ops)
and answers, for one launch (global size, local size, global offset and the values
of the integer scalar arguments), two questions per buffer parameter:

1. **May** (`KernelBounds.analyse`): an interval of element indices that contains
   every index any work-item can access, or "unknown". It is an abstract
   interpretation over intervals of the signed integers: the work-item queries
   give the launch's ranges (`get_global_id(d)` is `[offset, offset + global - 1]`,
   `get_local_id(d)` `[0, local - 1]`, `get_local_size(d)` runs from the last,
   smaller, work-group's size to the enqueued one, ...), scalar parameters and
   constants are exact, `arith` ops are computed on intervals (an interval that
   may wrap in its type is unknown: overflow never gives a narrower range),
   `scf.for` induction variables lie between their bounds, loop-carried values are
   joined until they are stable (after a few rounds, a bound still moving is
   widened to the next constant in scope, then to unknown), and the
   conditions of `scf.if`, `scf.while` and `cf.cond_br` (comparisons, and their
   `andi`/`ori`/negations) narrow the values they compare on the paths they guard:
   reduce's `lid + stride < lsize` bounds `lid + stride` in the `scf.if` it
   guards. A small relational fact keeps the usual "global id = group id *
   enqueued local size + local id" exact (`group * size + local` and `global -
   local` are recognised), which intervals alone would widen. Multi-dimensional
   static memrefs are linearised in row-major order, and each static dimension
   is also checked on its own; a vector load or store covers its lanes. Besides
   the buffer parameters, module-scope variables (`memref.get_global`) and
   private arrays (`memref.alloca`) of static shape are checked. A DMA transfer
   covers, on each side, the bytes its width, strides and counts give from its
   pointer: a memref, or a buffer's bare pointer
   (`builtin.unrealized_conversion_cast`) moved by `llvm.getelementptr`. One
   value (a constant, or any value in a concrete run) is computed as the op
   does, wrapping in its type; element indices are exact integers (one past 2^63
   bytes is outside any array). A parameter used in any other way than as the
   memref of an access, a DMA or a pointer cast (passed to a call, ...), an op
   with regions
   the analysis does not know, or an index it cannot bound (loaded from memory, a
   loop-carried value that does not settle) make the answer "unknown".
2. **Must** (`KernelBounds.witness`), asked only when the may-range does not fit
   the buffer: the same interpreter runs a few concrete work-items (in each
   dimension, the first and last of the range, of the first and last
   work-groups, and those at the edges of the guards on global ids, such as
   `gid < n`) with exact values, and records the indices they really access.
   Interval bounds are an over-approximation: a launch refused on them alone
   could be a correct one (`transpose` with a smaller last work-group). A launch
   is refused only when a work-item that exists in it provably accesses outside
   an array; when the may-range does not fit and no such work-item is found, the
   analysis cannot tell and the launch runs as before. A concrete run stops at a
   branch on a value it cannot know (loaded from memory) and after a budget of
   steps.

The per-kernel preparation (which parameters are buffers, how they are used) is
done once (`KernelBounds.__init__`); the analysis of a launch shape is cached, so
a kernel launched again with the same sizes and scalars costs one dictionary
look-up and a comparison per buffer (`KernelBounds.check`). It is not a pass: it
changes nothing, and it needs the launch's values, which no pass sees.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneAttr,
    VectorType,
)
from xdsl.dialects.llvm import GEP_USE_SSA_VAL
from xdsl.ir import Block, Operation, Region, SSAValue

from dialects import attributes as mux_attrs
from dialects.mux import ADDRESS_SPACE_LOCAL, address_space_of
from mux.errors import LaunchError
from mux.runtime import LocalBuffer, Param

Itv = tuple[int, int] | None
"""An interval [lo, hi] of the signed values of an integer, or None: unknown."""

_CACHE_SIZE = 256
"""Launch shapes whose analysis a kernel keeps."""
_WITNESS_STEPS = 50_000
"""Ops the concrete runs of one launch shape may interpret in all."""
_WIDEN_AFTER = 3
"""Rounds of a loop's fixpoint before its unstable bounds are widened."""
_THRESHOLD_ROUNDS = 8
"""Rounds after which widening goes straight to the ends of the type."""
_ANALYSIS_STEPS = 200_000
"""Ops the abstract run of one launch shape may interpret (nested loops each run
their bodies a few times): past it, every buffer is unknown."""


def _width(type_: Any) -> int | None:
    if isinstance(type_, IndexType):
        return 64
    if isinstance(type_, IntegerType):
        return type_.width.data
    return None


def _smin(w: int) -> int:
    return 0 if w == 1 else -(1 << (w - 1))


def _smax(w: int) -> int:
    return 1 if w == 1 else (1 << (w - 1)) - 1


def _fit(lo: int, hi: int, w: int) -> Itv:
    """[lo, hi] if every value fits the signed range of width `w` (i1: 0 and 1),
    else None: the result may have wrapped."""
    if _smin(w) <= lo and hi <= _smax(w):
        return (lo, hi)
    return None


def _full(w: int) -> tuple[int, int]:
    return (_smin(w), _smax(w))


def _unsigned(v: Itv, w: int) -> Itv:
    """The interval of the unsigned values of `v`, None if it is not one interval
    (a range across 0) or unknown."""
    if v is None:
        return None if w != 1 else (0, 1)
    lo, hi = v
    if w == 1 or lo >= 0:
        return v
    if hi < 0:
        return (lo + (1 << w), hi + (1 << w))
    return None


def _from_unsigned(lo: int, hi: int, w: int) -> Itv:
    if w == 1 or hi <= _smax(w):
        return _fit(lo, hi, w)
    if lo > _smax(w):
        return (lo - (1 << w), hi - (1 << w))
    return None


def _join(a: Itv, b: Itv) -> Itv:
    if a is None or b is None:
        return None
    return (min(a[0], b[0]), max(a[1], b[1]))


def _meet(a: Itv, b: Itv, w: int) -> Itv | bool:
    """The intersection; False if it is empty."""
    a = a if a is not None else _full(w)
    b = b if b is not None else _full(w)
    lo, hi = max(a[0], b[0]), min(a[1], b[1])
    if lo > hi:
        return False
    return None if (lo, hi) == _full(w) else (lo, hi)


def _corners(op: Callable[[int, int], int], a: Itv, b: Itv, w: int) -> Itv:
    """`op` over two intervals, for an `op` monotonic in each argument."""
    if a is None or b is None:
        return None
    values = [op(x, y) for x in a for y in b]
    return _fit(min(values), max(values), w)


def _trunc_div(x: int, y: int) -> int:
    q = abs(x) // abs(y)
    return q if (x >= 0) == (y > 0) else -q


# The predicates of arith.cmpi, by number: (name, negation, swapped).
_PREDICATES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
_NEGATE = {
    "eq": "ne",
    "ne": "eq",
    "slt": "sge",
    "sge": "slt",
    "sle": "sgt",
    "sgt": "sle",
    "ult": "uge",
    "uge": "ult",
    "ule": "ugt",
    "ugt": "ule",
}
_SWAP = {"sgt": "slt", "sge": "sle", "ugt": "ult", "uge": "ule"}


def _decide(pred: str, a: Itv, b: Itv, w: int) -> Itv:
    """cmpi's result: (1, 1) or (0, 0) when the intervals decide it, else (0, 1)."""
    if pred[0] == "u":
        a, b = _unsigned(a, w), _unsigned(b, w)
    if a is None or b is None:
        return (0, 1)
    if pred in ("eq", "ne"):
        if a[0] == a[1] == b[0] == b[1]:
            return (1, 1) if pred == "eq" else (0, 0)
        if a[1] < b[0] or b[1] < a[0]:
            return (0, 0) if pred == "eq" else (1, 1)
        return (0, 1)
    strict = pred[1:] in ("lt", "gt")
    if pred[1:] in ("gt", "ge"):
        a, b = b, a
    # a < b (strict) or a <= b
    if a[1] < b[0] or (not strict and a[1] <= b[0]):
        return (1, 1)
    if a[0] > b[1] or (strict and a[0] >= b[1]):
        return (0, 0)
    return (0, 1)


@dataclass(frozen=True)
class Launch:
    """The values of one launch the analysis depends on, padded to 3 dimensions as
    the runtime pads them (size 1, offset 0)."""

    global_size: tuple[int, int, int]
    local_size: tuple[int, int, int]
    global_offset: tuple[int, int, int]
    work_dim: int
    scalars: dict[int, int] = field(default_factory=dict)
    """Integer scalar arguments, by argument number of the function, as signed
    values of their type."""

    @staticmethod
    def of(
        global_size: Sequence[int],
        local_size: Sequence[int],
        global_offset: Sequence[int],
        scalars: dict[int, int] | None = None,
    ) -> Launch:
        pad = (1,) * (3 - len(global_size))
        return Launch(
            (*global_size, *pad),  # type: ignore[arg-type]
            (*local_size, *pad),  # type: ignore[arg-type]
            (*global_offset, *(0,) * (3 - len(global_offset))),  # type: ignore[arg-type]
            len(global_size),
            scalars or {},
        )

    def groups(self, d: int) -> int:
        return -(-self.global_size[d] // self.local_size[d])

    def last_size(self, d: int) -> int:
        """The local size of the last work-group of dimension d."""
        return self.global_size[d] - (self.groups(d) - 1) * self.local_size[d]


@dataclass(frozen=True)
class WorkItem:
    """One work-item of a launch, for a concrete run: per dimension its global id
    without the offset."""

    position: tuple[int, int, int]


class _Unknowable(Exception):
    """A concrete run met what it cannot know (a branch on a loaded value), or the
    abstract run an op whose regions it does not understand."""


class _OutOfSteps(Exception):
    pass


_BRANCHES = ("cf.br", "cf.cond_br", "cf.switch")

_ACCESS_OPS = {
    "memref.load": "memref",
    "memref.store": "memref",
    "vector.load": "base",
    "vector.store": "base",
    "vector.maskedload": "base",
    "vector.maskedstore": "base",
    "atomic.rmw": "base",
    "atomic.cmpxchg": "base",
    "atomic.load": "base",
    "atomic.store": "base",
}
"""Ops that access one element (or a vector's lanes) of a memref at indices, and
the name of their memref operand."""


def _lanes(op: Operation) -> int:
    """Elements one access covers: the vector's lanes for vector loads and stores."""
    if op.name in ("vector.load", "vector.maskedload"):
        type_ = op.results[0].type
    elif op.name == "vector.store":
        type_ = op.operands[0].type
    elif op.name == "vector.maskedstore":
        type_ = op.operands[-1].type
    else:
        return 1
    assert isinstance(type_, VectorType)
    return math.prod(type_.get_shape())


@dataclass(eq=False)
class _Buffer:
    """Memory the analysis checks: a buffer parameter (its position among the
    runtime's parameters, `param`), or a variable of static shape (`fixed`
    elements): a module-scope `memref.global` the kernel gets with
    `memref.get_global`, or a private array (`memref.alloca`). `values` are the
    memrefs that name it, `dims` the static size of each dimension (None: dynamic),
    `strides` (in elements) its row-major linearisation; `escapes` if the analysis
    does not see all its accesses."""

    index: int
    """Its number in `KernelBounds.buffers`: keys are (index, None) for its
    elements, (index, d) for the indices of its static dimension d."""
    label: str
    type: MemRefType
    strides: tuple[int, ...] | None
    itemsize: int
    escapes: bool = False
    position: int = -1
    param: Param | None = None
    fixed: int | None = None
    values: list[SSAValue] = field(default_factory=list)

    @property
    def dims(self) -> tuple[int | None, ...]:
        return tuple(None if d == DYNAMIC_INDEX else d for d in self.type.get_shape())


Key = tuple[int, int | None]
"""What is checked: (buffer index, None) for a buffer's elements (linearised),
(buffer index, d) for the indices of its static dimension d."""


def _strides(type_: MemRefType) -> tuple[int, ...] | None:
    """Row-major strides in elements, None if a dimension after the first is
    dynamic or the layout is not the identity (the runtime passes a bare pointer)."""
    if not isinstance(type_.layout, NoneAttr):
        return None
    shape = type_.get_shape()
    if any(d == DYNAMIC_INDEX for d in shape[1:]):
        return None
    strides, step = [], 1
    for d in reversed(shape):
        strides.append(step)
        step *= max(d, 1)
    return tuple(reversed(strides))


class _Interp:
    """The interpreter behind both questions: abstract (`concrete=None`: ids are
    the launch's ranges, branches both taken, loops run to a fixpoint) or concrete
    (ids of one work-item, branches and loops followed as they run)."""

    def __init__(
        self,
        bounds: KernelBounds,
        launch: Launch,
        item: WorkItem | None,
        steps: list[int],
    ):
        self.bounds = bounds
        self.launch = launch
        self.item = item
        self.steps = steps
        self.accessed: dict[Key, Itv] = {}
        """Per key (a buffer's elements, or one of its static dimensions), the
        join of the indices accessed."""
        self.conds: dict[SSAValue, tuple] = {}
        """What an i1 value means: ("cmp", pred, a, b), ("and", x, y), ("or", x, y)
        or ("not", x)."""
        self.tags: dict[SSAValue, tuple] = {}
        """Exact relations of index values with the ids (abstract runs only):
        ("gid", d, k) = global id without offset + k, ("start", d, k) = group id *
        enqueued local size + k, ("lid", d), ("grp", d), ("els", d)."""
        self.positions: list[set[int]] = [set(), set(), set()]
        """Per dimension, the global ids (without offset) at the ends of the ranges
        conditions narrowed a global id to: the work-items at the edge of a guard
        such as `gid < n`, which a concrete run tries."""

    # -- values ------------------------------------------------------------------

    def record(self, key: Key, itv: Itv) -> None:
        if self.item is not None and (itv is None):
            return  # a concrete run only records indices it knows
        if key in self.accessed:
            self.accessed[key] = _join(self.accessed[key], itv)
        else:
            self.accessed[key] = itv

    # -- regions -----------------------------------------------------------------

    def run_region(
        self, region: Region, env: dict[SSAValue, Itv], args: Sequence[Itv]
    ) -> tuple[list[Itv] | None, dict[SSAValue, Itv] | None]:
        """Runs a region entered with block arguments `args`: the values its
        terminator passes out (joined over the ways out) and the environment there,
        or (None, None) if no way out is reachable."""
        blocks = list(region.blocks)
        last = blocks[0].last_op if len(blocks) == 1 else None
        if last is not None and last.name not in _BRANCHES:
            env = dict(env)
            self._bind(env, blocks[0].args, args)
            return self.run_block(blocks[0], env)
        return self._run_cfg(blocks, env, args)

    def _bind(
        self, env: dict[SSAValue, Itv], params: Sequence[SSAValue], args: Sequence[Itv]
    ) -> None:
        for p, a in zip(params, args, strict=True):
            env[p] = a

    def run_block(
        self, block: Block, env: dict[SSAValue, Itv]
    ) -> tuple[list[Itv] | None, dict[SSAValue, Itv] | None]:
        for op in block.ops:
            if op.name in ("scf.yield", "scf.condition", "func.return"):
                start = 1 if op.name == "scf.condition" else 0
                return [env.get(v) for v in op.operands[start:]], env
            if not self.step(op, env):
                return None, None  # a region that provably does not continue
        return [], env

    def _run_cfg(
        self, blocks: list[Block], env0: dict[SSAValue, Itv], args: Sequence[Itv]
    ) -> tuple[list[Itv] | None, dict[SSAValue, Itv] | None]:
        """A region with branches: in a concrete run, the blocks in the order they
        run; in an abstract run, a fixpoint of block entry environments."""
        entry: dict[Block, dict[SSAValue, Itv]] = {}
        first = dict(env0)
        self._bind(first, blocks[0].args, args)
        entry[blocks[0]] = first
        visits: dict[Block, int] = {}
        work = [blocks[0]]
        out: list[Itv] | None = None
        out_env: dict[SSAValue, Itv] | None = None
        while work:
            block = work.pop(0)
            env = dict(entry[block])
            visits[block] = visits.get(block, 0) + 1
            for op in block.ops:
                if op.name in ("func.return", "scf.yield"):
                    values = [env.get(v) for v in op.operands]
                    out = (
                        values
                        if out is None
                        else [_join(a, b) for a, b in zip(out, values, strict=True)]
                    )
                    out_env = env
                    break
                if op.name in _BRANCHES:
                    for succ, succ_env, succ_args in self._edges(op, env):
                        changed = self._merge(entry, succ, succ_env, succ_args, visits)
                        if changed and succ not in work:
                            work.append(succ)
                    break
                if not self.step(op, env):
                    break
        return out, out_env

    def _edges(self, op: Operation, env: dict[SSAValue, Itv]):
        """(successor, its environment, its block arguments) for the edges the
        branch may take."""
        if op.name == "cf.br":
            yield op.successors[0], env, [env.get(v) for v in op.operands]
            return
        if op.name == "cf.cond_br":
            cond = op.operands[0]
            known = env.get(cond)
            then_ops = list(op.then_arguments)  # type: ignore[attr-defined]
            else_ops = list(op.else_arguments)  # type: ignore[attr-defined]
            for truth, succ, operands in (
                (1, op.successors[0], then_ops),
                (0, op.successors[1], else_ops),
            ):
                if known is not None and known[0] == known[1] and known[0] != truth:
                    continue
                if self.item is not None and (known is None or known[0] != known[1]):
                    raise _Unknowable
                branch = dict(env)
                if self.assume(branch, cond, bool(truth)):
                    yield succ, branch, [branch.get(v) for v in operands]
            return
        # cf.switch: each case with its block arguments, no narrowing
        if self.item is not None:
            raise _Unknowable
        switch: Any = op
        yield (
            switch.default_block,
            env,
            [env.get(v) for v in switch.default_operands],
        )
        for k, succ in enumerate(switch.case_blocks):
            yield succ, env, [env.get(v) for v in switch.case_operand(k)]

    def _merge(self, entry, succ: Block, env, args, visits) -> bool:
        """Joins an edge into a block's entry environment; True if it changed."""
        new = dict(env)
        self._bind(new, succ.args, args)
        old = entry.get(succ)
        if old is None:
            entry[succ] = new
            return True
        if self.item is not None:
            entry[succ] = new
            return True
        changed = False
        merged: dict[SSAValue, Itv] = {}
        visited = visits.get(succ, 0)
        # Only block arguments are widened: in SSA they carry every value that
        # changes from one iteration to the next, and the others follow from
        # them; widening a value a guard narrowed would undo the guard.
        widen = set(succ.args) if visited >= _WIDEN_AFTER else set()
        thresholds = _thresholds(old) if visited < _THRESHOLD_ROUNDS else []
        for key, before in old.items():
            if key not in new:
                continue
            after = _join(before, new[key])
            if after != before:
                changed = True
                if key in widen:
                    after = self._widen(key, before, after, thresholds)
            merged[key] = after
        entry[succ] = merged
        return changed

    def _widen(
        self, v: SSAValue, before: Itv, after: Itv, thresholds: Sequence[int]
    ) -> Itv:
        """Widening: a bound that moved goes to the next of `thresholds` (the
        constants in scope, such as a loop's limit) past it, else to the end of
        the type, so that a fixpoint is reached in a few rounds."""
        w = _width(v.type)
        if w is None or before is None or after is None:
            return None
        lo, hi = after
        if lo != before[0]:
            lo = max((t for t in thresholds if t <= lo), default=_smin(w))
        if hi != before[1]:
            hi = min((t for t in thresholds if t >= hi), default=_smax(w))
        return None if (lo, hi) == _full(w) else (lo, hi)

    # -- conditions ---------------------------------------------------------------

    def assume(self, env: dict[SSAValue, Itv], cond: SSAValue, truth: bool) -> bool:
        """Narrows `env` with `cond == truth`; False if that cannot hold."""
        current = env.get(cond)
        if current is not None and current[0] == current[1]:
            return bool(current[0]) == truth
        env[cond] = (1, 1) if truth else (0, 0)
        meaning = self.conds.get(cond)
        if meaning is None:
            return True
        kind = meaning[0]
        if kind == "not":
            return self.assume(env, meaning[1], not truth)
        if kind == "and":
            return not truth or (
                self.assume(env, meaning[1], True)
                and self.assume(env, meaning[2], True)
            )
        if kind == "or":
            return truth or (
                self.assume(env, meaning[1], False)
                and self.assume(env, meaning[2], False)
            )
        _, pred, a, b = meaning
        return self._narrow(env, pred if truth else _NEGATE[pred], a, b)

    def _narrow(self, env: dict[SSAValue, Itv], pred: str, a: SSAValue, b: SSAValue):
        if pred in _SWAP:
            pred, a, b = _SWAP[pred], b, a
        w = _width(a.type)
        if w is None:
            return True
        va, vb = env.get(a), env.get(b)
        if pred == "ne":
            for x, other in ((a, vb), (b, va)):
                vx = env.get(x)
                if other is not None and other[0] == other[1] and vx is not None:
                    lo, hi = vx
                    lo += lo == other[0]
                    hi -= hi == other[0]
                    if lo > hi:
                        return False
                    env[x] = (lo, hi)
            return True
        if pred == "eq":
            both = _meet(va, vb, w)
            if both is False:
                return False
            env[a] = env[b] = both
            return True
        strict = 1 if pred in ("slt", "ult") else 0
        if pred[0] == "u":
            # unsigned a < b (or <=): with b's unsigned values below 2^(w-1), a is
            # non-negative and below b's largest; b is above a's smallest when a
            # is non-negative.
            ub = _unsigned(vb, w)
            new_a, new_b = va, vb
            if ub is not None and ub[1] <= _smax(w):
                new_a = _meet(va, (0, ub[1] - strict), w)
            ua = _unsigned(va, w)
            if ua is not None and vb is not None and vb[0] >= 0 and ua[0] <= _smax(w):
                new_b = _meet(vb, (ua[0] + strict, _smax(w)), w)
        else:
            full = _full(w)
            fa, fb = va or full, vb or full
            new_a = _meet(va, (fa[0], fb[1] - strict), w)
            new_b = _meet(vb, (fa[0] + strict, fb[1]), w)
        if new_a is False or new_b is False:
            return False
        env[a], env[b] = new_a, new_b
        for x, itv in ((a, new_a), (b, new_b)):
            tag = self.tags.get(x)
            if itv is not None and tag is not None and tag[0] == "gid":
                self.positions[tag[1]].update((itv[0] - tag[2], itv[1] - tag[2]))
        return True

    # -- ops ----------------------------------------------------------------------

    def step(self, op: Operation, env: dict[SSAValue, Itv]) -> bool:
        """Interprets one op; False if no execution continues past it."""
        self.steps[0] -= 1
        if self.steps[0] < 0:
            raise _OutOfSteps
        name = op.name
        base = _ACCESS_OPS.get(name)
        if base is not None:
            self._access(op, base, env)
        elif name in _DMA_OPS:
            self._dma(op, env)
        handler = _HANDLERS.get(name)
        if handler is not None:
            return handler(self, op, env) is not False
        if name.startswith("mux.get_") or name in (
            "mux.isftz",
            "mux.usefast",
            "mux.isembeddedprofile",
        ):
            self._query(op, env)
            return True
        if op.regions:
            raise _Unknowable  # accesses inside could be missed
        for r in op.results:
            env[r] = None
        return True

    def _access(self, op: Operation, base_name: str, env: dict[SSAValue, Itv]):
        memref = getattr(op, base_name)
        buffer = self.bounds.by_value.get(memref)
        if buffer is None:
            return
        strides = buffer.strides
        indices = list(op.indices)  # type: ignore[attr-defined]
        linear = (buffer.index, None)
        if strides is None or len(indices) != len(strides):
            self.record(linear, None)
            return
        concrete = self.item is not None
        if concrete and op.name in ("vector.maskedload", "vector.maskedstore"):
            return  # which lanes a concrete mask lets through is not tracked
        lo = hi = 0
        known = True
        for d, (index, stride, size) in enumerate(
            zip(indices, strides, buffer.dims, strict=True)
        ):
            itv = env.get(index)
            if itv is None or (concrete and itv[0] != itv[1]):
                # a concrete run records only the indices it knows exactly
                known = False
                continue
            if size is not None:
                # the first lane's index: a vector's other lanes are checked
                # against the elements, as the memory they read is contiguous
                self.record((buffer.index, d), itv)
            lo += min(itv[0] * stride, itv[1] * stride)
            hi += max(itv[0] * stride, itv[1] * stride)
        # Indices are exact integers: an element index past 2^63 (whose byte
        # address wraps) is as far outside any array as it says.
        self.record(linear, (lo, hi + _lanes(op) - 1) if known else None)

    def _dma(self, op: Any, env: dict[SSAValue, Itv]) -> None:
        """A DMA transfer: the elements of each side's buffer that its bytes
        cover (`_dma_bytes`)."""

        def size(name: str) -> Itv:
            return _unsigned(env.get(getattr(op, name)), 64)

        width = size("width")
        for pointer, side in ((op.dst, "dst"), (op.src, "src")):
            buffer = self.bounds.by_value.get(pointer)
            offset: Itv = (0, 0)
            if buffer is None:
                index = self.bounds.pointers.get(pointer)
                if index is None:
                    continue
                buffer, offset = self.bounds.buffers[index], env.get(pointer)
            if op.name.endswith("_1d"):
                lines: list[tuple[Itv, Itv]] = []
            elif op.name.endswith("_2d"):
                lines = [(size("height"), size(f"{side}_stride"))]
            else:
                lines = [
                    (size("height"), size(f"{side}_line_stride")),
                    (size("depth"), size(f"{side}_plane_stride")),
                ]
            key = (buffer.index, None)
            values = [offset, width, *(v for line in lines for v in line)]
            if self.item is not None and not all(_exact(v) for v in values):
                continue  # a concrete run records only what it knows exactly
            span = _dma_bytes(offset, width, lines)
            if span is False:
                continue  # no byte is copied
            if span is None:
                self.record(key, None)
                continue
            itemsize = buffer.itemsize
            self.record(key, (span[0] // itemsize, span[1] // itemsize))

    def _query(self, op: Operation, env: dict[SSAValue, Itv]) -> None:
        launch, name = self.launch, op.name[len("mux.") :]
        result = op.results[0]
        if op.operands:
            dims = _dims(env.get(op.operands[0]))
            itv: Itv | bool = False
            for d in dims:
                one = self._ranked(name, d)
                itv = one if itv is False else _join(itv, one)  # type: ignore[arg-type]
            env[result] = itv if itv is not False else None
            if len(dims) == 1 and dims[0] < 3 and self.item is None:
                self._tag_query(name, dims[0], result)
            return
        g, lsz = launch.global_size, launch.local_size
        if name == "get_work_dim":
            env[result] = (launch.work_dim, launch.work_dim)
        elif name == "get_global_linear_id":
            if self.item is not None:
                p = self.item.position
                lin = (p[2] * g[1] + p[1]) * g[0] + p[0]
                env[result] = (lin, lin)
            else:
                env[result] = _fit(0, math.prod(g) - 1, 64)
        elif name == "get_local_linear_id":
            if self.item is not None:
                ids = [self._concrete(d)[1] for d in range(3)]
                sizes = [self._concrete(d)[3] for d in range(3)]
                lin = (ids[2] * sizes[1] + ids[1]) * sizes[0] + ids[0]
                env[result] = (lin, lin)
            else:
                most = math.prod(min(lsz[d], g[d]) for d in range(3))
                env[result] = (0, most - 1)
        else:
            env[result] = None

    def _concrete(self, d: int) -> tuple[int, int, int, int]:
        """(global id without offset, local id, group id, local size) of the run's
        work-item in dimension d."""
        assert self.item is not None
        launch = self.launch
        pos, size = self.item.position[d], launch.local_size[d]
        group = pos // size
        actual = size if group < launch.groups(d) - 1 else launch.last_size(d)
        return pos, pos % size, group, actual

    def _ranked(self, name: str, d: int) -> Itv:
        """A query of dimension d: its value (concrete run) or range."""
        launch = self.launch
        if d >= 3:
            one = 1 if name.endswith(("_size", "num_groups")) else 0
            return (one, one)
        g, size, off = (
            launch.global_size[d],
            launch.local_size[d],
            launch.global_offset[d],
        )
        n = launch.groups(d)
        if name == "get_global_size":
            return (g, g)
        if name == "get_global_offset":
            return (off, off)
        if name == "get_enqueued_local_size":
            return (size, size)
        if name == "get_num_groups":
            return (n, n)
        if self.item is not None:
            pos, local, group, actual = self._concrete(d)
            value = {
                "get_global_id": off + pos,
                "get_local_id": local,
                "get_group_id": group,
                "get_local_size": actual,
            }.get(name)
            return None if value is None else _fit(value, value, 64)
        if name == "get_global_id":
            return _fit(off, off + g - 1, 64)
        if name == "get_local_id":
            return (0, min(size, g) - 1)
        if name == "get_group_id":
            return (0, n - 1)
        if name == "get_local_size":
            last = launch.last_size(d)
            return (last, size if n > 1 else last)
        return None

    def _tag_query(self, name: str, d: int, result: SSAValue) -> None:
        launch = self.launch
        if name == "get_global_id":
            self.tags[result] = ("gid", d, launch.global_offset[d])
        elif name == "get_local_id":
            self.tags[result] = ("lid", d)
        elif name == "get_group_id":
            self.tags[result] = ("grp", d)
        elif name == "get_enqueued_local_size" or (
            name == "get_local_size" and launch.last_size(d) == launch.local_size[d]
        ):
            self.tags[result] = ("els", d)

    def _tag_range(self, tag: tuple) -> Itv:
        launch = self.launch
        kind, d, k = tag
        if kind == "gid":
            return _fit(k, k + launch.global_size[d] - 1, 64)
        return _fit(k, k + (launch.groups(d) - 1) * launch.local_size[d], 64)

    def _tag_binary(self, op: Operation, env: dict[SSAValue, Itv]) -> None:
        """Derives the relation of an addi/subi/muli result with the ids, and
        narrows its interval with it."""
        a, b = op.operands
        # a relation holds for every evaluation or not at all: derive it anew
        # (in a loop, an operand constant in the first round may not be later)
        self.tags.pop(op.results[0], None)
        ta, tb = self.tags.get(a), self.tags.get(b)
        if ta is None and tb is None:
            return
        va, vb = env.get(a), env.get(b)
        const_a = va is not None and va[0] == va[1]
        const_b = vb is not None and vb[0] == vb[1]
        tag = None
        if op.name == "arith.muli":
            kinds = {ta and ta[0]: ta, tb and tb[0]: tb}
            if "grp" in kinds and "els" in kinds and ta[1] == tb[1]:  # type: ignore[index]
                tag = ("start", ta[1], 0)  # type: ignore[index]
        elif op.name == "arith.addi":
            for x, y, const_y, vy in ((ta, tb, const_b, vb), (tb, ta, const_a, va)):
                if x is None or x[0] not in ("gid", "start"):
                    continue
                if x[0] == "start" and y is not None and y == ("lid", x[1]):
                    tag = ("gid", x[1], x[2])
                elif const_y:
                    tag = (x[0], x[1], x[2] + vy[0])  # type: ignore[index]
        elif op.name == "arith.subi" and ta is not None and ta[0] in ("gid", "start"):
            if ta[0] == "gid" and tb == ("lid", ta[1]):
                tag = ("start", ta[1], ta[2])
            elif const_b:
                tag = (ta[0], ta[1], ta[2] - vb[0])  # type: ignore[index]
        if tag is None:
            return
        result = op.results[0]
        self.tags[result] = tag
        exact = self._tag_range(tag)
        if exact is not None:
            narrowed = _meet(env.get(result), exact, 64)
            env[result] = narrowed if narrowed is not False else exact


# -- op semantics ------------------------------------------------------------------


def _exact(v: Itv) -> bool:
    return v is not None and v[0] == v[1]


def _dims(dim: Itv) -> list[int]:
    """The dimensions a query's i32 operand may name; 3 stands for any out of
    range (unsigned: a negative one is out of range too)."""
    if dim is None or dim[1] - dim[0] > 3:
        return [0, 1, 2, 3]
    return sorted({d if 0 <= d < 3 else 3 for d in range(dim[0], dim[1] + 1)})


def _constant(self: _Interp, op: Operation, env) -> None:
    w = _width(op.results[0].type)
    value = op.properties.get("value", op.attributes.get("value"))
    if w is None or not isinstance(value, IntegerAttr):
        env[op.results[0]] = None
        return
    v = value.value.data
    if w == 1:
        v &= 1
    else:
        v %= 1 << w
        v = v - (1 << w) if v > _smax(w) else v
    env[op.results[0]] = (v, v)


def _binary(fn: Callable[[Itv, Itv, int], Itv]):
    def handler(self: _Interp, op: Operation, env) -> None:
        result = op.results[0]
        w = _width(result.type)
        if w is None:
            env[result] = None
            return
        a, b = (env.get(v) for v in op.operands)
        if w == 1:
            env[result] = _bool_op(op.name, a, b)
            self.conds.pop(result, None)
            if op.name in ("arith.andi", "arith.ori"):
                self.conds[result] = (op.name[6:-1], *op.operands)
            elif op.name == "arith.xori":
                for x, y in ((a, op.operands[1]), (b, op.operands[0])):
                    if x == (1, 1):
                        self.conds[result] = ("not", y)
            return
        if _exact(a) and _exact(b):
            # one value: computed as the op does, wrapping in its type
            env[result] = _exact_binary(op.name, a[0], b[0], w)  # type: ignore[index]
        else:
            env[result] = fn(a, b, w)
        if self.item is None and op.name in ("arith.addi", "arith.subi", "arith.muli"):
            self._tag_binary(op, env)

    return handler


def _wrap(v: int, w: int) -> int:
    """`v` as the signed value of its low `w` bits (i1: 0 or 1)."""
    v %= 1 << w
    return v if w == 1 or v <= _smax(w) else v - (1 << w)


def _exact_binary(name: str, x: int, y: int, w: int) -> Itv:
    """An integer op of `_HANDLERS` on one value each: its result as the op
    computes it (two's complement, wrapping), None where it is undefined (a
    division by 0 or of the smallest value by -1, a shift by the width or more)."""
    m = 1 << w
    ux, uy = x % m, y % m
    if name in ("arith.divsi", "arith.remsi") and (
        y == 0 or (x == _smin(w) and y == -1)
    ):
        return None
    if name in ("arith.divui", "arith.remui", "arith.ceildivui") and uy == 0:
        return None
    if name in ("arith.shli", "arith.shrsi", "arith.shrui") and uy >= w:
        return None
    r = {
        "arith.addi": lambda: x + y,
        "arith.subi": lambda: x - y,
        "arith.muli": lambda: x * y,
        "arith.divsi": lambda: _trunc_div(x, y),
        "arith.remsi": lambda: x - _trunc_div(x, y) * y,
        "arith.divui": lambda: ux // uy,
        "arith.remui": lambda: ux % uy,
        "arith.ceildivui": lambda: -(-ux // uy),
        "arith.minsi": lambda: min(x, y),
        "arith.maxsi": lambda: max(x, y),
        "arith.minui": lambda: min(ux, uy),
        "arith.maxui": lambda: max(ux, uy),
        "arith.andi": lambda: ux & uy,
        "arith.ori": lambda: ux | uy,
        "arith.xori": lambda: ux ^ uy,
        "arith.shli": lambda: x << uy,
        "arith.shrsi": lambda: x >> uy,
        "arith.shrui": lambda: ux >> uy,
    }[name]()
    r = _wrap(r, w)
    return (r, r)


def _bool_op(name: str, a: Itv, b: Itv) -> Itv:
    if a is None or b is None or a[0] != a[1] or b[0] != b[1]:
        if name == "arith.andi" and (a == (0, 0) or b == (0, 0)):
            return (0, 0)
        if name == "arith.ori" and (a == (1, 1) or b == (1, 1)):
            return (1, 1)
        return (0, 1)
    x, y = a[0], b[0]
    r = {"arith.andi": x & y, "arith.ori": x | y, "arith.xori": x ^ y}.get(name)
    return (0, 1) if r is None else (r, r)


def _add(a: Itv, b: Itv, w: int) -> Itv:
    return None if a is None or b is None else _fit(a[0] + b[0], a[1] + b[1], w)


def _sub(a: Itv, b: Itv, w: int) -> Itv:
    return None if a is None or b is None else _fit(a[0] - b[1], a[1] - b[0], w)


def _mul(a: Itv, b: Itv, w: int) -> Itv:
    return _corners(lambda x, y: x * y, a, b, w)


def _divsi(a: Itv, b: Itv, w: int) -> Itv:
    if b is None or b[0] <= 0 <= b[1]:
        return None
    return _corners(_trunc_div, a, b, w)


def _remsi(a: Itv, b: Itv, w: int) -> Itv:
    if a is None or b is None or b[0] <= 0 <= b[1]:
        return None
    if a[0] == a[1] and b[0] == b[1]:
        r = a[0] - _trunc_div(a[0], b[0]) * b[0]
        return (r, r)
    m = max(abs(b[0]), abs(b[1])) - 1
    return (max(a[0], -m) if a[0] < 0 else 0, min(a[1], m) if a[1] > 0 else 0)


def _unsigned_op(fn: Callable[[tuple[int, int], tuple[int, int]], Itv]):
    def op(a: Itv, b: Itv, w: int) -> Itv:
        ua, ub = _unsigned(a, w), _unsigned(b, w)
        if ua is None or ub is None:
            return None
        r = fn(ua, ub)
        return None if r is None else _from_unsigned(r[0], r[1], w)

    return op


def _udiv(a: tuple[int, int], b: tuple[int, int]) -> Itv:
    return None if b[0] == 0 else (a[0] // b[1], a[1] // b[0])


def _urem(a: tuple[int, int], b: tuple[int, int]) -> Itv:
    if b[0] == 0:
        return None
    if a[0] == a[1] and b[0] == b[1]:
        return (a[0] % b[0], a[0] % b[0])
    if a[1] < b[0]:
        return a
    return (0, min(a[1], b[1] - 1))


def _uceil(a: tuple[int, int], b: tuple[int, int]) -> Itv:
    return None if b[0] == 0 else (-(-a[0] // b[1]), -(-a[1] // b[0]))


def _and(a: Itv, b: Itv, w: int) -> Itv:
    if a is not None and b is not None and a[0] == a[1] and b[0] == b[1]:
        return _fit(a[0] & b[0], a[0] & b[0], w)
    highs = [x[1] for x in (a, b) if x is not None and x[0] >= 0]
    return (0, min(highs)) if highs else None


def _or_xor(name: str):
    def op(a: Itv, b: Itv, w: int) -> Itv:
        if a is None or b is None or a[0] < 0 or b[0] < 0:
            return None
        if a[0] == a[1] and b[0] == b[1]:
            r = a[0] | b[0] if name == "or" else a[0] ^ b[0]
            return (r, r)
        top = (1 << max(a[1], b[1]).bit_length()) - 1
        return (0, top)

    return op


def _shl(a: Itv, b: Itv, w: int) -> Itv:
    if b is None or b[0] < 0 or b[1] >= w:
        return None
    return _corners(lambda x, y: x << y, a, b, w)


def _shrsi(a: Itv, b: Itv, w: int) -> Itv:
    if b is None or b[0] < 0 or b[1] >= w:
        return None
    return _corners(lambda x, y: x >> y, a, b, w)


def _shrui(a: Itv, b: Itv, w: int) -> Itv:
    if b is None or b[0] < 0 or b[1] >= w:
        return None
    ua = _unsigned(a, w)
    if ua is None:
        return (0, _smax(w)) if b[0] >= 1 else None
    return _from_unsigned(ua[0] >> b[1], ua[1] >> b[0], w)


def _minmax(fn):
    """minsi/maxsi: monotonic in both operands; an unknown operand is the whole
    signed range (min(x, n - 1) is at most n - 1 whatever x is)."""

    def op(a: Itv, b: Itv, w: int) -> Itv:
        a, b = a or _full(w), b or _full(w)
        lo, hi = fn(a[0], b[0]), fn(a[1], b[1])
        return None if (lo, hi) == _full(w) else (lo, hi)

    return op


def _cmpi(self: _Interp, op: Operation, env) -> None:
    pred = _PREDICATES[op.predicate.value.data]  # type: ignore[attr-defined]
    a, b = op.operands
    w = _width(a.type)
    result = op.results[0]
    if w is None:
        env[result] = (0, 1)
        return
    env[result] = _decide(pred, env.get(a), env.get(b), w)
    self.conds[result] = ("cmp", pred, a, b)


def _select(self: _Interp, op: Operation, env) -> None:
    cond, t, f = op.operands
    c = env.get(cond)
    if c is not None and c[0] == c[1]:
        env[op.results[0]] = env.get(t if c[0] else f)
    else:
        env[op.results[0]] = _join(env.get(t), env.get(f))


def _cast(kind: str):
    def handler(self: _Interp, op: Operation, env) -> None:
        src, result = op.operands[0], op.results[0]
        ws, wr = _width(src.type), _width(result.type)
        if ws is None or wr is None:
            env[result] = None
            return
        v = env.get(src)
        if kind == "zext":
            u = _unsigned(v, ws)
            if u is None:
                u = (0, (1 << ws) - 1)
            env[result] = _from_unsigned(u[0], u[1], wr)
        elif kind == "sext" and ws == 1:
            env[result] = None if v is None else (-v[1], -v[0])
        elif v is None:
            env[result] = None
        elif v[0] == v[1]:
            env[result] = (_wrap(v[0], wr), _wrap(v[0], wr))
        else:
            env[result] = _fit(v[0], v[1], wr)  # sign-extension or truncation

    return handler


def _scf_if(self: _Interp, op: Operation, env) -> bool:
    cond = op.operands[0]
    known = env.get(cond)
    out: list[Itv] | None = None
    reached = False
    for truth, region in ((True, op.regions[0]), (False, op.regions[1])):
        if known is not None and known[0] == known[1] and bool(known[0]) != truth:
            continue
        if self.item is not None and (known is None or known[0] != known[1]):
            raise _Unknowable
        branch = dict(env)
        if not self.assume(branch, cond, truth):
            continue
        if not region.blocks:
            values: list[Itv] | None = []
        else:
            values, _ = self.run_region(region, branch, [])
        if values is None:
            continue
        reached = True
        out = (
            values
            if out is None
            else [_join(a, b) for a, b in zip(out, values, strict=True)]
        )
    if not reached:
        return False
    for r, v in zip(op.results, out or [], strict=True):
        env[r] = v
    return True


def _thresholds(env: dict[SSAValue, Itv]) -> list[int]:
    """The constants of an environment: where widening stops first."""
    return sorted({v[0] for v in env.values() if v is not None and v[0] == v[1]})


def _fixpoint(
    self: _Interp,
    values: Sequence[SSAValue],
    state: list[Itv],
    body,
    env: dict[SSAValue, Itv],
):
    """Joins `body(state)` into `state` until it is stable: the loop-carried
    values of an abstract loop entered with `env`."""
    rounds = 0
    thresholds = _thresholds(env)
    while True:
        new = body(state)
        if new is None:
            return state
        joined = [_join(a, b) for a, b in zip(state, new, strict=True)]
        if joined == state:
            return state
        rounds += 1
        if rounds >= _WIDEN_AFTER:
            if rounds >= _THRESHOLD_ROUNDS:
                thresholds = []
            joined = [
                self._widen(v, a, b, thresholds)
                for v, a, b in zip(values, state, joined, strict=True)
            ]
        state = joined


def _scf_for(self: _Interp, op: Any, env) -> bool:
    lb, ub, step = env.get(op.lb), env.get(op.ub), env.get(op.step)
    inits = [env.get(v) for v in op.iter_args]
    body = op.body
    iv = body.blocks[0].args[0]
    if self.item is not None:
        if not all(_exact(v) for v in (lb, ub, step)):
            raise _Unknowable
        i, state = lb[0], inits
        while i < ub[0]:
            values, _ = self.run_region(body, env, [(i, i), *state])
            if values is None:
                return False
            state = values
            i += step[0]
            if step[0] <= 0:
                raise _Unknowable
        for r, v in zip(op.results, state, strict=True):
            env[r] = v
        return True
    w = _width(iv.type) or 64
    if lb is not None and ub is not None and step is not None and step[0] >= 1:
        if ub[1] - 1 < lb[0]:
            for r, v in zip(op.results, inits, strict=True):
                env[r] = v
            return True
        ivr = _fit(lb[0], ub[1] - 1, w)
    else:
        ivr = None

    def run(state: list[Itv]) -> list[Itv] | None:
        values, _ = self.run_region(body, env, [ivr, *state])
        return values

    final = _fixpoint(self, list(body.blocks[0].args[1:]), inits, run, env)
    for r, v in zip(op.results, final, strict=True):
        env[r] = v
    return True


def _scf_while(self: _Interp, op: Any, env) -> bool:
    before, after = op.before_region, op.after_region
    condition = before.blocks[0].last_op
    inits = [env.get(v) for v in op.arguments]
    exits: list[list[Itv]] = []

    def run(state: list[Itv]) -> list[Itv] | None:
        _, benv = self.run_region(before, env, state)
        if benv is None:
            return None
        cond = condition.operands[0]
        forwarded = list(condition.operands[1:])
        leave = dict(benv)
        if self.assume(leave, cond, False):
            exits.append([leave.get(v) for v in forwarded])
        stay = dict(benv)
        if not self.assume(stay, cond, True):
            return None
        values, _ = self.run_region(after, stay, [stay.get(v) for v in forwarded])
        return values

    if self.item is not None:
        state = inits
        while True:
            _, benv = self.run_region(before, env, state)
            if benv is None:
                return False
            c = benv.get(condition.operands[0])
            if c is None or c[0] != c[1]:
                raise _Unknowable
            forwarded = [benv.get(v) for v in condition.operands[1:]]
            if not c[0]:
                for r, v in zip(op.results, forwarded, strict=True):
                    env[r] = v
                return True
            state, _ = self.run_region(after, benv, forwarded)
            if state is None:
                return False
    _fixpoint(self, list(before.blocks[0].args), inits, run, env)
    if not exits:
        return False
    out = exits[0]
    for more in exits[1:]:
        out = [_join(a, b) for a, b in zip(out, more, strict=True)]
    for r, v in zip(op.results, out, strict=True):
        env[r] = v
    return True


def _bare_pointer(self: _Interp, op: Operation, env) -> None:
    """A buffer's memref cast to its bare pointer: offset 0 in it."""
    result = op.results[0]
    env[result] = (0, 0) if result in self.bounds.pointers else None


def _gep(self: _Interp, op: Any, env) -> None:
    """`llvm.getelementptr` of a pointer into a buffer with one index over a
    scalar element type: the offset moves by index * the element's size."""
    result = op.results[0]
    env[result] = None
    raw = list(op.rawConstantIndices.iter_values())
    size = _scalar_size(op.elem_type)
    if result not in self.bounds.pointers or len(raw) != 1 or size is None:
        return
    if raw[0] == GEP_USE_SSA_VAL:
        index = env.get(op.ssa_indices[0])
    else:
        index = (raw[0], raw[0])
    base = env.get(op.ptr)
    if _exact(base) and _exact(index):
        offset = _wrap(base[0] + index[0] * size, 64)  # type: ignore[index]
        env[result] = (offset, offset)
    else:
        env[result] = _add(base, _mul(index, (size, size), 64), 64)


_HANDLERS: dict[str, Callable[[_Interp, Operation, dict], Any]] = {
    "arith.constant": _constant,
    "arith.addi": _binary(_add),
    "arith.subi": _binary(_sub),
    "arith.muli": _binary(_mul),
    "arith.divsi": _binary(_divsi),
    "arith.remsi": _binary(_remsi),
    "arith.divui": _binary(_unsigned_op(_udiv)),
    "arith.remui": _binary(_unsigned_op(_urem)),
    "arith.ceildivui": _binary(_unsigned_op(_uceil)),
    "arith.minsi": _binary(_minmax(min)),
    "arith.maxsi": _binary(_minmax(max)),
    "arith.minui": _binary(
        _unsigned_op(lambda a, b: (min(a[0], b[0]), min(a[1], b[1])))
    ),
    "arith.maxui": _binary(
        _unsigned_op(lambda a, b: (max(a[0], b[0]), max(a[1], b[1])))
    ),
    "arith.andi": _binary(_and),
    "arith.ori": _binary(_or_xor("or")),
    "arith.xori": _binary(_or_xor("xor")),
    "arith.shli": _binary(_shl),
    "arith.shrsi": _binary(_shrsi),
    "arith.shrui": _binary(_shrui),
    "arith.cmpi": _cmpi,
    "arith.select": _select,
    "arith.index_cast": _cast("sext"),
    "arith.extsi": _cast("sext"),
    "arith.trunci": _cast("trunc"),
    "arith.extui": _cast("zext"),
    "builtin.unrealized_conversion_cast": _bare_pointer,
    "llvm.getelementptr": _gep,
    "scf.if": _scf_if,
    "scf.for": _scf_for,
    "scf.while": _scf_while,
}


# -- the per-kernel analysis -------------------------------------------------------


def _buffer_args(fn: func.FuncOp, params: Sequence[Param]):
    """(position among the runtime's parameters, block argument) of each parameter,
    skipping the module-scope variables' buffer as `kernel_params` does."""
    local_vars = mux_attrs.LOCAL_VARS_PARAM.get(fn)
    hidden = -1 if local_vars is None else local_vars.index
    args = [a for i, a in enumerate(fn.args) if i != hidden]
    return list(zip(range(len(params)), args, strict=True))


_DMA_OPS = (
    "mux.dma_read_1d",
    "mux.dma_read_2d",
    "mux.dma_read_3d",
    "mux.dma_write_1d",
    "mux.dma_write_2d",
    "mux.dma_write_3d",
)
"""The DMA transfers: `dst` and `src` are a memref or a pointer, sizes and strides
in bytes (`_dma_bytes`)."""


def _follow(value: SSAValue, index: int, pointers: dict[SSAValue, int]) -> bool:
    """Whether every use of buffer `index`'s memref or pointer `value` is one the
    analysis evaluates: the memref of an access, an operand `dst`/`src` of a DMA
    transfer, a cast of the memref to its bare pointer, a `llvm.getelementptr` of
    the pointer. Records in `pointers` which buffer each derived pointer is into."""
    for use in value.uses:
        op = use.operation
        name = op.name
        base = _ACCESS_OPS.get(name)
        if base is not None:
            if getattr(op, base) is not value:
                return False
            if name in ("memref.store", "atomic.store") and op.operands[0] is value:
                return False
            continue
        if name in _DMA_OPS:
            if use.index > 1:  # a size: not a pointer
                return False
            continue
        derived = (
            name == "builtin.unrealized_conversion_cast"
            and len(op.operands) == 1
            and len(op.results) == 1
        ) or (name == "llvm.getelementptr" and use.index == 0)
        if not derived:
            return False
        pointers[op.results[0]] = index
        if not _follow(op.results[0], index, pointers):
            return False
    return True


def _type_text(type_: MemRefType) -> str:
    """A memref type as a kernel writes it (`memref<?x8xf32, 1>`)."""
    space = address_space_of(type_)
    dims = "".join("?x" if d == DYNAMIC_INDEX else f"{d}x" for d in type_.get_shape())
    return f"memref<{dims}{type_.element_type}{f', {space}' if space else ''}>"


def _variable_label(op: Operation, type_: MemRefType) -> str:
    """How a message names a variable: "local variable 'tile'
    (memref<16x16xf32, 3>)", "private array 'acc' (memref<4xi32>)"."""
    space = address_space_of(type_)
    text = _type_text(type_)
    if op.name == "memref.get_global":
        name = op.properties["name"].string_value()  # type: ignore[attr-defined]
        kind = "local variable" if space == ADDRESS_SPACE_LOCAL else "variable"
        return f"{kind} '{name}' ({text})"
    hint = op.results[0].name_hint
    named = f" '{hint}'" if hint else ""
    return f"private array{named} ({text})"


@dataclass
class _Shape:
    """The analysis of one launch shape: per key, the may-range, and the
    must-range once a concrete run was needed."""

    may: dict[Key, Itv]
    positions: list[set[int]]
    """The global ids at the edges of guards (`_Interp.positions`)."""
    checks: tuple[tuple[Key, int], ...]
    """(key, elements needed) of the parameters whose may-range is known and
    starts at 0 or later: the fast path of `check`."""
    doubtful: tuple[Key, ...]
    """Keys whose may-range is unknown or may be negative, and those of a fixed
    size (variables, static dimensions) it may pass."""
    must: dict[Key, Itv] | None = None
    who: dict[Key, tuple[WorkItem, WorkItem]] = field(default_factory=dict)
    """The work-items that reached the ends of each must-range."""


class KernelBounds:
    """The access analysis of one kernel, prepared once; `check` per launch."""

    def __init__(self, fn: func.FuncOp, params: Sequence[Param]):
        self.function = fn
        self.params = list(params)
        self.buffers: list[_Buffer] = []
        self.by_value: dict[SSAValue, _Buffer] = {}
        """The buffer each memref names."""
        self.pointers: dict[SSAValue, int] = {}
        """The buffer (index) each pointer derived from a buffer's memref is into:
        its value in an environment is its offset in bytes."""
        self.scalars: list[tuple[int, int, int]] = []
        """(position, argument number, width) of the integer scalar parameters."""
        declared = fn.is_declaration  # nothing to analyse (and no arguments)
        for position, arg in [] if declared else _buffer_args(fn, self.params):
            type_ = arg.type
            param = self.params[position]
            if isinstance(type_, MemRefType):
                buffer = self._add(f"argument '{param.name}'", type_, [arg])
                buffer.position, buffer.param = position, param
            elif (w := _width(type_)) is not None:
                self.scalars.append((position, arg.index, w))
        globals_: dict[str, list[SSAValue]] = {}
        for op in [] if declared else fn.walk():
            if op.name not in ("memref.get_global", "memref.alloca"):
                continue
            type_ = op.results[0].type
            if not isinstance(type_, MemRefType) or any(
                d == DYNAMIC_INDEX for d in type_.get_shape()
            ):
                continue
            if op.name == "memref.get_global":
                name = op.properties["name"].string_value()  # type: ignore[attr-defined]
                if name in globals_:
                    globals_[name].append(op.results[0])
                    continue
                globals_[name] = [op.results[0]]
            buffer = self._add(_variable_label(op, type_), type_, [op.results[0]])
            buffer.fixed = math.prod(type_.get_shape())
            if op.name == "memref.get_global":
                buffer.values = globals_[name]  # later get_globals join it
        for buffer in self.buffers:
            for value in buffer.values:
                self.by_value[value] = buffer
                if not _follow(value, buffer.index, self.pointers):
                    buffer.escapes = True
        self._cache: dict[tuple, _Shape] = {}
        self._body_ok = not declared

    def _add(self, label: str, type_: MemRefType, values: list[SSAValue]) -> _Buffer:
        buffer = _Buffer(
            len(self.buffers),
            label,
            type_,
            _strides(type_),
            _itemsize(type_.element_type),
            values=values,
        )
        self.buffers.append(buffer)
        return buffer

    def analyse(self, launch: Launch) -> dict[int, Itv]:
        """Per buffer parameter position, the interval of element indices the
        kernel may access in `launch` (absent: none; None: unknown)."""
        return self._by_position(self._abstract(launch)[0])

    def analyse_all(self, launch: Launch) -> dict[Key, Itv]:
        """`analyse` for every key (`Key`): parameters, variables, dimensions."""
        return self._abstract(launch)[0]

    def _by_position(self, found: dict[Key, Itv]) -> dict[int, Itv]:
        return {
            b.position: found[(b.index, None)]
            for b in self.buffers
            if b.param is not None and (b.index, None) in found
        }

    def _abstract(self, launch: Launch) -> tuple[dict[Key, Itv], list[set[int]]]:
        """`analyse_all`, and the global ids at the edges of the guards it met."""
        interp = _Interp(self, launch, None, [_ANALYSIS_STEPS])
        env = self._entry_env(launch)
        unknown: dict[Key, Itv] = {(b.index, None): None for b in self.buffers}
        try:
            if self._body_ok:
                interp.run_region(
                    self.function.body, env, [env.get(a) for a in self.function.args]
                )
        except (_Unknowable, _OutOfSteps, RecursionError):
            return unknown, interp.positions
        except Exception:
            # IR the interpreter was not written for (the verifier lets through
            # more than level 1 uses): a check that cannot run must not refuse a
            # launch, so every buffer is unknown, as before this check existed
            return unknown, interp.positions
        result = dict(interp.accessed)
        for b in self.buffers:
            if b.escapes:
                result[(b.index, None)] = None
        return result, interp.positions

    def witness(self, launch: Launch) -> dict[int, Itv]:
        """Per buffer parameter position, the indices that concrete work-items of
        `launch` provably access (`_witness`); absent if none was found."""
        return self._by_position(self._witness(launch)[0])

    def witness_all(self, launch: Launch) -> dict[Key, Itv]:
        """`witness` for every key (`Key`)."""
        return self._witness(launch)[0]

    def _witness(
        self,
        launch: Launch,
        positions: list[set[int]] | None = None,
        goal: dict[Key, Itv] | None = None,
    ) -> tuple[dict[Key, Itv], dict[Key, tuple[WorkItem, WorkItem]]]:
        """Per key, the indices that concrete work-items of `launch` provably
        access, and the work-items that reached the lowest and the highest. The
        work-items tried are, in each dimension, the first and last of the range
        and of the first and last work-groups, and those at the edges of the guards
        on global ids the abstract run met (`positions`; computed if not given).
        The runs stop once they have reached the ends of `goal` (the may-ranges:
        no run can go further) for every key it has."""
        if positions is None:
            positions = self._abstract(launch)[1]
        steps = [_WITNESS_STEPS]
        found: dict[Key, Itv] = {}
        who: dict[Key, tuple[WorkItem, WorkItem]] = {}
        env = self._entry_env(launch)
        for item in _candidates(launch, positions):
            interp = _Interp(self, launch, item, steps)
            try:
                interp.run_region(
                    self.function.body, env, [env.get(a) for a in self.function.args]
                )
            except (_Unknowable, RecursionError):
                pass
            except _OutOfSteps:
                _merge_found(found, who, interp.accessed, item)
                break
            except Exception:
                # as in `_abstract`: a run that went wrong witnesses nothing
                continue
            _merge_found(found, who, interp.accessed, item)
            if goal and all(_covers(found.get(k), want) for k, want in goal.items()):
                break
        return found, who

    def _entry_env(self, launch: Launch) -> dict[SSAValue, Itv]:
        env: dict[SSAValue, Itv] = {}
        for position, index, _ in self.scalars:
            value = launch.scalars.get(position)
            if value is not None:
                env[self.function.args[index]] = (value, value)
        return env

    def _capacity(self, key: Key) -> int | None:
        """The elements (or a dimension's size) a key has whatever the arguments
        are; None for a parameter's elements (its argument's)."""
        buffer = self.buffers[key[0]]
        if key[1] is not None:
            return buffer.dims[key[1]]
        return buffer.fixed

    def _shape(self, key: tuple, launch: Launch) -> _Shape:
        may, positions = self._abstract(launch)
        checks, doubtful = [], []
        for k, itv in may.items():
            fixed = self._capacity(k)
            if itv is None or itv[0] < 0 or (fixed is not None and itv[1] >= fixed):
                doubtful.append(k)
            elif fixed is None:
                checks.append((k, itv[1] + 1))
        shape = _Shape(may, positions, tuple(checks), tuple(doubtful))
        if len(self._cache) >= _CACHE_SIZE:
            self._cache.clear()
        self._cache[key] = shape
        return shape

    def check(
        self,
        args: Sequence[Any],
        global_size: tuple[int, ...],
        local_size: tuple[int, ...],
        global_offset: tuple[int, ...],
    ) -> None:
        """LaunchError if the launch provably accesses an array, a local buffer or
        a variable outside its elements, or a static dimension outside its size.
        `args` are the launch's arguments, already checked against the parameters
        (`Param.pack`)."""
        if not self.buffers:
            return
        scalars = tuple(_signed(args[position], w) for position, _, w in self.scalars)
        key = (global_size, local_size, global_offset, scalars)
        shape = self._cache.get(key)
        if shape is None:
            shape = self._shape(key, self._launch(key))
        short = [k for k, need in shape.checks if self._elements(args, k) < need]
        if not short and not shape.doubtful:
            return
        launch = self._launch(key)
        if shape.must is None:
            shape.must, shape.who = self._witness(launch, shape.positions, shape.may)
        for k in (*short, *shape.doubtful):
            self._refuse(args, k, shape, launch)

    def _launch(self, key: tuple) -> Launch:
        global_size, local_size, global_offset, scalars = key
        return Launch.of(
            global_size,
            local_size,
            global_offset,
            {p: v for (p, _, _), v in zip(self.scalars, scalars, strict=True)},
        )

    def _elements(self, args: Sequence[Any], key: Key) -> int:
        fixed = self._capacity(key)
        if fixed is not None:
            return fixed
        buffer = self.buffers[key[0]]
        value = args[buffer.position]
        if isinstance(value, LocalBuffer):
            return value.nbytes // buffer.itemsize
        return value.size

    def _refuse(
        self, args: Sequence[Any], key: Key, shape: _Shape, launch: Launch
    ) -> None:
        """LaunchError if a concrete run accessed `key` outside its elements."""
        assert shape.must is not None
        must = shape.must.get(key)
        if must is None:
            return
        buffer = self.buffers[key[0]]
        has = self._elements(args, key)
        low, high = shape.who[key]
        dim = key[1]
        label = buffer.label
        if dim is not None and buffer.param is not None:
            label += f" ({_type_text(buffer.type)})"
        if must[0] < 0:
            item = _describe(launch, low, buffer.fixed is not None)
            if dim is not None:
                raise LaunchError(
                    f"{label}: {item} uses index {must[0]} in its "
                    f"dimension {dim}, which has {has}"
                )
            raise LaunchError(
                f"{buffer.label}: the launch accesses its element {must[0]}, "
                f"before the first ({item})"
            )
        if must[1] < has:
            return
        item = _describe(launch, high, buffer.fixed is not None)
        if dim is not None:
            raise LaunchError(
                f"{label}: {item} uses index {must[1]} in its dimension "
                f"{dim}, which has {has}"
            )
        if buffer.fixed is not None:
            raise LaunchError(
                f"{buffer.label}: {item} accesses element {must[1]}, it has {has}"
            )
        may = shape.may.get(key)
        need = must[1] + 1
        exactly = "" if may is not None and may[1] + 1 == need else "at least "
        value = args[buffer.position]
        if isinstance(value, LocalBuffer):
            raise LaunchError(
                f"{buffer.label}: a local buffer of {value.nbytes} bytes "
                f"({has} elements of {buffer.type.element_type}), the launch "
                f"needs {exactly}{need * buffer.itemsize} bytes ({need} elements): "
                f"{item} accesses element {must[1]}"
            )
        raise LaunchError(
            f"{buffer.label}: the array has {has} elements, the launch needs "
            f"{exactly}{need}: {item} accesses element {must[1]}"
        )


def _describe(launch: Launch, item: WorkItem, local: bool) -> str:
    """A work-item, by its global id (and its local id, for a variable of the
    work-group or the work-item), in the launch's dimensions."""
    dims = range(launch.work_dim)
    gid = [launch.global_offset[d] + item.position[d] for d in dims]
    text = "work-item " + _tuple(gid)
    if local:
        lid = [item.position[d] % launch.local_size[d] for d in dims]
        text += f" (local id {_tuple(lid)})"
    return text


def _tuple(values: Sequence[int]) -> str:
    return f"({values[0]})" if len(values) == 1 else f"({', '.join(map(str, values))})"


def _scalar_size(element: Any) -> int | None:
    """The bytes of an integer or float type, None for another type."""
    if _width(element) is None and str(element) not in ("f16", "bf16", "f32", "f64"):
        return None
    return _itemsize(element)


def _itemsize(element: Any) -> int:
    w = _width(element)
    if w is not None:
        return 8 if isinstance(element, IndexType) else max(1, w // 8)
    return {"f16": 2, "bf16": 2, "f32": 4, "f64": 8}.get(str(element), 1)


def _signed(value: Any, w: int) -> int:
    """A scalar argument as the signed value the kernel sees."""
    return _wrap(int(value), w)


def _covers(found: Itv, want: Itv) -> bool:
    """Whether concrete runs that found `found` can learn nothing more a check
    uses about a buffer whose may-range is `want`: its end is reached, and its
    start too if it may be negative."""
    return (
        found is not None
        and want is not None
        and want[1] <= found[1]
        and (want[0] >= 0 or found[0] <= want[0])
    )


def _merge_found(
    found: dict[Key, Itv],
    who: dict[Key, tuple[WorkItem, WorkItem]],
    accessed: dict[Key, Itv],
    item: WorkItem,
) -> None:
    """Joins what `item`'s concrete run accessed into `found`, keeping in `who`
    the work-items that reached each end."""
    for k, v in accessed.items():
        if v is None:
            continue
        old = found.get(k)
        if old is None:
            found[k], who[k] = v, (item, item)
            continue
        low, high = who[k]
        found[k] = _join(old, v)
        who[k] = (item if v[0] < old[0] else low, item if v[1] > old[1] else high)


def _dma_bytes(offset: Itv, width: Itv, lines: Sequence[tuple[Itv, Itv]]) -> Itv | bool:
    """The bytes a DMA transfer covers on one side, from the pointer's offset in
    its buffer: `width` bytes on each of the `count` lines `stride` bytes apart
    (per (count, stride) of `lines`: rows, then planes). False if it copies
    nothing; None if a value is unknown. Sizes are the unsigned values of the
    spec's size_t."""
    if width == (0, 0) or any(count == (0, 0) for count, _ in lines):
        return False
    if offset is None or width is None:
        return None
    hi = offset[1] + width[1] - 1
    for count, stride in lines:
        if count is None or stride is None:
            return None
        hi += max(count[1] - 1, 0) * stride[1]
    return (offset[0], hi)


def _candidates(launch: Launch, positions: list[set[int]]) -> list[WorkItem]:
    """The work-items a concrete run tries: in each dimension, the first and last
    of the range, the last of the first work-group, the first and last of the
    last two work-groups, and `positions`."""
    per_dim = []
    for d in range(3):
        g, size = launch.global_size[d], launch.local_size[d]
        n = launch.groups(d)
        picks = {0, g - 1, size - 1, (n - 1) * size, (n - 1) * size - 1}
        picks |= positions[d]
        # the last first: they are the likeliest to reach past an array's end
        per_dim.append(sorted((p for p in picks if 0 <= p < g), reverse=True))
    return [WorkItem(p) for p in itertools.product(*per_dim)]  # type: ignore[arg-type]
