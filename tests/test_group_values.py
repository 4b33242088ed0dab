"""`lowering/common/group_values.py`: a kernel's integer arithmetic computed
over every work-item of a work-group of known size, exactly as LLVM computes
it, and None for what it cannot know."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from xdsl.dialects import func, scf

from dialects import attributes as mux_attrs
from lowering.common.group_values import GroupValues
from mux.compiler import parse_cached

HEAD = """
func.func @k(%n: index) attributes {{mux.kernel = "entry-point",
    mux.reqd_work_group_size = array<i32: 4, 2, 1>}} {{
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 1 : i32
  %d5 = arith.constant 5 : i32
  %x = mux.get_local_id %d0
  %y = mux.get_local_id %d1
  %z = mux.get_local_id %d5
  %sx = mux.get_local_size %d0
  %linear = mux.get_local_linear_id
  %gid = mux.get_global_id %d0
{body}
  func.call @use(%r) : (index) -> ()
  func.return
}}
func.func private @use(index)
"""


def kernel(body: str) -> func.FuncOp:
    module = parse_cached(HEAD.format(body=body), "<k>")
    return next(op for op in module.ops if isinstance(op, func.FuncOp))


def value(body: str) -> np.ndarray | None:
    """`%r` of `body` in the work-items of a 4 x 2 group."""
    fn = kernel(body)
    group = GroupValues.of(fn)
    assert group is not None
    use = next(op for op in fn.walk() if isinstance(op, func.CallOp))
    return group.values(use.operands[0], {})


def test_the_work_item_queries():
    found = value("  %r = arith.addi %x, %linear : index")
    np.testing.assert_array_equal(found, [0, 2, 4, 6, 4, 6, 8, 10])
    found = value("  %t = arith.muli %y, %sx : index\n  %r = arith.addi %t, %z : index")
    np.testing.assert_array_equal(found, [0, 0, 0, 0, 4, 4, 4, 4])


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        # unsigned: -1 is the largest index
        (
            "%m = arith.constant -1 : index\n  %r = arith.divui %m, %sx : index",
            (2**64 - 1) // 4,
        ),
        ("%m = arith.constant -7 : index\n  %r = arith.divsi %m, %sx : index", -1),
        ("%m = arith.constant -7 : index\n  %r = arith.remsi %m, %sx : index", -3),
        # i32 wraps at 32 bits, and index_cast sign-extends it
        (
            "%a = arith.constant 2147483647 : i32\n  %o = arith.constant 1 : i32\n"
            "  %b = arith.addi %a, %o : i32\n  %r = arith.index_cast %b : i32 to index",
            -(2**31),
        ),
        (
            "%t = arith.constant true\n  %e = arith.extsi %t : i1 to i32\n"
            "  %r = arith.index_cast %e : i32 to index",
            -1,
        ),
        (
            "%t = arith.constant true\n  %e = arith.extui %t : i1 to i32\n"
            "  %r = arith.index_cast %e : i32 to index",
            1,
        ),
        (
            "%m = arith.constant -1 : index\n  %c = arith.cmpi ult, %sx, %m : index\n"
            "  %one = arith.constant 1 : index\n  %zero = arith.constant 0 : index\n"
            "  %r = arith.select %c, %one, %zero : index",
            1,
        ),
        ("%s = arith.constant 3 : index\n  %r = arith.shli %sx, %s : index", 32),
        # the lowest index divided by 2 and 3: towards zero, exactly
        (
            f"%m = arith.constant {-(2**63)} : index\n"
            "  %t = arith.constant 2 : index\n  %r = arith.divsi %m, %t : index",
            -(2**62),
        ),
        (
            f"%m = arith.constant {-(2**63)} : index\n"
            "  %t = arith.constant 3 : index\n  %r = arith.divsi %m, %t : index",
            -(2**63 // 3),
        ),
        (
            f"%m = arith.constant {-(2**63)} : index\n"
            "  %t = arith.constant 3 : index\n  %r = arith.remsi %m, %t : index",
            -2,
        ),
        # an i1's true is -1 signed: below false, not above it
        (
            "%a = arith.constant true\n  %b = arith.constant false\n"
            "  %c = arith.cmpi slt, %a, %b : i1\n"
            "  %r = arith.index_cast %c : i1 to index",
            -1,
        ),
        (
            "%a = arith.constant true\n  %b = arith.constant false\n"
            "  %c = arith.maxsi %a, %b : i1\n  %e = arith.extui %c : i1 to i64\n"
            "  %r = arith.index_cast %e : i64 to index",
            0,
        ),
        # an i64 constant written unsigned
        (
            f"%a = arith.constant {2**64 - 1} : i64\n"
            "  %r = arith.index_cast %a : i64 to index",
            -1,
        ),
        # wraps, without numpy's overflow warning (an error in this test)
        (
            "%m = arith.constant 9223372036854775807 : index\n"
            "  %r = arith.muli %m, %sx : index",
            -4,
        ),
    ],
)
def test_arithmetic_as_llvm_does_it(body: str, expected: int):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        found = value("  " + body)
    assert found is not None
    assert int(found) == expected


@pytest.mark.parametrize(
    "body",
    [
        "  %r = arith.addi %n, %x : index",  # a kernel argument
        "  %r = arith.addi %gid, %x : index",  # the group is not known
        "  %r = arith.divui %sx, %x : index",  # work-item 0 divides by zero
        "  %s = arith.constant 64 : index\n  %r = arith.shli %sx, %s : index",
        # the lowest i32 by -1 overflows (poison)
        "  %a = arith.constant -2147483648 : i32\n  %b = arith.constant -1 : i32\n"
        "  %c = arith.divsi %a, %b : i32\n  %r = arith.index_cast %c : i32 to index",
    ],
)
def test_what_it_cannot_know(body: str):
    assert value(body) is None


WHILE = """
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.while (%v = %c1) : (index) -> index {{
    %more = arith.cmpi ult, %v, {bound} : index
    scf.condition(%more) %v : index
  }} do {{
  ^bb0(%w: index):
    %next = arith.muli %w, %c3 : index
    scf.yield %next : index
  }}
