"""The common and geometric functions of the builtin library (`link-builtins`,
`common`, `geometric`) against numpy: the common ones exactly as the
specification defines them (in the argument's type), `length`, `distance` and
`normalize` within an ulp of the exact value, also where the squares of a
float's lanes overflow or underflow in float."""

from __future__ import annotations

import numpy as np
import pytest
from builtin_kernels import Call, edge_floats, run_calls, ulps, whole_vectors

RNG = np.random.default_rng(5)


def _f32(value) -> np.ndarray:
    return np.asarray(value, np.float32)


@pytest.mark.parametrize("lanes", [1, 4, 3])
def test_common_functions_follow_their_definitions(lanes: int):
    edges = edge_floats(np.float32)
    x = np.concatenate([edges, RNG.uniform(-3, 3, 64).astype(np.float32)])
    x = whole_vectors(x, lanes)
    low = _f32(np.full_like(x, -0.5))
    high = _f32(np.resize(RNG.uniform(0.5, 2, 7), len(x)))
    calls = [
        Call("clamp(a, b, c)", "float"),
        Call("clamp(a, -0.5f, 1.5f)", "float"),
        Call("min(a, c)", "float"),
        Call("max(a, c)", "float"),
        Call("mix(a, c, 0.25f)", "float"),
        Call("step(b, a)", "float"),
        Call("step(0.5f, a)", "float"),
        Call("smoothstep(b, c, a)", "float"),
        Call("smoothstep(-0.5f, 1.0f, a)", "float"),
        Call("sign(a)", "float"),
        Call("degrees(a)", "float"),
        Call("radians(a)", "float"),
    ]
    outputs = run_calls(calls, [x, low, high], lanes)
    with np.errstate(all="ignore"):
        expected = [
            np.fmin(np.fmax(x, low), high),
            np.fmin(np.fmax(x, _f32(-0.5)), _f32(1.5)),
            np.fmin(x, high),
            np.fmax(x, high),
            x + (high - x) * _f32(0.25),
            np.where(x < low, _f32(0), _f32(1)),
            np.where(x < _f32(0.5), _f32(0), _f32(1)),
            _smoothstep(low, high, x),
            _smoothstep(_f32(-0.5), _f32(1.0), x),
            np.where(np.isnan(x), _f32(0), np.where(x > 0, 1, np.where(x < 0, -1, x))),
            x * _f32(180 / np.pi),
            x * _f32(np.pi / 180),
        ]
    for call, got, want in zip(calls, outputs, expected, strict=True):
        np.testing.assert_array_equal(got, _f32(want), err_msg=call.expression)


def _smoothstep(edge0, edge1, x):
    # clamp is fmin(fmax(...)): a NaN becomes 0 (the specification leaves it undefined)
    t = np.fmin(np.fmax((x - edge0) / (edge1 - edge0), _f32(0)), _f32(1))
    return t * t * (_f32(3) - _f32(2) * t)


def _vectors(lanes: int) -> np.ndarray:
    """Rows of `lanes` floats: random ones, and zeros, huge, tiny and denormal
    rows, a row with an infinity and one with a NaN."""
    rows = [RNG.standard_normal((48, lanes)) * 10 ** RNG.uniform(-3, 3, (48, 1))]
    special = np.zeros((6, lanes))
    special[1], special[2], special[3] = 3e38, 1e-30, 3e-45
    special[4, 0], special[5, -1] = np.inf, np.nan
    special[2, -1] = -2e-30
    rows.append(special)
    return np.concatenate(rows).astype(np.float32)


def _length(rows: np.ndarray) -> np.ndarray:
    wide = rows.astype(np.float64)
    return np.sqrt((wide * wide).sum(axis=1))


@pytest.mark.parametrize("lanes", [1, 2, 3, 4])
def test_geometric_functions(lanes: int):
    p, q = _vectors(lanes), np.roll(_vectors(lanes), 5, axis=0)
    calls = [
        Call("dot(a, b)", "float", 1),
        Call("length(a)", "float", 1),
        Call("distance(a, b)", "float", 1),
        Call("normalize(a)", "float"),
        Call("fast_length(a)", "float", 1),
        Call("fast_normalize(a)", "float"),
    ]
    if lanes in (3, 4):
        calls.append(Call("cross(a, b)", "float"))
    outputs = run_calls(calls, [p.reshape(-1), q.reshape(-1)], lanes)
    dot, length, distance, normalize, fast_length, fast_normalize = outputs[:6]
    with np.errstate(over="ignore", invalid="ignore"):
        products = p * q
        expected_dot = products[:, 0]
        for lane in range(1, lanes):
            expected_dot = expected_dot + products[:, lane]
    np.testing.assert_array_equal(dot, expected_dot)
    with np.errstate(all="ignore"):
        assert ulps(length, _length(p)).max() <= 1
        assert ulps(fast_length, _length(p)).max() <= 1
        assert ulps(distance, _length(p.astype(np.float64) - q)).max() <= 1
        finite = np.isfinite(p).all(axis=1) & (np.abs(p) > 0).any(axis=1)
        expected = p.astype(np.float64) / _length(p)[:, None]
        for got in (normalize, fast_normalize):
            got = got.reshape(-1, lanes)
            assert ulps(got[finite], expected[finite]).max() <= 1
            zeros = (p == 0).all(axis=1)
            np.testing.assert_array_equal(got[zeros], p[zeros])
            infinite = np.isinf(p).any(axis=1)
            signs = np.where(np.isinf(p[infinite]), np.sign(p[infinite]), 0)
            expected_inf = signs / np.sqrt((signs**2).sum(axis=1))[:, None]
            np.testing.assert_allclose(got[infinite], expected_inf, rtol=1e-6)
    if lanes in (3, 4):
        x0, y0, z0 = p[:, 0], p[:, 1], p[:, 2]
        x1, y1, z1 = q[:, 0], q[:, 1], q[:, 2]
        with np.errstate(all="ignore"):
            columns = [y0 * z1 - z0 * y1, z0 * x1 - x0 * z1, x0 * y1 - y0 * x1]
        if lanes == 4:
            columns.append(np.zeros_like(x0))
        np.testing.assert_array_equal(
            outputs[6].reshape(-1, lanes), np.stack(columns, 1)
        )


def test_geometric_functions_of_doubles_and_halves():
    p = _vectors(3).astype(np.float64)
    p[2] = 1e300  # their squares overflow a double
    p[3] = 1e-300
    length, normalize = run_calls(
        [Call("length(a)", "double", 1), Call("normalize(a)", "double")],
        [p.reshape(-1)],
        3,
    )
    with np.errstate(all="ignore"):  # hypot: an ulp each, without overflow
        norms = np.hypot.reduce(p, axis=1)
        assert ulps(length, norms).max() <= 3
        finite = np.isfinite(p).all(axis=1) & (norms > 0)
        expected = p[finite] / norms[finite, None]
        assert ulps(normalize.reshape(-1, 3)[finite], expected).max() <= 4
    h = np.clip(_vectors(4), -60000, 60000).astype(np.float16)
    half_length, half_dot = run_calls(
        [Call("length(a)", "half", 1), Call("dot(a, a)", "half", 1)], [h.reshape(-1)], 4
    )
    with np.errstate(all="ignore"):
        assert ulps(half_length, _length(h)).max() <= 1
        wide = h.astype(np.float32)  # halves are computed in float
        squares = wide * wide
        in_float = ((squares[:, 0] + squares[:, 1]) + squares[:, 2]) + squares[:, 3]
        np.testing.assert_array_equal(half_dot, in_float.astype(np.float16))
