"""Work-group collectives end to end, against a numpy model.

One kernel per element type holds every collective of that type: each work-item
loads its operand `x[global linear id]`, and collective `c` stores its result at
`out[c * N + global linear id]` (N work-items). The model groups the work-items of
the NDRange into work-groups (the last one of a dimension smaller when the local
size does not divide the global size), orders each group's operands in local linear
order and computes every collective with numpy's operations: reduce is the last
element of the `accumulate`d operands, an inclusive scan the `accumulate`, an
exclusive one the identity followed by all but the last of it; broadcast reads the
work-item at local id (bx, by, bz) of the group; any/all are `np.any`/`np.all`.

Integer results must be equal (umin/umax on values with the top bit set, mul
wrapping around). Float add and mul are compared with a tolerance, so that an
implementation may fold in another order than the model's sequential one:
`|got - want| <= RTOL * max(1, |want|)` with RTOL 1e-4 for f32 and 1e-10 for f64
(groups have at most 1024 work-items: a sum of n terms in any order is within about
n * eps of the exact one, relative to the sum of the magnitudes; the operands of
operands are +-[0.99, 1.01)). fmin and fmax must be equal.

`impl` is the implementation of the collectives: "software" is `replace-wgc`
(`mux.compile(..., software_wgc=True)`), "native" is `work-item-loops` (the
default). Both fold in local linear order, so they agree bit for bit, floats
included (`test_both_implementations_agree`). Each kernel is compiled once per build
(`compile_for` caches the Program; a Program caches its builds) and reused by every
launch of the same local size.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest
from group_model import FLOAT_KINDS, INTEGER_KINDS, LOGICAL_KINDS, fold, groups
from kernels import one_case_per_slice, work_group_collective

import mux
from mux import compiler

IMPLS = ["software", "native"]


@functools.cache
def compile_for(source: str, impl: str) -> mux.Program:
    """The program of `source` with work-group collectives implemented by `impl`."""
    if impl in IMPLS:
        return mux.compile(source, software_wgc=impl == "software")
    raise ValueError(f"unknown implementation {impl!r}")


SCANS = ["reduce", "scan_inclusive", "scan_exclusive"]


class Element:
    """An element type under test: how the kernel gets operands of it from the
    input buffer and stores results back, and its collectives."""

    def __init__(
        self, name, mlir, buffer, dtype, load, store, collectives, attributes=""
    ):
        self.name, self.mlir, self.buffer, self.dtype = name, mlir, buffer, dtype
        self.load, self.store = load, store
        self.collectives = collectives
        self.attributes = attributes


def _reduce_scans(ops):
    return [(kind, op) for op in ops for kind in SCANS] + [("broadcast", None)]


ELEMENTS = {
    "i32": Element("i32", "i32", "i32", np.int32, "", "", _reduce_scans(INTEGER_KINDS)),
    "i64": Element("i64", "i64", "i64", np.int64, "", "", _reduce_scans(INTEGER_KINDS)),
    "index": Element(
        "index",
        "index",
        "i64",
        np.int64,
        "%v = arith.index_cast %raw : i64 to index",
        "%o{c} = arith.index_cast %r{c} : index to i64",
        _reduce_scans(INTEGER_KINDS),
    ),
    "f32": Element("f32", "f32", "f32", np.float32, "", "", _reduce_scans(FLOAT_KINDS)),
    "f64": Element("f64", "f64", "f64", np.float64, "", "", _reduce_scans(FLOAT_KINDS)),
    # i1 operands come from a comparison in the kernel; results are stored as i32
    "i1": Element(
        "i1",
        "i1",
        "i32",
        np.int32,
        "%zero = arith.constant 0 : i32\n  %v = arith.cmpi ne, %raw, %zero : i32",
        "%o{c} = arith.extui %r{c} : i1 to i32",
        [("any", None), ("all", None), *_reduce_scans(LOGICAL_KINDS)],
    ),
    # the work-items loop z innermost: scans still follow the local linear order
    "i32_zyx": Element(
        "i32_zyx",
        "i32",
        "i32",
        np.int32,
        "",
        "",
        [(kind, "add") for kind in SCANS] + [("broadcast", None)],
        ", mux.work_item_order = #mux<work_item_order zyx>",
    ),
}


def kernel_source(element: Element) -> str:
    prologue = [
        f"func.func @{element.name}(%x: memref<?x{element.buffer}, 1>, "
        f"%out: memref<?x{element.buffer}, 1>, %bx: index, %by: index, %bz: index) "
        f'attributes {{mux.kernel = "entry-point"{element.attributes}}} {{',
        "  %d0 = arith.constant 0 : i32",
        "  %d1 = arith.constant 1 : i32",
        "  %d2 = arith.constant 2 : i32",
        "  %gx = mux.get_global_size %d0",
        "  %gy = mux.get_global_size %d1",
        "  %gz = mux.get_global_size %d2",
        "  %gxy = arith.muli %gx, %gy : index",
        "  %n = arith.muli %gxy, %gz : index",
        "  %gl = mux.get_global_linear_id",
        f"  %raw = memref.load %x[%gl] : memref<?x{element.buffer}, 1>",
    ]
    if element.load:
        prologue.append(f"  {element.load}")
    operand = "%v" if element.load else "%raw"
    cases = []
    for c, (kind, op) in enumerate(element.collectives):
        operations = [
            f"%r{c} = {work_group_collective(kind, op, c, operand, element.mlir)}"
        ]
        if element.store:
            operations.append(element.store.format(c=c))
        cases.append((operations, f"%o{c}" if element.store else f"%r{c}"))
    return one_case_per_slice(
        "\n".join(prologue), cases, element=element.buffer, total="%n", gid="%gl"
    )


# --------------------------------------------------------------------------------------
# The numpy model.
# --------------------------------------------------------------------------------------


def model(element: Element, x: np.ndarray, global_size, local_size, source):
    """The expected `out` of `element`'s kernel."""
    n = x.size
    out = np.zeros(len(element.collectives) * n, dtype=element.dtype)
    for members, (sx, sy, _) in groups(global_size, local_size):
        values = x[members]
        for c, (kind, op) in enumerate(element.collectives):
            if kind == "broadcast":
                at = (source[2] * sy + source[1]) * sx + source[0]
                result = np.full_like(values, values[at])
            elif kind in ("any", "all"):
                test = np.any if kind == "any" else np.all
                result = np.full_like(values, test(values != 0))
            else:
                result = fold(op, values, kind)
            out[c * n + members] = result
    return out


