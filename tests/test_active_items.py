"""lowering/scheduling/bounds.py: the work-items a barrier region runs.

A region whose side effects are guarded by a condition on the local id runs only the
range of work-items its bound function computes (and the group's last work-item).
The kernels here mark in `out` which work-items took the guarded path, and the marks
are compared with the condition evaluated in Python, modulo 2^64 as the kernel
computes it, for values that keep the range exact and values that make the bound
function give up (`a * x + b` may wrap, a negative `u` in a signed comparison).
"""

import ctypes

import numpy as np
import pytest
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

import mux
from lowering.common.builders import constant_int
from lowering.pipelines import HostPipeline
from lowering.scheduling.bounds import BELOW, below_function
from lowering.scheduling.wrapper import BOUND_SUFFIX
from lowering.to_llvm import ConvertToLLVMPass
from mux.backend.jit import compile_ir
from mux.backend.llvm_ir import translate
from mux.compiler import context, parse

MASK = 2**64 - 1

# The guard of the second region, `%c`, from `%v = a * lid_x + b`: one line per
# predicate (`u > v` is the mirrored form of `v < u`).
CONDITIONS = {
    "ult": "arith.cmpi ult, %v, %u : i64",
    "ule": "arith.cmpi ule, %v, %u : i64",
    "slt": "arith.cmpi slt, %v, %u : i64",
    "sle": "arith.cmpi sle, %v, %u : i64",
    "ugt_mirrored": "arith.cmpi ugt, %u, %v : i64",
    "eq": "arith.cmpi eq, %v, %u : i64",
}

MARKED = """
  %x_dim = arith.constant 0 : i32
  %gid = mux.get_global_linear_id
  %zero = arith.constant 0 : i32
  memref.store %zero, %out[%gid] : memref<?xi32, 1>
  mux.work_group_barrier id(0) scope(work_group)
      semantics(acq_rel | cross_work_group_memory)
  %lid = mux.get_local_id %x_dim
  %x = arith.index_cast %lid : index to i64
"""
"""The start of the kernels that mark the work-items that take a guarded path in
`%out`: every mark 0, then a barrier region on `%x`, the local id as an i64."""

KERNEL = (
    """
func.func @guarded(%out: memref<?xi32, 1>, %a: i64, %b: i64, %u: i64, %flag: i1)
    attributes {{mux.kernel = "entry-point"}} {{"""
    + MARKED
    + """  %ax = arith.muli %a, %x : i64
  %v = arith.addi %ax, %b : i64
  %c0 = {condition}
  %c = arith.andi %c0, %flag : i1
  scf.if %c {{
    %mark = arith.constant 1 : i32
    memref.store %mark, %out[%gid] : memref<?xi32, 1>
  }}
  func.return
}}
"""
)


def signed(value: int) -> int:
    return value - 2**64 if value >= 2**63 else value


def expected_marks(predicate: str, a: int, b: int, u: int, flag: bool, x: np.ndarray):
    """Whether each local id `x` takes the guarded path."""
    marks = []
    for xi in x.tolist():
        v = (a * xi + b) & MASK
        taken = {
            "ult": v < u,
            "ule": v <= u,
            "slt": signed(v) < signed(u),
            "sle": signed(v) <= signed(u),
            "ugt_mirrored": u > v,
            "eq": v == u,
        }[predicate]
        marks.append(int(taken and flag))
    return np.array(marks, np.int32)


@pytest.fixture(scope="module", params=list(CONDITIONS))
def guarded(request):
    source = KERNEL.format(condition=CONDITIONS[request.param])
    return request.param, mux.compile(source).kernel("guarded")


# (a, b, u) as unsigned 64-bit values; negative numbers are written as 2^64 - n.
VALUES = [
    (1, 0, 5),  # x < 5
    (2, 3, 40),  # 2x + 3 < 40
    (3, 1, 2**64 - 1),  # u is -1: every x unsigned, none signed
    (1, 2**64 - 2, 3),  # x - 2 wraps below 2 (< 3 unsigned only for x in 2..4)
    (0, 7, 9),  # a = 0: the condition is the same for all (no bound)
    (2**40, 0, 2**41),  # a too large for the bound function: every work-item
    (1, 2**63, 2**63 + 4),  # b too large: every work-item
    (2**62, 0, 2**63),  # a * x wraps at x = 4: every work-item
    (5, 0, 0),  # u = 0: none below, x = 0 equal
    (1, 0, 1000),  # every x
]


