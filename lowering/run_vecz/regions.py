"""Reading the regions of `scf` ops: their terminator, what they yield, whether they
do anything."""

from __future__ import annotations

from xdsl.ir import Operation, Region, SSAValue


def terminator(region: Region) -> Operation:
    """The last op of `region`'s block (its `scf.yield` or `scf.condition`)."""
    last = region.block.last_op
    assert last is not None
    return last


def yielded_values(region: Region) -> list[SSAValue]:
    """What `region` yields (nothing for a region without a block)."""
    return list(terminator(region).operands) if region.blocks else []


def has_ops(region: Region) -> bool:
    """Whether `region` has ops other than its terminator."""
    return bool(region.blocks) and region.block.first_op is not region.block.last_op