# --------------------------------------------------------------------------------------
# Launches.
# --------------------------------------------------------------------------------------

RTOL = {"f32": 1e-4, "f64": 1e-10}

# (global size, local size): 1-D with a smaller last group, the largest work-group
# (uniform: the kernel is specialised for it), 2-D with a smaller last group in y,
# 3-D uniform and not. Each uniform local size is one more build of each kernel.
LAUNCHES = [
    ((100,), (16,)),
    ((2048,), (1024,)),
    ((12, 10), (4, 3)),
    ((4, 6, 4), (2, 3, 2)),
    ((5, 6, 3), (2, 4, 2)),
]


def _operands(element: Element, n: int, rng: np.random.Generator) -> np.ndarray:
    if element.dtype in (np.float32, np.float64):
        # magnitudes near 1 with random signs: products of a thousand stay finite
        signs = rng.choice([-1.0, 1.0], n)
        return (signs * rng.uniform(0.99, 1.01, n)).astype(element.dtype)
    if element.name == "i1":
        # mostly true, so that "all" is true in some small groups
        return (rng.random(n) < 0.9).astype(np.int32)
    info = np.iinfo(element.dtype)
    return rng.integers(info.min, info.max, n, dtype=element.dtype, endpoint=True)


def _check(element: Element, got, want, n: int) -> None:
    for c, (kind, op) in enumerate(element.collectives):
        g, w = got[c * n : (c + 1) * n], want[c * n : (c + 1) * n]
        what = f"{element.name} {kind} {op or ''}".strip()
        if op in ("fadd", "fmul"):
            tolerance = RTOL[element.name] * np.maximum(1.0, np.abs(w))
            bad = ~(np.abs(g - w) <= tolerance)
        else:
            bad = g != w
        assert not bad.any(), (
            f"{what}: {bad.sum()} of {n} wrong, first at {np.argmax(bad)}: "
            f"got {g[bad][:4]}, want {w[bad][:4]}"
        )


