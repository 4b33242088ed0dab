"""How a Python or numpy number becomes a value of a kernel's scalar type: C's
implicit conversions, checked (`convert`), and the numpy types of our element types
(`numpy_dtype`).

A value that does not fit raises `ArgumentProblem`, whose message the caller
prefixes with the argument it is about (`mux.arguments.Param`)."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    AnyFloat,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
)
from xdsl.ir import Attribute

FLOATS = {Float16Type: np.float16, Float32Type: np.float32, Float64Type: np.float64}
"""The numpy type of each float type."""


class ArgumentProblem(ValueError):
    """What is wrong with a value for a parameter, without the parameter's name."""


def numpy_kinds(type_: Attribute) -> tuple[str, int] | None:
    """(numpy kind letters, item size) accepted for elements of the scalar type
    `type_`, None if no numpy type holds it (an `i24`). Signless integers accept
    signed and unsigned arrays of their width."""
    if isinstance(type_, IndexType):
        return "iu", 8
    if isinstance(type_, IntegerType):
        width = type_.width.data
        if width == 1:
            return "b", 1
        return ("iu", width // 8) if width in (8, 16, 32, 64) else None
    if isinstance(type_, AnyFloat) and type(type_) in FLOATS:
        return "f", np.dtype(FLOATS[type(type_)]).itemsize
    return None


def numpy_dtype(type_: Attribute) -> np.dtype | None:
    """The numpy type of a value of the scalar type `type_` (a signless integer is
    signed; `i1` is `bool`), None if there is none."""
    kinds = numpy_kinds(type_)
    if kinds is None:
        return None
    letters, size = kinds
    return np.dtype(bool) if letters == "b" else np.dtype(f"{letters[0]}{size}")


def convert(type_: Attribute, value: Any) -> Any:
    """`value` as the scalar type `type_` takes it, by C's implicit conversions: an
    integer (Python or numpy, not a bool) whose value fits an integer type; a real
    (Python or numpy, integer or floating) for a float type, rounded to the nearest
    as C converts it; a bool (Python or numpy) or 0 or 1 for an i1. A 0-d array
    counts as its element, as in numpy. The result is what ctypes stores: an int
    (a two's complement for a signless integer), a float, a bool, or the bits of
    an f16. ArgumentProblem otherwise.

    A signless iN takes the union of the signed and unsigned ranges, -2^(N-1) to
    2^N - 1 (the kernel's ops decide how to read the bits); `index`, the device's
    64-bit `size_t`, takes the same range as i64, since MLIR's index is signless
    too (a kernel may read it signed: `arith.maxsi`, `cmpi slt`)."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    kind = scalar_kind(value)
    if isinstance(type_, AnyFloat):
        if kind not in ("i", "u", "f"):
            raise ArgumentProblem(f"expected {describe(type_)}, got {what(value)}")
        return _convert_float(type_, value)
    if isinstance(type_, IndexType):
        width = 64
    else:
        assert isinstance(type_, IntegerType), type_  # the scalar types left
        width = type_.width.data
    if width == 1 and kind == "b":
        return bool(value)
    if kind not in ("i", "u"):
        raise ArgumentProblem(f"expected {describe(type_)}, got {what(value)}")
    value = int(value)
    if width == 1:
        # i1 is a truth value: 0 or 1, as C's _Bool holds (-1 is not one).
        if value not in (0, 1):
            raise ArgumentProblem(f"{value} is out of range for i1: 0, 1 or a bool")
        return bool(value)
    low, high = -(1 << (width - 1)), (1 << width) - 1
    if not low <= value <= high:
        raise ArgumentProblem(
            f"{value} is out of range for {type_}: an integer from {low} to {high}"
        )
    # A signless integer: store the two's complement of an unsigned value.
    return value - (1 << width) if value >= 1 << (width - 1) else value


def describe(type_: Attribute) -> str:
    """A scalar of `type_` as a message names it: "an f32 scalar"."""
    return f"{article(str(type_))} {type_} scalar"


def _convert_float(type_: Attribute, value: Any) -> Any:
    """`value` rounded to the float type `type_`; ArgumentProblem if a finite
    value rounds to an infinity (out of range: C leaves that undefined)."""
    dtype = FLOATS[type(type_)]
    rounded = to_float(value, dtype)
    if np.isinf(rounded) and not (scalar_kind(value) == "f" and np.isinf(value)):
        raise ArgumentProblem(
            f"{value} is out of range for {type_}: finite values are within "
            f"±{_largest(dtype)}"
        )
    if dtype is np.float16:
        return int(rounded.view(np.uint16))
    return float(rounded)


def to_float(value: Any, dtype: type[np.floating]) -> np.floating:
    """The `dtype` nearest to the real `value` (a Python or numpy integer or float),
    ties to even, rounded once as C's conversions do (through a double first, an
    integer above 2^53 would be rounded twice, and may land on the other side of a
    tie). Infinity when the value is beyond the type's largest finite one."""
    with np.errstate(over="ignore", invalid="ignore"):
        if isinstance(value, np.generic):
            return value.astype(dtype)  # numpy's casts are C's
        if isinstance(value, float):
            return dtype(value)
        # A Python int: numpy's uint64 cast rounds once. Beyond 64 bits keep the top
        # 64 and a sticky bit for the rest (every float type here has far fewer
        # digits, so the rounding sees the same value above and below the halfway
        # point), and scale back by the power of two.
        magnitude = abs(value)
        shift = max(0, magnitude.bit_length() - 64)
        top = magnitude >> shift
        if magnitude & ((1 << shift) - 1):
            top |= 1
        rounded = np.ldexp(np.uint64(top).astype(dtype), shift).astype(dtype)
        return -rounded if value < 0 else rounded


def _largest(dtype: type[np.floating]) -> str:
    """The largest finite `dtype`, as short as it reads back: 65504, 3.4028235e+38."""
    largest = np.finfo(dtype).max
    return str(int(largest)) if float(largest) < 2**53 else str(largest)


def scalar_kind(value: Any) -> str | None:
    """numpy's kind letter of a Python or numpy scalar (b, i, u, f, c, ...)."""
    if isinstance(value, np.generic):
        return value.dtype.kind
    if isinstance(value, bool):
        return "b"
    if isinstance(value, int):
        return "i"
    if isinstance(value, float):
        return "f"
    if isinstance(value, complex):
        return "c"
    return None


def article(word: str) -> str:
    """The article for `word`, by how it is read: an i32, an f32, an index, a
    memref."""
    return "an" if re.match(r"[aeiou]|[fhlmnrsx]\d", word) else "a"


def what(value: Any) -> str:
    """A value as a message names it: "an array of float64", "float 2.5"."""
    if isinstance(value, np.ndarray):
        return f"an array of {value.dtype}"
    if isinstance(value, np.generic):
        return f"a numpy {value.dtype} scalar"
    return f"{type(value).__name__} {value!r}"