@pytest.mark.parametrize("flag", [True, False], ids=["flag", "no-flag"])
@pytest.mark.parametrize(("a", "b", "u"), VALUES)
@pytest.mark.parametrize(
    ("global_size", "local_size"),
    [(37, 37), (64, 16), (50, 16), (7, 1), ((12, 6), (6, 3)), ((8, 4, 3), (4, 2, 3))],
)
def test_marks_match_the_condition(guarded, a, b, u, flag, global_size, local_size):
    predicate, kernel = guarded
    gs = (global_size,) if isinstance(global_size, int) else global_size
    ls = (local_size,) if isinstance(local_size, int) else local_size
    out = np.full(int(np.prod(gs)), -1, np.int32)
    kernel(
        out,
        np.int64(signed(a)),
        np.int64(signed(b)),
        np.int64(signed(u)),
        flag,
        global_size=global_size,
        local_size=local_size,
    )
    # global linear id -> local id x (the groups may be smaller at the end)
    ids = np.indices(gs[::-1]).reshape(len(gs), -1)[::-1]
    x = ids[0] % ls[0]
    np.testing.assert_array_equal(out, expected_marks(predicate, a, b, u, flag, x))


CHAIN = (
    """
func.func @chain(%out: memref<?xi32, 1>, %b: i64, %u: i64)
    attributes {mux.kernel = "entry-point"} {"""
    + MARKED
    + """  %three = arith.constant 3 : i64
  %r = arith.remui %x, %three : i64
  %c0 = arith.constant 0 : i64
  %first = arith.cmpi eq, %r, %c0 : i64
  scf.if %first {
    %s = arith.constant 1 : i64
    %twice = arith.shli %x, %s : i64
    %v = arith.addi %twice, %b : i64
    %second = arith.cmpi ult, %v, %u : i64
    scf.if %second {
      %mark = arith.constant 1 : i32
      memref.store %mark, %out[%gid] : memref<?xi32, 1>
    }
  }
  func.return
}
"""
)
"""An `&&` chain as clang gives it (nested ifs), the second condition on `2x + b`
spelt as a shift: its bound is the second condition's."""


@pytest.mark.parametrize(("b", "u"), [(0, 9), (5, 30), (2**64 - 4, 6), (0, 0)])
@pytest.mark.parametrize(("global_size", "local_size"), [(37, 37), (50, 16), (7, 1)])
def test_marks_of_an_and_chain_match_its_conditions(b, u, global_size, local_size):
    assert bound_functions(CHAIN, kernel="chain") == [
        "chain.mux-barrier-bound.1",
        BELOW + "ult",
    ]
    out = np.full(global_size, -1, np.int32)
    mux.compile(CHAIN).kernel("chain")(
        out,
        np.int64(signed(b)),
        np.int64(signed(u)),
        global_size=global_size,
        local_size=local_size,
    )
    x = (np.arange(global_size) % local_size).tolist()
    expected = [int(xi % 3 == 0 and (2 * xi + b) & MASK < u) for xi in x]
    np.testing.assert_array_equal(out, np.array(expected, np.int32))


def bound_functions(
    source: str, local_sizes: tuple[int, ...] = (), kernel: str = "k"
) -> list[str]:
    """The names of the bound functions and helpers work-item-loops adds."""
    module = parse(source)
    ctx = context()
    pipeline = HostPipeline(kernel=kernel, local_sizes=local_sizes, to_llvm=False)
    for p in pipeline.passes():
        p.apply(ctx, module)
        if p.name == "work-item-loops":
            break
    return [
        f.sym_name.data
        for f in module.ops
        if BOUND_SUFFIX in f.sym_name.data or f.sym_name.data.startswith(BELOW)
    ]


TEMPLATE = """
func.func @k(%out: memref<?xi32, 1>, %n: index)
    attributes {{mux.kernel = "entry-point"}} {{
  %x_dim = arith.constant 0 : i32
  %y_dim = arith.constant 1 : i32
  %gid = mux.get_global_linear_id
  %group = mux.get_group_id %x_dim
  %one = arith.constant 1 : i32
  memref.store %one, %out[%gid] : memref<?xi32, 1>
  mux.work_group_barrier id(0) scope(work_group)
      semantics(acq_rel | cross_work_group_memory)
  %lid = mux.get_local_id %x_dim
  %lid_y = mux.get_local_id %y_dim
  {body}
  func.return
}}
"""


