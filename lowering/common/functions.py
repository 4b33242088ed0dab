"""The functions of a module and its call graph, and building functions.

Passes are written against `func.func` / `func.call` (the input and scheduled
levels); every other op is opaque to them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from xdsl.builder import Builder
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    ModuleOp,
    StringAttr,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.rewriter import InsertPoint

from dialects import attributes as mux_attrs
from lowering.common.cfg import reachable


def functions(module: ModuleOp) -> dict[str, func.FuncOp]:
    """The `func.func`s directly in `module`, by name."""
    return {f.sym_name.data: f for f in module.ops if isinstance(f, func.FuncOp)}


def enclosing_function(op: Operation) -> func.FuncOp | None:
    """The `func.func` that holds `op` (None: none does)."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp):
        parent = parent.parent_op()
    return parent


def kernel_entry_points(module: ModuleOp) -> list[func.FuncOp]:
    """The functions marked `mux.kernel = "entry-point"`, in module order."""
    return [f for f in functions(module).values() if mux_attrs.is_kernel_entry_point(f)]


def calls_in(fn: Operation) -> list[func.CallOp]:
    return [op for op in fn.walk() if isinstance(op, func.CallOp)]


def callers_of(module: ModuleOp) -> dict[str, list[func.CallOp]]:
    """For each function name, the `func.call`s of it anywhere in `module`."""
    callers: dict[str, list[func.CallOp]] = {}
    for call in calls_in(module):
        callers.setdefault(call.callee.root_reference.data, []).append(call)
    return callers


def reachable_from(module: ModuleOp, roots: Iterable[str]) -> set[str]:
    """The names of the functions `roots` call, transitively, and the roots."""
    fns = functions(module)

    def callees(name: str) -> list[str]:
        if name not in fns:
            return []
        return [c.callee.root_reference.data for c in calls_in(fns[name])]

    return reachable(roots, callees)


def call_cycle(module: ModuleOp, names: Iterable[str]) -> list[str] | None:
    """A cycle of calls from one of `names` back to it (directly or through other
    functions), as the names along it, the first one repeated at the end
    (`['k', 'helper', 'k']`); None if none of `names` reaches itself."""
    fns = functions(module)
    callees = {
        name: [c.callee.root_reference.data for c in calls_in(fn)]
        for name, fn in fns.items()
    }
    for start in names:
        # A depth-first walk from `start`'s callees, remembering how each function
        # was reached, until `start` is reached again.
        parent: dict[str, str] = {}
        work = [(callee, start) for callee in callees.get(start, [])]
        while work:
            name, via = work.pop()
            if name in parent:
                continue
            parent[name] = via
            if name == start:
                path = [start]
                while (via := parent[path[-1]]) != start:
                    path.append(via)
                return [start, *reversed(path)]
            work.extend((callee, name) for callee in callees.get(name, []))
    return None


def base_name(fn: func.FuncOp) -> str:
    """The name new versions of `fn` are suffixed to (spec: "mux-base-fn-name")."""
    return mux_attrs.BASE_FN_NAME.get(fn) or fn.sym_name.data


def new_function(
    name: str,
    inputs: Sequence[Attribute],
    outputs: Sequence[Attribute] = (),
    arg_names: Sequence[str | None] = (),
) -> tuple[func.FuncOp, Builder]:
    """A function with an entry block, and a builder at the end of that block."""
    fn = func.FuncOp(name, FunctionType.from_lists(list(inputs), list(outputs)))
    for arg, arg_name in zip(fn.body.block.args, arg_names, strict=False):
        arg.name_hint = arg_name
    return fn, Builder(InsertPoint.at_end(fn.body.block))


def append_arguments(fn: func.FuncOp, types: Sequence[Attribute]) -> list[SSAValue]:
    """Adds parameters at the end of `fn`'s signature; returns the new block
    arguments (none for a declaration, whose type alone changes)."""
    inputs = [*fn.function_type.inputs.data, *types]
    fn.function_type = FunctionType.from_lists(inputs, fn.function_type.outputs.data)
    if fn.arg_attrs is not None:
        empty = [DictionaryAttr({})] * len(types)
        fn.arg_attrs = ArrayAttr([*fn.arg_attrs.data, *empty])
    if fn.is_declaration:
        return []
    block = fn.body.blocks.first
    assert block is not None
    return [block.insert_arg(t, len(block.args)) for t in types]


def mark_internal(fn: func.FuncOp) -> None:
    """Makes `fn` private to the module: later optimisation may inline and drop it."""
    fn.sym_visibility = StringAttr("private")
