"""What every family of `lower-to-mux-builtins` is made of: a `Builtin` says how
one OpenCL builtin is lowered (the types its mangled name must have, the result
its declaration must have, and the plan that builds its replacement before a
call); a `BuiltinError` is what is wrong with one call, to which the pass adds
where it is."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.dialects import func
from xdsl.ir import SSAValue

from lowering.common.mangling import Demangled

Build = Callable[[Builder], SSAValue | None]
"""Builds the replacement of a call before it; returns its result."""


class BuiltinError(Exception):
    """What is wrong with a call or declaration; the pass adds where."""


@dataclass(frozen=True)
class Builtin:
    """How one OpenCL builtin is lowered.

    `params` are the codes of its mangled parameters (`j`, `12memory_scope` is `N`),
    or None when `check` looks at them; `result` is `void`, `size_t` (`i32` or
    `i64`), `uint`, `int`, `value` (the first parameter's type) or `event`."""

    params: tuple[str, ...] | None
    result: str
    plan: Callable[[func.CallOp, Demangled], Build]
    check: Callable[[Demangled], str | None] = lambda d: None
    """A reason the mangled types make no such builtin, or None."""
