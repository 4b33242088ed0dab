"""`llvm.mlir.global`s as LLVM global variables, in two steps: every global is
declared first (type, constness, alignment, section), so that initialisers and
functions can refer to any global, then defined (linkage and initialiser).

What xDSL 0.74 gets wrong or lacks here: an external global with an initialiser is
a definition, which xDSL printed as `external global i32 5` (invalid IR);
initialiser regions made of constants (aggregates built by `llvm.insertvalue`
into `undef` or zero, as the LLVM IR importer builds them); alignment. An
`internal` or `private` global is invisible outside the module, an `external` one
is exported.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from llvmlite import ir
from xdsl.backend.llvm.convert_op import create_constant
from xdsl.backend.llvm.convert_type import convert_type
from xdsl.dialects import llvm
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, StringAttr
from xdsl.ir import Attribute, SSAValue

from mux.backend.errors import TranslationError, diagnostics

_DECLARATION_LINKAGES = ("external", "extern_weak")


def declare_global(op: llvm.GlobalOp, llvm_module: ir.Module) -> None:
    """Creates the global (in address space 0), without its initialiser, so that
    initialisers and functions can refer to any global."""
    variable = ir.GlobalVariable(
        llvm_module, convert_type(op.global_type), name=op.sym_name.data
    )
    variable.global_constant = op.constant is not None
    if op.alignment is not None:
        # llvmlite is unannotated: pyright infers `align` from its `= None`
        variable.align = op.alignment.value.data  # pyright: ignore[reportAttributeAccessIssue]
    if op.section is not None:
        variable.section = op.section.data
    if op.unnamed_addr is not None and op.unnamed_addr.value.data:
        variable.unnamed_addr = True
    if op.thread_local_ is not None:
        raise TranslationError(
            f"cannot translate thread_local global @{op.sym_name.data}"
        )


def define_global(op: llvm.GlobalOp, llvm_module: ir.Module) -> None:
    """Sets the linkage and the initialiser. With no initialiser, an external
    global is a declaration and any other one is `undef`, as in MLIR."""
    variable = llvm_module.get_global(op.sym_name.data)
    with diagnostics(f"the initialiser of @{op.sym_name.data}", op):
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
            case llvm.InsertValueOp():
                values[inner.res] = _inserted(
                    values[inner.container],
                    list(inner.position.iter_values()),
                    values[inner.value],
                )
            case _:
                raise TranslationError(
                    f"cannot translate {inner.name} in the initialiser of "
                    f"@{op.sym_name.data}: only constants are supported there"
                )
    raise TranslationError(f"the initialiser of @{op.sym_name.data} has no return")


def _inserted(
    aggregate: ir.Constant, position: list[int], member: ir.Constant
) -> ir.Constant:
    """The constant array or struct `aggregate` with `member` at `position` (an
    index path), as `insertvalue` computes it, folded."""
    type_ = aggregate.type
    if isinstance(type_, ir.ArrayType):
        member_types = [type_.element] * type_.count
    else:
        assert isinstance(type_, ir.LiteralStructType | ir.IdentifiedStructType)
        assert type_.elements is not None  # an identified struct with a body
        member_types = list(type_.elements)
    if isinstance(aggregate.constant, list | tuple):
        members = list(aggregate.constant)
    else:  # undef (or zeroinitializer): every member is
        members = [ir.Constant(t, aggregate.constant) for t in member_types]
    index, *rest = position
    members[index] = _inserted(members[index], rest, member) if rest else member
    return ir.Constant(type_, members)


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
