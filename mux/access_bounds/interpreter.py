"""The interpreter of a kernel's body behind both of the analysis's questions.

`Interp` walks the kernel as the user wrote it (a `func.func` of `arith`, `scf`,
`cf`, `memref`, `vector`, `atomic` and `mux` ops) in an environment that maps each
SSA value to an interval (`intervals.Itv`), and records, per checked key
(`memory.Key`), the join of the element indices its accesses reach (`accessed`).

It runs in one of two modes:

- abstract (`item` None): the work-item queries give the launch's ranges, both
  sides of a branch are taken (each narrowed by its condition, `conditions`), and
  loops run until their values are stable. In a region with branches (`cf`) the
  entry environments of its blocks are joined until they settle, the block
  arguments still moving widened (`termination`);
- concrete (`item` one work-item): every value is exact, branches and loops are
  followed as they run, and only indices known exactly are recorded. A branch on a
  value it cannot know (loaded from memory) raises `Unknowable`.

Both stop after a budget of ops (`termination`). The semantics of single ops
(`arith`, `scf`, pointers) are in `ops`; this module has the regions, the control
flow between blocks, the accesses and the queries.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Protocol, cast

from xdsl.dialects import cf
from xdsl.ir import Block, Operation, Region, SSAValue

from mux.access_bounds.conditions import Conditions
from mux.access_bounds.intervals import (
    Itv,
    is_exact,
    join,
    join_all,
    unsigned,
)
from mux.access_bounds.launch import (
    Launch,
    WorkItem,
    query_dims,
    ranked_query,
    unranked_query,
)
from mux.access_bounds.memory import (
    ACCESS_OPS,
    DMA_TRANSFERS,
    Key,
    Memory,
    dma_bytes,
    lanes,
)
from mux.access_bounds.ops import HANDLERS
from mux.access_bounds.relations import IdRelations
from mux.access_bounds.termination import (
    THRESHOLD_ROUNDS,
    WIDEN_AFTER,
    OutOfSteps,
    Unknowable,
    thresholds,
    widened,
)

BRANCHES = ("cf.br", "cf.cond_br", "cf.switch")
_SCALAR_QUERIES = ("mux.isftz", "mux.usefast", "mux.isembeddedprofile")

Env = dict[SSAValue, Itv]
"""An environment: the interval of each value computed so far."""


class _Indexed(Protocol):
    """An op of `ACCESS_OPS`: each has its indices in `indices`."""

    @property
    def indices(self) -> Sequence[SSAValue]: ...


class Interp:
    """One run of the kernel: abstract (`item` None: ids are the launch's ranges,
    branches both taken, loops run to a fixpoint) or concrete (ids of one
    work-item, branches and loops followed as they run). `steps` is a budget
    shared by runs: a one-element list, counted down."""

    def __init__(
        self,
        memory: Memory,
        launch: Launch,
        item: WorkItem | None,
        steps: list[int],
    ):
        self.memory = memory
        self.launch = launch
        self.item = item
        self.steps = steps
        self.accessed: dict[Key, Itv] = {}
        """Per key (a buffer's elements, or one of its static dimensions), the
        join of the indices accessed."""
        self.relations = IdRelations(launch)
        """Exact relations of index values with the ids (abstract runs only)."""
        self.conditions = Conditions(self.relations)

    def record(self, key: Key, itv: Itv) -> None:
        if self.item is not None and (itv is None):
            return  # a concrete run only records indices it knows
        if key in self.accessed:
            self.accessed[key] = join(self.accessed[key], itv)
        else:
            self.accessed[key] = itv

    # -- regions -----------------------------------------------------------------

    def run_region(
        self, region: Region, env: Env, args: Sequence[Itv]
    ) -> tuple[list[Itv] | None, Env | None]:
        """Runs a region entered with block arguments `args`: the values its
        terminator passes out (joined over the ways out) and the environment there,
        or (None, None) if no way out is reachable."""
        blocks = list(region.blocks)
        last = blocks[0].last_op if len(blocks) == 1 else None
        if last is not None and last.name not in BRANCHES:
            env = dict(env)
            _bind(env, blocks[0].args, args)
            return self.run_block(blocks[0], env)
        return self._run_cfg(blocks, env, args)

    def run_block(self, block: Block, env: Env) -> tuple[list[Itv] | None, Env | None]:
        for op in block.ops:
            if op.name in ("scf.yield", "scf.condition", "func.return"):
                start = 1 if op.name == "scf.condition" else 0
                return [env.get(v) for v in op.operands[start:]], env
            if not self.step(op, env):
                return None, None  # a region that provably does not continue
        return [], env

    def _run_cfg(
        self, blocks: list[Block], env0: Env, args: Sequence[Itv]
    ) -> tuple[list[Itv] | None, Env | None]:
        """A region with branches: in a concrete run, the blocks in the order they
        run; in an abstract run, a fixpoint of block entry environments.

        The walk is a work list over the edges the branches may take, each with
        the environment its condition narrowed (`_edges`): not a plain graph walk,
        so it does not use `lowering.common.cfg`."""
        entry: dict[Block, Env] = {}
        first = dict(env0)
        _bind(first, blocks[0].args, args)
        entry[blocks[0]] = first
        visits: dict[Block, int] = {}
        work = [blocks[0]]
        out: list[Itv] | None = None
        out_env: Env | None = None
        while work:
            block = work.pop(0)
            env = dict(entry[block])
            visits[block] = visits.get(block, 0) + 1
            for op in block.ops:
                if op.name in ("func.return", "scf.yield"):
                    values = [env.get(v) for v in op.operands]
                    out = values if out is None else join_all(out, values)
                    out_env = env
                    break
                if op.name in BRANCHES:
                    for succ, succ_env, succ_args in self._edges(op, env):
                        changed = self._merge(entry, succ, succ_env, succ_args, visits)
                        if changed and succ not in work:
                            work.append(succ)
                    break
                if not self.step(op, env):
                    break
        return out, out_env

    def _edges(self, op: Operation, env: Env) -> Iterator[tuple[Block, Env, list[Itv]]]:
        """(successor, its environment, its block arguments) for the edges the
        branch may take."""
        if op.name == "cf.br":
            yield op.successors[0], env, [env.get(v) for v in op.operands]
            return
        if op.name == "cf.cond_br":
            cond = op.operands[0]
            assert isinstance(op, cf.ConditionalBranchOp)
            then_ops = list(op.then_arguments)
            else_ops = list(op.else_arguments)
            for truth, succ, operands in (
                (True, op.successors[0], then_ops),
                (False, op.successors[1], else_ops),
            ):
                branch = self.guarded(env, cond, truth)
                if branch is not None:
                    yield succ, branch, [branch.get(v) for v in operands]
            return
        # cf.switch: each case with its block arguments, no narrowing
        if self.item is not None:
            raise Unknowable
        switch: Any = op
        yield (
            switch.default_block,
            env,
            [env.get(v) for v in switch.default_operands],
        )
        for k, succ in enumerate(switch.case_blocks):
            yield succ, env, [env.get(v) for v in switch.case_operand(k)]

    def guarded(self, env: Env, cond: SSAValue, truth: bool) -> Env | None:
        """The environment of the side of a branch on `cond` taken when it is
        `truth`, narrowed by it; None if that side is not taken. A concrete run
        cannot take a branch on a value it does not know."""
        known = env.get(cond)
        if known is not None and known[0] == known[1] and bool(known[0]) != truth:
            return None
        if self.item is not None and (known is None or known[0] != known[1]):
            raise Unknowable
        branch = dict(env)
        if not self.conditions.assume(branch, cond, truth):
            return None
        return branch

    def _merge(
        self,
        entry: dict[Block, Env],
        succ: Block,
        env: Env,
        args: list[Itv],
        visits: dict[Block, int],
    ) -> bool:
        """Joins an edge into a block's entry environment; True if it changed."""
        new = dict(env)
        _bind(new, succ.args, args)
        old = entry.get(succ)
        if old is None or self.item is not None:
            entry[succ] = new
            return True
        changed = False
        merged: Env = {}
        visited = visits.get(succ, 0)
        # Only block arguments are widened: in SSA they carry every value that
        # changes from one iteration to the next, and the others follow from
        # them; widening a value a guard narrowed would undo the guard.
        widen = set(succ.args) if visited >= WIDEN_AFTER else set()
        stops = thresholds(old) if visited < THRESHOLD_ROUNDS else []
        for key, before in old.items():
            if key not in new:
                continue
            after = join(before, new[key])
            if after != before:
                changed = True
                if key in widen:
                    after = widened(key, before, after, stops)
            merged[key] = after
        entry[succ] = merged
        return changed

    # -- ops ----------------------------------------------------------------------

    def step(self, op: Operation, env: Env) -> bool:
        """Interprets one op; False if no execution continues past it."""
        self.steps[0] -= 1
        if self.steps[0] < 0:
            raise OutOfSteps
        name = op.name
        base = ACCESS_OPS.get(name)
        if base is not None:
            self._access(op, base, env)
        elif name in DMA_TRANSFERS:
            self._dma(op, env)
        handler = HANDLERS.get(name)
        if handler is not None:
            return handler(self, op, env) is not False
        if name.startswith("mux.get_") or name in _SCALAR_QUERIES:
            self._query(op, env)
            return True
        if op.regions:
            raise Unknowable  # accesses inside could be missed
        for r in op.results:
            env[r] = None
        return True

    def _access(self, op: Operation, base_name: str, env: Env) -> None:
        """Records the elements a memref access reaches, and the index of each of
        its static dimensions."""
        memref = getattr(op, base_name)
        buffer = self.memory.by_value.get(memref)
        if buffer is None:
            return
        strides = buffer.strides
        indices = list(cast(_Indexed, op).indices)
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
        self.record(linear, (lo, hi + lanes(op) - 1) if known else None)

    def _dma(self, op: Any, env: Env) -> None:
        """A DMA transfer: the elements of each side's buffer that its bytes
        cover (`memory.dma_bytes`)."""

        def size(name: str) -> Itv:
            return unsigned(env.get(getattr(op, name)), 64)

        width = size("width")
        for pointer, side in ((op.dst, "dst"), (op.src, "src")):
            buffer = self.memory.by_value.get(pointer)
            offset: Itv = (0, 0)
            if buffer is None:
                index = self.memory.pointers.get(pointer)
                if index is None:
                    continue
                buffer, offset = self.memory.buffers[index], env.get(pointer)
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
            if self.item is not None and not all(is_exact(v) for v in values):
                continue  # a concrete run records only what it knows exactly
            span = dma_bytes(offset, width, lines)
            if span is False:
                continue  # no byte is copied
            if span is None:
                self.record(key, None)
                continue
            itemsize = buffer.itemsize
            self.record(key, (span[0] // itemsize, span[1] // itemsize))

    def _query(self, op: Operation, env: Env) -> None:
        """A work-item query: its range over the launch, or one work-item's
        value; in an abstract run, the ids' relations are noted."""
        name = op.name[len("mux.") :]
        result = op.results[0]
        if not op.operands:
            env[result] = unranked_query(self.launch, self.item, name)
            return
        dim = env.get(op.operands[0])
        env[result] = ranked_query(self.launch, self.item, name, dim)
        dims = query_dims(dim)
        if len(dims) == 1 and dims[0] < 3 and self.item is None:
            self.relations.of_query(name, dims[0], result)


def _bind(env: Env, params: Sequence[SSAValue], args: Sequence[Itv]) -> None:
    for p, a in zip(params, args, strict=True):
        env[p] = a
