"""Vec-group collectives end to end (`lowering/common/vec_group.py`, defined by
`define-mux-builtins`), against numpy.

One kernel per operand type holds every vec-group collective of that type. Work-item
`g` loads its vector `x[g * N .. g * N + N)` (N lanes; a scalar is one lane), and
collective `c` stores its result in the slot `out[(c * W + g) * N ..)` (W
work-items): a vector result fills the slot, a scalar one its first element. The
broadcast reads the lane `lanes[g]`, a runtime value that differs between
work-items. The model folds each work-item's lanes with numpy's operations:
reduce is the last element of the `accumulate`d lanes, an inclusive scan the
`accumulate`, an exclusive one the identity followed by all but the last of it;
any/all are `np.any`/`np.all`.

Integer results must be equal (umin/umax on values with the top bit set, mul
wrapping around). Float fadd and fmul results are compared with the tolerance
`|got - want| <= RTOL * max(1, |want|)`, RTOL 1e-5 for f32 (8 lanes in any order
stay well within it); fmin and fmax must be equal.
"""

from __future__ import annotations

import functools

import group_model
import numpy as np
import pytest

import mux

INTEGER_OPS = ["add", "mul", "smin", "umin", "smax", "umax", "and", "or", "xor"]
FLOAT_OPS = ["fadd", "fmul", "fmin", "fmax"]
LOGICAL_OPS = ["logical_and", "logical_or", "logical_xor"]
SCANS = ["reduce", "scan_inclusive", "scan_exclusive"]
RTOL = 1e-5
WORK_ITEMS = 48


def _collectives(ops):
    return [(kind, op) for op in ops for kind in SCANS] + [("broadcast", None)]


# name: (element type, lanes (0: a scalar), buffer element type, numpy dtype, ops)
TYPES = {
    "v4i32": ("i32", 4, "i32", np.int32, _collectives(INTEGER_OPS)),
    "v8f32": ("f32", 8, "f32", np.float32, _collectives(FLOAT_OPS)),
    "v2i64": ("i64", 2, "i64", np.int64, _collectives(INTEGER_OPS)),
    "v4i1": (
        "i1",
        4,
        "i32",
        np.int32,
        [("any", None), ("all", None), *_collectives(LOGICAL_OPS)],
    ),
    "i32": ("i32", 0, "i32", np.int32, _collectives(INTEGER_OPS)),
}


def kernel_source(name: str) -> str:
    element, lanes, buffer, _, collectives = TYPES[name]
    n = max(lanes, 1)
    vec = f"vector<{lanes}x{element}>" if lanes else element
    buf_vec = f"vector<{lanes}x{buffer}>" if lanes else buffer
    memref = f"memref<?x{buffer}, 1>"
    load = (
        f"vector.load %x[%base] : {memref}, {buf_vec}"
        if lanes
        else f"memref.load %x[%base] : {memref}"
    )
    lines = [
        f"func.func @{name}(%x: {memref}, %lanes: memref<?xi32, 1>, %out: {memref}) "
        'attributes {mux.kernel = "entry-point"} {',
        "  %d0 = arith.constant 0 : i32",
        "  %g = mux.get_global_id %d0",
        "  %w = mux.get_global_size %d0",
        f"  %n = arith.constant {n} : index",
        "  %base = arith.muli %g, %n : index",
        f"  %raw = {load}",
        "  %lane = memref.load %lanes[%g] : memref<?xi32, 1>",
    ]
    if element == "i1":
        # lane by lane: xDSL's arith.cmpi and extui take scalars only
        lines += [
            f"  %v_init = arith.constant dense<false> : {vec}",
            "  %zero = arith.constant 0 : i32",
        ]
        previous = "%v_init"
        for i in range(lanes):
            lines += [
                f"  %x{i} = vector.extract %raw[{i}] : i32 from {buf_vec}",
                f"  %b{i} = arith.cmpi ne, %x{i}, %zero : i32",
                f"  %v{i} = vector.insert %b{i}, {previous} [{i}] : i1 into {vec}",
            ]
            previous = f"%v{i}"
        lines.append(f"  %v = arith.ori {previous}, {previous} : {vec}")
    operand = "%v" if element == "i1" else "%raw"
    for c, (kind, op) in enumerate(collectives):
        scalar_result = kind in ("reduce", "broadcast", "any", "all")
        if kind in ("any", "all"):
            collective = f"mux.vec_group_{kind} {operand} : {vec}"
        elif kind == "broadcast":
            collective = (
                f"mux.vec_group_broadcast {operand}, %lane : {vec} -> {element}"
            )
        else:
            result_type = element if kind == "reduce" else vec
            collective = f"mux.vec_group_{kind} {op} {operand} : {vec} -> {result_type}"
        lines.append(f"  %r{c} = {collective}")
        result, result_type = f"%r{c}", element if scalar_result else vec
        lines += [
            f"  %c{c} = arith.constant {c} : index",
            f"  %s{c} = arith.muli %c{c}, %w : index",
            f"  %t{c} = arith.addi %s{c}, %g : index",
            f"  %at{c} = arith.muli %t{c}, %n : index",
        ]
        if element == "i1":  # each result lane as an i32
            for i in range(1 if scalar_result else lanes):
                lane = f"%r{c}"
                if not scalar_result:
                    lane = f"%r{c}_{i}"
                    lines.append(
                        f"  {lane} = vector.extract %r{c}[{i}] : i1 from {vec}"
                    )
                lines += [
                    f"  %o{c}_{i} = arith.extui {lane} : i1 to i32",
                    f"  %l{c}_{i} = arith.constant {i} : index",
                    f"  %a{c}_{i} = arith.addi %at{c}, %l{c}_{i} : index",
                    f"  memref.store %o{c}_{i}, %out[%a{c}_{i}] : {memref}",
                ]
        elif result_type.startswith("vector"):
            lines.append(
                f"  vector.store {result}, %out[%at{c}] : {memref}, {result_type}"
            )
        else:
            lines.append(f"  memref.store {result}, %out[%at{c}] : {memref}")
    lines += ["  func.return", "}"]
    return "\n".join(line for line in lines if line)


