"""An imported kernel's branches as `scf`: the control-flow graph clang gives (a CFG
of `llvm.br`/`llvm.cond_br` with block arguments for phis) as one block of
`scf.if` and `scf.while` ops, where its shape allows.

The shapes lifted:

- **a diamond or a triangle**: a block ending in `llvm.cond_br %c, ^t, ^f` whose
  two paths meet again at a block `^m` (the first block of the path from `^f`
  that is on the path from `^t`, each path following the blocks the branches
  lead to, a nested diamond or loop counted as one step) is
  `scf.if %c -> (the types of ^m's arguments)`, each region the blocks of its path
  up to `^m`, yielding what that path passes to `^m`;
- **a loop with one latch and one way out**: a header `^h`, the only way into
  the loop, a latch `^l`, the one block branching back to it, and one block
  `^e` whose `llvm.cond_br` leaves the loop (one target in the loop, the other
  the exit). Clang's rotated loop (`do { body } while (c)`, behind a guard that
  is a triangle of its own) has `^e` = `^l`; a loop tested at its top (clang
  does not rotate a loop whose test follows a barrier: it would copy it) has
  `^e` = `^h` and `^l` ending in `llvm.br ^h(next...)`. It is an `scf.while`
  whose `before` region is the path from `^h` to `^e` (its branches lifted as
  above, inner loops as loops), with `^e`'s condition (negated if the loop
  goes on when it is false), and whose `after` region is the rest of the path
  to `^l`, yielding the next values of `^h`'s arguments (`^e` = `^l`: it
  yields what it is given). The `scf.condition` forwards what `^e` passes on
  in the loop and to the exit, and the values of the `before` region the
  `after` region or later blocks use (the region's own values and `^h`'s
  arguments: the others are in blocks that do not dominate `^e`, the only way
  on), which become results of the `scf.while`; a constant is copied instead.
  A loop is one step of the paths outside it, and the paths inside it end at
  `^l`, so the diamonds in its body meet inside it. `^e` must be on the path
  from `^h` (not inside one of its branches: that branch's path leads back to
  `^h`, which the lifting has taken already, and is refused). A loop of one
  block is the case `^h` = `^e` = `^l`.

Anything else (a loop with several latches, or left at two blocks: a `break`,
a `return` inside; a jump into a loop, a switch, a block reached on two paths
that do not meet as above) is `Unstructured`, and the kernel keeps its CFG,
correct but not vectorised.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith, cf, func, llvm, scf
from xdsl.dialects.builtin import IntegerAttr, i1
from xdsl.ir import Block, Operation, Region, SSAValue, Use

_CONSTANTS = (llvm.ConstantOp, arith.ConstantOp)


class Unstructured(Exception):
    """The CFG has a shape this lifting does not handle (the message)."""


Edge = tuple[Block, list[SSAValue]]


def lift_branches(kernel: func.FuncOp) -> bool:
    """Replaces `kernel`'s blocks by one block of `scf` ops, if its CFG has only
    the shapes of the module docstring; whether it did."""
    blocks = kernel.body.blocks
    if blocks.first is None or blocks.first is blocks.last:
        return False
    clone = kernel.clone()  # lifted in a copy: an Unstructured leaves the kernel
    region = clone.body
    entry = region.blocks.first
    assert entry is not None
    lifted = Block(arg_types=[a.type for a in entry.args])
    try:
        _Lifting(entry).emit(entry, list(lifted.args), None, lifted)
    except Unstructured:
        return False
    _drop_blocks(kernel.body)
    _drop_blocks(region)
    kernel.body.add_block(lifted)
    return True


def _drop_blocks(region: Region) -> None:
    for block in list(region.blocks):
        for op in list(block.ops):
            op.drop_all_references()
    for block in list(region.blocks):
        region.detach_block(block)


def _successors(block: Block) -> list[Edge]:
    term = block.last_op
    if isinstance(term, llvm.BrOp | cf.BranchOp):
        return [(term.successors[0], list(term.operands))]
    if isinstance(term, llvm.CondBrOp):
        return [
            (term.successors[0], list(term.then_arguments)),
            (term.successors[1], list(term.else_arguments)),
        ]
    if isinstance(term, func.ReturnOp | llvm.ReturnOp):
        return []
    raise Unstructured(f"a block ending in {term.name if term else 'nothing'}")


@dataclass
class _Loop:
    """A loop of the CFG (module docstring): entered at `header`, left at
    `exiting` only, by `exit`; `latch` branches back to the header."""

    header: Block
    exiting: Block
    latch: Block
    body: set[Block]
    inside: Block
    """`exiting`'s successor in the loop."""
    exit: Block
    goes_on: bool
    """Whether the loop goes on when `exiting`'s condition is true."""


