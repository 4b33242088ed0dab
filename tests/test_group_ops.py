"""lowering.common.group_ops: each identity leaves every value unchanged (checked with
numpy's version of each operation), and `combine` builds the arith op the spec's
operation names."""

import math

import numpy as np
import pytest
from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import IndexType, VectorType, f32, f64, i1, i8, i32, i64
from xdsl.ir import Block
from xdsl.rewriter import InsertPoint

from dialects.mux import GroupOperation as G
from lowering.common.group_ops import combine, identity, identity_value

INTEGER = [G.ADD, G.MUL, G.SMIN, G.UMIN, G.SMAX, G.UMAX, G.AND, G.OR, G.XOR]
FLOAT = [G.FADD, G.FMUL, G.FMIN, G.FMAX]
LOGICAL = [G.LOGICAL_AND, G.LOGICAL_OR, G.LOGICAL_XOR]


def _numpy(kind: G, a, b, unsigned: bool = False):
    """The operation on numpy values (integers as int8/32/64, reinterpreted as
    unsigned for the u-operations)."""
    if unsigned:
        a, b = (
            a.astype(a.dtype.str.replace("i", "u")),
            b.astype(b.dtype.str.replace("i", "u")),
        )
    return {
        G.ADD: np.add,
        G.FADD: np.add,
        G.MUL: np.multiply,
        G.FMUL: np.multiply,
        G.SMIN: np.minimum,
        G.UMIN: np.minimum,
        G.FMIN: np.fmin,
        G.SMAX: np.maximum,
        G.UMAX: np.maximum,
        G.FMAX: np.fmax,
        G.AND: np.bitwise_and,
        G.OR: np.bitwise_or,
        G.XOR: np.bitwise_xor,
    }[kind](a, b)


@pytest.mark.parametrize("kind", INTEGER)
@pytest.mark.parametrize(
    ("type", "dtype"), [(i8, np.int8), (i32, np.int32), (i64, np.int64)]
)
def test_integer_identities(kind, type, dtype):
    values = np.array(
        [0, 1, -1, 7, np.iinfo(dtype).min, np.iinfo(dtype).max], dtype=dtype
    )
    unit = np.full_like(values, identity_value(kind, type))
    unsigned = kind in (G.UMIN, G.UMAX)
    with np.errstate(over="ignore"):
        result = _numpy(kind, values, unit, unsigned)
    assert (result.view(dtype) == values).all()


@pytest.mark.parametrize("kind", FLOAT)
def test_float_identities(kind):
    values = np.array([0.0, -0.0, 1.5, -2.25, math.inf, -math.inf], dtype=np.float32)
    unit = np.full_like(values, identity_value(kind, f32))
    result = _numpy(kind, values, unit)
    assert (result == values).all()
    assert (np.signbit(result) == np.signbit(values)).all()  # -0.0 + -0.0 is -0.0


def test_logical_identities():
    assert identity_value(G.LOGICAL_AND, i1) == -1  # true
    assert identity_value(G.LOGICAL_OR, i1) == 0
    assert identity_value(G.LOGICAL_XOR, i1) == 0


def test_index_is_64_bits():
    assert identity_value(G.SMAX, IndexType()) == -(1 << 63)


@pytest.mark.parametrize(
    ("kind", "op"),
    [
        (G.ADD, arith.AddiOp),
        (G.FADD, arith.AddfOp),
        (G.UMIN, arith.MinUIOp),
        (G.FMIN, arith.MinnumfOp),
        (G.SMAX, arith.MaxSIOp),
        (G.FMAX, arith.MaxnumfOp),
        (G.LOGICAL_XOR, arith.XOrIOp),
    ],
)
def test_combine_builds_the_operation(kind, op):
    type = f64 if kind.is_float else (i1 if kind.is_logical else i32)
    block = Block()
    b = Builder(InsertPoint.at_end(block))
    unit = identity(b, kind, type)
    result = combine(b, kind, unit, unit)
    assert isinstance(result.owner, op)
    assert result.type == type


def test_vector_identity_fills_every_lane():
    block = Block()
    b = Builder(InsertPoint.at_end(block))
    value = identity(b, G.SMIN, VectorType(i32, (4,)))
    assert value.type == VectorType(i32, (4,))
    assert str(value.owner) == ("%0 = arith.constant dense<2147483647> : vector<4xi32>")
