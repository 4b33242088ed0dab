"""Faults injected into every example kernel, MLIR and OpenCL C, caught in checked
mode (docs/checked.md), and no fault reported where there is none.

The faults are `fault_injection`'s: an index one past each buffer parameter, a
local array written past its end, a race on a local int, a barrier only one
work-item of each group reaches. Each launch is the example's first launch of
`example_launches` (buffers just as large as the kernel's reach, so that one
element further is outside). Each fault must raise `KernelError` naming the
kernel, the fault's kind, the parameter or variable, and a work-item that exists
in the launch; where exactly one work-item makes the fault, that one.

Unchecked, the same launches run as before; checked, every example launch gives
what the unchecked kernel gives, and raises nothing.
"""

from __future__ import annotations

import math
from functools import cache

import fault_injection as inject
import numpy as np
import pytest
from example_launches import CASES, EXAMPLES, Case, copies, floats
from kernels import build_options
from xdsl.dialects.builtin import MemRefType, ModuleOp

import mux
from lowering.common.check_record import Fault
from mux.checked import FaultReport, WorkItem
from mux.compiler import parse

FIRST = {case.name: case for case in reversed(CASES)}
"""Each example's first launch, but for the two whose first launch leaves the end
of a buffer untouched (scale_rows' rows below the matrix's, scale2d's input
longer than the image): those with buffers just as large as the kernel's reach."""
FIRST["scale_rows"] = Case(
    "scale_rows",
    lambda: [
        floats(6 * 8).reshape(6, 8),
        floats(8),
        np.float32(0.5),
        np.uint64(6),
        np.zeros((6, 8), np.float32),
    ],
    (8, 6),
    (4, 2),
    (0, 0),
)
FIRST["scale2d"] = Case(
    "scale2d",
    lambda: [floats(3 * 7), np.zeros(7 * 3 * 2, np.float32), np.uint64(7), 1.5],
    (7, 3, 2),
    (3, 2, 1),
    (0, 0, 0),
)
NAMES = sorted(FIRST)
LANGUAGES = ["mlir", "cl"]


@cache
def _mlir_text(name: str) -> str:
    return (EXAMPLES / f"{name}.mlir").read_text()


def buffers(name: str) -> list[str]:
    """The names of the memref parameters of example `name`'s kernel."""
    kernel = inject.kernel_of(parse(_mlir_text(name)), name)
    return [a.name_hint or "" for a in kernel.args if isinstance(a.type, MemRefType)]


BUFFERS = [(name, param) for name in NAMES for param in buffers(name)]


def mlir_variant(name: str, mutate) -> mux.Program:
    module: ModuleOp = parse(_mlir_text(name)).clone()
    mutate(module)
    return mux.compile(module, checked=True, name=f"{name}.mlir")


def cl_variant(name: str, mutate) -> mux.Program:
    path = EXAMPLES / f"{name}.cl"
    source = path.read_text()
    options = " ".join(build_options(source))
    return mux.compile(
        mutate(source),
        language="opencl",
        build_options=options,
        checked=True,
        name=str(path),
    )


def run(program: mux.Program, case: Case, *, checked_args: list | None = None) -> list:
    args = copies(case.args()) if checked_args is None else checked_args
    program.kernel(case.name)(
        *args,
        global_size=case.global_size,
        local_size=case.local_size,
        global_offset=case.global_offset,
    )
    return args


def caught(program: mux.Program, case: Case) -> FaultReport:
    with pytest.raises(mux.KernelError) as error:
        run(program, case)
    fault = error.value.fault
    assert isinstance(fault, FaultReport)
    assert f"kernel '{case.name}'" in str(error.value)
    assert fault.kernel == case.name
    assert_exists(fault.work_item, case)
    return fault


