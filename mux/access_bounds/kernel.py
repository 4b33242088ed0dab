"""`KernelBounds`: the access analysis of one kernel, and the check of each launch.

`mux.api.Kernel` builds one per kernel (`KernelBounds(function, params)`: which
parameters are buffers and scalars, which variables the kernel has, how their memrefs
are used; `memory.Memory`) and calls `check` before each launch. `check` raises a
`mux.LaunchError` (`messages`) when a work-item of the launch provably accesses a
buffer outside its elements, or a static dimension outside its size.

It asks two questions of the kernel (`interpreter.Interp`):

1. may (`analyse`): one abstract run over the launch's ranges; per key an interval
   holding every index any work-item can access, or unknown. If every may-range
   fits, the launch is accepted;
2. must (`witness`), asked only when some may-range does not fit: concrete runs of
   the work-items likeliest to reach the ends (`launch.candidates`), recording the
   indices they really access. Interval bounds over-approximate, so a launch is
   refused only on what a work-item of it provably does; when no work-item is found
   to go outside, the launch runs.

The analysis of a launch shape (sizes, offset and scalar values) is cached: a kernel
launched again with the same ones costs a dictionary look-up and a comparison per
buffer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects import func
from xdsl.ir import SSAValue

from mux.access_bounds.interpreter import Interp
from mux.access_bounds.intervals import Itv, join, wrap
from mux.access_bounds.launch import Launch, WorkItem, candidates
from mux.access_bounds.memory import Key, Memory
from mux.access_bounds.messages import Found, refusal
from mux.access_bounds.termination import (
    ANALYSIS_STEPS,
    WITNESS_STEPS,
    OutOfSteps,
    Unknowable,
)
from mux.arguments import Param
from mux.errors import LaunchError

_CACHE_SIZE = 256
"""Launch shapes whose analysis a kernel keeps."""


@dataclass
class _Shape:
    """The analysis of one launch shape: per key, the may-range, and the
    must-range once a concrete run was needed."""

    may: dict[Key, Itv]
    positions: list[set[int]]
    """The global ids at the edges of guards (`IdRelations.positions`)."""
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
        self.memory = Memory.of(fn, params)
        self.buffers = self.memory.buffers
        self._cache: dict[tuple, _Shape] = {}
        self._body_ok = not fn.is_declaration

    def analyse(self, launch: Launch) -> dict[int, Itv]:
        """Per buffer parameter position, the interval of element indices the
        kernel may access in `launch` (absent: none; None: unknown)."""
        return self._by_position(self._abstract(launch)[0])

    def analyse_all(self, launch: Launch) -> dict[Key, Itv]:
        """`analyse` for every key (`Key`): parameters, variables, dimensions."""
        return self._abstract(launch)[0]

    def witness(self, launch: Launch) -> dict[int, Itv]:
        """Per buffer parameter position, the indices that concrete work-items of
        `launch` provably access (`_witness`); absent if none was found."""
        return self._by_position(self._witness(launch)[0])

    def witness_all(self, launch: Launch) -> dict[Key, Itv]:
        """`witness` for every key (`Key`)."""
        return self._witness(launch)[0]

    def _by_position(self, found: dict[Key, Itv]) -> dict[int, Itv]:
        return {
            b.position: found[(b.index, None)]
            for b in self.buffers
            if b.param is not None and (b.index, None) in found
        }

    def _run(self, interp: Interp, launch: Launch) -> None:
        """Runs the kernel's body with `interp` from the launch's entry values."""
        env = self._entry_env(launch)
        interp.run_region(
            self.function.body, env, [env.get(a) for a in self.function.args]
        )

    def _abstract(self, launch: Launch) -> tuple[dict[Key, Itv], list[set[int]]]:
        """`analyse_all`, and the global ids at the edges of the guards it met."""
        interp = Interp(self.memory, launch, None, [ANALYSIS_STEPS])
        positions = interp.relations.positions
        unknown: dict[Key, Itv] = {(b.index, None): None for b in self.buffers}
        try:
            if self._body_ok:
                self._run(interp, launch)
        except (Unknowable, OutOfSteps, RecursionError):
            return unknown, positions
        except Exception:
            # IR the interpreter was not written for (the verifier lets through
            # more than level 1 uses): a check that cannot run must not refuse a
            # launch, so every buffer is unknown, as before this check existed
            return unknown, positions
        result = dict(interp.accessed)
        for b in self.buffers:
            if b.escapes:
                result[(b.index, None)] = None
        return result, positions

    def _witness(
        self,
        launch: Launch,
        positions: list[set[int]] | None = None,
        goal: dict[Key, Itv] | None = None,
    ) -> tuple[dict[Key, Itv], dict[Key, tuple[WorkItem, WorkItem]]]:
        """Per key, the indices that concrete work-items of `launch` provably
        access, and the work-items that reached the lowest and the highest. The
        work-items tried are `launch.candidates`, with the edges of the guards on
        global ids the abstract run met (`positions`; computed if not given).
        The runs stop once they have reached the ends of `goal` (the may-ranges:
        no run can go further) for every key it has."""
        if positions is None:
            positions = self._abstract(launch)[1]
        steps = [WITNESS_STEPS]
        found: dict[Key, Itv] = {}
        who: dict[Key, tuple[WorkItem, WorkItem]] = {}
        for item in candidates(launch, positions):
            interp = Interp(self.memory, launch, item, steps)
            try:
                self._run(interp, launch)
            except (Unknowable, RecursionError):
                pass
            except OutOfSteps:
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
        for position, index, _ in self.memory.scalars:
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
        scalars = tuple(wrap(int(args[p]), w) for p, _, w in self.memory.scalars)
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
            {p: v for (p, _, _), v in zip(self.memory.scalars, scalars, strict=True)},
        )

    def _elements(self, args: Sequence[Any], key: Key) -> int:
        fixed = self._capacity(key)
        if fixed is not None:
            return fixed
        buffer = self.buffers[key[0]]
        # an array's bytes too: a float4 buffer's elements are rows of 4 floats
        return args[buffer.position].nbytes // buffer.itemsize

    def _refuse(
        self, args: Sequence[Any], key: Key, shape: _Shape, launch: Launch
    ) -> None:
        """LaunchError if a concrete run accessed `key` outside its elements."""
        assert shape.must is not None
        must = shape.must.get(key)
        if must is None:
            return
        buffer = self.buffers[key[0]]
        low, high = shape.who[key]
        found = Found(shape.may.get(key), must, low, high)
        value = args[buffer.position] if buffer.param is not None else None
        message = refusal(
            buffer, key[1], self._elements(args, key), found, launch, value
        )
        if message is not None:
            raise LaunchError(message)


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
        found[k] = join(old, v)
        who[k] = (item if v[0] < old[0] else low, item if v[1] > old[1] else high)
