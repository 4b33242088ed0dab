"""Values passed by value that are not scalars: vectors and structs, as numpy
holds them.

- A vector type `vector<N x T>` is numpy's subarray type `(T, (L,))`, L the lanes
  it takes in memory: N, but 4 for N = 3 (OpenCL C gives a 3-element vector the
  size and alignment of a 4-element one; LLVM lays out `<3 x float>` in 16
  bytes). An array of them has L as its last axis; the 4th lane of a 3-element
  vector is padding, which kernels do not read and may overwrite.
- A struct type is a numpy structured type with the same layout: a field
  `f0`, `f1`, ... for each member, at its offset in LLVM's natural layout
  (`lowering.common.layout`), and the struct's size as the item size.

`vector_lanes` and `numpy_type` give these types; `vector_values` and
`record_bytes` check a Python value against them. ArgumentProblem says what
does not fit."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import VectorType
from xdsl.dialects.llvm import LLVMArrayType, LLVMPointerType, LLVMStructType
from xdsl.ir import Attribute

from lowering.common.layout import member_offsets, storage
from mux.conversions import ArgumentProblem, convert, numpy_dtype, numpy_kinds, what


def vector_lanes(type_: VectorType) -> int:
    """The lanes a vector takes in memory: its length, 4 for a 3-element one."""
    return storage(type_)[0] // storage(type_.element_type)[0]


def numpy_type(type_: Attribute) -> np.dtype | None:
    """The numpy type of one value of `type_` in memory (a scalar, a vector, an
    `!llvm.array` or `!llvm.struct`), None if numpy has none."""
    if isinstance(type_, VectorType):
        scalar = numpy_dtype(type_.element_type)
        return None if scalar is None else np.dtype((scalar, (vector_lanes(type_),)))
    if isinstance(type_, LLVMArrayType):
        element = numpy_type(type_.type)
        return None if element is None else np.dtype((element, (type_.size.data,)))
    if isinstance(type_, LLVMPointerType):
        return np.dtype(np.uint64)
    if isinstance(type_, LLVMStructType):
        members = [numpy_type(m) for m in type_.types.data]
        if any(m is None for m in members):
            return None
        return np.dtype(
            {
                "names": [f"f{i}" for i in range(len(members))],
                "formats": members,
                "offsets": member_offsets(type_),
                "itemsize": storage(type_)[0],
            }
        )
    return numpy_dtype(type_)


def vector_values(type_: VectorType, value: Any) -> list[Any]:
    """The lanes of a by-value vector argument, each converted as a scalar of the
    element type (`convert`); the padding lane of a 3-element vector is 0.

    `value` is a sequence (tuple, list, 1-D numpy array) of N numbers, or of 4 for
    a 3-element vector (its padded form: a row of an array of them, the 4th
    ignored)."""
    lanes = type_.get_shape()[0]
    padded = vector_lanes(type_)
    if isinstance(value, np.ndarray):
        if value.ndim != 1:
            raise ArgumentProblem(
                f"expected {_vector_form(type_)}, got an array of shape {value.shape}"
            )
        items: Sequence[Any] = list(value)
    elif isinstance(value, tuple | list):
        items = value
    else:
        raise ArgumentProblem(f"expected {_vector_form(type_)}, got {what(value)}")
    if len(items) not in (lanes, padded):
        raise ArgumentProblem(
            f"expected {_vector_form(type_)}, got {len(items)} values"
        )
    converted = []
    for lane, item in enumerate(items[:lanes]):
        try:
            converted.append(convert(type_.element_type, item))
        except ArgumentProblem as problem:
            raise ArgumentProblem(f"lane {lane}: {problem}") from None
    padding = convert(type_.element_type, 0)
    return converted + [padding] * (padded - lanes)


def _vector_form(type_: VectorType) -> str:
    lanes, padded = type_.get_shape()[0], vector_lanes(type_)
    count = f"{lanes} (or {padded})" if padded != lanes else str(lanes)
    return f"a {type_} as a tuple, list or 1-D array of {count} numbers"


def record_bytes(type_: LLVMStructType, value: Any) -> bytes:
    """The bytes of a struct argument of `type_`: a numpy record (a `np.void`, an
    element of a structured array, or a 0-d structured array) whose type has the
    struct's layout (`same_layout`), or `bytes`/`bytearray` of the struct's size,
    taken as they are."""
    size = storage(type_)[0]
    if isinstance(value, bytes | bytearray):
        if len(value) != size:
            raise ArgumentProblem(
                f"expected {describe_record(type_)}, got {len(value)} bytes"
            )
        return bytes(value)
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if not isinstance(value, np.void) or value.dtype.names is None:
        raise ArgumentProblem(f"expected {describe_record(type_)}, got {what(value)}")
    mismatch = layout_mismatch(type_, value.dtype)
    if mismatch is not None:
        raise ArgumentProblem(
            f"expected {describe_record(type_)}; the record's type {value.dtype} "
            f"{mismatch}"
        )
    return value.tobytes()


def describe_record(type_: LLVMStructType) -> str:
    """How a message names what a struct parameter takes."""
    size = storage(type_)[0]
    leaves = _leaves(type_, 0)
    members = ", ".join(f"{t} at {o}" for o, t in leaves[:8])
    if len(leaves) > 8:
        members += ", ..."
    return (
        f"a numpy record of the struct's layout ({size} bytes: {members}; "
        f"`param.dtype` is one) or {size} bytes"
    )


def layout_mismatch(type_: LLVMStructType, dtype: np.dtype) -> str | None:
    """What differs between the struct `type_`'s layout and the numpy type
    `dtype`'s, None if they agree: the same size, and for each scalar of the
    struct (a member, a vector lane, an array element) a field at its offset of
    its kind and size. Fields in the struct's padding are allowed."""
    size = storage(type_)[0]
    if dtype.itemsize != size:
        return f"has {dtype.itemsize} bytes, the struct {size}"
    fields = dict(_numpy_leaves(dtype, 0))
    covered: set[int] = set()
    for offset, scalar in _leaves(type_, 0):
        field = fields.pop(offset, None)
        kinds, itemsize = numpy_kinds(scalar) or ("u", 8)  # a pointer: 8 bytes
        if field is None or field.kind not in kinds or field.itemsize != itemsize:
            found = "nothing" if field is None else str(field)
            return f"has {found} at offset {offset}, the struct {scalar}"
        covered.update(range(offset, offset + itemsize))
    for offset, field in fields.items():  # the others must be in the padding
        if covered & set(range(offset, offset + field.itemsize)):
            return f"has {field} at offset {offset}, inside a member of the struct"
    return None