NOT_AFFINE = """
  %r = arith.remui %lid, %n : index
  %c0 = arith.constant 0 : index
  %c = arith.cmpi eq, %r, %c0 : index"""
"""The first condition of an `&&` chain: `lid % n == 0`, not affine."""


def test_the_guard_of_a_tree_step_gets_a_bound_and_a_helper():
    body = """
  %c = arith.cmpi ult, %lid, %n : index
  scf.if %c { memref.store %one, %out[%gid] : memref<?xi32, 1> }
"""
    names = bound_functions(TEMPLATE.format(body=body))
    assert names == ["k.mux-barrier-bound.1", BELOW + "ult"]


@pytest.mark.parametrize(
    "body",
    [
        # the other way stores: work-items outside the range have work of their own
        """
  %c = arith.cmpi ult, %lid, %n : index
  scf.if %c { memref.store %one, %out[%gid] : memref<?xi32, 1> }
  else { memref.store %one, %out[%group] : memref<?xi32, 1> }
""",
        # a condition on the local id of dimension 1, which is not looped innermost
        """
  %c = arith.cmpi ult, %lid_y, %n : index
  scf.if %c { memref.store %one, %out[%gid] : memref<?xi32, 1> }
""",
        # not affine in the local id
        """
  %sq = arith.muli %lid, %lid : index
  %c = arith.cmpi ult, %sq, %n : index
  scf.if %c { memref.store %one, %out[%gid] : memref<?xi32, 1> }
""",
        # a guard in a loop: the loop's header is reached from the guarded blocks
        """
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %c = arith.cmpi ult, %lid, %i : index
    scf.if %c { memref.store %one, %out[%gid] : memref<?xi32, 1> }
  }
""",
        # an && chain whose second bound is computed in its own block
        NOT_AFFINE
        + """
  scf.if %c {
    %m = arith.muli %n, %n : index
    %d = arith.cmpi ult, %lid, %m : index
    scf.if %d { memref.store %one, %out[%gid] : memref<?xi32, 1> }
  }
""",
        # an && chain whose inner way out stores
        NOT_AFFINE
        + """
  scf.if %c {
    %d = arith.cmpi ult, %lid, %n : index
    scf.if %d { memref.store %one, %out[%gid] : memref<?xi32, 1> }
    else { memref.store %one, %out[%group] : memref<?xi32, 1> }
  }
""",
    ],
    ids=[
        "inert-side-stores",
        "dimension-1",
        "not-affine",
        "in-a-loop",
        "chain-term-inside",
        "chain-inner-stores",
    ],
)
def test_no_bound_without_a_guard_it_understands(body):
    assert bound_functions(TEMPLATE.format(body=body)) == []


UNIFORM_REGION = """
func.func @k(%out: memref<?xi32, 1>, %groups: memref<?xi32, 1>)
    attributes {mux.kernel = "entry-point"} {
  %x_dim = arith.constant 0 : i32
  %gid = mux.get_global_id %x_dim
  %one = arith.constant 1 : i32
  memref.store %one, %out[%gid] : memref<?xi32, 1>
  mux.work_group_barrier id(0) scope(work_group)
      semantics(acq_rel | cross_work_group_memory)
  %group = mux.get_group_id %x_dim
  %group_i32 = arith.index_cast %group : index to i32
  memref.store %group_i32, %groups[%group] : memref<?xi32, 1>
  func.return
}
"""


def test_a_region_every_work_item_runs_alike_runs_once():
    """A region of uniform work only: `[0, 0)`, the last work-item alone."""
    names = bound_functions(UNIFORM_REGION)
    assert names == ["k.mux-barrier-bound.1"]
    module = parse(UNIFORM_REGION)
    ctx = context()
    for p in HostPipeline(kernel="k", to_llvm=False).passes():
        p.apply(ctx, module)
        if p.name == "work-item-loops":
            break
    bound = next(f for f in module.ops if f.sym_name.data == names[0])
    (returned,) = [op for op in bound.walk() if isinstance(op, func.ReturnOp)]
    assert [constant_int(v) for v in returned.operands] == [0, 0]
    out = np.zeros(40, np.int32)
    groups = np.full(5, -1, np.int32)
    mux.compile(UNIFORM_REGION).kernel("k")(out, groups, global_size=40, local_size=8)
    np.testing.assert_array_equal(out, np.ones(40, np.int32))
    np.testing.assert_array_equal(groups, np.arange(5, dtype=np.int32))


