"""The vector data load and store functions of OpenCL C (its specification,
"Vector Data Load and Store Functions") and `shuffle`/`shuffle2` ("Miscellaneous
Vector Functions").

- `vload<n>(offset, p)` reads the `n` elements at `p + offset * n`, `vstore<n>(data,
  offset, p)` writes them: one `llvm.load`/`llvm.store` of the vector, aligned as
  its element (the pointer need only be aligned to that).
- `vload_half[<n>](offset, p)` reads halves and returns floats; `vstore_half[<n>]
  [_rte|_rtz|_rtp|_rtn](data, offset, p)` rounds floats or doubles to halves by the
  mode (`conversions.float_to_float`; the default is to nearest even) and writes
  them. The `vloada_half`/`vstorea_half` forms are the same at an offset of
  `offset * n` elements, 4 for `n` = 3, aligned to the vector.
- `shuffle(x, mask)` and `shuffle2(x, y, mask)` build the vector of the lanes each
  lane of `mask` names, taken modulo the lanes of `x` (of `x` and `y`): the
  specification only looks at those low bits.
"""

from __future__ import annotations

import re

from xdsl.dialects import arith, llvm
from xdsl.dialects.builtin import DenseArrayBase, Float32Type, VectorType, i32, i64
from xdsl.ir import Attribute, SSAValue

from dialects import llvmx
from lowering.common.llvm_types import bit_width, element_type, natural_alignment
from lowering.common.mangling import Demangled, MangledType
from lowering.link_builtins.conversions import float_to_float
from lowering.link_builtins.definition import (
    Definition,
    element_code,
    is_float_gentype,
    is_gentype,
    is_int_gentype,
    width,
)
from lowering.link_builtins.emit import Emitter, lanes, shaped

VLOAD = re.compile(r"v(?P<op>load|store)(?P<half>a?_half)?(?P<lanes>2|3|4|8|16)?")
VSTORE_HALF = re.compile(
    r"vstore(?P<aligned>a?)_half(?P<lanes>2|3|4|8|16)?(?:_(?P<mode>rte|rtz|rtp|rtn))?"
)


def _address(
    e: Emitter, pointer: SSAValue, offset: SSAValue, n: int, element: Attribute
) -> SSAValue:
    """`pointer + offset * n` elements."""
    if n > 1:
        offset = e.arith(arith.MuliOp, offset, e.const(n, offset.type))
    return e.element_pointer(pointer, offset, element)


def _pointee(p: MangledType) -> Attribute | None:
    """The scalar type a pointer parameter points to, or None."""
    if p.code != "P" or p.element is None or width(p.element):
        return None
    return p.element.llvm_type()


def _points_to_half(p: MangledType) -> bool:
    """Whether a pointer parameter points to `half`."""
    return p.element is not None and element_code(p.element) == "Dh"


def _vload(d: Demangled, n: int, half: str | None) -> Definition | None:
    if len(d.params) != 2 or element_code(d.params[0]) != "m":
        return None
    element = _pointee(d.params[1])
    if element is None or (half and not _points_to_half(d.params[1])):
        return None
    loaded = VectorType(element, [n]) if n else element
    result = shaped(loaded, Float32Type()) if half else loaded
    stride, alignment = _layout(n, half, element)

    def build(e: Emitter, args: list[SSAValue]) -> SSAValue:
        offset, pointer = args
        address = _address(e, pointer, offset, stride, element)
        value = e.load(address, loaded, alignment)
        return e.resize_float(value, Float32Type()) if half else value

    return Definition(result, build)


def _layout(n: int, half: str | None, element: Attribute) -> tuple[int, int]:
    """The elements between consecutive offsets, and the alignment of an access:
    `vloada_half3` strides by 4 and is aligned to the vector."""
    if half == "a_half":
        stride = 4 if n == 3 else max(n, 1)
        return stride, natural_alignment(VectorType(element, [stride]))
    return max(n, 1), natural_alignment(element)


def _vstore(d: Demangled, n: int, half: str | None, mode: str) -> Definition | None:
    if len(d.params) != 3 or element_code(d.params[1]) != "m":
        return None
    data, _, pointer = d.params
    element = _pointee(pointer)
    if element is None or not is_gentype(data) or width(data) != n:
        return None
    data_type = data.llvm_type()
    assert data_type is not None  # a gentype has one
    if half:
        if not _points_to_half(pointer) or not is_float_gentype(data):
            return None
    elif data_type != shaped(data_type, element):
        return None
    stride, alignment = _layout(n, half, element)

    def build(e: Emitter, args: list[SSAValue]) -> None:
        value, offset, pointer = args
        if half:
            value = float_to_float(e, value, element, mode)
        e.store(value, _address(e, pointer, offset, stride, element), alignment)

    return Definition(None, build)


def _shuffle(d: Demangled, sources: int) -> Definition | None:
    """`shuffle(x, mask)` (`sources` 1) or `shuffle2(x, y, mask)` (2)."""
    if len(d.params) != sources + 1:
        return None
    *values, mask = d.params
    x = values[0]
    if any(v.llvm_type() != x.llvm_type() for v in values) or not width(x):
        return None
    if not is_int_gentype(mask) or not mask.scalar.is_unsigned or not width(mask):
        return None
    x_type, mask_type = x.llvm_type(), mask.llvm_type()
    assert x_type is not None and mask_type is not None
    if bit_width(element_type(mask_type)) != bit_width(element_type(x_type)):
        return None
    result = shaped(mask_type, element_type(x_type))
    n = width(x) * sources

    def build(e: Emitter, args: list[SSAValue]) -> SSAValue:
        *inputs, selector = args
        source = inputs[0]
        if sources == 2:
            both = VectorType(element_type(x_type), [n])
            order = DenseArrayBase.from_list(i32, list(range(n)))
            source = e.insert(llvm.ShuffleVectorOp(inputs[0], inputs[1], order, both))
        indices = e.arith(arith.AndIOp, selector, e.const(n - 1, selector.type))
        picked = []
        for lane in range(lanes(result)):
            index = e.resize_int(e.extract(indices, lane), i64, signed=False)
            picked.append(e.insert(llvmx.ExtractElementOp(source, index)))
        return e.build_vector(picked, result)

    return Definition(result, build)


def find(d: Demangled) -> Definition | None:
    """The definition of vector data function `d`, if it is one."""
    if d.name in ("shuffle", "shuffle2"):
        return _shuffle(d, 1 if d.name == "shuffle" else 2)
    store_half = VSTORE_HALF.fullmatch(d.name)
    if store_half is not None:
        half = "a_half" if store_half["aligned"] else "_half"
        n = int(store_half["lanes"] or 0)
        return _vstore(d, n, half, store_half["mode"] or "rte")
    found = VLOAD.fullmatch(d.name)
    if found is None or (found["lanes"] is None and not found["half"]):
        return None
    n = int(found["lanes"] or 0)
    if found["op"] == "load":
        return _vload(d, n, found["half"])
    return None if found["half"] else _vstore(d, n, None, "rte")