def assert_exists(item: WorkItem, case: Case) -> None:
    """`item` is a work-item of `case`'s launch, its ids consistent: its global
    id is in the NDRange, its local id in the work-group, and the global id is
    the group's origin plus the local id."""
    dims = len(case.global_size)
    offset = (*case.global_offset, 0, 0, 0)[:3]
    size = (*case.global_size, 1, 1)[:3]
    local = (*case.local_size, 1, 1)[:3]
    for d in range(3):
        gid, lid = item.global_id[d], item.local_id[d]
        assert offset[d] <= gid < offset[d] + size[d], (item, d)
        assert 0 <= lid < local[d], (item, d)
        assert (gid - offset[d] - lid) % local[d] == 0, (item, d)
    assert all(item.global_id[d] == 0 for d in range(dims, 3))


# --------------------------------------------------------------------------------------
# An index one past a buffer.
# --------------------------------------------------------------------------------------

LAST_TOUCH = {
    ("vadd", "a"): (999, 0, 0),
    ("vadd", "b"): (999, 0, 0),
    ("vadd", "c"): (999, 0, 0),
    ("saxpy", "x"): (776, 0, 0),
    ("saxpy", "y"): (776, 0, 0),
    ("reduce", "input"): (999, 0, 0),
    ("reduce", "partial"): (960, 0, 0),
    ("scan", "output"): (999, 0, 0),
}
"""The one work-item that touches the buffer's last element, where only one does:
the one that faults when the index is one further."""


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("name", "param"), BUFFERS, ids=lambda v: v)
def test_an_index_one_past_each_buffer_is_caught(name: str, param: str, language: str):
    if language == "mlir":
        program = mlir_variant(name, lambda m: inject.mlir_off_by_one(m, name, param))
    else:
        program = cl_variant(name, lambda s: inject.cl_off_by_one(s, param))
    fault = caught(program, FIRST[name])
    assert fault.kind is Fault.OUT_OF_BOUNDS
    assert f"'{param}'" in fault.site, fault.site
    if (name, param) in LAST_TOUCH:
        assert fault.work_item.global_id == LAST_TOUCH[name, param]


# --------------------------------------------------------------------------------------
# A local array written past its end, a race, a divergent barrier.
# --------------------------------------------------------------------------------------

PROLOGUES = list(inject.CL_FAULTS)


def prologue_variant(name: str, fault: str, language: str) -> mux.Program:
    if language == "mlir":
        return mlir_variant(name, lambda m: inject.mlir_prologue(m, name, fault))
    return cl_variant(
        name, lambda s: inject.cl_prologue(s, name, inject.CL_FAULTS[fault])
    )


LOCAL_WRITES = [(name, language) for name in NAMES for language in LANGUAGES]
"""In the OpenCL C dma_tile, scan, sgemm_tiled and transpose, the injected array
lands right before another local variable: each variable is checked alone."""


@pytest.mark.parametrize(("name", "language"), LOCAL_WRITES)
def test_a_local_array_written_past_its_end_is_caught(name: str, language: str):
    fault = caught(prologue_variant(name, "local_write", language), FIRST[name])
    assert fault.kind is Fault.OUT_OF_BOUNDS
    assert fault.site.startswith(f"store to local variable '{inject.LOCAL_ARRAY}'")
    # the work-items of local id 0..3 write 4..7 of a 4-element (16-byte) array
    assert fault.a >= 4 or fault.b >= 16


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", NAMES)
def test_a_race_on_local_memory_is_caught(name: str, language: str):
    case = FIRST[name]
    fault = caught(prologue_variant(name, "race", language), case)
    assert fault.kind is Fault.LOCAL_RACE
    assert fault.work_item2 is not None
    assert_exists(fault.work_item2, case)
    first, second = fault.work_item, fault.work_item2
    assert first.local_id != second.local_id
    same_group = [
        (a - b) == (la - lb)
        for a, b, la, lb in zip(
            first.global_id,
            second.global_id,
            first.local_id,
            second.local_id,
            strict=True,
        )
    ]
    assert all(same_group), (first, second)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", NAMES)
