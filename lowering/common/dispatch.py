"""Rewrite patterns tried only on the kinds of op they rewrite.

A pass made of several patterns applies them with xDSL's
`GreedyRewritePatternApplier`, which tries each pattern on each op: most of those
tries are an `isinstance` that fails, and they were most of `convert-to-llvm`'s time.
`TypeDispatch` asks each pattern once which ops it rewrites (`source_ops`) and, per
kind of op met, keeps an applier of the relevant patterns only, in their order.
"""

from __future__ import annotations

import inspect
from types import UnionType
from typing import Union, get_args, get_origin

from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Operation
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
)


def op_name(op: Operation) -> str:
    """The op's name, also for an op of a dialect xDSL does not define (parsed in
    generic form with --allow-unregistered-dialect)."""
    return op.op_name.data if isinstance(op, UnregisteredOp) else op.name


def source_ops(pattern: RewritePattern) -> tuple[type[Operation] | str, ...] | None:
    """The ops `pattern` rewrites: op classes or op names, or None when that cannot
    be told (then the pattern is tried on every op).

    A pattern says it with its `source` field (one class or name, or a tuple of
    them), or with the op type of its `@op_type_rewrite_pattern` signature, which
    xDSL 0.74 keeps in the closure of the wrapper it makes (`expected_type`).
    """
    source = getattr(pattern, "source", None)
    if isinstance(source, type | str):
        return (source,)
    if isinstance(source, tuple):
        return source
    method = type(pattern).match_and_rewrite
    expected = inspect.getclosurevars(method).nonlocals.get("expected_type")
    if isinstance(expected, type) and issubclass(expected, Operation):
        return (expected,)
    if get_origin(expected) in (Union, UnionType):
        return get_args(expected)
    return None


class TypeDispatch(RewritePattern):
    """`patterns`, tried on an op in their order, but only those that rewrite an op
    of its kind (`source_ops`)."""

    def __init__(self, patterns: list[RewritePattern]):
        self.patterns = [(p, source_ops(p)) for p in patterns]
        self.appliers: dict[type[Operation] | str, RewritePattern] = {}

    def applier(self, op: Operation) -> RewritePattern:
        """The patterns for ops of `op`'s kind, found once per kind."""
        key: type[Operation] | str = (
            op_name(op) if isinstance(op, UnregisteredOp) else type(op)
        )
        applier = self.appliers.get(key)
        if applier is None:
            relevant = [
                p
                for p, sources in self.patterns
                if sources is None
                or any(
                    s == op_name(op) if isinstance(s, str) else isinstance(op, s)
                    for s in sources
                )
            ]
            applier = GreedyRewritePatternApplier(relevant, dce_enabled=False)
            self.appliers[key] = applier
        return applier

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        self.applier(op).match_and_rewrite(op, rewriter)