def test_no_bound_in_a_vectorised_kernel_with_barriers():
    """Packets of work-items run together: the region functions take packets."""
    body = """
  %c = arith.cmpi ult, %lid, %n : index
  scf.if %c { memref.store %one, %out[%gid] : memref<?xi32, 1> }
"""
    module = parse(TEMPLATE.format(body=body))
    ctx = context()
    pipeline = HostPipeline(kernel="k", local_sizes=(16,), vecz_width=8, to_llvm=False)
    for p in pipeline.passes():
        p.apply(ctx, module)
        if p.name == "work-item-loops":
            break
    names = [f.sym_name.data for f in module.ops]
    assert any("__vecz" in n for n in names), names
    assert not any(BOUND_SUFFIX in n for n in names), names


def test_the_helper_is_shared_by_the_guards_of_a_module():
    body = """
  %c = arith.cmpi ult, %lid, %n : index
  scf.if %c { memref.store %one, %out[%gid] : memref<?xi32, 1> }
  mux.work_group_barrier id(1) scope(work_group)
      semantics(acq_rel | cross_work_group_memory)
  %d = arith.cmpi ult, %lid, %n : index
  scf.if %d { memref.store %one, %out[%gid] : memref<?xi32, 1> }
"""
    names = bound_functions(TEMPLATE.format(body=body))
    assert names.count(BELOW + "ult") == 1
    assert sorted(n for n in names if BOUND_SUFFIX in n) == [
        "k.mux-barrier-bound.1",
        "k.mux-barrier-bound.2",
    ]


def helper(predicate: str):
    """`@mux-active-below.<predicate>` compiled on its own, as a ctypes function."""
    module = ModuleOp([])
    name = below_function(module, predicate)
    (function,) = module.ops
    function.sym_visibility = None  # callable from outside
    ConvertToLLVMPass().apply(context(), module)
    compiled = compile_ir(translate(module))
    signature = ctypes.CFUNCTYPE(ctypes.c_uint64, *[ctypes.c_uint64] * 4)
    return signature(compiled.address(name))


@pytest.mark.parametrize("predicate", ["ult", "ule", "slt", "sle"])
def test_the_helper_counts_exactly_when_nothing_wraps(predicate):
    """In range (`1 <= a < 2^30`, `b < 2^62`, `size <= 2^32`) the helper returns the
    number of `x` in `[0, size)` with `a * x + b <predicate> u` (they are a prefix);
    out of range, `size`."""
    below = helper(predicate)
    compare = {
        "ult": lambda v, u: v < u,
        "ule": lambda v, u: v <= u,
        "slt": lambda v, u: signed(v) < signed(u),
        "sle": lambda v, u: signed(v) <= signed(u),
    }[predicate]
    rng = np.random.default_rng(5)
    cases = [
        (1, 0, 0, 1),
        (1, 0, 1, 1),
        (3, 5, 5, 10),
        (3, 5, 6, 10),
        (3, 5, 2**64 - 1, 10),  # u = -1
        (2**30 - 1, 2**62 - 1, 2**63 - 1, 2**32),
        (0, 0, 4, 10),  # a = 0: out of range
        (2**30, 0, 4, 10),
        (1, 2**62, 2**62 + 3, 10),
        (1, 0, 3, 2**32 + 1),
    ]
    for _ in range(200):
        a = int(rng.integers(1, 40))
        b = int(rng.integers(0, 100))
        size = int(rng.integers(1, 300))
        u = int(rng.integers(0, 2**64 - 1, dtype=np.uint64))
        u = u if rng.random() < 0.2 else int(rng.integers(0, a * size + b + 10))
        cases.append((a, b, u, size))
    for a, b, u, size in cases:
        if 1 <= a < 2**30 and b < 2**62 and size <= 2**32:

            def holds(x, a=a, b=b, u=u):
                return compare((a * x + b) & MASK, u)

            if size <= 1000:  # they are a prefix
                taken = [holds(x) for x in range(size)]
                count = sum(taken)
                assert taken == [True] * count + [False] * (size - count)
            else:  # the first x for which it does not hold, by bisection
                low, high = 0, size
                while low < high:
                    middle = (low + high) // 2
                    low, high = (middle + 1, high) if holds(middle) else (low, middle)
                count = low
        else:
            count = size
        assert below(a, b, u, size) == count, (a, b, u, size)