"""


def test_a_loop_run_at_compile_time():
    found = value("  %c100 = arith.constant 100 : index" + WHILE.format(bound="%c100"))
    assert found is not None and int(found) == 243
    fn = kernel("  %c100 = arith.constant 100 : index" + WHILE.format(bound="%c100"))
    group = GroupValues.of(fn)
    assert group is not None
    loop = next(op for op in fn.walk() if isinstance(op, scf.WhileOp))
    trace = group.loop_trace(loop)
    assert trace is not None
    assert trace.entries == {
        0: [(1,), (3,), (9,), (27,), (81,), (243,)],
        1: [(1,), (3,), (9,), (27,), (81,)],
    }


@pytest.mark.parametrize("bound", ["%n", "%x"])
def test_a_loop_whose_trip_is_not_known(bound: str):
    # a kernel argument; a bound each work-item has its own of
    assert value(WHILE.format(bound=bound)) is None


def test_a_loop_that_does_not_end_is_not_run_for_ever():
    body = WHILE.format(bound="%c3").replace("arith.muli %w, %c3", "arith.muli %w, %c1")
    assert value(body) is None


def test_a_packet_has_no_values_per_work_item():
    # run-vecz's copy runs once per packet of lanes: its local id is not one
    # work-item's
    fn = kernel("  %r = arith.addi %x, %x : index").clone()
    mux_attrs.VECZ_DERIVED.set(fn, (8, "k"))
    assert GroupValues.of(fn) is None


@pytest.mark.parametrize(
    ("condition", "expected"),
    [
        ("%uniform", [7] * 8),  # every work-item takes the `then` branch
        ("%odd", [0, 7, 0, 7, 0, 7, 0, 7]),  # each work-item its own
    ],
)
def test_an_if_gives_each_work_item_its_branch(condition: str, expected: list[int]):
    body = f"""
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %uniform = arith.cmpi ugt, %sx, %c1 : index
  %parity = arith.andi %x, %c1 : index
  %odd = arith.cmpi eq, %parity, %c1 : index
  %r = scf.if {condition} -> (index) {{
    scf.yield %c7 : index
  }} else {{
    scf.yield %c0 : index
  }}
"""
    found = value(body)
    assert found is not None
    np.testing.assert_array_equal(np.broadcast_to(found, (8,)), expected)


def test_a_spent_budget_leaves_every_further_value_unknown():
    fn = kernel("  %t = arith.addi %x, %y : index\n  %r = arith.muli %t, %sx : index")
    use = next(op for op in fn.walk() if isinstance(op, func.CallOp))
    group = GroupValues.of(fn)
    assert group is not None
    group.steps = 3  # %r needs 6 values: %t, %x, %y, their dims, %sx
    assert group.values(use.operands[0], {}) is None
    assert group.steps == 0
    assert not group.spend(1)
    group.steps = 100
    assert group.values(use.operands[0], {}) is not None
    assert 90 < group.steps < 100


def test_a_work_group_larger_than_the_device_allows_is_not_modelled():
    # a required size no launch can run (the runtime refuses it) would need an
    # array of 12 * 2**31 ids
    source = HEAD.replace("array<i32: 4, 2, 1>", "array<i32: 12, 1, 2147483647>")
    module = parse_cached(source.format(body="  %r = arith.addi %x, %y : index"), "<k>")
    fn = next(op for op in module.ops if isinstance(op, func.FuncOp))
    assert GroupValues.of(fn) is None
