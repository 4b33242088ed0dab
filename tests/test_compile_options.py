"""The compile options (`lowering/common/compile_options.py`): one frozen record,
checked by one rule each, with the same message from `mux.compile`, `mux-opt`'s
`host` pipeline and `work-item-loops`; equal options are one key of the caches,
different options different keys; and the host pipeline's choice of LLVM's
optimisation level (`HostPipeline.lower`: O3 with barriers, O2 without)."""

import dataclasses
import re
from pathlib import Path

import pytest
from xdsl.dialects.builtin import ModuleOp

import mux
from lowering.common.compile_options import (
    CompileOptions,
    OptionError,
    check_sub_group_size,
)
from lowering.common.errors import PassError
from lowering.pipelines import HostPipeline
from lowering.run_vecz import RunVeczPass
from lowering.work_item_loops import WorkItemLoopsPass
from mux import disk_cache
from mux.compiler import KernelVariant, context, parse

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

SIZES = "sub_group_size: one of the device's sizes (1, 2, 4, 8, 16, 32, 64)"
WIDTHS = "vecz_width: one of 0, 1, 2, 4, 8, 16, 32"


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("sub_group_size", 3, f"{SIZES}, got 3"),
        ("sub_group_size", 0, f"{SIZES}, got 0"),
        ("sub_group_size", 128, f"{SIZES}, got 128"),
        ("vecz_width", 3, f"{WIDTHS}, got 3"),
        ("vecz_width", 64, f"{WIDTHS}, got 64"),
        ("vecz_width", -1, f"{WIDTHS}, got -1"),
    ],
)
def test_a_bad_option_says_which_and_what_it_may_be(option, value, message):
    message = re.escape(message)
    with pytest.raises(OptionError, match=message):
        CompileOptions(**{option: value})
    with pytest.raises(mux.CompileError, match=message):  # the same from the API
        mux.compile("", **{option: value})
    with pytest.raises(ValueError, match=message):  # and from mux-opt's host{...}
        HostPipeline(**{option: value})


@pytest.mark.parametrize("size", [1, 2, 4, 8, 16, 32, 64])
@pytest.mark.parametrize("width", [0, 1, 2, 4, 8, 16, 32])
def test_the_good_options(size, width):
    options = CompileOptions(sub_group_size=size, vecz_width=width)
    assert HostPipeline.for_options(options, "k", (8,)).options == options


def test_work_item_loops_checks_its_option_by_the_same_rule():
    with pytest.raises(PassError, match=r"work-item-loops: sub-group-size: one of"):
        WorkItemLoopsPass(sub_group_size=3).apply(context(), ModuleOp([]))
    with pytest.raises(OptionError, match="size: one of the device's sizes"):
        check_sub_group_size(0, "size")


@pytest.mark.parametrize("width", [3, 6, 64, -1])
def test_run_vecz_checks_its_width_by_the_same_rule(width):
    with pytest.raises(OptionError):
        CompileOptions(vecz_width=width)
    with pytest.raises(PassError, match=rf"run-vecz: width: one of .*, got {width}"):
        RunVeczPass(width=width).apply(context(), ModuleOp([]))


@pytest.mark.parametrize("width", [0, 1, 2, 32])
def test_run_vecz_takes_every_width_the_compile_option_takes(width):
    CompileOptions(vecz_width=width)
    RunVeczPass(width=width).apply(context(), ModuleOp([]))


def test_options_are_frozen():
    options = CompileOptions()
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.vecz_width = 8  # type: ignore[misc]


def test_equal_options_are_one_key_and_different_ones_are_not():
    def variant(**options) -> KernelVariant:
        return KernelVariant("hash", "k", (), CompileOptions(**options))

    assert variant(fast=True) == variant(fast=True)
    assert hash(variant(fast=True)) == hash(variant(fast=True))
    assert disk_cache.key(variant(fast=True)) == disk_cache.key(variant(fast=True))
    others = [
        variant(),
        variant(fast=True),
        variant(software_wgc=True),
        variant(sub_group_size=8),
        variant(vecz_width=1),
    ]
    assert len(set(others)) == len(others)
    assert len({disk_cache.key(v) for v in others}) == len(others)
    specialised = KernelVariant("hash", "k", (16,), CompileOptions())
    assert disk_cache.key(specialised) != disk_cache.key(variant())


def test_a_program_carries_its_options():
    program = mux.load(EXAMPLES / "vadd.mlir", sub_group_size=4, vecz_width=1)
    assert program.options == CompileOptions(sub_group_size=4, vecz_width=1)
    assert program.kernel("vadd").sub_group_size == 4


@pytest.mark.parametrize(
    ("example", "level"),
    [
        ("reduce", 3),  # barriers: barrier regions
        ("scan", 3),
        ("dma_tile", 3),  # its DMA waits are barriers
        ("vadd", 2),
        ("sgemm_naive", 2),
    ],
)
@pytest.mark.parametrize("local_sizes", [(), (16,)])
def test_opt_level_o3_with_barriers_o2_without(example, level, local_sizes):
    module = parse((EXAMPLES / f"{example}.mlir").read_text(), example)
    pipeline = HostPipeline(kernel=example, local_sizes=local_sizes)
    assert pipeline.lower(context(), module.clone()) == level