@functools.cache
def kernel(name: str) -> mux.Kernel:
    return mux.compile(kernel_source(name)).kernel(name)


def _fold(op: str, kind: str, lanes: np.ndarray) -> np.ndarray:
    """The reduce (one element) or scan of one work-item's lanes."""
    result = group_model.fold(op, lanes, kind)
    return result[-1:] if kind == "reduce" else result


def model(name: str, x: np.ndarray, lanes: np.ndarray):
    """The expected slots: for each collective and work-item, the result (one
    element for a scalar result)."""
    _, count, _, _, collectives = TYPES[name]
    n = max(count, 1)
    expected = []
    for kind, op in collectives:
        per_item = []
        for g in range(WORK_ITEMS):
            mine = x[g * n : (g + 1) * n]
            if kind == "broadcast":
                per_item.append(mine[lanes[g] : lanes[g] + 1])
            elif kind in ("any", "all"):
                test = np.any if kind == "any" else np.all
                per_item.append(np.array([test(mine != 0)], dtype=x.dtype))
            else:
                per_item.append(_fold(op, kind, mine))
        expected.append(per_item)
    return expected


def _operands(name: str, rng: np.random.Generator) -> np.ndarray:
    element, count, _, dtype, _ = TYPES[name]
    size = WORK_ITEMS * max(count, 1)
    if element == "f32":
        signs = rng.choice([-1.0, 1.0], size)
        return (signs * rng.uniform(0.5, 2.0, size)).astype(dtype)
    if element == "i1":
        return (rng.random(size) < 0.7).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size, dtype=dtype, endpoint=True)


@pytest.mark.parametrize("name", list(TYPES))
def test_vec_group(name):
    _, count, _, dtype, collectives = TYPES[name]
    n = max(count, 1)
    rng = np.random.default_rng(len(name) + n)
    x = _operands(name, rng)
    lanes = rng.integers(0, n, WORK_ITEMS, dtype=np.int32)
    out = np.zeros(len(collectives) * WORK_ITEMS * n, dtype=dtype)
    kernel(name)(x, lanes, out, global_size=WORK_ITEMS, local_size=16)
    want = model(name, x, lanes)
    for c, (kind, op) in enumerate(collectives):
        for g in range(WORK_ITEMS):
            w = want[c][g]
            start = (c * WORK_ITEMS + g) * n
            got = out[start : start + w.size]
            if op in ("fadd", "fmul"):
                ok = np.abs(got - w) <= RTOL * np.maximum(1.0, np.abs(w))
            else:
                ok = got == w
            assert ok.all(), (
                f"{name} {kind} {op or ''}, work-item {g}: lanes "
                f"{x[g * n : (g + 1) * n]}, got {got}, want {w}"
            )
