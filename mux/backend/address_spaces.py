"""Every pointer type in address space 0, as the host CPU sees memory.

On the host all memory is one flat space, so every pointer type is emitted in
address space 0 (the llvm-dialect IR keeps the spec's numbers, 1 global, 3 local,
..., for readers). LLVM's x86 backend gives address spaces 256-258 a meaning of
their own (segment registers) and some optimisations are weaker on non-zero
spaces; mapping everything to 0 avoids both. It also sidesteps xDSL's bug with
`getelementptr` on a non-zero address space (it bitcasts the base pointer to a
typed pointer in address space 0, which LLVM rejects), and makes `addrspacecast`
the identity (`op_translators`).
"""

from __future__ import annotations

import functools
import re

from xdsl.dialects import llvm
from xdsl.dialects.builtin import ArrayAttr, IntAttr, ModuleOp, StringAttr
from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.rewriter import Rewriter


def flatten_address_spaces(module: ModuleOp) -> ModuleOp:
    """`!llvm.ptr<N>` -> `!llvm.ptr` everywhere in `module` (in place): result and
    block-argument types, and types held by properties and attributes (a GEP's
    element type, a global's type, a function's type), nested types included; and
    in the names of the intrinsics `llvm.call_intrinsic` calls, which spell the
    address spaces of their pointer operands (`flat_intrinsic_name`).

    One walk over the IR with a memo of converted attributes: most types repeat,
    and a type with no pointer in it maps to itself at the cost of one look-up."""
    memo: dict[Attribute, Attribute | None] = {}
    flat = functools.partial(_flat_type, memo=memo)
    for op in module.walk():
        if isinstance(op, llvm.CallIntrinsicOp):
            op.intrin = StringAttr(flat_intrinsic_name(op.intrin.data))
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


_POINTER_IN_NAME = re.compile(r"\.p[1-9][0-9]*(?=\.|$)")


def flat_intrinsic_name(name: str) -> str:
    """An intrinsic's name with the pointer types it is mangled with in address
    space 0: `llvm.memcpy.p0.p2.i64` -> `llvm.memcpy.p0.p0.i64` (LLVM's verifier
    checks that the name matches the operand types)."""
    return _POINTER_IN_NAME.sub(".p0", name)


def _flat_type(
    attribute: Attribute, memo: dict[Attribute, Attribute | None]
) -> Attribute:
    """`attribute` with every pointer type in address space 0; `attribute` itself
    (the same object) when it holds no pointer of another space.

    The memo maps an attribute to its flat form, or to None when it has no pointer
    to flatten, and then `attribute` itself is the answer, never the attribute that
    was memoised: two attributes may be equal and differ, since Python's `False ==
    0`; the memo once gave `llvm.mlir.constant(0) : i64` the `IntAttr(False)` of an
    earlier `i1` constant, which LLVM IR then spelled `i64 false`."""
    if attribute in memo:
        return memo[attribute] or attribute
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
    memo[attribute] = None if flat is attribute else flat
    return flat