def test_a_barrier_reached_by_part_of_a_group_is_caught(name: str, language: str):
    case = FIRST[name]
    fault = caught(prologue_variant(name, "divergent_barrier", language), case)
    assert fault.kind is Fault.DIVERGENT_BARRIER
    assert fault.work_item2 is not None
    assert_exists(fault.work_item2, case)
    assert fault.work_item.local_id != fault.work_item2.local_id


# --------------------------------------------------------------------------------------
# A barrier left out of a kernel whose races the compiler proves absent.
# --------------------------------------------------------------------------------------

BARRIER_LINES = {
    "mlir": "mux.work_group_barrier",
    "cl": "barrier(CLK_LOCAL_MEM_FENCE);",
}

PROVEN = {"reduce": 2, "scan": 3, "sgemm_tiled": 2, "transpose": 1}
"""The examples whose local accesses `check-local-races` leaves unchecked,
proven free of races for their launch's work-group size (docs/checked-races.md),
with each of their barriers left out in turn: every one of those barriers
orders a store of one work-item before another's access (a tree step's
partial sums, a tile's elements before they are read, or read before the
next tile overwrites them), so each variant races, and the proof must not
exempt it. Each with its number of barriers."""

UNBARRIERED = [
    (name, language, nth)
    for name, count in PROVEN.items()
    for language in LANGUAGES
    for nth in range(count)
]


def without_barrier(source: str, language: str, nth: int) -> str:
    """`source` with the line of its `nth` barrier (from 0) removed."""
    lines = source.splitlines(keepends=True)
    at = [i for i, line in enumerate(lines) if BARRIER_LINES[language] in line]
    assert len(at) > nth, (language, nth, len(at))
    del lines[at[nth]]
    return "".join(lines)


@pytest.mark.parametrize(("name", "language", "nth"), UNBARRIERED)
def test_a_barrier_left_out_of_a_proven_kernel_is_a_race(
    name: str, language: str, nth: int
):
    path = EXAMPLES / f"{name}.{language}"
    source = path.read_text()
    barriers = sum(BARRIER_LINES[language] in line for line in source.splitlines())
    assert barriers == PROVEN[name], "each barrier is left out in one variant"
    options = " ".join(build_options(source)) if language == "cl" else ""
    program = mux.compile(
        without_barrier(source, language, nth),
        language="opencl" if language == "cl" else "mlir",
        build_options=options,
        checked=True,
        name=str(path),
    )
    fault = caught(program, FIRST[name])
    assert fault.kind is Fault.LOCAL_RACE
    assert fault.work_item2 is not None
    assert fault.work_item.local_id != fault.work_item2.local_id


# --------------------------------------------------------------------------------------
# No false report.
# --------------------------------------------------------------------------------------


@cache
def checked_program(name: str, language: str) -> mux.Program:
    path = EXAMPLES / f"{name}.{language}"
    options = " ".join(build_options(path.read_text())) if language == "cl" else ""
    return mux.load(path, build_options=options, checked=True)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    "case", CASES, ids=lambda c: f"{c.name}-{c.global_size}-{c.local_size}"
)
def test_every_example_launch_runs_clean_and_computes_the_same_checked(
    case: Case, language: str
):
    args = case.args()
    unchecked, checked = copies(args), copies(args)
    path = EXAMPLES / f"{case.name}.{language}"
    options = " ".join(build_options(path.read_text())) if language == "cl" else ""
    run(mux.load(path, build_options=options), case, checked_args=unchecked)
    run(checked_program(case.name, language), case, checked_args=checked)
    for before, after in zip(unchecked, checked, strict=True):
        if isinstance(before, np.ndarray):
            np.testing.assert_array_equal(after, before)


def test_the_injections_cover_every_example():
    assert sorted(p.stem for p in EXAMPLES.glob("*.mlir")) == NAMES
    assert all((EXAMPLES / f"{name}.cl").exists() for name in NAMES)
    assert all(buffers(name) for name in NAMES)
    # a race and a divergent barrier need two work-items in a group
    assert all(math.prod(FIRST[name].local_size) > 1 for name in NAMES)
