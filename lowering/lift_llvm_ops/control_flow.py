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
- **a loop with one latch** (clang's rotated loops, `do { body } while (c)`
  behind a guard that is a triangle of its own): a header `^h` whose loop has
  one block `^l` branching back to it, by `llvm.cond_br %c, ^h(next...),
  ^exit(...)` (or the other way round), that branch being the only way out of
  the loop and `^h` the only way in. It is an `scf.while` whose `before`
  region is the path from `^h` to `^l` (its branches lifted as above, inner
  loops as loops), then `^l`: a do-while, the body then the condition. It
  forwards the next values of `^h`'s arguments, the arguments of the exit,
  and the values of the path that later blocks use (only the path's own
  values and `^h`'s arguments can be: the others are in blocks that do not
  dominate `^l`, the only way out), which become results of the `scf.while`;
  its `after` region yields the next values. A loop is one step of the paths
  outside it, and the paths inside it end at `^l`, so the diamonds in its body
  meet inside it. A loop of one block is the case `^h` = `^l`.

Anything else (a loop with several latches, one left elsewhere than at its
latch: a `break`, a `return` inside, a loop tested at its top; a jump into a
loop, a switch, a block reached on two paths that do not meet as above) is
`Unstructured`, and the kernel keeps its CFG, correct but not vectorised.
"""

from __future__ import annotations

from xdsl.dialects import arith, cf, func, llvm, scf
from xdsl.dialects.builtin import IntegerAttr, i1
from xdsl.ir import Block, Region, SSAValue, Use


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


def _loops(entry: Block) -> dict[Block, Block]:
    """The loops of the CFG from `entry`, each header with its latch (the block
    that branches back to it). Unstructured unless each loop has one latch,
    which ends in a `cond_br` to the header and to a block outside the loop, is
    the only way out of the loop, and the header the only way in."""
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
    loops = {}
    for header, latches in back.items():
        if len(latches) != 1:
            raise Unstructured("a loop with several latches")
        latch = latches[0]
        body = _loop_body(header, latch)
        for block in body:
            outside = [t for t, _ in _successors(block) if t not in body]
            if block is not header and any(p not in body for p in block.predecessors()):
                raise Unstructured("a jump into a loop")
            if block is not latch and outside:
                raise Unstructured("a way out of a loop before its latch")
        exits = [t for t, _ in _successors(latch) if t not in body]
        if not isinstance(latch.last_op, llvm.CondBrOp) or len(exits) != 1:
            raise Unstructured("a loop without one exit at its latch")
        loops[header] = latch
    return loops


def _loop_body(header: Block, latch: Block) -> set[Block]:
    """The header and the blocks that reach the latch without passing it."""
    body, work = {header, latch}, [] if latch is header else [latch]
    while work:
        for pred in work.pop().predecessors():
            if pred not in body:
                body.add(pred)
                work.append(pred)
    return body


class _Lifting:
    def __init__(self, entry: Block) -> None:
        self.emitted: set[Block] = set()
        self.merging: set[Block] = set()
        self.loops = _loops(entry)
        """Each loop's header with its latch."""
        self.exits = {}
        """The header and the latch of each loop with the loop's exit."""
        for header, latch in self.loops.items():
            self.exits[header] = self.exits[latch] = self.exit_edge(latch)[0]

    def exit_edge(self, latch: Block) -> Edge:
        header = next(h for h, end in self.loops.items() if end is latch)
        return next(e for e in _successors(latch) if e[0] is not header)

    # -- the structure: where each path goes ------------------------------------------

    def after(self, block: Block) -> Block | None:
        """The block a path goes to after `block`: its branch's one target, the
        exit of its loop (after a loop's header or latch: a loop is one step of
        the paths outside it, and the paths inside it lead to its latch), or the
        meeting point of its two paths."""
        edges = _successors(block)
        if not edges:
            return None
        if block in self.exits:
            return self.exits[block]
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
            assert block is not None
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
        """The loop of `header` (entered with `init`) as an `scf.while` whose
        `before` region is the path from the header to the latch; the exit edge."""
        latch = self.loops[header]
        term = latch.last_op
        assert isinstance(term, llvm.CondBrOp)
        (then_, then_args), (else_, else_args) = _successors(latch)
        if then_ is else_:
            raise Unstructured("a loop branching to its header both ways")
        before = Block(arg_types=[a.type for a in header.args])
        args: list[SSAValue] | None = list(before.args)
        if latch is not header:
            edge = self.emit_block(header, args, before)
            assert edge is not None  # a return is a way out: _loops refused it
            args = self.emit(*edge, latch, before)
            assert args is not None
            self.claim(latch)
        for old, new in zip(latch.args, args, strict=True):
            old.replace_all_uses_with(new)
        _move_body(latch, before)
        cond = term.cond
        if then_ is header:
            again, (exit_, exit_args) = then_args, (else_, else_args)
        else:  # the loop goes on when the condition is false
            again, (exit_, exit_args) = else_args, (then_, then_args)
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

        defined = [*before.args, *(r for op in before.ops for r in op.results)]
        escaping = [v for v in defined if any(map(outside, v.uses))]
        forwarded = [*again, *exit_args]
        forwarded += [v for v in dict.fromkeys(escaping) if v not in forwarded]
        before.add_op(scf.ConditionOp(cond, *forwarded))
        after = Block(arg_types=[v.type for v in forwarded])
        after.add_op(scf.YieldOp(*after.args[: len(again)]))
        types = [v.type for v in forwarded]
        loop = scf.WhileOp(init, types, Region(before), Region(after))
        to.add_op(loop)
        for value in escaping:  # the value the loop had when it stopped
            result = loop.results[forwarded.index(value)]
            value.replace_uses_with_if(result, outside)
        first = len(again) + len(exit_args)
        return exit_, list(loop.results[len(again) : first])


def _move_body(block: Block, to: Block) -> None:
    """Moves `block`'s ops but its terminator to the end of `to`."""
    term = block.last_op
    for op in list(block.ops):
        if op is term:
            break
        op.detach()
        to.add_op(op)
