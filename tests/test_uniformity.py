"""lowering/scheduling/uniformity.py: which values are the same for every work-item."""

from __future__ import annotations

import pytest
from xdsl.dialects import func

from lowering.common.scf_to_cf import lower_scf_to_cf
from lowering.scheduling.uniformity import analyse
from mux.compiler import parse


def _uniformity(text: str) -> dict[str, bool]:
    """Whether each named value (by its name in the source) of the kernel `@k` is
    uniform, after `scf` is lowered to `cf` as `work-item-loops` does."""
    module = parse(text)
    kernel = next(op for op in module.ops if isinstance(op, func.FuncOp))
    lower_scf_to_cf(kernel.body)
    result = analyse(kernel)
    names: dict[str, bool] = {}
    for block in kernel.body.blocks:
        values = [*block.args, *(r for op in block.ops for r in op.results)]
        for value in values:
            if value.name_hint is not None:
                names[value.name_hint] = result.is_uniform(value)
    return names


# The tree of examples/reduce.mlir: the stride loop's counter is uniform (its exit
# test is), the test of the work-item's id is not, and neither is what the divergent
# `if` computes.
REDUCE = """
func.func @k(%scratch: memref<?xf32, 3>, %n: index) {
  %d0 = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %lid = mux.get_local_id %d0
  %lsize = mux.get_local_size %d0
  %last = scf.while (%stride = %c1) : (index) -> index {
    %more = arith.cmpi ult, %stride, %lsize : index
    scf.condition(%more) %stride : index
  } do {
  ^bb0(%s: index):
    %step = arith.muli %s, %c2 : index
    %rem = arith.remui %lid, %step : index
    %head = arith.cmpi eq, %rem, %c0 : index
    scf.if %head {
      %mine = memref.load %scratch[%lid] : memref<?xf32, 3>
      %twice = arith.addf %mine, %mine : f32
      memref.store %twice, %scratch[%lid] : memref<?xf32, 3>
    }
    scf.yield %step : index
  }
  %after = arith.addi %last, %n : index
  func.return
}
"""


def test_the_reduction_tree():
    names = _uniformity(REDUCE)
    for uniform in ("lsize", "stride", "more", "s", "step", "after", "n"):
        assert names[uniform], uniform
    for divergent in ("lid", "rem", "head", "mine", "twice"):
        assert not names[divergent], divergent


# A loop whose exit depends on the work-item: its counter differs between
# work-items once some have left, and so does everything computed in it and the
# value it leaves with.
DIVERGENT_LOOP = """
func.func @k(%n: index) {
  %d0 = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %lid = mux.get_local_id %d0
  %last = scf.while (%i = %c0) : (index) -> index {
    %more = arith.cmpi ult, %i, %lid : index
    scf.condition(%more) %i : index
  } do {
  ^bb0(%j: index):
    %next = arith.addi %j, %c1 : index
    %inner = arith.muli %n, %c1 : index
    scf.yield %next : index
  }
  %after = arith.addi %last, %n : index
  func.return
}
"""


def test_a_loop_with_a_divergent_exit():
    names = _uniformity(DIVERGENT_LOOP)
    assert names["n"]
    for divergent in ("i", "more", "j", "next", "inner", "after"):
        assert not names[divergent], divergent


# The two ways out of a divergent `if` yield different uniform values: the value
# after it is divergent; a value computed after the join from uniform ones is not.
JOIN = """
func.func @k(%a: index, %b: index) {
  %d0 = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %lid = mux.get_local_id %d0
  %first = arith.cmpi eq, %lid, %c0 : index
  %chosen = scf.if %first -> (index) {
    scf.yield %a : index
  } else {
    scf.yield %b : index
  }
  %sum = arith.addi %a, %b : index
  %group = mux.get_group_id %d0
  %global = mux.get_global_id %d0
  func.return
}
"""


def test_a_join_after_a_divergent_branch():
    names = _uniformity(JOIN)
    assert not names["first"]
    assert not names["chosen"]
    assert names["sum"]
    assert names["group"]
    assert not names["global"]


@pytest.mark.parametrize("flag", ["%uniform", "%varying"])
def test_loads_are_divergent_and_uniform_branches_keep_uniformity(flag: str):
    text = f"""
func.func @k(%data: memref<?xindex, 1>, %uniform: i1) {{
  %d0 = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %lid = mux.get_local_id %d0
  %varying = arith.cmpi eq, %lid, %c0 : index
  %loaded = memref.load %data[%c0] : memref<?xindex, 1>
  %picked = scf.if {flag} -> (index) {{
    scf.yield %c0 : index
  }} else {{
    scf.yield %c1 : index
  }}
  func.return
}}
"""
    names = _uniformity(text)
    assert not names["loaded"]
    assert names["picked"] == (flag == "%uniform")


# Imported code branches with `llvm.br` / `llvm.cond_br`: a value a
# work-item carries through their block arguments is divergent as it is through
# `cf`'s (an accumulator stored once per group would be shared by every work-item:
# the OpenCL C twin of sgemm_tiled summed all work-items' products).
LLVM_BRANCHES = """
func.func @k(%n: i64) {
  %d0 = arith.constant 0 : i32
  %lid = mux.get_local_id %d0
  %id = arith.index_cast %lid : index to i64
  %zero = llvm.mlir.constant(0) : i64
  llvm.br ^loop(%zero, %id : i64, i64)
^loop(%i: i64, %acc: i64):
  %next = arith.addi %i, %n : i64
  %sum = arith.addi %acc, %i : i64
  %more = arith.cmpi ult, %next, %n : i64
  llvm.cond_br %more, ^loop(%next, %sum : i64, i64), ^exit(%sum, %n : i64, i64)
^exit(%total: i64, %bound: i64):
  func.return
}
"""


def test_llvm_level_branches_carry_divergence():
    names = _uniformity(LLVM_BRANCHES)
    assert not names["acc"] and not names["sum"] and not names["total"]
    assert names["i"] and names["next"] and names["bound"], "the counter is uniform"
