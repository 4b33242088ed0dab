"""Running OpenCL C builtins on numpy inputs, for the builtin library's tests
(`link-builtins`): `run_calls` writes one kernel that evaluates several calls on
the same arguments, element by element (scalars) or vector by vector, and returns
each call's results; `ulps` measures a float result against a reference in units
in the last place, as the OpenCL C specification states its limits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pytest

import mux

DTYPES = {
    "char": np.int8,
    "uchar": np.uint8,
    "short": np.int16,
    "ushort": np.uint16,
    "int": np.int32,
    "uint": np.uint32,
    "long": np.int64,
    "ulong": np.uint64,
    "half": np.float16,
    "float": np.float32,
    "double": np.float64,
}
"""OpenCL C's scalar types as numpy's."""


@dataclass(frozen=True)
class Call:
    """One builtin call of a test kernel: `expression` (OpenCL C, of the
    arguments `a`, `b`, `c`, ...) and the scalar type of its result's elements;
    `lanes` of the result when they differ from the arguments' (`dot`: 1)."""

    expression: str
    result: str
    lanes: int | None = None


def by_type(names: str, cases: Sequence[tuple[object, int]]) -> pytest.MarkDecorator:
    """pytest's parametrisation over `(type, lanes)` cases, named like `int4`."""
    return pytest.mark.parametrize(
        names,
        cases,
        ids=[f"{np.dtype(t).name if isinstance(t, type) else t}{n}" for t, n in cases],
    )


def whole_vectors(x: np.ndarray, lanes: int) -> np.ndarray:
    """`x` repeated (or cut) to a whole number of vectors of `lanes`."""
    return np.resize(x, -(-len(x) // lanes) * lanes)


def _typed(name: str, lanes: int) -> str:
    return f"{name}{lanes}" if lanes > 1 else name


def _load(name: str, type_: str, lanes: int) -> str:
    if lanes > 1:
        return f"{_typed(type_, lanes)} {name} = vload{lanes}(i, {name}_);"
    return f"{type_} {name} = {name}_[i];"


def _store(index: int, call: Call, lanes: int) -> str:
    if lanes > 1:
        return f"vstore{lanes}({call.expression}, i, out{index});"
    return f"out{index}[i] = {call.expression};"


def kernel_source(calls: Sequence[Call], arguments: Sequence[str], lanes: int) -> str:
    """A kernel `k(a_, b_, ..., out0, out1, ...)`: work-item `i` loads argument
    vectors (or scalars) `i` of each `*_` buffer into `a`, `b`, ... and stores
    call `j`'s result at element (vector) `i` of `out<j>`."""
    names = "abcdefgh"
    params = [f"__global const {t} *{names[n]}_" for n, t in enumerate(arguments)]
    params += [f"__global {c.result} *out{j}" for j, c in enumerate(calls)]
    lines = (
        ["#pragma OPENCL EXTENSION cl_khr_fp16 : enable"]
        if "half" in str([*arguments, *(c.result for c in calls)])
        else []
    )
    lines += [
        f"__kernel void k({', '.join(params)}) {{",
        "  size_t i = get_global_id(0);",
    ]
    lines += [f"  {_load(names[n], t, lanes)}" for n, t in enumerate(arguments)]
    for j, call in enumerate(calls):
        lines.append(f"  {_store(j, call, call.lanes or lanes)}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def run_calls(
    calls: Sequence[Call],
    arguments: Sequence[np.ndarray],
    lanes: int = 1,
    build_options: str = "",
) -> list[np.ndarray]:
    """Each call's results on `arguments` (arrays of one OpenCL C type each, of
    `count * lanes` elements), `count` work-items each taking `lanes` of each:
    arrays of `count * lanes` elements (`count * call.lanes`)."""
    types = [_opencl_type(a.dtype) for a in arguments]
    count = len(arguments[0]) // lanes
    source = kernel_source(calls, types, lanes)
    outputs = [np.zeros(count * (c.lanes or lanes), DTYPES[c.result]) for c in calls]
    program = mux.compile(source, language="opencl", build_options=build_options)
    program.kernel("k")(*arguments, *outputs, global_size=(count,), local_size=(1,))
    return outputs


def _opencl_type(dtype: np.dtype) -> str:
    for name, numpy_type in DTYPES.items():
        if np.dtype(numpy_type) == dtype:
            return name
    raise ValueError(f"no OpenCL C type for {dtype}")


def ulps(got: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """The error of each of `got` (floats of one width) from `reference` (more
    precise, float64) in units in the last place of `got`'s type at the
    reference; 0 where both are the same NaN-ness or the same infinity, inf where
    one is a NaN or infinity and the other not."""
    info = np.finfo(got.dtype)
    reference = np.asarray(reference, np.float64)
    exact = got.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        # the ulp of the reference's binade, no smaller than the denormals'
        exponent = np.floor(
            np.log2(np.maximum(np.abs(reference), info.smallest_normal))
        )
        ulp = np.exp2(exponent - info.nmant)
        error = np.abs(exact - reference) / ulp
        rounded = reference.astype(got.dtype).astype(np.float64)  # inf if beyond
    same_special = (np.isnan(exact) & np.isnan(rounded)) | (
        np.isinf(exact) & (exact == rounded)
    )
    one_special = ~same_special & (
        np.isnan(exact) | np.isnan(rounded) | np.isinf(exact) | np.isinf(rounded)
    )
    error = np.where(same_special, 0.0, error)
    return np.where(one_special, np.inf, error)


def edge_floats(dtype: type) -> np.ndarray:
    """The values every float test runs on: zeros of both signs, infinities, NaN,
    the extremes (largest, smallest normal, denormals), integers, halves and
    ordinary values of both signs."""
    info = np.finfo(dtype)
    smallest = np.array(info.smallest_subnormal, dtype)
    values = [
        0.0,
        -0.0,
        np.inf,
        -np.inf,
        np.nan,
        info.max,
        -info.max,
        info.smallest_normal,
        -info.smallest_normal,
        smallest,
        -smallest,
        smallest * 3,
        info.smallest_normal / 2,
        1.0,
        -1.0,
        0.5,
        -0.5,
        1.5,
        -2.5,
        2.0,
        3.0,
        -7.0,
        0.1,
        -0.7,
        1e-3,
        np.pi,
        -np.e,
        10.0,
        100.25,
        -1000.0,
        12345.678,
        65504.0,
    ]
    if dtype is not np.float16:
        values += [1e10, -3e20, 1e30, 2.0**60 + 2.0**40]
    return np.array(values, dtype)
