"""Translation of a module in the `llvm` dialect (plus `llvmx`) to LLVM IR text.

A thin layer over xDSL's `xdsl.backend.llvm`: xDSL's `convert_op` translates the
`llvm` ops and its `convert_type` the types; this module drives it and adds what it
lacks or gets wrong in xDSL 0.74:

- the `llvmx` ops (casts, `extractelement`, vector `select` and `fcmp`, `freeze`,
  `switch`, fences, atomics, `memcpy`);
- function linkage (xDSL ignores `llvm.func`'s linkage: every function came out
  external) and function attributes;
- atomic loads and stores (xDSL drops the ordering and emits a plain load/store),
  volatile stores (xDSL drops `volatile`), and stores through a pointer llvmlite
  types differently from the value (llvmlite's builder rejects those: the address
  of a struct global or alloca is a typed pointer to the struct, but storing its
  first field there is valid LLVM IR);
- globals: an external global with an initialiser is a definition, which xDSL
  printed as `external global i32 5` (invalid IR); initialiser regions made of
  constants; alignment;
- blocks are translated in dominance order (reverse post-order), so a block listed
  before the block defining a value it uses no longer fails with a KeyError;
- loop metadata: the branch that closes a loop (to a block at or before its own in
  reverse post-order) carries `!llvm.loop` with `LOOP_HINTS`, no unrolling at run
  time;
- any op or type the backend cannot translate raises `TranslationError` naming it.

**Address spaces.** On the host CPU all memory is one flat space, so every pointer
type is emitted in address space 0 (the llvm-dialect IR keeps the spec's numbers,
1 global, 3 local, ..., for readers). LLVM's x86 backend gives address spaces
256-258 a meaning of their own (segment registers) and some optimisations are weaker
on non-zero spaces; mapping everything to 0 avoids both. It also sidesteps xDSL's bug
with `getelementptr` on a non-zero address space (it bitcasts the base pointer to a
typed pointer in address space 0, which LLVM rejects), and makes `addrspacecast` the
identity.

**Linkage.** An `llvm.func` or `llvm.mlir.global` is emitted with its own linkage:
`internal` and `private` ones are invisible outside the module (and LLVM deletes
them once inlined), `external` ones are exported. The conversion to LLVM decides
which functions are internal.

**Function attributes** come from MLIR's `passthrough` array on `llvm.func` (as a
property or a discardable attribute: `llvm.func @f() attributes {passthrough =
["alwaysinline", "nounwind"]}`), plus the `no_inline`, `no_unwind` and
`optimize_none` unit properties. Each entry must be an attribute llvmlite knows
(`alwaysinline`, `noinline`, `nounwind`, `norecurse`, ...); key-value entries are
rejected.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import IO

from llvmlite import binding, ir
from llvmlite.ir import instructions
from xdsl.backend.llvm.convert import _declare_func
from xdsl.backend.llvm.convert_op import (
    _BINARY_INTRINSIC_MAP,
    _UNARY_INTRINSIC_MAP,
    convert_op,
    create_constant,
    declare_intrinsic,
)
from xdsl.backend.llvm.convert_type import convert_type
from xdsl.context import Context
from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    IntAttr,
    ModuleOp,
    StringAttr,
)
from xdsl.ir import Attribute, Block, Operation, ParametrizedAttribute, SSAValue
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import LLVMTranslationException
from xdsl.utils.target import Target

from dialects import llvmx
from lowering.common.cfg import reverse_post_order

__all__ = ["LLVMIRTarget", "TranslationError", "translate", "translate_module"]


class TranslationError(LLVMTranslationException):
    """The module cannot be translated to LLVM IR; the message names the op or
    type. A `DiagnosticException`, like every compile error of the project."""


ValueMap = dict[SSAValue, ir.Value]
BlockMap = dict[Block, ir.Block]


# --------------------------------------------------------------------------------------
# Entry points.
# --------------------------------------------------------------------------------------


def translate(module: ModuleOp, *, consume: bool = False) -> str:
    """The LLVM IR text of `module`, a module of `llvm.func`s and
    `llvm.mlir.global`s in the `llvm` and `llvmx` dialects."""
    return str(translate_module(module, consume=consume))


def translate_module(module: ModuleOp, *, consume: bool = False) -> ir.Module:
    """`module` as an llvmlite IR module (see `translate`). `module` is unchanged,
    unless `consume` says its owner has no further use for it: then its pointer
    types are flattened in place rather than in a copy (a tenth of a kernel's
    compile time goes into copying a large module)."""
    module = _flatten_address_spaces(module if consume else module.clone())
    llvm_module = ir.Module(name=module.sym_name.data if module.sym_name else "")
    llvm_module.triple = _string_attribute(module, "llvm.target_triple") or (
        binding.get_default_triple()
    )
    llvm_module.data_layout = _string_attribute(module, "llvm.data_layout") or ""

    globals_: list[llvm.GlobalOp] = []
    functions: list[llvm.FuncOp] = []
    for op in module.ops:
        if isinstance(op, llvm.GlobalOp):
            globals_.append(op)
        elif isinstance(op, llvm.FuncOp):
            functions.append(op)
        else:
            raise TranslationError(
                f"cannot translate {op.name} to LLVM IR: a module to translate holds "
                "only llvm.func and llvm.mlir.global"
            )
    for global_op in globals_:
        with _diagnostics(f"global @{global_op.sym_name.data}"):
            _declare_global(global_op, llvm_module)
    for function in functions:
        with _diagnostics(f"the signature of @{function.sym_name.data}"):
            _declare_function(function, llvm_module)
    for global_op in globals_:
        _define_global(global_op, llvm_module)
    for function in functions:
        if function.body.blocks:
            _define_function(function, llvm_module)
    return llvm_module


@dataclass(frozen=True)
class LLVMIRTarget(Target):
    """`mux-opt -t llvm`: the LLVM IR text of an llvm-dialect module."""

    name = "llvm"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        print(translate(module), file=output)


# --------------------------------------------------------------------------------------
# Address spaces.
# --------------------------------------------------------------------------------------


def _flatten_address_spaces(module: ModuleOp) -> ModuleOp:
    """`!llvm.ptr<N>` -> `!llvm.ptr` everywhere in `module` (in place): result and
    block-argument types, and types held by properties and attributes (a GEP's
    element type, a global's type, a function's type), nested types included.

    One walk over the IR with a memo of converted attributes: most types repeat,
    and a type with no pointer in it maps to itself at the cost of one look-up."""
    memo: dict[Attribute, Attribute] = {}
    flat = functools.partial(_flat_type, memo=memo)
    for op in module.walk():
        for result in op.results:
            if (new := flat(result.type)) is not result.type:
                Rewriter.replace_value_with_new_type(result, new)
        for table in (op.properties, op.attributes):
            for name, attribute in table.items():
                if (new := flat(attribute)) is not attribute:
                    table[name] = new
        for region in op.regions:
            for block in region.blocks:
                for argument in block.args:
                    if (new := flat(argument.type)) is not argument.type:
                        Rewriter.replace_value_with_new_type(argument, new)
    return module


def _flat_type(attribute: Attribute, memo: dict[Attribute, Attribute]) -> Attribute:
    """`attribute` with every pointer type in address space 0; `attribute` itself
    (the same object) when it holds no pointer of another space."""
    if (known := memo.get(attribute)) is not None:
        return known
    flat = attribute
    if isinstance(attribute, llvm.LLVMPointerType):
        if isinstance(attribute.addr_space, IntAttr) and attribute.addr_space.data:
            flat = llvm.LLVMPointerType()
    elif isinstance(attribute, ParametrizedAttribute):
        parameters = [_flat_type(p, memo) for p in attribute.parameters]
        if any(
            n is not o for n, o in zip(parameters, attribute.parameters, strict=True)
        ):
            flat = type(attribute).new(parameters)
    elif isinstance(attribute, ArrayAttr):
        elements = [_flat_type(e, memo) for e in attribute.data]
        if any(n is not o for n, o in zip(elements, attribute.data, strict=True)):
            flat = ArrayAttr(elements)
    memo[attribute] = flat
    return flat


# --------------------------------------------------------------------------------------
# Diagnostics.
# --------------------------------------------------------------------------------------


@contextmanager
def _diagnostics(what: str, op: Operation | None = None) -> Iterator[None]:
    """Turns the exceptions xDSL's backend and llvmlite raise on input they do not
    support (NotImplementedError, KeyError, ...) into a `TranslationError` naming
    `what` (and showing `op`)."""
    try:
        yield
    except TranslationError:
        raise
    except (LLVMTranslationException, NotImplementedError) as error:
        raise _error(what, op, str(error)) from error
    except KeyError as error:
        detail = "it uses a value or block that was not translated"
        raise _error(what, op, detail) from error
    except (AssertionError, TypeError, ValueError, AttributeError) as error:
        raise _error(what, op, f"{type(error).__name__}: {error}") from error


def _error(what: str, op: Operation | None, detail: str) -> TranslationError:
    where = f" in:\n{op}" if op is not None else ""
    return TranslationError(f"cannot translate {what} to LLVM IR: {detail}{where}")


def _string_attribute(module: ModuleOp, name: str) -> str | None:
    attribute = module.attributes.get(name)
    if attribute is None:
        return None
    if not isinstance(attribute, StringAttr):
        raise TranslationError(f"module attribute {name} must be a string")
    return attribute.data


# --------------------------------------------------------------------------------------
# Globals.
# --------------------------------------------------------------------------------------

_DECLARATION_LINKAGES = ("external", "extern_weak")


def _declare_global(op: llvm.GlobalOp, llvm_module: ir.Module) -> None:
    """Creates the global (in address space 0), without its initialiser, so that
    initialisers and functions can refer to any global."""
    variable = ir.GlobalVariable(
        llvm_module, convert_type(op.global_type), name=op.sym_name.data
    )
    variable.global_constant = op.constant is not None
    if op.alignment is not None:
        variable.align = op.alignment.value.data
    if op.section is not None:
        variable.section = op.section.data
    if op.unnamed_addr is not None and op.unnamed_addr.value.data:
        variable.unnamed_addr = True
    if op.thread_local_ is not None:
        raise TranslationError(
            f"cannot translate thread_local global @{op.sym_name.data}"
        )


def _define_global(op: llvm.GlobalOp, llvm_module: ir.Module) -> None:
    """Sets the linkage and the initialiser. With no initialiser, an external
    global is a declaration and any other one is `undef`, as in MLIR."""
    variable = llvm_module.get_global(op.sym_name.data)
    with _diagnostics(f"the initialiser of @{op.sym_name.data}", op):
        initializer = _global_initializer(op, variable.value_type, llvm_module)
    linkage = op.linkage.linkage.data
    if initializer is None:
        if linkage not in _DECLARATION_LINKAGES:
            initializer = ir.Constant(variable.value_type, ir.Undefined)
    elif linkage == "external":
        linkage = ""  # a definition with external linkage has no keyword
    variable.linkage = linkage
    variable.initializer = initializer


def _global_initializer(
    op: llvm.GlobalOp, value_type: ir.Type, llvm_module: ir.Module
) -> ir.Constant | None:
    if op.value is not None:
        return _constant(value_type, op.global_type, op.value)
    if not op.body.blocks:
        return None
    # An initialiser region: constants, then `llvm.return` of one of them.
    values: dict[SSAValue, ir.Constant] = {}
    for inner in op.body.block.ops:
        match inner:
            case llvm.ReturnOp():
                return values[inner.operands[0]]
            case llvm.ConstantOp():
                values[inner.result] = create_constant(inner.result.type, inner.value)
            case llvm.ZeroOp():
                values[inner.res] = ir.Constant(convert_type(inner.res.type), None)
            case llvm.UndefOp():
                values[inner.res] = ir.Constant(
                    convert_type(inner.res.type), ir.Undefined
                )
            case llvm.AddressOfOp():
                name = inner.global_name.root_reference.data
                values[inner.result] = llvm_module.get_global(name)
            case _:
                raise TranslationError(
                    f"cannot translate {inner.name} in the initialiser of "
                    f"@{op.sym_name.data}: only constants are supported there"
                )
    raise TranslationError(f"the initialiser of @{op.sym_name.data} has no return")


def _constant(value_type: ir.Type, type_: Attribute, value: Attribute) -> ir.Constant:
    """A constant of `value_type` from an attribute: a string for an i8 array, a
    dense attribute (also for nested arrays, and splats), an integer or a float."""
    if isinstance(value, StringAttr):
        raw = value.data.encode()
        return ir.Constant(ir.ArrayType(ir.IntType(8), len(raw)), bytearray(raw))
    if isinstance(value, DenseIntOrFPElementsAttr) and isinstance(
        value_type, ir.ArrayType
    ):
        flat = list(value.get_values())
        shape = _array_shape(value_type)
        count = math.prod(shape)
        if len(flat) == 1:
            flat *= count
        if len(flat) != count:
            raise TranslationError(
                f"initialiser {value} has {len(flat)} elements, the global {count}"
            )
        return ir.Constant(value_type, _nest(flat, shape))
    return create_constant(type_, value)


def _array_shape(array_type: ir.Type) -> list[int]:
    """The sizes of nested arrays: `[2 x [3 x float]]` is [2, 3]."""
    shape: list[int] = []
    while isinstance(array_type, ir.ArrayType):
        shape.append(array_type.count)
        array_type = array_type.element
    return shape


def _nest(flat: list, shape: Sequence[int]) -> list:
    if len(shape) == 1:
        return flat
    step = len(flat) // shape[0]
    return [_nest(flat[i : i + step], shape[1:]) for i in range(0, len(flat), step)]


# --------------------------------------------------------------------------------------
# Functions.
# --------------------------------------------------------------------------------------

_UNIT_FUNCTION_ATTRIBUTES = {
    "no_inline": "noinline",
    "no_unwind": "nounwind",
    "optimize_none": "optnone",
}


def _declare_function(op: llvm.FuncOp, llvm_module: ir.Module) -> None:
    """Declares the function with xDSL (signature and argument attributes such as
    `llvm.noalias`), then sets its linkage, attributes and argument names."""
    _declare_func(op, llvm_module)
    function = llvm_module.get_global(op.sym_name.data)
    linkage = op.linkage.linkage.data
    function.linkage = "" if linkage == "external" else linkage
    for attribute in _function_attributes(op):
        function.attributes.add(attribute)
    if op.body.blocks:
        for argument, block_argument in zip(
            function.args, op.body.blocks[0].args, strict=True
        ):
            argument.name = block_argument.name_hint or ""


def _function_attributes(op: llvm.FuncOp) -> Iterable[str]:
    for prop, attribute in _UNIT_FUNCTION_ATTRIBUTES.items():
        if op.properties.get(prop) is not None:
            yield attribute
    passthrough = op.passthrough or op.attributes.get("passthrough")
    if passthrough is None:
        return
    if not isinstance(passthrough, ArrayAttr):
        raise TranslationError(f"@{op.sym_name.data}: passthrough must be an array")
    known = ir.values.FunctionAttributes._known
    for entry in passthrough:
        if not isinstance(entry, StringAttr) or entry.data not in known:
            raise TranslationError(
                f"@{op.sym_name.data}: unsupported function attribute {entry} in "
                f"passthrough (supported: {', '.join(sorted(known))})"
            )
        yield entry.data


def _define_function(op: llvm.FuncOp, llvm_module: ir.Module) -> None:
    function = llvm_module.get_global(op.sym_name.data)
    blocks = list(op.body.blocks)
    block_map: BlockMap = {
        block: function.append_basic_block(block.name_hint or f"bb{i}")
        for i, block in enumerate(blocks)
    }
    values: ValueMap = dict(zip(blocks[0].args, function.args, strict=True))
    # The arguments of the other blocks are phis; the branches to a block add the
    # incoming values.
    for block in blocks[1:]:
        builder = ir.IRBuilder(block_map[block])
        for argument in block.args:
            with _diagnostics(f"a block argument of @{op.sym_name.data}"):
                values[argument] = builder.phi(
                    convert_type(argument.type), name=argument.name_hint or ""
                )
    order = _dominance_order(blocks)
    for block in order:
        builder = ir.IRBuilder(block_map[block])  # at the end, after the phis
        for inner in block.ops:
            with _diagnostics(inner.name, inner):
                _translate_op(inner, builder, values, block_map)
    _mark_loops(order, block_map, llvm_module)


def _mark_loops(
    order: list[Block], block_map: BlockMap, llvm_module: ir.Module
) -> None:
    """Attaches a loop id with `LOOP_HINTS` (`!llvm.loop`) to the branch of every
    block that jumps back to a block at or before it in reverse post-order: the
    latch of a loop. Each loop gets its own id, a node that refers to itself."""
    position = {block: i for i, block in enumerate(order)}
    hints = None
    for block in order:
        terminator = block.last_op
        branch = block_map[block].terminator
        if branch is None or terminator is None:
            continue
        if not any(
            position.get(successor, len(order)) <= position[block]
            for successor in terminator.successors
        ):
            continue
        if hints is None:
            hints = [
                llvm_module.add_metadata([ir.MetaDataString(llvm_module, hint)])
                for hint in LOOP_HINTS
            ]
        name = str(len(llvm_module.metadata))
        loop = ir.values.MDValue(llvm_module, [], name=name)  # distinct: not cached
        loop.operands = (loop, *hints)
        branch.set_metadata("llvm.loop", loop)


LOOP_HINTS = ("llvm.loop.unroll.runtime.disable",)
"""The `llvm.loop` metadata of every loop: no unrolling of loops whose trip count is
only known at run time. The loops of a kernel are work-item loops, whose trip
counts are constants when the work-group size is (LLVM still unrolls those fully or
partly), and the kernel's own loops, which `run-vecz` made 8 to 64 lanes wide:
unrolling those 8 times more at run time bought nothing (`sgemm_naive` 39.5 ms
either way, its assembly 1154 lines with, 582 without) and cost LLVM a quarter to
a third of its time (`sgemm_naive` 166 -> 131 ms, `scan` 118 -> 78 ms)."""


def _dominance_order(blocks: list[Block]) -> list[Block]:
    """The blocks in reverse post-order from the entry (a block comes after every
    block that dominates it), then the unreachable blocks in their own order."""
    order = reverse_post_order(blocks[0])
    reached = set(order)
    return order + [block for block in blocks if block not in reached]


# --------------------------------------------------------------------------------------
# Ops: the llvmx ops, and the llvm ops xDSL translates wrongly (cond_br with two
# edges to one block, atomic loads, stores).
# --------------------------------------------------------------------------------------

Translator = Callable[[Operation, ir.IRBuilder, ValueMap, BlockMap], None]


def _translate_op(
    op: Operation, builder: ir.IRBuilder, values: ValueMap, blocks: BlockMap
) -> None:
    translator = _TRANSLATORS.get(type(op))
    if translator is not None:
        translator(op, builder, values, blocks)
    else:
        convert_op(op, builder, values, blocks)


def _branch_to(
    terminator: Operation,
    dest: Block,
    arguments: Sequence[SSAValue],
    builder: ir.IRBuilder,
    values: ValueMap,
    blocks: BlockMap,
) -> ir.Block:
    """The LLVM block a branch of `terminator` to `dest` jumps to, after giving
    `arguments` to the phis of `dest`.

    LLVM's phis name their incoming values by predecessor block, so two edges from
    one block to the same block cannot pass different values, which MLIR allows
    (`cf.cond_br %c, ^b(%x : i32), ^b(%y : i32)`). Such an edge goes through a
    block of its own that only branches on.
    """
    if dest.args and list(terminator.successors).count(dest) > 1:
        edge = builder.function.append_basic_block(f"{blocks[dest].name}.edge")
        ir.IRBuilder(edge).branch(blocks[dest])
        source, target = edge, edge
    else:
        source, target = builder.block, blocks[dest]
    for phi, argument in zip(dest.args, arguments, strict=True):
        values[phi].add_incoming(values[argument], source)  # type: ignore[attr-defined]
    return target


def _cond_br(op: llvm.CondBrOp, builder, values, blocks) -> None:
    then_block = _branch_to(
        op, op.then_block, op.then_arguments, builder, values, blocks
    )
    else_block = _branch_to(
        op, op.else_block, op.else_arguments, builder, values, blocks
    )
    builder.cbranch(values[op.cond], then_block, else_block)


def _cast(method: str) -> Translator:
    def translate_cast(op, builder, values, _blocks) -> None:
        values[op.results[0]] = getattr(builder, method)(
            values[op.operands[0]], convert_type(op.results[0].type)
        )

    return translate_cast


def _same_value(op, builder, values, _blocks) -> None:
    # Every address space is 0 on the host, so addrspacecast is the identity.
    values[op.results[0]] = values[op.operands[0]]


def _extract_element(op: llvmx.ExtractElementOp, builder, values, _blocks) -> None:
    values[op.result] = builder.extract_element(values[op.vector], values[op.index])


_FCMP = {  # LLVM's condition -> llvmlite's operator, ordered or not
    "oeq": ("==", True),
    "ogt": (">", True),
    "oge": (">=", True),
    "olt": ("<", True),
    "ole": ("<=", True),
    "one": ("!=", True),
    "ord": ("ord", True),
    "ueq": ("==", False),
    "ugt": (">", False),
    "uge": (">=", False),
    "ult": ("<", False),
    "ule": ("<=", False),
    "une": ("!=", False),
    "uno": ("uno", False),
}


def _fcmp(op: llvmx.FCmpOp, builder, values, _blocks) -> None:
    operator, ordered = _FCMP[op.predicate.data]
    compare = builder.fcmp_ordered if ordered else builder.fcmp_unordered
    values[op.res] = compare(operator, values[op.lhs], values[op.rhs])


def _select(op: llvmx.SelectOp, builder, values, _blocks) -> None:
    values[op.res] = builder.select(
        values[op.cond], values[op.true_value], values[op.false_value]
    )


def _freeze(op: llvmx.FreezeOp, builder, values, _blocks) -> None:
    values[op.res] = _insert(builder, _Freeze(builder.block, values[op.val]))


def _switch(op: llvmx.SwitchOp, builder, values, blocks) -> None:
    default = _branch_to(
        op, op.default_block, op.default_operands, builder, values, blocks
    )
    switch = builder.switch(values[op.flag], default)
    for value, dest, operands in op.cases:
        switch.add_case(value, _branch_to(op, dest, operands, builder, values, blocks))


def _fence(op: llvmx.FenceOp, builder, _values, _blocks) -> None:
    builder.fence(op.ordering.data.value)


def _atomic_rmw(op: llvmx.AtomicRMWOp, builder, values, _blocks) -> None:
    values[op.res] = _insert(
        builder,
        _AtomicRMW(
            builder.block,
            op.bin_op.data.value,
            values[op.ptr],
            values[op.val],
            op.ordering.data.value,
            _alignment_of(op.alignment),
        ),
    )


def _cmpxchg(op: llvmx.CmpXchgOp, builder, values, _blocks) -> None:
    values[op.res] = _insert(
        builder,
        _CmpXchg(
            builder.block,
            values[op.ptr],
            values[op.cmp],
            values[op.new],
            op.success_ordering.data.value,
            op.failure_ordering.data.value,
            weak=op.weak is not None,
            align=_alignment_of(op.alignment),
        ),
    )


def _memcpy(op: llvmx.MemcpyOp, builder, values, _blocks) -> None:
    """`call void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1 false)`, the intrinsic
    declared with LLVM's type-mangled name for the operand types."""
    operands = [values[op.dst], values[op.src], values[op.len]]
    for i in (0, 1):  # llvmlite types an alloca's pointer by its element (a struct)
        space = operands[i].type.addrspace
        operands[i] = builder.bitcast(operands[i], ir.IntType(8).as_pointer(space))
    intrinsic = builder.module.declare_intrinsic(
        "llvm.memcpy", [o.type for o in operands]
    )
    builder.call(intrinsic, [*operands, ir.Constant(ir.IntType(1), 0)])