def _leaves(type_: Attribute, offset: int) -> list[tuple[int, Attribute]]:
    """(offset, scalar type) of each scalar in a value of `type_`."""
    if isinstance(type_, LLVMStructType):
        return [
            leaf
            for member, at in zip(type_.types.data, member_offsets(type_), strict=True)
            for leaf in _leaves(member, offset + at)
        ]
    if isinstance(type_, LLVMArrayType):
        step = storage(type_.type)[0]
        return [
            leaf
            for i in range(type_.size.data)
            for leaf in _leaves(type_.type, offset + i * step)
        ]
    if isinstance(type_, VectorType):
        step = storage(type_.element_type)[0]
        return [
            (offset + i * step, type_.element_type) for i in range(type_.get_shape()[0])
        ]
    return [(offset, type_)]


def _numpy_leaves(dtype: np.dtype, offset: int) -> list[tuple[int, np.dtype]]:
    """(offset, scalar type) of each scalar in a value of the numpy type
    `dtype`."""
    if dtype.subdtype is not None:
        base, shape = dtype.subdtype
        count = int(np.prod(shape))
        return [
            leaf
            for i in range(count)
            for leaf in _numpy_leaves(base, offset + i * base.itemsize)
        ]
    if dtype.names is not None:
        fields = dtype.fields
        assert fields is not None  # a structured dtype has both
        leaves: list[tuple[int, np.dtype]] = []
        for name in dtype.names:
            # numpy's stub keys `fields` by LiteralString, its `names` by str
            field = fields[name]  # pyright: ignore[reportArgumentType]
            leaves += _numpy_leaves(field[0], offset + field[1])
        return leaves
    return [(offset, dtype)]