def _loops(entry: Block) -> dict[Block, _Loop]:
    """The loops of the CFG from `entry`, by header: Unstructured unless each
    has one latch and one way out, the `cond_br` of a block (the latch, or one
    before it whose other successor is in the loop, the latch then ending in a
    `br` to the header), and the header is the only way in."""
    back: dict[Block, list[Block]] = {}
    on_stack, seen = {entry}, {entry}
    stack = [(entry, iter([t for t, _ in _successors(entry)]))]
    while stack:  # depth-first: an edge to a block on the stack goes back
        block, targets = stack[-1]
        target = next(targets, None)
        if target is None:
            on_stack.discard(block)
            stack.pop()
        elif target in on_stack:
            back.setdefault(target, []).append(block)
        elif target not in seen:
            seen.add(target)
            on_stack.add(target)
            stack.append((target, iter([t for t, _ in _successors(target)])))
    return {header: _loop(header, latches) for header, latches in back.items()}


def _loop(header: Block, latches: list[Block]) -> _Loop:
    if len(latches) != 1:
        raise Unstructured("a loop with several latches")
    (latch,) = latches
    body, work = {header, latch}, [] if latch is header else [latch]
    while work:  # the blocks that reach the latch without passing the header
        for pred in work.pop().predecessors():
            if pred not in body:
                body.add(pred)
                work.append(pred)
    if any(p not in body for b in body - {header} for p in b.predecessors()):
        raise Unstructured("a jump into a loop")
    exiting = [b for b in body if any(t not in body for t, _ in _successors(b))]
    if len(exiting) != 1:
        raise Unstructured("a loop left at several blocks, or never")
    (block,) = exiting
    term = block.last_op
    if not isinstance(term, llvm.CondBrOp) or not set(term.successors) & body:
        raise Unstructured("a loop left both ways of a branch")
    if block is not latch and not isinstance(latch.last_op, llvm.BrOp | cf.BranchOp):
        raise Unstructured("a loop whose latch branches")
    then_, else_ = term.successors
    goes_on = then_ in body
    inside, exit_ = (then_, else_) if goes_on else (else_, then_)
    return _Loop(header, block, latch, body, inside, exit_, goes_on)