def _load(op: llvm.LoadOp, builder, values, blocks) -> None:
    ordering = op.ordering.value.data
    if ordering == 0:
        convert_op(op, builder, values, blocks)
        return
    result_type = convert_type(op.dereferenced_value.type)
    values[op.dereferenced_value] = builder.load_atomic(
        values[op.ptr],
        llvm.ATOMIC_ORDERING_KEYWORDS[ordering],
        _atomic_alignment(op.alignment, result_type),
        typ=result_type,
    )


def _store(op: llvm.StoreOp, builder, values, _blocks) -> None:
    value = values[op.value]
    code = op.ordering.value.data if op.ordering is not None else 0
    ordering = llvm.ATOMIC_ORDERING_KEYWORDS[code] if code else None
    if ordering is not None:
        align = _atomic_alignment(op.alignment, value.type)
    else:
        align = _alignment_of(op.alignment)
    store = _Store(builder.block, value, values[op.ptr], ordering, align)
    store.volatile = op.volatile_ is not None
    _insert(builder, store)


def _alignment_of(alignment) -> int | None:
    return alignment.value.data if alignment is not None else None


def _atomic_alignment(alignment, type_: ir.Type) -> int:
    """LLVM requires an alignment on atomic loads and stores: the given one, else
    the size of the (scalar) type."""
    if alignment is not None:
        return alignment.value.data
    if isinstance(type_, ir.PointerType):
        return 8
    if isinstance(type_, ir.IntType):
        return max(1, type_.width // 8)
    if isinstance(type_, ir.DoubleType):
        return 8
    if isinstance(type_, ir.FloatType):
        return 4
    if isinstance(type_, ir.HalfType):
        return 2
    raise TranslationError(f"atomic access to {type_} needs an explicit alignment")


def _getelementptr(
    op: llvm.GEPOp, builder: ir.IRBuilder, values: ValueMap, blocks: BlockMap
) -> None:
    """xDSL bitcasts the base to `elem_type*`, and llvmlite, told the source element
    type, gives the GEP the type of its base: a GEP into a struct or an array came out
    typed as a pointer to the whole aggregate (`store i64` into it then fails). The
    result type is computed from the indices here, as LLVM does."""
    source = convert_type(op.elem_type)
    base = builder.bitcast(values[op.ptr], source.as_pointer())
    ssa = iter(op.ssa_indices)
    indices = [
        values[next(ssa)]
        if index == llvm.GEP_USE_SSA_VAL
        else ir.Constant(ir.IntType(32), index)
        for index in op.rawConstantIndices.iter_values()
    ]
    element = source
    for index in indices[1:]:
        element = element.gep(index)
    gep = builder.gep(
        base, indices, inbounds=op.inbounds is not None, source_etype=source
    )
    gep.type = element.as_pointer()
    values[op.results[0]] = gep


_INTRINSICS = {**_UNARY_INTRINSIC_MAP, **_BINARY_INTRINSIC_MAP}


def _mangled_intrinsic(
    op: Operation, builder: ir.IRBuilder, values: ValueMap, blocks: BlockMap
) -> None:
    """xDSL calls these intrinsics by their bare name (`llvm.sqrt`), declared with the
    first type it meets, so one intrinsic on two types (f32 and f64, or a scalar and
    a vector) clashed. They are declared here with LLVM's type-mangled names
    (`llvm.sqrt.f32`, `llvm.sqrt.v8f32`)."""
    operands = [values[operand] for operand in op.operands]
    type_ = operands[0].type
    signature = ir.FunctionType(type_, [o.type for o in operands])
    intrinsic = declare_intrinsic(
        builder.module, _INTRINSICS[type(op)], type_, signature
    )
    values[op.results[0]] = builder.call(intrinsic, operands)


_TRANSLATORS: dict[type[Operation], Translator] = {
    **dict.fromkeys(_INTRINSICS, _mangled_intrinsic),
    llvm.GEPOp: _getelementptr,
    llvmx.FPToSIOp: _cast("fptosi"),
    llvmx.FPToUIOp: _cast("fptoui"),
    llvmx.UIToFPOp: _cast("uitofp"),
    llvmx.AddrSpaceCastOp: _same_value,
    llvmx.ExtractElementOp: _extract_element,
    llvmx.FreezeOp: _freeze,
    llvmx.SelectOp: _select,
    llvmx.FCmpOp: _fcmp,
    llvmx.SwitchOp: _switch,
    llvmx.FenceOp: _fence,
    llvmx.AtomicRMWOp: _atomic_rmw,
    llvmx.CmpXchgOp: _cmpxchg,
    llvmx.MemcpyOp: _memcpy,
    llvm.CondBrOp: _cond_br,
    llvm.LoadOp: _load,
    llvm.StoreOp: _store,
}


# --------------------------------------------------------------------------------------
# LLVM instructions llvmlite lacks (freeze) or prints without options we need
# (weak cmpxchg, alignment of atomics).
# --------------------------------------------------------------------------------------


def _insert(builder: ir.IRBuilder, instruction: instructions.Instruction):
    builder._insert(instruction)
    return instruction


def _align_suffix(align: int | None) -> str:
    return f", align {align}" if align is not None else ""


def _operand(value: ir.Value) -> str:
    return f"{value.type} {value.get_reference()}"


class _Store(instructions.Instruction):
    """`store [atomic] [volatile]`. llvmlite's builder refuses to store a value to a
    pointer it types differently (a global or alloca of a struct is a typed pointer
    to the struct; storing its first field through it is valid LLVM IR with opaque
    pointers), and it has no volatile stores."""

    def __init__(self, parent, value, ptr, ordering: str | None, align: int | None):
        super().__init__(parent, ir.VoidType(), "store", [value, ptr])
        self.ordering, self.align, self.volatile = ordering, align, False

    def descr(self, buf: list[str]) -> None:
        value, ptr = self.operands
        atomic = "atomic " if self.ordering else ""
        volatile = "volatile " if self.volatile else ""
        ordering = f" {self.ordering}" if self.ordering else ""
        buf.append(
            f"store {atomic}{volatile}{_operand(value)}, {_operand(ptr)}{ordering}"
            f"{_align_suffix(self.align)}\n"
        )


class _Freeze(instructions.Instruction):
    def __init__(self, parent: ir.Block, value: ir.Value):
        super().__init__(parent, value.type, "freeze", [value])

    def descr(self, buf: list[str]) -> None:
        buf.append(f"freeze {_operand(self.operands[0])}\n")


class _AtomicRMW(instructions.AtomicRMW):
    def __init__(self, parent, op, ptr, val, ordering, align: int | None):
        super().__init__(parent, op, ptr, val, ordering, name="")
        self.align = align

    def descr(self, buf: list[str]) -> None:
        ptr, val = self.operands
        buf.append(
            f"atomicrmw {self.operation} {_operand(ptr)}, {_operand(val)} "
            f"{self.ordering}{_align_suffix(self.align)}\n"
        )


class _CmpXchg(instructions.CmpXchg):
    def __init__(
        self,
        parent,
        ptr,
        cmp,
        val,
        ordering,
        failordering,
        *,
        weak: bool,
        align: int | None,
    ):
        super().__init__(parent, ptr, cmp, val, ordering, failordering, name="")
        self.weak, self.align = weak, align

    def descr(self, buf: list[str]) -> None:
        ptr, cmp, val = self.operands
        weak = "weak " if self.weak else ""
        buf.append(
            f"cmpxchg {weak}{_operand(ptr)}, {_operand(cmp)}, {_operand(val)} "
            f"{self.ordering} {self.failordering}{_align_suffix(self.align)}\n"
        )
