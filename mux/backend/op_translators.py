"""The translation of one op inside a function body: xDSL's `convert_op`, except for
the ops it lacks or translates wrongly, which `translate_op` sends to a translator
of this module.

- the `llvmx` ops: casts, `extractelement`, vector `select` and `fcmp`, `freeze`,
  `switch`, fences, atomics, `memcpy`;
- `llvm.cond_br` with two edges to one block passing different values (LLVM's phis
  name their incoming values by predecessor block);
- atomic loads and stores (xDSL drops the ordering and emits a plain load or
  store), volatile loads (`llvmx.load`) and stores (xDSL drops `volatile`), and
  stores through a pointer llvmlite types differently from the value;
- `llvm.getelementptr`, whose result xDSL and llvmlite type as the base pointer;
- the intrinsics xDSL declares by their bare name (`llvm.sqrt`), whatever type
  they are used on, and `llvm.call_intrinsic` (pointer operands, fast-math flags).

A translator takes the op, the llvmlite builder at the end of the op's block, and
the maps from the function's values and blocks to llvmlite's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from llvmlite import ir
from xdsl.backend.llvm.convert_op import (
    _BINARY_INTRINSIC_MAP,
    _UNARY_INTRINSIC_MAP,
    convert_op,
    declare_intrinsic,
)
from xdsl.backend.llvm.convert_type import convert_type
from xdsl.dialects import llvm
from xdsl.ir import Block, Operation, SSAValue

from dialects import llvmx
from dialects.attributes import INVARIANT_LOAD
from mux.backend.errors import TranslationError
from mux.backend.llvmlite_instructions import (
    AtomicRMWInstruction,
    CmpXchgInstruction,
    FreezeInstruction,
    ShuffleVectorInstruction,
    StoreInstruction,
    VolatileLoadInstruction,
    insert,
    typed,
)

ValueMap = dict[SSAValue, ir.Value]
"""The llvmlite value of each value of a function translated so far."""
BlockMap = dict[Block, ir.Block]
"""The llvmlite block of each block of a function."""

Translator = Callable[[Any, ir.IRBuilder, ValueMap, BlockMap], None]
"""Its op (first argument) is of the class `_TRANSLATORS` gives it for."""


def translate_op(
    op: Operation, builder: ir.IRBuilder, values: ValueMap, blocks: BlockMap
) -> None:
    """Translates `op` at `builder`'s position, recording its results in `values`:
    by the translator of this module for its op class, else by xDSL's."""
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
        instruction = values[phi]  # a block argument is a phi (`functions.py`)
        assert isinstance(instruction, ir.PhiInstr)
        instruction.add_incoming(values[argument], source)
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
    values[op.res] = insert(builder, FreezeInstruction(builder.block, values[op.val]))


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
    values[op.res] = insert(
        builder,
        AtomicRMWInstruction(
            builder.block,
            op.bin_op.data.value,
            values[op.ptr],
            values[op.val],
            op.ordering.data.value,
            _alignment_of(op.alignment),
        ),
    )


