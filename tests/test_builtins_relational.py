"""The relational functions of the builtin library (`link-builtins`,
`relational`): comparisons and classifications of floats (1/0 for scalars, -1/0
per lane for vectors, in integers of the floats' width), `any`, `all`, `select`
and `bitselect`, against numpy."""

from __future__ import annotations

import numpy as np
import pytest
from builtin_kernels import Call, by_type, edge_floats, run_calls

COMPARISONS = {
    "isequal": np.equal,
    "isnotequal": np.not_equal,
    "isgreater": np.greater,
    "isgreaterequal": np.greater_equal,
    "isless": np.less,
    "islessequal": np.less_equal,
    "islessgreater": lambda x, y: (x < y) | (x > y),
    "isordered": lambda x, y: ~(np.isnan(x) | np.isnan(y)),
    "isunordered": lambda x, y: np.isnan(x) | np.isnan(y),
}
CLASSIFICATIONS = {
    "isfinite": np.isfinite,
    "isinf": np.isinf,
    "isnan": np.isnan,
    "isnormal": lambda x: (
        np.isfinite(x) & (np.abs(x) >= np.finfo(x.dtype).smallest_normal)
    ),
    "signbit": np.signbit,
}
TRUTH = {np.float16: "short", np.float32: "int", np.float64: "long"}

VECTORS = [(np.float32, 4), (np.float64, 2), (np.float16, 8)]
CASES = [(np.float32, 1), (np.float16, 1), *VECTORS]


@by_type(("dtype", "lanes"), CASES)
def test_comparisons_and_classifications(dtype: type, lanes: int):
    edges = edge_floats(dtype)
    x = np.repeat(edges, len(edges))
    y = np.tile(edges, len(edges))
    truth = TRUTH[dtype] if lanes > 1 else "int"
    calls = [Call(f"{n}(a, b)", truth) for n in COMPARISONS]
    calls += [Call(f"{n}(a)", truth) for n in CLASSIFICATIONS]
    outputs = run_calls(calls, [x, y], lanes)
    true = -1 if lanes > 1 else 1
    with np.errstate(invalid="ignore"):
        expected = [f(x, y) for f in COMPARISONS.values()]
        expected += [f(x) for f in CLASSIFICATIONS.values()]
    for call, got, want in zip(calls, outputs, expected, strict=True):
        bad = np.flatnonzero(got != np.where(want, true, 0))
        assert not bad.size, (
            f"{call.expression} on {x[bad[0]]}, {y[bad[0]]}: {got[bad[0]]}"
        )


@pytest.mark.parametrize(
    ("type_", "lanes"),
    [("int", 1), ("int", 3), ("char", 16), ("long", 2), ("short", 4)],
)
def test_any_and_all_look_at_the_top_bits(type_: str, lanes: int):
    dtype = {"int": np.int32, "char": np.int8, "long": np.int64, "short": np.int16}[
        type_
    ]
    rng = np.random.default_rng(7)
    x = rng.choice(
        np.array([0, 1, -1, 5, np.iinfo(dtype).min, np.iinfo(dtype).max], dtype),
        64 * lanes,
    )
    x[: lanes * 2] = -1  # a packet with every top bit set
    x[lanes * 2 : lanes * 4] = 7  # and one with none
    any_, all_ = run_calls(
        [Call("any(a)", "int", 1), Call("all(a)", "int", 1)], [x], lanes
    )
    negative = (x < 0).reshape(-1, lanes)
    np.testing.assert_array_equal(any_, negative.any(axis=1).astype(np.int32))
    np.testing.assert_array_equal(all_, negative.all(axis=1).astype(np.int32))


@pytest.mark.parametrize("lanes", [1, 4])
def test_select_by_the_top_bit_of_vectors_and_by_non_zero_scalars(lanes: int):
    rng = np.random.default_rng(3)
    a = rng.standard_normal(40 * lanes).astype(np.float32)
    b = rng.standard_normal(40 * lanes).astype(np.float32)
    c = rng.choice(np.array([0, 1, -1, 2**31 - 1, -(2**31), 64], np.int32), 40 * lanes)
    u = c.view(np.uint32)
    calls = [
        Call("select(a, b, c)", "float"),
        Call("select(a, b, d)", "float"),
        Call(
            "bitselect(a, b, as_float" + (str(lanes) if lanes > 1 else "") + "(c))",
            "float",
        ),
        Call(
            "bitselect(c, as_int" + (str(lanes) if lanes > 1 else "") + "(a), c)", "int"
        ),
    ]
    chosen, chosen_unsigned, bits, int_bits = run_calls(calls, [a, b, c, u], lanes)
    take_b = c < 0 if lanes > 1 else c != 0
    np.testing.assert_array_equal(chosen, np.where(take_b, b, a))
    np.testing.assert_array_equal(chosen_unsigned, np.where(take_b, b, a))
    mixed = (a.view(np.uint32) & ~u) | (b.view(np.uint32) & u)
    np.testing.assert_array_equal(bits.view(np.uint32), mixed)
    np.testing.assert_array_equal(int_bits, (c & ~c) | (a.view(np.int32) & c))
