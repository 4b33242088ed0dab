"""Differential fuzzing of checked mode's race proof
(`lowering/check_local_races/proof.py`): random kernels of local accesses in
loops with and without barriers, each launched checked twice, with the proof
and without it.

    python scripts/fuzz_races.py --count 300 --seed 0

Without the proof every local access that may race is checked at run time, and
the check sees every access the launch makes; so for each kernel the two runs
must agree: a race the unproven run reports that the proven run does not is an
interval the proof wrongly called free of races (a missed fault), and one the
proven run reports alone would be a false report. A kernel is a store of each
work-item's element, a barrier, then a loop (`scf.for` over 0, 1, ... or
`scf.while` over 1, 2, 4, ..., as OpenCL C's tree steps come in) whose body
reads one element and writes another (mostly a value that differs from the read
one, its successor: a store of the value a cell holds is no race), under an
optional guard on the local id, with its barrier before the body, between the
read and the write (one interval then runs the write of one step and the read of
the next), after it, or missing, and an optional read after the loop. Indices
are `(lid * a + s * b + c) % cells`: always inside the local buffer, so no bounds
fault hides a race. The launch is one or two work-groups of 2 to 16 work-items,
uniform, so the kernel is compiled for its work-group size and the proof runs.

The summary counts the kernels whose race checks the proof removed entirely
(the cases that test it most); the exit status is 1 if any kernel's runs
disagree, each printed with its text.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

BARRIER = "mux.work_group_barrier id({}) scope(work_group) semantics(acq_rel)"


@dataclass(frozen=True)
class Kernel:
    text: str
    local_size: int
    groups: int
    cells: int
    """The elements of the local buffer."""


def _coefficients(rng: random.Random, local: int) -> tuple[int, int, int]:
    """`a`, `b` and `c` of an index `(lid * a + s * b + c) % cells`."""
    return rng.choice([0, 1, 1, 1, 2]), rng.choice([0, 1, 2, local]), rng.randrange(4)


def _index(name: str, coefficients: tuple[int, int, int], with_s: bool) -> str:
    """MLIR computing `%name = (lid * a + s * b + c) % cells` (without `s`
    outside the loop)."""
    a, b, c = coefficients
    lines = [
        f"%{name}_a = arith.constant {a} : index",
        f"%{name}_c = arith.constant {c} : index",
        f"%{name}_la = arith.muli %lid, %{name}_a : index",
        f"%{name}_t = arith.addi %{name}_la, %{name}_c : index",
    ]
    if with_s:
        lines += [
            f"%{name}_b = arith.constant {b} : index",
            f"%{name}_sb = arith.muli %s, %{name}_b : index",
            f"%{name}_u = arith.addi %{name}_t, %{name}_sb : index",
            f"%{name} = arith.remui %{name}_u, %cells : index",
        ]
    else:
        lines.append(f"%{name} = arith.remui %{name}_t, %cells : index")
    return "\n".join(lines)


def draw(seed: int, index: int) -> Kernel:
    """Kernel `index` of the campaign of `seed` (module docstring)."""
    rng = random.Random(f"{seed}:{index}")
    local = rng.randrange(2, 17)
    cells = local * rng.choice([1, 2])
    first = _index("i0", _coefficients(rng, local), False)
    # the write's element is often the read's, or the next: race-free within
    # a step, and racing across steps when one interval holds two of them
    coefficients = _coefficients(rng, local)
    read = _index("i1", coefficients, True)
    a, b, c = coefficients
    if rng.random() < 0.5:
        coefficients = (a, b, c + rng.choice([0, 0, 1]))
    else:
        coefficients = _coefficients(rng, local)
    write = _index("i2", coefficients, True)
    where = rng.choice(["before", "middle", "middle", "after", "none"])
    guard = ""
    if where != "middle" and rng.random() < 0.5:
        period = rng.choice([2, 3, 4])
        guard = (
            f"%gp = arith.constant {period} : index\n"
            f"%gr = arith.constant {rng.randrange(period)} : index\n"
            "%gm = arith.remui %lid, %gp : index\n"
            "%active = arith.cmpi eq, %gm, %gr : index\n"
        )
    body = f"{read}\n%v = memref.load %tile[%i1] : memref<?xi32, 3>\n"
    if where == "middle":
        body += BARRIER.format(1) + "\n"
    # mostly a new value: a store of the value the cell holds is no race
    # (docs/checked-races.md, uniform writes), and would hide one
    stored = "%v" if rng.random() < 0.25 else "%v1"
    body += "%v1 = arith.addi %v, %one : i32\n"
    body += f"{write}\nmemref.store {stored}, %tile[%i2] : memref<?xi32, 3>\n"
    if guard:
        body = guard + "scf.if %active {\n" + body + "}\n"
    if where == "before":
        body = BARRIER.format(1) + "\n" + body
    elif where == "after":
        body += BARRIER.format(1) + "\n"
    trips = rng.randrange(2, 5)
    if rng.random() < 0.5:
        loop = (
            f"%trips = arith.constant {trips} : index\n"
            "scf.for %s = %c0 to %trips step %c1 {\n" + body + "}\n"
        )
    else:
        loop = (
            f"%limit = arith.constant {2**trips} : index\n"
            "%last = scf.while (%w = %c1) : (index) -> index {\n"
            "  %more = arith.cmpi ult, %w, %limit : index\n"
            "  scf.condition(%more) %w : index\n"
            "} do {\n"
            "^bb0(%s: index):\n" + body + "  %next = arith.muli %s, %c2 : index\n"
            "  scf.yield %next : index\n"
            "}\n"
        )
    after = ""
    if rng.random() < 0.5:
        final = _index("i3", _coefficients(rng, local), False)
        after = f"{final}\n%f = memref.load %tile[%i3] : memref<?xi32, 3>\n"
        after += "memref.store %f, %out[%gid] : memref<?xi32, 1>\n"
    text = f"""// fuzz_races seed {seed} kernel {index}