def _cmpxchg(op: llvmx.CmpXchgOp, builder, values, _blocks) -> None:
    values[op.res] = insert(
        builder,
        CmpXchgInstruction(
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
        if INVARIANT_LOAD.get(op):
            load = values[op.dereferenced_value]
            load.set_metadata("invariant.load", builder.module.add_metadata([]))
        return
    result_type = convert_type(op.dereferenced_value.type)
    values[op.dereferenced_value] = builder.load_atomic(
        values[op.ptr],
        llvm.ATOMIC_ORDERING_KEYWORDS[ordering],
        _atomic_alignment(op.alignment, result_type),
        typ=result_type,
    )


def _volatile_load(op: llvmx.VolatileLoadOp, builder, values, _blocks) -> None:
    load = VolatileLoadInstruction(
        builder.block, values[op.ptr], typ=convert_type(op.res.type)
    )
    load.align = _alignment_of(op.alignment)
    values[op.res] = insert(builder, load)


def _store(op: llvm.StoreOp, builder, values, _blocks) -> None:
    value = values[op.value]
    code = op.ordering.value.data if op.ordering is not None else 0
    ordering = llvm.ATOMIC_ORDERING_KEYWORDS[code] if code else None
    if ordering is not None:
        align = _atomic_alignment(op.alignment, value.type)
    else:
        align = _alignment_of(op.alignment)
    store = StoreInstruction(builder.block, value, values[op.ptr], ordering, align)
    store.volatile = op.volatile_ is not None
    insert(builder, store)


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
        assert isinstance(element, ir.ArrayType | ir.BaseStructType)
        element = element.gep(index)
    gep = builder.gep(
        base, indices, inbounds=op.inbounds is not None, source_etype=source
    )
    gep.type = element.as_pointer()
    values[op.results[0]] = gep


def _call_intrinsic(op: llvm.CallIntrinsicOp, builder, values, _blocks) -> None:
    """A call of the intrinsic `op` names, declared with the op's operand and result
    types the first time. xDSL's translation typed the declaration by the llvmlite
    values of its first call, which llvmlite may type as pointers to their element
    (an alloca's `{i32}*`), so a second call with another pointer failed; and it
    rejected fast-math flags, which are kept here."""
    if op.op_bundle_operands:
        raise TranslationError(f"cannot translate {op.name} with operand bundles")
    name = op.intrin.data
    try:
        intrinsic = builder.module.get_global(name)
    except KeyError:
        signature = ir.FunctionType(
            convert_type(op.ress.type) if op.ress is not None else ir.VoidType(),
            [convert_type(arg.type) for arg in op.args],
        )
        intrinsic = ir.Function(builder.module, signature, name=name)
    flags = sorted(str(flag) for flag in op.fastmathFlags.data)
    call = builder.call(intrinsic, [values[arg] for arg in op.args], fastmath=flags)
    if op.ress is not None:
        values[op.ress] = call


_INTRINSICS = {**_UNARY_INTRINSIC_MAP, **_BINARY_INTRINSIC_MAP}


def _mangled_intrinsic(
    op: Operation, builder: ir.IRBuilder, values: ValueMap, blocks: BlockMap
) -> None:
    """xDSL calls these intrinsics by their bare name (`llvm.sqrt`), declared with the
    first type it meets, so one intrinsic on two types (f32 and f64, or a scalar and
    a vector) clashed. They are declared here with LLVM's type-mangled names
    (`llvm.sqrt.f32`, `llvm.sqrt.v8f32`)."""
    operands = [values[operand] for operand in op.operands]
    type_ = typed(operands[0]).type
    signature = ir.FunctionType(type_, [typed(o).type for o in operands])
    intrinsic = declare_intrinsic(
        builder.module, _INTRINSICS[type(op)], type_, signature
    )
    values[op.results[0]] = builder.call(intrinsic, operands)


def _shuffle_vector(
    op: llvm.ShuffleVectorOp, builder: ir.IRBuilder, values: ValueMap, _: BlockMap
) -> None:
    mask = list(op.mask.get_values())
    shuffle = ShuffleVectorInstruction(
        builder.block, values[op.v1], values[op.v2], mask
    )
    values[op.res] = insert(builder, shuffle)


_TRANSLATORS: dict[type[Operation], Translator] = {
    **dict.fromkeys(_INTRINSICS, _mangled_intrinsic),
    llvm.GEPOp: _getelementptr,
    llvm.CallIntrinsicOp: _call_intrinsic,
    llvm.ShuffleVectorOp: _shuffle_vector,
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
    llvmx.VolatileLoadOp: _volatile_load,
    llvm.CondBrOp: _cond_br,
    llvm.LoadOp: _load,
    llvm.StoreOp: _store,
}
