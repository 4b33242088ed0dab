"""The work-items a barrier region needs to run: `work-item-loops`' bound functions.

A region of a tree (the steps of a scan) gives most work-items nothing to do of their
own. Region 2 of `examples/scan.mlir` (its up-sweep step `d`), as a function of the
work-item:

    %d = <loaded from the live storage>           // the same for every work-item
    %i = 2 * %d * (%lid + 1) - 1
    cf.cond_br (%i ult %n), ^add, ^next           // ^add: s[i] += s[i - d]
  ^next:
    func.return 2

Only the work-items with `lid < ceil((n - 2d + 1) / 2d)` take `^add`; a loop over all
`n` of them spends most of its time on the others (16 steps of 256 work-items where
510 add). `build_bound_function` derives from such a region function a *bound
function* of the same parameters without the work-item,

    @<kernel>.mux-barrier-bound.<i>(<kernel params>, %live, %items) -> (lo, hi)

which computes, before the work-item loops, a range `[lo, hi)` of the innermost looped
dimension's ids outside of which no work-item does anything of its own. The wrapper
loops over that range but for the group's last work-item, which it runs after the
loops in any case: its region id is the one the wrapper follows.

**What the region may do.** A value is *uniform* when it is the same for every
work-item in one run of the region: the parameters but `%item`, constants, the
work-group queries, pure ops (`arith`, `math`, `llvm.getelementptr`, casts, and
the `llvm.zext`/`llvm.icmp` of a boolean's byte in the live storage) of uniform
values, block arguments of uniform blocks with uniform incoming values, and loads
from uniform addresses. That last rule assumes the kernel is free of data races (a
work-item that reads a location another one writes in the same region, with no
barrier in between, has a data race, whose behaviour OpenCL leaves undefined). The
*prefix* is the blocks every work-item runs alike: from the entry, along branches on
uniform conditions, through blocks whose only side effects are stores of uniform
values to uniform addresses. Each way out of the prefix is one of:

- a `func.return`: every work-item does the same thing, so the last one is enough
  (`[0, 0)`);
- a *guard*, `cf.cond_br %c, ^active, ^inert`, where nothing reachable from `^inert`
  has a side effect (its loads and pure ops are wasted work), and `%c` is a conjunction
  (`arith.andi`) with at least one condition on the local id `x` of the innermost
  looped dimension: `a * x + b < u` (`ult`, `slt`, `ule`, `sle`, or mirrored) or
  `x + b == u`, where `a * x + b` is affine in `x` (`addi`, `subi`, `muli` by a
  uniform value, `shli` by a constant, `index_cast`) with uniform `a`, `b` and `u`.
  Uniform `i1` conjuncts count too; other conjuncts are left out, which only widens
  the range. Work-items outside the range do nothing but the prefix, which the last
  one does for all. An *`&&` chain* is one guard: when `^active` has no side effect
  and ends in a guard's branch itself (`^active: cf.cond_br %c2, ^active2,
  ^inert2`), only the work-items with `%c && %c2` do anything, so the conditions of
  `%c2` narrow the range too (and so on down the chain) -- if the bound function has
  their terms, the values of the prefix (a term computed in `^active` is left out).
  This is the form OpenCL C's `a && b` has (clang's short-circuit branches, lifted
  to nested `scf.if`s); merging it into an `arith.andi` instead would compute `b`
  for every work-item, which is wrong when `b` loads or divides and `a` guards it;
- anything else (a side effect that is not uniform, another divergent branch): every
  work-item runs (`[0, size)`).

If a block of the prefix is reached from outside it (a loop around a guard), or no
way out is one of the first two, there is no bound function: the wrapper loops over
every work-item.

**Arithmetic.** The conditions hold on values computed modulo 2^64, so the range is
exact only when `a * x + b` does not wrap. A `< u` condition is computed by a helper
shared by the module, `@mux-active-below.<predicate>(%a, %b, %u, %size)`, which checks
`1 <= a < 2^30`, `b < 2^62` and `size <= 2^32` (then `a * x + b < 2^63` for every
`x`, and signed and unsigned comparisons agree) and otherwise keeps every work-item.
`x + b == u` is exact modulo 2^64. The work-items that run choose for themselves as
before, so results do not change: only work-items with nothing of their own are
skipped.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.builder import Builder
from xdsl.dialects import arith, cf, func
from xdsl.dialects.builtin import (
    IndexType,
    IntegerType,
    ModuleOp,
    StringAttr,
    i32,
)
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from dialects import mux
from dialects.attributes import CHECK_BOOKKEEPING
from lowering.common.builders import const, constant_int
from lowering.common.cfg import branch_condition, reachable, successors
from lowering.common.effects import is_load, is_pure, is_store
from lowering.common.functions import new_function
from lowering.scheduling.uniformity import VARYING_QUERIES, receives_divergent

INDEX = IndexType()

Expr = int | SSAValue | tuple[str, "Expr", "Expr"]
"""A uniform value to compute in the bound function: a constant, a value of the region
function, or `(op, lhs, rhs)` with op `add`, `sub` or `mul`."""

_LESS = {
    "ult": (False, True),
    "ule": (False, False),
    "slt": (True, True),
    "sle": (True, False),
}
"""`arith.cmpi` predicates `lhs < rhs` or `lhs <= rhs`: (signed, strict)."""
_MIRRORED = {"ugt": "ult", "uge": "ule", "sgt": "slt", "sge": "sle"}
"""`u > v` is `v < u`."""


def _wide(value: SSAValue) -> bool:
    """An index or a 64-bit integer: affine arithmetic modulo 2^64."""
    type_ = value.type
    return isinstance(type_, IndexType) or (
        isinstance(type_, IntegerType) and type_.width.data == 64
    )


@dataclass
class _Upper:
    """`a * x + b <predicate> u`, a predicate of `_LESS`."""

    a: Expr
    b: Expr
    u: SSAValue
    predicate: str


@dataclass
class _Equal:
    """`x + b == u`."""

    b: Expr
    u: SSAValue


@dataclass
class _Flag:
    """A uniform `i1`: no work-item is active unless it is true."""

    flag: SSAValue


Condition = _Upper | _Equal | _Flag


@dataclass
class _RegionAnalysis:
    """The analysis of one region function for dimension `dim` (module docstring)."""

    function: func.FuncOp
    dim: int
    divergent: set[SSAValue] = field(default_factory=set)
    prefix: set[Block] = field(default_factory=set)

    def __post_init__(self) -> None:
        entry = self.function.body.blocks.first
        assert entry is not None  # a region function is a definition
        self.divergent.add(entry.args[-2])  # %item
        while True:
            size = len(self.divergent)
            self.prefix = self._prefix()
            for block in self.function.body.blocks:
                for arg in block.args:
                    if block is not entry and (
                        block not in self.prefix
                        or receives_divergent(arg, self.divergent)
                    ):
                        self.divergent.add(arg)
                for op in block.ops:
                    if (
                        isinstance(op, VARYING_QUERIES)
                        or not (is_pure(op) or is_load(op))
                        or any(v in self.divergent for v in op.operands)
                    ):
                        self.divergent.update(op.results)
            if len(self.divergent) == size:
                return

    def uniform(self, value: SSAValue) -> bool:
        return value not in self.divergent

    def effect(self, op: Operation) -> bool:
        """Whether `op` does something that is not the same for every work-item."""
        if is_pure(op) or is_load(op) or isinstance(op, (cf.BranchOp, func.ReturnOp)):
            return False
        if CHECK_BOOKKEEPING.get(op):  # nothing, for a work-item without faults
            return False
        if isinstance(op, (cf.ConditionalBranchOp, cf.SwitchOp)):
            return False  # a way out of the prefix, judged by build_bound_function
        return not (is_store(op) and all(self.uniform(v) for v in op.operands))

    def first_effect(self, block: Block) -> Operation | None:
        return next((op for op in block.ops if self.effect(op)), None)

    def _prefix(self) -> set[Block]:
        def edges(block: Block) -> list[Block]:
            condition = branch_condition(block)
            if self.first_effect(block) is None and (
                condition is None or self.uniform(condition)
            ):
                return successors(block)
            return []

        entry = self.function.body.blocks.first
        assert entry is not None
        return reachable([entry], edges)

    def passing(self, block: Block) -> bool:
        """A prefix block that leads to other prefix blocks only."""
        condition = branch_condition(block)
        return (
            self.first_effect(block) is None
            and (condition is None or self.uniform(condition))
            and not isinstance(block.last_op, func.ReturnOp)
        )

    def closed(self) -> bool:
        """Whether only the prefix leads into the prefix."""
        return all(
            p in self.prefix and self.passing(p)
            for block in self.prefix
            for p in block.predecessors()
        )

    def inert(self, start: Block) -> bool:
        """Whether nothing reachable from `start` has a side effect. (Not even a
        uniform one: the last work-item, the one that surely runs, may not come this
        way.)"""
        return all(
            is_pure(op)
            or is_load(op)
            or op is block.last_op
            or CHECK_BOOKKEEPING.get(op)
            for block in reachable([start], successors)
            for op in block.ops
        )

    # -- guards ------------------------------------------------------------------

    def guarding(self, block: Block) -> cf.ConditionalBranchOp | None:
        """`block`'s branch if it is a guard's: no effect before it, and nothing
        done on its way to `^inert`."""
        branch = block.last_op
        if not isinstance(branch, cf.ConditionalBranchOp) or self.first_effect(block):
            return None
        return branch if self.inert(branch.else_block) else None

    def guard(self, block: Block) -> list[Condition] | None:
        """The conditions of `block`'s guard, if its terminator is one: the conjuncts
        of its condition this module knows, and of the guards its `^active` path
        goes through (an `&&` chain: module docstring), whose terms the bound
        function has. The others are left out, which only makes the set of
        work-items larger."""
        conditions: list[Condition] = []
        chain: set[Block] = set()
        while (branch := self.guarding(block)) is not None and block not in chain:
            chain.add(block)
            conditions += self.conjuncts(branch.cond)
            block = branch.then_block
        conditions = [c for c in conditions if self.computable(c)]
        if not any(isinstance(c, _Upper | _Equal) for c in conditions):
            return None
        return conditions

    def conjuncts(self, cond: SSAValue) -> list[Condition]:
        conditions: list[Condition] = []
        work = [cond]
        while work:
            value = work.pop()
            owner = value.owner
            if self.uniform(value):
                conditions.append(_Flag(value))
            elif isinstance(owner, arith.AndIOp):
                work += [owner.lhs, owner.rhs]
            elif isinstance(owner, arith.CmpiOp) and (c := self._compare(owner)):
                conditions.append(c)
        return conditions

    def computable(self, condition: Condition) -> bool:
        """Whether the bound function has the values `condition` is made of: those
        of the prefix (a guard further down an `&&` chain may compute its terms in
        its own block, which the bound function does not copy)."""
        if isinstance(condition, _Flag):
            terms: list[Expr] = [condition.flag]
        elif isinstance(condition, _Equal):
            terms = [condition.b, condition.u]
        else:
            terms = [condition.a, condition.b, condition.u]
        while terms:
            term = terms.pop()
            if isinstance(term, tuple):
                terms += term[1:]
            elif isinstance(term, SSAValue) and _block_of(term) not in self.prefix:
                return False
        return True

    def _compare(self, cmp: arith.CmpiOp) -> Condition | None:
        predicate = arith.CMPI_COMPARISON_OPERATIONS[cmp.predicate.value.data]
        lhs, rhs = cmp.lhs, cmp.rhs
        if predicate in _MIRRORED:
            predicate, lhs, rhs = _MIRRORED[predicate], rhs, lhs
        if predicate == "eq" and self.uniform(lhs):
            lhs, rhs = rhs, lhs
        if not self.uniform(rhs) or not _wide(lhs):
            return None
        term = self.affine(lhs)
        if term is None:
            return None
        a, b = term
        if predicate == "eq":
            return _Equal(b, rhs) if a == 1 else None
        if predicate in _LESS:
            return _Upper(a, b, rhs, predicate)
        return None

    def affine(self, value: SSAValue) -> tuple[Expr, Expr] | None:
        """`(a, b)` with `value == a * x + b` modulo 2^64, if it is affine in `x`."""
        if not _wide(value):
            return None
        if self.uniform(value):
            return 0, value
        op = value.owner
        if isinstance(op, mux.GetLocalIdOp) and constant_int(op.dim) == self.dim:
            return 1, 0
        if isinstance(op, arith.IndexCastOp):
            return self.affine(op.input)
        if isinstance(op, (arith.AddiOp, arith.SubiOp)):
            left, right = self.affine(op.lhs), self.affine(op.rhs)
            if left is None or right is None:
                return None
            kind = "add" if isinstance(op, arith.AddiOp) else "sub"
            return _fold(kind, left[0], right[0]), _fold(kind, left[1], right[1])
        if isinstance(op, arith.MuliOp):
            for term, factor in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
                if self.uniform(factor) and (t := self.affine(term)) is not None:
                    return _fold("mul", t[0], factor), _fold("mul", t[1], factor)
        if (
            isinstance(op, arith.ShLIOp)
            and (shift := constant_int(op.rhs)) is not None
            and 0 <= shift < 64
        ):  # clang's x * 2^k
            t = self.affine(op.lhs)
            if t is not None:
                return _fold("mul", t[0], 2**shift), _fold("mul", t[1], 2**shift)
        return None


def agreeing_returns(function: func.FuncOp) -> bool:
    """Whether every work-item running region function `function` returns the
    same region id: a branch on a value that is not uniform (module docstring:
    this assumes no data race) leads to one region id only. Checked mode
    compares the ids of the others at run time."""
    region = _RegionAnalysis(function, 0)
    return all(
        _one_region(block)
        for block in function.body.blocks
        if (condition := branch_condition(block)) is not None
        and not region.uniform(condition)
    )


def _one_region(start: Block) -> bool:
    """Whether every return reachable from `start` returns the same constant region
    id."""
    ids = {
        constant_int(block.last_op.arguments[0])
        for block in reachable([start], successors)
        if isinstance(block.last_op, func.ReturnOp)
    }
    return len(ids) == 1 and None not in ids


def _block_of(value: SSAValue) -> Block | None:
    if isinstance(value, BlockArgument):
        return value.block
    return value.owner.parent_block()


def _fold(kind: str, lhs: Expr, rhs: Expr) -> Expr:
    """`lhs <kind> rhs`, folded when both are constants or one is neutral."""
    if isinstance(lhs, SSAValue) and (c := constant_int(lhs)) is not None:
        lhs = c
    if isinstance(rhs, SSAValue) and (c := constant_int(rhs)) is not None:
        rhs = c
    if isinstance(lhs, int) and isinstance(rhs, int):
        result = {"add": lhs + rhs, "sub": lhs - rhs, "mul": lhs * rhs}[kind]
        return result % 2**64
    if kind == "mul" and (lhs == 0 or rhs == 0):
        return 0
    if kind == "mul" and lhs == 1:
        return rhs
    if (kind == "mul" and rhs == 1) or (kind in ("add", "sub") and rhs == 0):
        return lhs
    if kind == "add" and lhs == 0:
        return rhs
    return kind, lhs, rhs


BELOW = "mux-active-below."
"""The helpers `@mux-active-below.<predicate>(%a, %b, %u, %size) -> index`, one per
comparison a module uses (`below_function`)."""


def below_function(module: ModuleOp, predicate: str) -> str:
    """The name of the helper computing, for `a * x + b <predicate> u`, an `hi` such
    that every `x` in `[0, size)` that satisfies it is below `hi`: the number of
    them, or `size` when the arithmetic may wrap (module docstring). Added to
    `module` the first time."""
    name = BELOW + predicate
    if any(isinstance(f, func.FuncOp) and f.sym_name.data == name for f in module.ops):
        return name
    signed, strict = _LESS[predicate]
    fn, b = new_function(name, [INDEX] * 4, [INDEX], ["a", "b", "u", "size"])
    fn.sym_visibility = StringAttr("private")
    a, offset, u, size = fn.args

    def op(operation: Operation) -> SSAValue:
        return b.insert(operation).results[0]

    one = const(b, 1)
    a_ok = op(arith.CmpiOp(op(arith.SubiOp(a, one)), const(b, 2**30 - 1), "ult"))
    b_ok = op(arith.CmpiOp(offset, const(b, 2**62), "ult"))
    size_ok = op(arith.CmpiOp(size, const(b, 2**32), "ule"))
    ok = op(arith.AndIOp(op(arith.AndIOp(a_ok, b_ok)), size_ok))
    above = op(arith.CmpiOp(u, offset, "ugt" if strict else "uge"))
    if signed:  # a * x + b < 2^63: a negative u is below all of them
        above = op(arith.AndIOp(above, op(arith.CmpiOp(u, const(b, 0), "sge"))))
    room = op(arith.SubiOp(u, offset))
    if strict:
        room = op(arith.SubiOp(room, one))
    count = op(arith.DivUIOp(room, op(arith.MaxUIOp(a, one))))
    last = op(arith.SubiOp(size, one))
    count = op(arith.AddiOp(op(arith.MinUIOp(count, last)), one))
    hi = op(arith.SelectOp(above, count, const(b, 0)))
    b.insert(func.ReturnOp(op(arith.SelectOp(ok, hi, size))))
    module.body.block.add_op(fn)
    return name


class _Emitter:
    """Builds a guard's `lo, hi` in the bound function, from the values of the region
    function through `values` (their counterparts in the bound function). Each
    condition narrows the range to one that holds every work-item satisfying it."""

    def __init__(
        self,
        module: ModuleOp,
        b: Builder,
        values: dict[SSAValue, SSAValue],
        size: SSAValue,
    ):
        self.module, self.b, self.values, self.size = module, b, values, size
        self.built: dict[Expr, SSAValue] = {}

    def op(self, op: Operation) -> SSAValue:
        return self.b.insert(op).results[0]

    def expr(self, e: Expr) -> SSAValue:
        """The value of `e`, built once."""
        if e not in self.built:
            self.built[e] = self._build(e)
        return self.built[e]

    def _build(self, e: Expr) -> SSAValue:
        if isinstance(e, int):
            return const(self.b, e - 2**64 if e >= 2**63 else e)
        if isinstance(e, SSAValue):
            value = self.values.get(e, e)
            if not isinstance(value.type, IndexType):
                value = self.op(arith.IndexCastOp(value, INDEX))
            return value
        kind, lhs, rhs = e
        cls = {"add": arith.AddiOp, "sub": arith.SubiOp, "mul": arith.MuliOp}[kind]
        return self.op(cls(self.expr(lhs), self.expr(rhs)))

    def bounds(self, conditions: list[Condition]) -> list[SSAValue]:
        size = self.size
        zero, one = self.expr(0), self.expr(1)
        lo, hi = zero, size
        for c in conditions:
            if isinstance(c, _Flag):
                hi = self.op(arith.SelectOp(self.values.get(c.flag, c.flag), hi, zero))
            elif isinstance(c, _Equal):  # x == u - b, modulo 2^64
                x = self.expr(_fold("sub", c.u, c.b))
                lo = x if lo is zero else self.op(arith.MaxUIOp(lo, x))
                end = self.op(arith.AddiOp(self.op(arith.MinUIOp(x, size)), one))
                hi = self.op(arith.MinUIOp(hi, end))
            else:
                name = below_function(self.module, c.predicate)
                operands = [self.expr(c.a), self.expr(c.b), self.expr(c.u), size]
                below = self.op(func.CallOp(name, operands, [INDEX]))
                hi = below if hi is size else self.op(arith.MinUIOp(hi, below))
        if lo is not zero:
            lo = self.op(arith.MinUIOp(lo, hi))
        return [lo, hi]


def build_bound_function(
    module: ModuleOp,
    region_function: func.FuncOp,
    dim: int,
    name: str,
    checked: bool = False,
) -> func.FuncOp | None:
    """`@name(<region_function's params but %item>) -> (index, index)`: the range
    `[lo, hi)` of dimension `dim` (the innermost looped one) outside of which no
    work-item does anything of its own in the region; None if the region gives no
    such bound (module docstring). The helpers it calls are added to `module`.
    `checked` (checked mode's barrier divergence): a guard counts only if every
    way from it returns the same region, so that the work-items it skips, whose
    region ids nobody compares, agree with those that run."""
    region = _RegionAnalysis(region_function, dim)
    if not region.closed():
        return None
    exits: dict[Block, list[Condition] | Operation | None] = {}
    useful = False
    for block in region.prefix:
        if region.passing(block):
            continue
        effect = region.first_effect(block)
        conditions = region.guard(block) if effect is None else None
        if checked and conditions is not None and not _one_region(block):
            conditions = None
        if effect is None and isinstance(block.last_op, func.ReturnOp):
            exits[block], useful = None, True  # the same for every work-item
        elif conditions is not None:
            exits[block], useful = conditions, True
        else:
            exits[block] = effect or block.last_op
    if not useful:
        return None

    return _build(module, region_function, region.prefix, exits, dim, name)


def _build(
    module: ModuleOp,
    region_function: func.FuncOp,
    prefix: set[Block],
    exits: dict[Block, list[Condition] | Operation | None],
    dim: int,
    name: str,
) -> func.FuncOp:
    """The bound function: the prefix's blocks, each way out replaced by the return
    of its range, without the ops nothing returned depends on."""
    original_entry = region_function.body.blocks.first
    assert original_entry is not None
    *params, item, items = original_entry.args
    inputs = [a.type for a in (*params, items)]
    bound = func.FuncOp(name, (inputs, [INDEX] * 2), visibility="private")
    entry = bound.body.blocks.first
    assert entry is not None
    values: dict[SSAValue, SSAValue] = {}
    for old, new in zip((*params, items), entry.args, strict=True):
        values[old], new.name_hint = new, old.name_hint
    b = Builder(InsertPoint.at_end(entry))
    size = b.insert(mux.GetLocalSizeOp(const(b, dim, i32))).result
    size.name_hint = "size"
    values[item] = const(b, 0, item.type)  # used by nothing that is returned
    blocks = {original_entry: entry}
    for block in region_function.body.blocks:
        if block in prefix and block is not original_entry:
            blocks[block] = Block(arg_types=block.arg_types)
            bound.body.add_block(blocks[block])
            for old, new in zip(block.args, blocks[block].args, strict=True):
                values[old], new.name_hint = new, old.name_hint
    for original, block in list(blocks.items()):  # cloning adds nested blocks
        how = exits.get(original, original)  # the block itself: it passes on
        stop = original.last_op if how is None or isinstance(how, list) else how
        b = Builder(InsertPoint.at_end(block))
        for op in original.ops:
            if op is stop and how is not original:
                break
            b.insert(op.clone(value_mapper=values, block_mapper=blocks))
        if how is original:
            continue
        if how is None:
            results = [const(b, 0), const(b, 0)]
        elif isinstance(how, list):
            results = _Emitter(module, b, values, size).bounds(how)
        else:
            results = [const(b, 0), size]
        b.insert(func.ReturnOp(*results))
    if not _may_load_after_store(bound):
        for op in [op for op in bound.walk() if is_store(op)]:
            Rewriter.erase_op(op)
    _remove_unused(bound)
    assert not any(isinstance(op, VARYING_QUERIES) for op in bound.walk())
    return bound


def _may_load_after_store(function: func.FuncOp) -> bool:
    """Whether a load of `function` may run after one of its stores. If none may, the
    bound function leaves the stores to the region function: every work-item that
    runs it makes them."""
    storing = [b for b in function.body.blocks if any(is_store(op) for op in b.ops)]
    # the blocks that may run after a store
    after = reachable((s for block in storing for s in successors(block)), successors)
    for block in function.body.blocks:
        stored = block in after
        for op in block.ops:
            if is_load(op) and stored:
                return True
            stored = stored or is_store(op)
    return False


def _remove_unused(function: func.FuncOp) -> None:
    """Erases pure ops and loads without uses, last to first, until none is left."""
    changed = True
    while changed:
        changed = False
        for block in reversed(list(function.body.blocks)):
            for op in reversed(list(block.ops)):
                if (is_pure(op) or is_load(op)) and not any(r.uses for r in op.results):
                    Rewriter.erase_op(op)
                    changed = True