func.func @k(%out: memref<?xi32, 1>, %tile: memref<?xi32, 3>)
    attributes {{mux.kernel = "entry-point"}} {{
%d0 = arith.constant 0 : i32
%one = arith.constant 1 : i32
%c0 = arith.constant 0 : index
%c1 = arith.constant 1 : index
%c2 = arith.constant 2 : index
%cells = arith.constant {cells} : index
%lid = mux.get_local_id %d0
%gid = mux.get_global_id %d0
%x = arith.index_cast %lid : index to i32
{first}
memref.store %x, %tile[%i0] : memref<?xi32, 3>
{BARRIER.format(0)}
{loop}{after}func.return
}}
"""
    return Kernel(text, local, rng.choice([1, 2]), cells)


@contextmanager
def proof_disabled() -> Iterator[None]:
    """`check-local-races` without its proof: every access that may race is
    checked at run time."""
    import lowering.check_local_races as pass_module

    proven = pass_module.race_free
    pass_module.race_free = lambda fn, intervals: set()
    try:
        yield
    finally:
        pass_module.race_free = proven


def launch(kernel: Kernel, proof: bool) -> tuple[str | None, bool]:
    """The fault the launch reported (its kind's name: `LOCAL_RACE`; None if
    none), and whether no race check was left in the compiled kernel."""
    import numpy as np

    import mux

    # another text (a comment) for each run: no cache shares their kernels
    text = kernel.text + ("" if proof else "// without the proof\n")
    program = mux.compile(text, checked=True, name="fuzz_races.mlir")
    k = program.kernel("k")
    size = kernel.local_size * kernel.groups
    args = (np.zeros(size, np.int32), mux.LocalBuffer(4 * kernel.cells))
    fault = None
    try:
        k(*args, global_size=(size,), local_size=(kernel.local_size,))
    except mux.KernelError as error:
        fault = getattr(getattr(error.fault, "kind", None), "name", str(error))
    unchecked = "check_local" not in k.compiled((kernel.local_size,)).llvm_ir
    return fault, unchecked


@dataclass
class Report:
    count: int = 0
    raced: int = 0
    all_proven: int = 0
    disagree: list[tuple[int, Kernel, str | None, str | None]] = field(
        default_factory=list
    )
    """Kernels whose two runs reported different faults, or a fault other
    than a race (the kernels make none: indices stay inside the buffer)."""

    def summary(self) -> str:
        lines = [
            f"fuzz_races: {self.count} kernels, {self.raced} race, "
            f"{self.all_proven} with no race check left, "
            f"{len(self.disagree)} disagree"
        ]
        for index, kernel, proven, unproven in self.disagree:
            lines.append(
                f"\n== kernel {index}: with the proof {proven}, "
                f"without {unproven} (local size {kernel.local_size}, "
                f"{kernel.groups} groups)\n{kernel.text}"
            )
        return "\n".join(lines)


def campaign(count: int, seed: int = 0) -> Report:
    """Kernels 0 to `count` - 1 of `seed`, each launched with the proof and
    without it (each run's text its own, so no cache mixes them up)."""
    report = Report()
    for index in range(count):
        kernel = draw(seed, index)
        proven, no_check = launch(kernel, proof=True)
        with proof_disabled():
            unproven, _ = launch(kernel, proof=False)
        report.count += 1
        report.raced += unproven == "LOCAL_RACE"
        report.all_proven += no_check
        if proven != unproven or {proven, unproven} - {None, "LOCAL_RACE"}:
            report.disagree.append((index, kernel, proven, unproven))
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=100, help="kernels to run")
    parser.add_argument("--seed", type=int, default=0, help="random seed")
    parser.add_argument("--show", type=int, help="print kernel N's text and stop")
    args = parser.parse_args(argv)
    if args.show is not None:
        print(draw(args.seed, args.show).text)
        return 0
    os.environ["MUX_CACHE_DIR"] = ""  # every kernel compiled for real
    report = campaign(args.count, args.seed)
    print(report.summary())
    return 1 if report.disagree else 0


if __name__ == "__main__":
    sys.exit(main())
