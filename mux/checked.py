"""Checked mode's runtime: the check record of a launch, and the `KernelError`
made from the fault it holds (docs/checked.md).

A kernel compiled with `checked=True` takes one hidden argument more, the
record (`lowering.common.check_record`: its layout), after the printf buffer
if the kernel prints. `CheckRecord.allocate` makes it for a launch and writes
what the kernel's checks compare against: per parameter (by its index in the
kernel's signature) the base address and the size in bytes of a buffer
argument (a numpy array's `nbytes`, a `LocalBuffer`'s size). After the launch,
`CheckRecord.raise_fault` raises `KernelError` if a fault was recorded; its
message is made by the formatter of the fault's kind (`FORMATTERS`: one entry
per `Fault`, the others falling back to `_generic`).

A launch runs to its end: a faulting access is skipped (a load gives 0) and
every work-item goes on, so the buffers hold what the kernel wrote. Only the
first fault is described; the message says how many more there were.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects import func

from dialects import attributes as mux_attrs
from lowering.common import check_record as cr
from lowering.common.check_record import Fault
from mux.arguments import LocalBuffer, Param
from mux.errors import KernelError

RECORD_PARAM = Param("check record", cr.RECORD_TYPE)
"""The record as a hidden parameter of the packed arguments."""


@dataclass(frozen=True)
class WorkItem:
    """A work-item: its global and local ids (x, y, z)."""

    global_id: tuple[int, int, int]
    local_id: tuple[int, int, int]

    def __str__(self) -> str:
        return f"global id {self.global_id}, local id {self.local_id}"


@dataclass(frozen=True)
class FaultReport:
    """The first fault of a launch, as the record holds it: its kind, site
    (the text of `mux.check_sites`), work-item, operands `a` and `b`, the
    second site and work-item of a fault between two (else "" and None), and
    how many faults the launch made in all."""

    kernel: str
    kind: Fault
    site: str
    work_item: WorkItem
    a: int
    b: int
    site2: str
    work_item2: WorkItem | None
    count: int


def _out_of_bounds(fault: FaultReport) -> str:
    return (
        f"out-of-bounds {fault.site}: element {fault.a} (byte offset {fault.b}), "
        f"by the work-item of {fault.work_item}"
    )


def _divergent_barrier(fault: FaultReport) -> str:
    # the second work-item is the first of its group to run the region: the one
    # whose barrier the group follows (lowering/scheduling/divergence.py)
    return (
        "work-items of one work-group reached different barriers: the work-item "
        f"of {fault.work_item} reached {fault.site}, the work-item of "
        f"{fault.work_item2} reached {fault.site2} (the work-group stopped there)"
    )


def _generic(fault: FaultReport) -> str:
    second = (
        f"; and {fault.site2} by the work-item of {fault.work_item2}"
        if fault.work_item2 is not None
        else ""
    )
    return (
        f"{fault.kind.name.lower().replace('_', ' ')} at {fault.site} by the "
        f"work-item of {fault.work_item} (operands {fault.a}, {fault.b}){second}"
    )


def _local_race(fault: FaultReport) -> str:
    """`check-local-races`: `a` is the byte offset of the access in what it
    accesses (its site names it), `b` its size in bytes."""
    plural = "s" if fault.b != 1 else ""
    return (
        f"data race on local memory: {fault.site} (byte offset {fault.a}, "
        f"{fault.b} byte{plural}) by the work-item of {fault.work_item}, and "
        f"{fault.site2} by the work-item of {fault.work_item2}, with no barrier "
        "between them"
    )


FORMATTERS: dict[Fault, Callable[[FaultReport], str]] = {
    Fault.OUT_OF_BOUNDS: _out_of_bounds,
    Fault.DIVERGENT_BARRIER: _divergent_barrier,
    Fault.LOCAL_RACE: _local_race,
}
"""The message of each kind of fault (after "kernel 'k': "); a kind without
one gets `_generic`'s."""


class CheckRecord:
    """One launch's record (`words`, numpy int64)."""

    def __init__(self, params: int):
        self.words = np.zeros(cr.record_words(params), np.int64)

    @classmethod
    def allocate(
        cls,
        fn: func.FuncOp,
        params: Sequence[Param],
        args: Sequence[Any],
        printf: np.ndarray | None = None,
    ) -> CheckRecord:
        """The record of a launch of kernel `fn`, given `args` for `params` (the
        runtime's parameters: `mux.arguments.kernel_params`, which leaves out
        the module-scope local buffer the record counts) and the words of its
        printf buffer if it prints: lower-printf appends that buffer right
        after the kernel's own parameters, and its accesses are checked too."""
        signature = len(fn.function_type.inputs.data)
        hidden = mux_attrs.LOCAL_VARS_PARAM.get(fn)
        indices = [i for i in range(signature) if hidden is None or i != hidden.index]
        record = cls(signature + 1)
        for index, param, value in zip(indices, params, args, strict=True):
            if isinstance(value, LocalBuffer):
                record.words[cr.param_word(index)] = value.nbytes
            elif isinstance(value, np.ndarray) and param.address_space is not None:
                record.buffer(index, value)
        if printf is not None:
            record.buffer(signature, printf)
        return record

    def buffer(self, index: int, array: np.ndarray) -> None:
        """Parameter `index` is `array`: its address and size in bytes."""
        self.words[cr.param_word(index, cr.PARAM_BASE)] = array.ctypes.data
        self.words[cr.param_word(index)] = array.nbytes

    @property
    def address(self) -> int:
        return self.words.ctypes.data

    def fault(self, kernel: str, sites: Sequence[str]) -> FaultReport | None:
        """The first fault recorded, None if none was."""
        w = self.words
        if w[cr.KIND] == Fault.NONE:
            return None

        def site(word: int) -> str:
            number = int(w[word])
            if number < 0:  # the race check's site field overflowed
                return "an access at an unknown site"
            return sites[number] if 0 <= number < len(sites) else f"site {number}"

        def ids(word: int) -> tuple[int, int, int]:
            x, y, z = (int(v) for v in w[word : word + 3])
            return x, y, z

        def item(gid: int, lid: int) -> WorkItem:
            return WorkItem(ids(gid), ids(lid))

        kind = int(w[cr.KIND])
        second = kind not in (Fault.OUT_OF_BOUNDS,)
        return FaultReport(
            kernel,
            Fault(kind) if kind in Fault._value2member_map_ else Fault.NONE,
            site(cr.SITE),
            item(cr.GLOBAL_ID, cr.LOCAL_ID),
            int(w[cr.A]),
            int(w[cr.B]),
            site(cr.SITE2) if second else "",
            item(cr.GLOBAL_ID2, cr.LOCAL_ID2) if second else None,
            int(w[cr.COUNT]),
        )

    def raise_fault(self, kernel: str, sites: Sequence[str]) -> None:
        """KernelError describing the first fault, if there was one."""
        fault = self.fault(kernel, sites)
        if fault is None:
            return
        raise KernelError(message(fault), fault)


def message(fault: FaultReport) -> str:
    """`kernel 'k': <the kind's message>` and how many more faults there were."""
    text = FORMATTERS.get(fault.kind, _generic)(fault)
    more = fault.count - 1
    tail = (
        f" ({more} more fault{'s' if more != 1 else ''} in this launch)"
        if more > 0
        else ""
    )
    return f"kernel '{fault.kernel}': {text}{tail}"