def run(element: Element, impl: str, global_size, local_size, threads):
    n = math.prod(global_size)
    rng = np.random.default_rng(n + sum(local_size))
    x = _operands(element, n, rng)
    # broadcast from a local id that every group has, its last work-group's included
    last = [
        g - (math.ceil(g / s) - 1) * s
        for g, s in zip(global_size, local_size, strict=True)
    ]
    source = tuple(int(rng.integers(0, size)) for size in last)
    source += (0,) * (3 - len(source))
    out = np.zeros(len(element.collectives) * n, dtype=element.dtype)
    kernel = compile_for(kernel_source(element), impl).kernel(element.name)
    kernel(
        x,
        out,
        *source,
        global_size=global_size,
        local_size=local_size,
        threads=threads,
    )
    return x, out, model(element, x, global_size, local_size, source)


@pytest.mark.parametrize("threads", [1, None])
@pytest.mark.parametrize(("global_size", "local_size"), LAUNCHES)
@pytest.mark.parametrize("element", list(ELEMENTS))
@pytest.mark.parametrize("impl", IMPLS)
def test_collectives(impl, element, global_size, local_size, threads):
    e = ELEMENTS[element]
    x, out, want = run(e, impl, global_size, local_size, threads)
    _check(e, out, want, x.size)


@pytest.mark.parametrize("element", ["f32", "f64", "i64"])
def test_both_implementations_agree(element):
    """The same launch, native and software: equal results, bit for bit."""
    e = ELEMENTS[element]
    runs = [run(e, impl, (100,), (16,), None)[1] for impl in IMPLS]
    np.testing.assert_array_equal(runs[0].view(np.uint8), runs[1].view(np.uint8))


SMALL = """
func.func @small(%x: memref<?xi32, 1>) attributes {mux.kernel = "entry-point"} {
  %g = mux.get_global_linear_id
  %v = memref.load %x[%g] : memref<?xi32, 1>
  %r = mux.work_group_reduce add id(0) %v : i32
  memref.store %r, %x[%g] : memref<?xi32, 1>
  func.return
}
"""


def test_software_wgc_is_part_of_the_cache_keys(monkeypatch):
    """The same source with and without software_wgc gives two different builds
    (replace-wgc's accumulator against work-item-loops' exchange), both right; the
    in-memory cache and, that cache emptied, the disk cache give each its own."""
    builds = {}
    for software in (True, False):
        x = np.arange(8, dtype=np.int32)
        kernel = mux.compile(SMALL, software_wgc=software).kernel("small")
        kernel(x, global_size=8)
        assert (x == 28).all()
        builds[software] = _code(kernel.compiled((8,)).llvm_ir)
    assert builds[True] != builds[False]
    monkeypatch.setattr(compiler, "_CACHE", {})
    for software in (True, False):
        kernel = mux.compile(SMALL, software_wgc=software).kernel("small")
        assert _code(kernel.compiled((8,)).llvm_ir) == builds[software]


def _code(llvm_ir: str) -> list[str]:
    """The instructions of LLVM IR text, without its comments (LLVM prints a
    block's predecessors in an order that depends on how the module was made)."""
    return [line.split(";")[0].rstrip() for line in llvm_ir.splitlines()]