class _Lifting:
    def __init__(self, entry: Block) -> None:
        self.emitted: set[Block] = set()
        self.merging: set[Block] = set()
        self.loops = _loops(entry)
        self.steps: dict[Block, Block] = {}
        """The block after each loop's header and latch on a path (the loop's
        exit: a loop is one step of the paths outside it, and the paths inside
        it end at its latch), and after the block it is left at (its successor
        in the loop), if another."""
        for loop in self.loops.values():
            self.steps[loop.exiting] = loop.inside
            self.steps[loop.header] = self.steps[loop.latch] = loop.exit

    # -- the structure: where each path goes ------------------------------------------

    def after(self, block: Block) -> Block | None:
        """The block a path goes to after `block`: its branch's one target, the
        next step of a loop's (`steps`), or the meeting point of its two
        paths."""
        edges = _successors(block)
        if not edges:
            return None
        if block in self.steps:
            return self.steps[block]
        if len(edges) == 1:
            return edges[0][0]
        return self.meeting(block)

    def path(self, block: Block | None) -> list[Block]:
        blocks: list[Block] = []
        while block is not None:
            if block in blocks:
                raise Unstructured("a cycle that is not a loop")
            blocks.append(block)
            block = self.after(block)
        return blocks

    def meeting(self, block: Block) -> Block | None:
        """Where the two paths of `block`'s conditional branch meet (None: at
        the end, both return)."""
        if block in self.merging:
            raise Unstructured("a cycle that is not a loop")
        self.merging.add(block)
        try:
            (then_, _), (else_, _) = _successors(block)
            then_path = self.path(then_)
            return next((b for b in self.path(else_) if b in then_path), None)
        finally:
            self.merging.discard(block)

    # -- emitting -------------------------------------------------------------------

    def claim(self, block: Block) -> None:
        if block in self.emitted:
            raise Unstructured("a block reached on two paths")
        self.emitted.add(block)

    def emit(
        self, block: Block | None, args: list[SSAValue], stop: Block | None, to: Block
    ) -> list[SSAValue] | None:
        """Moves the path from `block` (entered with `args`) up to `stop` into
        `to`; returns what it passes to `stop` (None: it returned)."""
        while block is not stop:
            if block is None:
                raise Unstructured("a path that does not lead where it should")
            self.claim(block)
            if block in self.loops:
                block, args = self.emit_loop(block, args, to)
                continue
            edge = self.emit_block(block, args, to)
            if edge is None:
                return None
            block, args = edge
        return args

    def emit_block(self, block: Block, args: list[SSAValue], to: Block) -> Edge | None:
        """Moves `block` (entered with `args`) into `to`, a branch of it as an
        `scf.if`; the edge it leaves by (None: it returned)."""
        for old, new in zip(block.args, args, strict=True):
            old.replace_all_uses_with(new)
        term = block.last_op
        assert term is not None
        _move_body(block, to)
        edges = _successors(block)
        if not edges:
            term.detach()
            to.add_op(term)
            return None
        if len(edges) == 1:
            return edges[0]
        assert isinstance(term, llvm.CondBrOp)
        return self.emit_if(term.cond, edges, self.meeting(block), to)

    def emit_if(
        self, cond: SSAValue, edges: list[Edge], meeting: Block | None, to: Block
    ) -> Edge:
        if meeting is None:
            raise Unstructured("a return on a path of a branch")
        regions = []
        for target, args in edges:
            body = Block()
            passed = self.emit(target, args, meeting, body)
            if passed is None:
                raise Unstructured("a return on a path of a branch")
            body.add_op(scf.YieldOp(*passed))
            regions.append(Region(body))
        if_ = scf.IfOp(cond, [a.type for a in meeting.args], *regions)
        to.add_op(if_)
        return meeting, list(if_.results)

    def emit_loop(self, header: Block, init: list[SSAValue], to: Block) -> Edge:
        """The loop of `header` (entered with `init`) as an `scf.while`: its
        `before` region the path from the header to the block the loop is left
        at, its `after` region the rest of the path to the latch; the exit edge.
        (A way out inside a branch of the loop is not on that path: the path
        of that branch leads back to the header, which is Unstructured.)"""
        loop = self.loops[header]
        before = Block(arg_types=[a.type for a in header.args])
        args: list[SSAValue] | None = list(before.args)
        if loop.exiting is not header:
            edge = self.emit_block(header, args, before)
            args = self.emit(*edge, loop.exiting, before) if edge else None
            self.claim(loop.exiting)
        term = self.emit_last(loop.exiting, args, before)
        assert isinstance(term, llvm.CondBrOp)  # as the loop's analysis found
        cond = term.cond
        if not loop.goes_on:
            true = arith.ConstantOp(IntegerAttr(1, i1))
            negated = arith.XOrIOp(cond, true)
            before.add_ops([true, negated])
            cond = negated.result

        def outside(use: Use) -> bool:
            op = use.operation
            if op.parent_block() in self.emitted:  # a branch that goes away
                return False
            while op is not None:
                if op.parent_block() is before:
                    return False
                op = op.parent_op()
            return True

        def in_after(use: Use) -> bool:  # in a block of the after region
            block = use.operation.parent_block()
            return block in loop.body and block not in self.emitted

        defined = [*before.args, *(r for op in before.ops for r in op.results)]
        escaping = [v for v in defined if any(map(outside, v.uses))]
        after = Block()
        for value in [v for v in escaping if isinstance(v.owner, _CONSTANTS)]:
            escaping.remove(value)  # copied where it is used rather than forwarded
            for block, where in ((after, in_after), (to, outside)):
                if any(map(where, value.uses)):
                    copy = value.owner.clone()
                    block.add_op(copy)
                    value.replace_uses_with_if(copy.results[0], where)
        edges = _successors(loop.exiting)  # their arguments are the new values
        (_, again), (_, exit_args) = edges if loop.goes_on else edges[::-1]
        forwarded = [*again, *exit_args]
        forwarded += [v for v in dict.fromkeys(escaping) if v not in forwarded]
        before.add_op(scf.ConditionOp(cond, *forwarded))
        for value in forwarded:
            after.insert_arg(value.type, len(after.args))
        for value in escaping:  # the after region has them as its arguments
            value.replace_uses_with_if(after.args[forwarded.index(value)], in_after)
        self.emit_after(loop, list(after.args[: len(again)]), after)
        types = [v.type for v in forwarded]
        while_ = scf.WhileOp(init, types, Region(before), Region(after))
        to.add_op(while_)
        for value in escaping:  # after the loop, the value it had when it stopped
            result = while_.results[forwarded.index(value)]
            value.replace_uses_with_if(result, outside)
        first = len(again) + len(exit_args)
        return loop.exit, list(while_.results[len(again) : first])

    def emit_after(self, loop: _Loop, args: list[SSAValue], after: Block) -> None:
        """The `after` region of `loop`'s `scf.while`, entered with `args`: the
        path from the block the loop is left at to the latch, yielding what the
        latch passes to the header."""
        if loop.exiting is loop.latch:
            after.add_op(scf.YieldOp(*args))
            return
        passed = self.emit(loop.inside, args, loop.latch, after)
        self.claim(loop.latch)
        self.emit_last(loop.latch, passed, after)
        ((_, again),) = _successors(loop.latch)
        after.add_op(scf.YieldOp(*again))

    def emit_last(
        self, block: Block, args: list[SSAValue] | None, to: Block
    ) -> Operation:
        """Moves `block`'s ops but its branch into `to`, entered with `args`
        (None: the path to it returned); its branch."""
        if args is None:
            raise Unstructured("a return inside a loop")
        for old, new in zip(block.args, args, strict=True):
            old.replace_all_uses_with(new)
        _move_body(block, to)
        assert block.last_op is not None
        return block.last_op


def _move_body(block: Block, to: Block) -> None:
    """Moves `block`'s ops but its terminator to the end of `to`."""
    term = block.last_op
    for op in list(block.ops):
        if op is term:
            break
        op.detach()
        to.add_op(op)
