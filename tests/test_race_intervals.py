"""lowering/check_local_races/intervals.py: which ops of a kernel may run in one
barrier interval. The kernels mark their ops of interest with a `memref.load`
of `%buf[%cN]` (N names the op); two marks share an interval class exactly
when code without a barrier of the group joins them."""

from __future__ import annotations

from xdsl.dialects import func, memref
from xdsl.dialects.builtin import IntegerAttr

from lowering.check_local_races.intervals import interval_classes
from mux.compiler import parse

HEAD = """
func.func @k(%buf: memref<?xf32, 3>, %flag: i1, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
"""
BARRIER = (
    "mux.work_group_barrier id({}) scope(work_group) "
    "semantics(acq_rel | work_group_memory)\n"
)


def mark(n: int) -> str:
    return f"  %m{n} = memref.load %buf[%c{n}] : memref<?xf32, 3>\n"


def classes(body: str) -> dict[int, int] | None:
    """The interval class of each mark of `body`, None if not modelled."""
    module = parse(HEAD + body + "  func.return\n}\n")
    fn = next(op for op in module.ops if isinstance(op, func.FuncOp))
    intervals = interval_classes(fn.body)
    if intervals is None:
        return None
    marks = {}
    for op in fn.walk():
        if isinstance(op, memref.LoadOp):
            index = op.indices[0].owner.properties["value"]
            assert isinstance(index, IntegerAttr)
            marks[index.value.data] = intervals.class_of(op)
    return marks


def test_a_barrier_separates_what_is_before_it_from_what_is_after_it():
    found = classes(mark(0) + BARRIER.format(0) + mark(1))
    assert found is not None and found[0] != found[1]


def test_a_barrier_in_one_branch_leaves_the_other_way_round_it():
    body = mark(0) + "  scf.if %flag {\n" + BARRIER.format(0) + "  }\n" + mark(1)
    found = classes(body)
    assert found is not None and found[0] == found[1]


def test_barriers_in_both_branches_separate():
    body = (
        mark(0)
        + "  scf.if %flag {\n"
        + BARRIER.format(0)
        + mark(2)
        + "  } else {\n"
        + BARRIER.format(1)
        + "  }\n"
        + mark(1)
    )
    found = classes(body)
    assert found is not None
    assert found[0] != found[1]
    assert found[2] == found[1]  # after the then-branch's barrier, to the join


def test_a_loop_joins_the_code_after_its_barrier_to_the_code_before_it():
    # the back edge: iteration i's code after the barrier and iteration i+1's
    # code before it run in one interval; so do the code before the loop and
    # the first iteration's code before its barrier, and the loop's exit
    body = (
        mark(0)
        + "  scf.for %i = %c0 to %n step %c1 {\n"
        + mark(1)
        + BARRIER.format(0)
        + mark(2)
        + "  }\n"
        + mark(3)
    )
    found = classes(body)
    assert found is not None
    assert len(set(found.values())) == 1


def test_a_loop_with_two_barriers_has_an_interval_of_its_own():
    body = (
        mark(0)
        + "  scf.for %i = %c0 to %n step %c1 {\n"
        + BARRIER.format(0)
        + mark(1)
        + BARRIER.format(1)
        + "  }\n"
        + mark(2)
    )
    found = classes(body)
    assert found is not None
    assert found[1] != found[0] and found[0] == found[2]


def test_a_while_loop_joins_its_condition_body_and_exit():
    body = (
        mark(0)
        + "  %r = scf.while (%d = %c0) : (index) -> index {\n"
        + mark(1)
        + "    %more = arith.cmpi ult, %d, %n : index\n"
        + "    scf.condition(%more) %d : index\n"
        + "  } do {\n"
        + "  ^bb0(%d: index):\n"
        + BARRIER.format(0)
        + mark(2)
        + "    scf.yield %d : index\n"
        + "  }\n"
        + mark(3)
    )
    found = classes(body)
    assert found is not None
    assert found[0] == found[1] == found[3]  # the condition, and the exit
    assert found[2] == found[1]  # the body's end loops back to the condition


def test_branches_between_blocks_join():
    body = (
        mark(0)
        + "  cf.cond_br %flag, ^a, ^b\n"
        + "^a:\n"
        + BARRIER.format(0)
        + mark(1)
        + "  cf.br ^b\n"
        + "^b:\n"
        + mark(2)
    )
    found = classes(body)
    assert found is not None
    assert found[0] == found[2]  # ^b straight from the entry
    assert found[1] == found[2]  # and after ^a's barrier


def test_a_barrier_inside_another_op_is_not_modelled():
    inner = "  scf.execute_region {\n" + BARRIER.format(0) + "    scf.yield\n  }\n"
    assert classes(mark(0) + inner + mark(1)) is None
