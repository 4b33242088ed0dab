"""What each op the interpreter knows does to its environment (`HANDLERS`).

A handler takes the run (`interpreter.Interp`), the op and the environment (value ->
interval) and binds the op's results; it returns False when no execution continues
past the op (an `scf.if` neither of whose sides is reachable, ...). The handlers:

- `arith`: constants; the integer binary ops (`arith.INTERVAL_OPS` on intervals,
  `arith.exact_binary` on known values, and the `i1` logic ops, whose meaning the
  run's `Conditions` remember); `cmpi`, `select` and the integer casts;
- `scf.if`, `scf.for`, `scf.while`: each side of an `if` narrowed by its condition;
  in an abstract run a loop's carried values joined until stable
  (`termination.fixpoint`), in a concrete run the loop run as it runs;
- pointers into a buffer (`builtin.unrealized_conversion_cast` of its memref, then
  `llvm.getelementptr`): their value is their offset in bytes.

Any other op is left to the interpreter (accesses, queries, unknown results).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr
from xdsl.dialects.llvm import GEP_USE_SSA_VAL
from xdsl.ir import Operation, SSAValue

from mux.access_bounds.arith import (
    INTERVAL_OPS,
    IntervalOp,
    add,
    bool_op,
    exact_binary,
    mul,
)
from mux.access_bounds.intervals import (
    PREDICATES,
    Itv,
    decide,
    fit,
    from_unsigned,
    is_exact,
    join,
    join_all,
    unsigned,
    width_of,
    wrap,
)
from mux.access_bounds.memory import scalar_size
from mux.access_bounds.termination import Unknowable, fixpoint

if TYPE_CHECKING:
    from mux.access_bounds.interpreter import Interp

Env = dict[SSAValue, Itv]
Handler = Callable[["Interp", Any, Env], Any]


def _constant(run: Interp, op: Operation, env: Env) -> None:
    w = width_of(op.results[0].type)
    value = op.properties.get("value", op.attributes.get("value"))
    if w is None or not isinstance(value, IntegerAttr):
        env[op.results[0]] = None
        return
    v = wrap(value.value.data, w)
    env[op.results[0]] = (v, v)


def _binary(fn: IntervalOp) -> Handler:
    """The handler of a binary integer op whose interval semantics is `fn`."""

    def handler(run: Interp, op: Operation, env: Env) -> None:
        result = op.results[0]
        w = width_of(result.type)
        if w is None:
            env[result] = None
            return
        a, b = (env.get(v) for v in op.operands)
        if w == 1:
            env[result] = bool_op(op.name, a, b)
            _note_logic(run, op, a, b)
            return
        if is_exact(a) and is_exact(b):
            # one value: computed as the op does, wrapping in its type
            env[result] = exact_binary(op.name, a[0], b[0], w)
        else:
            env[result] = fn(a, b, w)
        if run.item is None and op.name in ("arith.addi", "arith.subi", "arith.muli"):
            run.relations.of_binary(op, env)

    return handler


def _note_logic(run: Interp, op: Operation, a: Itv, b: Itv) -> None:
    """What an `i1` andi/ori/xori means, for the conditions it may guard: a
    conjunction, a disjunction, or (xor with true) a negation."""
    result = op.results[0]
    meanings = run.conditions.meanings
    meanings.pop(result, None)
    if op.name in ("arith.andi", "arith.ori"):
        meanings[result] = (op.name[6:-1], *op.operands)
    elif op.name == "arith.xori":
        for x, y in ((a, op.operands[1]), (b, op.operands[0])):
            if x == (1, 1):
                meanings[result] = ("not", y)


def _cmpi(run: Interp, op: arith.CmpiOp, env: Env) -> None:
    pred = PREDICATES[op.predicate.value.data]
    a, b = op.operands
    w = width_of(a.type)
    result = op.results[0]
    if w is None:
        env[result] = (0, 1)
        return
    env[result] = decide(pred, env.get(a), env.get(b), w)
    run.conditions.meanings[result] = ("cmp", pred, a, b)


def _select(run: Interp, op: Operation, env: Env) -> None:
    cond, t, f = op.operands
    c = env.get(cond)
    if c is not None and c[0] == c[1]:
        env[op.results[0]] = env.get(t if c[0] else f)
    else:
        env[op.results[0]] = join(env.get(t), env.get(f))


def _cast(kind: str) -> Handler:
    """An integer cast: "sext" (also index_cast), "zext" or "trunc"."""

    def handler(run: Interp, op: Operation, env: Env) -> None:
        src, result = op.operands[0], op.results[0]
        ws, wr = width_of(src.type), width_of(result.type)
        if ws is None or wr is None:
            env[result] = None
            return
        v = env.get(src)
        if kind == "zext":
            u = unsigned(v, ws)
            if u is None:
                u = (0, (1 << ws) - 1)
            env[result] = from_unsigned(u[0], u[1], wr)
        elif kind == "sext" and ws == 1:
            env[result] = None if v is None else (-v[1], -v[0])
        elif v is None:
            env[result] = None
        elif v[0] == v[1]:
            env[result] = (wrap(v[0], wr), wrap(v[0], wr))
        else:
            env[result] = fit(v[0], v[1], wr)  # sign-extension or truncation

    return handler


def _scf_if(run: Interp, op: Operation, env: Env) -> bool:
    cond = op.operands[0]
    out: list[Itv] | None = None
    for truth, region in ((True, op.regions[0]), (False, op.regions[1])):
        branch = run.guarded(env, cond, truth)
        if branch is None:
            continue
        if not region.blocks:
            values: list[Itv] | None = []
        else:
            values, _ = run.run_region(region, branch, [])
        if values is None:
            continue
        out = values if out is None else join_all(out, values)
    if out is None:
        return False
    for r, v in zip(op.results, out, strict=True):
        env[r] = v
    return True


def _scf_for(run: Interp, op: Any, env: Env) -> bool:
    lb, ub, step = env.get(op.lb), env.get(op.ub), env.get(op.step)
    inits = [env.get(v) for v in op.iter_args]
    body = op.body
    iv = body.blocks[0].args[0]
    if run.item is not None:
        if not (is_exact(lb) and is_exact(ub) and is_exact(step)):
            raise Unknowable
        i, state = lb[0], inits
        while i < ub[0]:
            values, _ = run.run_region(body, env, [(i, i), *state])
            if values is None:
                return False
            state = values
            i += step[0]
            if step[0] <= 0:
                raise Unknowable
        _bind_results(op, state, env)
        return True
    w = width_of(iv.type) or 64
    if lb is not None and ub is not None and step is not None and step[0] >= 1:
        if ub[1] - 1 < lb[0]:
            _bind_results(op, inits, env)
            return True
        ivr = fit(lb[0], ub[1] - 1, w)
    else:
        ivr = None

    def iteration(state: list[Itv]) -> list[Itv] | None:
        values, _ = run.run_region(body, env, [ivr, *state])
        return values

    final = fixpoint(list(body.blocks[0].args[1:]), inits, iteration, env)
    _bind_results(op, final, env)
    return True


def _scf_while(run: Interp, op: Any, env: Env) -> bool:
    if run.item is not None:
        return _scf_while_concrete(run, op, env)
    before, after = op.before_region, op.after_region
    condition = before.blocks[0].last_op
    inits = [env.get(v) for v in op.arguments]
    exits: list[list[Itv]] = []

    def iteration(state: list[Itv]) -> list[Itv] | None:
        _, benv = run.run_region(before, env, state)
        if benv is None:
            return None
        cond = condition.operands[0]
        forwarded = list(condition.operands[1:])
        leave = dict(benv)
        if run.conditions.assume(leave, cond, False):
            exits.append([leave.get(v) for v in forwarded])
        stay = dict(benv)
        if not run.conditions.assume(stay, cond, True):
            return None
        values, _ = run.run_region(after, stay, [stay.get(v) for v in forwarded])
        return values

    fixpoint(list(before.blocks[0].args), inits, iteration, env)
    if not exits:
        return False
    out = exits[0]
    for more in exits[1:]:
        out = join_all(out, more)
    _bind_results(op, out, env)
    return True


def _scf_while_concrete(run: Interp, op: Any, env: Env) -> bool:
    """`scf.while` in a concrete run: iterations as they run."""
    before, after = op.before_region, op.after_region
    condition = before.blocks[0].last_op
    state = [env.get(v) for v in op.arguments]
    while True:
        _, benv = run.run_region(before, env, state)
        if benv is None:
            return False
        c = benv.get(condition.operands[0])
        if c is None or c[0] != c[1]:
            raise Unknowable
        forwarded = [benv.get(v) for v in condition.operands[1:]]
        if not c[0]:
            _bind_results(op, forwarded, env)
            return True
        state, _ = run.run_region(after, benv, forwarded)
        if state is None:
            return False


def _bind_results(op: Operation, values: list[Itv], env: Env) -> None:
    for r, v in zip(op.results, values, strict=True):
        env[r] = v


def _bare_pointer(run: Interp, op: Operation, env: Env) -> None:
    """A buffer's memref cast to its bare pointer: offset 0 in it."""
    result = op.results[0]
    env[result] = (0, 0) if result in run.memory.pointers else None


def _gep(run: Interp, op: Any, env: Env) -> None:
    """`llvm.getelementptr` of a pointer into a buffer with one index over a
    scalar or vector element type: the offset moves by index * the element's
    size."""
    result = op.results[0]
    env[result] = None
    raw = list(op.rawConstantIndices.iter_values())
    size = scalar_size(op.elem_type)
    if result not in run.memory.pointers or len(raw) != 1 or size is None:
        return
    if raw[0] == GEP_USE_SSA_VAL:
        index = env.get(op.ssa_indices[0])
    else:
        index = (raw[0], raw[0])
    base = env.get(op.ptr)
    if is_exact(base) and is_exact(index):
        offset = wrap(base[0] + index[0] * size, 64)
        env[result] = (offset, offset)
    else:
        env[result] = add(base, mul(index, (size, size), 64), 64)


HANDLERS: dict[str, Handler] = {
    "arith.constant": _constant,
    **{name: _binary(fn) for name, fn in INTERVAL_OPS.items()},
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
"""The ops the interpreter computes, by name."""
