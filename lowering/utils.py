"""Helpers shared by the passes: the functions of a module, the call graph, and the
building blocks passes use to make IR (constants, loops, struct fields).

Passes are written against `func.func` / `func.call` (the input and scheduled
levels); every other op is opaque to them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from xdsl.builder import Builder
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
    i1,
    i32,
    i64,
)
from xdsl.dialects.llvm import AllocaOp, GEPOp, LLVMPointerType, LoadOp, StoreOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint
from xdsl.utils.arg_spec import ArgSpec
from xdsl.utils.exceptions import DiagnosticException

from dialects import attributes as mux_attrs
from dialects.scheduling import FieldKind, SchedulingStruct

SIZE_T = i64
"""The host's `size_t`: 64-bit."""
INDEX = IndexType()


class PassError(DiagnosticException):
    """A pass cannot handle its input: the message says what and where. `op`, when
    given, is the op at fault: `mux.compile`'s diagnostic shows its place in the
    source (`mux.diagnostics`)."""

    def __init__(self, message: str, op: Operation | None = None):
        super().__init__(message)
        self.op = op


class NameOption:
    """Mixin for passes whose spec option is `name=` (the reference's spelling), which
    xDSL reserves for the pass's own name: the option is stored in the field
    `kernel_name` and spelled `name` on the command line and when printed."""

    @classmethod
    def from_spec(cls, spec: ArgSpec):  # type: ignore[override]
        parameters = dict(spec.parameters)
        if "name" in parameters:
            parameters["kernel_name"] = parameters.pop("name")
        return super().from_spec(ArgSpec(spec.name, parameters))  # type: ignore[misc]

    def spec(self, *, include_default: bool = False) -> ArgSpec:
        spec = super().spec(include_default=include_default)  # type: ignore[misc]
        parameters = dict(spec.parameters)
        if "kernel_name" in parameters:
            parameters["name"] = parameters.pop("kernel_name")
        return ArgSpec(spec.name, parameters)


# --------------------------------------------------------------------------------------
# Functions and calls.
# --------------------------------------------------------------------------------------


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
    seen: set[str] = set()
    work = list(roots)
    while work:
        name = work.pop()
        if name in seen:
            continue
        seen.add(name)
        if name in fns:
            work.extend(c.callee.root_reference.data for c in calls_in(fns[name]))
    return seen


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


# --------------------------------------------------------------------------------------
# Building IR.
# --------------------------------------------------------------------------------------


def const(b: Builder, value: int | bool, type_: Attribute = INDEX) -> SSAValue:
    """An `arith.constant` of an integer, index or i1 type."""
    if type_ == i1:
        return b.insert(arith.ConstantOp(IntegerAttr(int(value), i1))).result
    return b.insert(arith.ConstantOp(IntegerAttr(value, type_))).result


def constant_int(value: SSAValue) -> int | None:
    """The value of `value` if an `arith.constant` of an integer or index type
    defines it, else None."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def to_index(b: Builder, value: SSAValue) -> SSAValue:
    if isinstance(value.type, IndexType):
        return value
    return b.insert(arith.IndexCastOp(value, IndexType())).result


def from_index(b: Builder, value: SSAValue, type_: Attribute) -> SSAValue:
    if value.type == type_:
        return value
    return b.insert(arith.IndexCastOp(value, type_)).result


def build_for(
    b: Builder,
    lower: SSAValue,
    upper: SSAValue,
    step: SSAValue,
    body: Callable[[Builder, SSAValue], None],
    name: str | None = None,
) -> scf.ForOp:
    """`scf.for %iv = lower to upper step step { body(builder, %iv) }`."""
    block = Block(arg_types=[IndexType()])
    if name is not None:
        block.args[0].name_hint = name
    inner = Builder(InsertPoint.at_end(block))
    body(inner, block.args[0])
    inner.insert(scf.YieldOp())
    return b.insert(scf.ForOp(lower, upper, step, [], Region(block)))


def build_if(
    b: Builder, condition: SSAValue, then: Callable[[Builder], None]
) -> scf.IfOp:
    """`scf.if %condition { then(builder) }`, without results."""
    block = Block()
    inner = Builder(InsertPoint.at_end(block))
    then(inner)
    inner.insert(scf.YieldOp())
    return b.insert(scf.IfOp(condition, [], Region(block)))


# --------------------------------------------------------------------------------------
# Scheduling structs: fields addressed by name.
# --------------------------------------------------------------------------------------


class StructFields:
    """Loads and stores of the fields of a scheduling struct behind a pointer.

    `StructFields(b, ptr, WORK_GROUP_INFO).load("local_size", dim)` loads element
    `dim` (an int or an i32/index SSA value) of the `local_size` array as an `index`;
    i32 fields load as i32.
    """

    def __init__(self, b: Builder, ptr: SSAValue, struct: SchedulingStruct):
        self.b, self.ptr, self.struct = b, ptr, struct
        self.type = struct.llvm_type(SIZE_T.width.data)

    def address(self, field: str, element: int | SSAValue | None = None) -> SSAValue:
        index = self.struct.field_index(field)
        kind = self.struct.fields[index].kind
        indices: list[int | SSAValue] = [0, index]
        if kind is FieldKind.SIZE_T_X3:
            if element is None:
                raise ValueError(f"field '{field}' is an array: give an element")
            if isinstance(element, SSAValue) and isinstance(element.type, IndexType):
                element = from_index(self.b, element, i64)
            indices.append(element)
        gep = GEPOp.from_mixed_indices(self.ptr, indices, self.type, inbounds=True)
        return self.b.insert(gep).result

    def _element_type(self, field: str) -> IntegerType:
        kind = self.struct.fields[self.struct.field_index(field)].kind
        return i32 if kind is FieldKind.I32 else SIZE_T

    def load(
        self,
        field: str,
        element: int | SSAValue | None = None,
        as_index: bool = True,
    ) -> SSAValue:
        """The field's value: i32 for i32 fields; for size_t elements an `index`, or
        the raw i64 if not `as_index`."""
        address = self.address(field, element)
        type_ = self._element_type(field)
        value = self.b.insert(LoadOp(address, type_)).dereferenced_value
        return to_index(self.b, value) if type_ == SIZE_T and as_index else value

    def store(
        self, value: SSAValue, field: str, element: int | SSAValue | None = None
    ) -> None:
        address = self.address(field, element)
        value = from_index(self.b, value, self._element_type(field))
        self.b.insert(StoreOp(value, address))


def alloca(b: Builder, type_: Attribute, name: str | None = None) -> SSAValue:
    """A stack slot for one value of `type_` (a struct, for the scheduling infos)."""
    slot = b.insert(AllocaOp(const(b, 1, SIZE_T), type_)).res
    slot.name_hint = name
    return slot


POINTER = LLVMPointerType()
"""The type of a scheduling-parameter argument: an opaque pointer in address space 0."""
