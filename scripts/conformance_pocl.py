#!/usr/bin/env python3
"""The second oracle: UnitCL's kernels run by mux and by PoCL on the same inputs,
and their outputs compared (`scripts/conformance.py --vs-pocl`).

    python scripts/conformance.py --vs-pocl [SUITE] [--only GLOB] [--jobs N]
                                  [--timeout S] [--json FILE] [--markdown FILE]

PoCL is the `pocl-binary-distribution` wheel (PoCL 3.0, LLVM 14, its pthread CPU
device) reached through `pyopencl`, both from PyPI (`pip install -e '.[test]'`):
no system package. A kernel file's launches (`pocl_cases.Case`) are its
manifest's, or derived from its kernel's parameters: scripts/pocl_cases.py says
how, and what derived inputs cannot serve.

Each side runs in worker processes of its own (`conformance.run`: a crash or a
hang is contained and reported): the mux worker compiles the file's source with
mux's front-end, writes the cases and their inputs to a scratch directory, then
runs them; the PoCL worker builds the same source with the same options and runs
the same cases on those inputs. Every global buffer is compared after each launch
(a kernel may write any of them), integers exactly, floats within `TOLERANCE`,
NaN equal to NaN, the padding lane of a 3-element vector not at all; what the
launches print (printf) is compared too, as lines in any order. A file ends
as `agree`, `differ` (the first differing element of the first differing buffer,
mux's value and PoCL's), `no output` (nothing printed, no buffer), `mux failed` (a
refusal, a launch error or a crash of ours) or `PoCL failed` (its build error or
crash).

What this oracle cannot judge: kernels whose result depends on the order of
work-items (atomics whose old values are stored, races), on the sub-group size
(mux runs the manifests' sub-group size, PoCL its own), on values the derived
inputs make meaningless (`pocl_cases`). `pocl_report.DIAGNOSES` names the
disagreements understood.
"""

from __future__ import annotations

import ctypes
import fnmatch
import json
import os
import re
import sys
import traceback
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import conformance
from pocl_cases import Case, derive_cases, load_cases, manifest_cases, save_cases
from pocl_report import pocl_table, write_section

TOLERANCE = 16
"""Floats agree when |mux - PoCL| <= TOLERANCE * eps * max(1, |mux|, |PoCL|),
eps the type's machine epsilon: 16 units in the last place for values of 1 and
more (two implementations each within the spec's 3 or 4 ulp of a builtin, one
fusing a multiply-add the other does not), and 16 eps absolutely below 1, where
a cancellation makes ulps meaningless."""


# ---------------------------------------------------------------------------
# The two sides, each in its own worker processes


def mux_side(kernel_file: Any, macros: dict, launches: list | None, scratch: Path):
    """Describes a file's cases (written to `scratch` before anything runs, so
    that PoCL runs them even if mux then crashes) and runs them on mux; its
    outputs go to `<stem>.mux.npz`."""
    import mux

    stem = kernel_file.path.stem
    program = conformance.program_cache(kernel_file)

    def program_for(launch: Any) -> tuple[Any, str]:
        options = conformance.launch_options(kernel_file, macros, launch)
        return program(options, launch.sub_group_size), options

    try:
        if launches:
            inputs, cases = "manifest", manifest_cases(program_for, launches, stem)
        else:
            options = kernel_file.build_options(macros)
            inputs, cases = "derived", derive_cases(program(options), options, stem)
        save_cases(scratch, stem, cases, inputs)
        outputs = {}
        for i, case in enumerate(cases):
            values = _mux_values(case)
            kernel = program(case.options, case.sub_group_size).kernel(case.kernel)
            with printed_to(scratch / f"{stem}.mux.out"):
                kernel(
                    *values,
                    global_size=case.global_size,
                    local_size=case.local_size,
                    global_offset=case.global_offset,
                )
            for j, (arg, value) in enumerate(zip(case.args, values, strict=True)):
                if arg.kind == "buffer":
                    outputs[f"c{i}a{j}"] = value
    except mux.CompileError as error:
        return _failed(f"refused: {_first_line(str(error))}")
    except mux.LaunchError as error:
        return _failed(f"launch error: {_first_line(str(error))}")
    except Exception as error:  # every other exception is a crash of ours
        detail = "".join(traceback.format_exception(error))
        return {"outcome": "crashed", "reason": type(error).__name__, "message": detail}
    np.savez(scratch / f"{stem}.mux.npz", **outputs)
    return {"outcome": "ran", "inputs": inputs, "cases": len(cases)}


def _mux_values(case: Case) -> list[Any]:
    import mux

    values: list[Any] = []
    for arg in case.args:
        if arg.kind == "local":
            values.append(mux.LocalBuffer(arg.nbytes))
        elif arg.kind == "buffer":
            assert arg.data is not None
            values.append(mux.aligned(arg.data))
        else:
            assert arg.data is not None
            values.append(arg.data if arg.data.ndim else arg.data[()])
    return values


class Pocl:
    """PoCL's CPU device through pyopencl; its program builds, by options."""

    def __init__(self) -> None:
        import pyopencl as cl

        platforms = cl.get_platforms()
        pocl = [p for p in platforms if "portable computing" in p.name.lower()]
        if not pocl:
            names = ", ".join(p.name for p in platforms) or "none"
            raise RuntimeError(f"no PoCL platform (platforms: {names})")
        platform = pocl[0]
        self.cl = cl
        self.context = cl.Context(platform.get_devices()[:1])
        self.queue = cl.CommandQueue(self.context)
        self.programs: dict[tuple[Path, str], Any] = {}

    def build(self, path: Path, options: str) -> Any:
        if (path, options) not in self.programs:
            program = self.cl.Program(self.context, path.read_text(encoding="utf-8"))
            self.programs[path, options] = program.build(options=options)
        return self.programs[path, options]

    def run(self, path: Path, case: Case, printed: Path) -> dict[int, np.ndarray]:
        """Runs `case` on PoCL: each buffer argument's contents after it; what
        it prints is appended to `printed`."""
        cl = self.cl
        kernel = cl.Kernel(self.build(path, case.options), case.kernel)
        flags = cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR
        values, hosts = [], {}
        for j, arg in enumerate(case.args):
            if arg.kind == "local":
                values.append(cl.LocalMemory(arg.nbytes))
            elif arg.kind == "buffer":
                hosts[j] = np.ascontiguousarray(arg.data).copy()
                values.append(cl.Buffer(self.context, flags, hostbuf=hosts[j]))
            else:
                assert arg.data is not None
                values.append(arg.data.tobytes())
        kernel.set_args(*values)
        with printed_to(printed):
            cl.enqueue_nd_range_kernel(
                self.queue,
                kernel,
                case.global_size,
                case.local_size,
                global_work_offset=case.global_offset or None,
            )
            for j, host in hosts.items():
                cl.enqueue_copy(self.queue, host, values[j])
            self.queue.finish()
        return hosts


def pocl_side(kernel_file: Any, scratch: Path, pocl: Pocl) -> dict:
    """Runs the cases the mux side wrote for a file on PoCL; its outputs go to
    `<stem>.pocl.npz`."""
    stem = kernel_file.path.stem
    if not (scratch / f"{stem}.json").exists():
        return {"outcome": "skipped", "reason": "no cases"}
    cases, _ = load_cases(scratch, stem)
    outputs = {}
    for i, case in enumerate(cases):
        try:
            hosts = pocl.run(kernel_file.path, case, scratch / f"{stem}.pocl.out")
        except pocl.cl.Error as error:
            return _failed(_pocl_error(str(error)))
        except Exception as error:  # pyopencl's own errors are RuntimeErrors
            return _failed(f"{type(error).__name__}: {_pocl_error(str(error))}")
        outputs.update({f"c{i}a{j}": host for j, host in hosts.items()})
    np.savez(scratch / f"{stem}.pocl.npz", **outputs)
    return {"outcome": "ran"}


@contextmanager
def printed_to(path: Path) -> Iterator[None]:
    """What is printed meanwhile appended to `path`: mux's printf writes to
    `sys.stdout`, PoCL's to the C library's (file descriptor 1, buffered)."""
    libc = ctypes.CDLL(None)
    libc.fflush(None)
    saved, saved_fd = sys.stdout, os.dup(1)
    with path.open("a", encoding="utf-8") as file:
        os.dup2(file.fileno(), 1)
        sys.stdout = file
        try:
            yield
        finally:
            file.flush()
            libc.fflush(None)
            sys.stdout = saved
            os.dup2(saved_fd, 1)
            os.close(saved_fd)


def _pocl_error(message: str) -> str:
    """A PoCL error's gist: the first compiler error of a build log (without
    its location), or the first function its kernel library lacks (at link
    time), else the message's first line."""
    for line in message.splitlines():
        if "error:" in line:
            error = line.split("error:", 1)[1].strip()
            location = r"^\S*\.cl:\d+:\d+(?: <Spelling=.*?>)?:\s+"
            return "build: " + re.sub(location, "", error)
        missing = re.match(r"Cannot find symbol _Z(\d+)(\w+)", line.strip())
        if missing:
            name = missing.group(2)[: int(missing.group(1))]
            return f"link: '{name}' is not in PoCL's kernel library"
    return _first_line(message)


def _failed(reason: str) -> dict:
    return {"outcome": "failed", "reason": reason}


def _first_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[0] if lines else "no message"


def worker(side: str, suite: Path, scratch: Path) -> None:
    """Reads kernel file paths from stdin and answers one JSON line each: the
    file's cases run on `side` (mux or pocl)."""
    os.environ["MUX_CACHE_DIR"] = ""
    answers = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)  # printf of either side writes to file descriptor 1
    sys.stdout = sys.stderr
    macros = conformance.test_macros(suite / "expectations")
    from conformance_manifests import manifests

    launches = manifests()
    pocl = Pocl() if side == "pocl" else None
    for line in sys.stdin:
        path = Path(line.strip())
        kernel_file = conformance.read_header(path)
        if pocl is not None:
            record = pocl_side(kernel_file, scratch, pocl)
        else:
            file_macros = macros.get(path.stem.lower(), {})
            record = mux_side(
                kernel_file, file_macros, launches.get(path.stem), scratch
            )
        answers.write(json.dumps(record) + "\n")
        answers.flush()


# ---------------------------------------------------------------------------
# The parent: both sides run, the outputs compared


def difference(mux_out: np.ndarray, pocl_out: np.ndarray, lanes: int = 0) -> str | None:
    """None when the two outputs of a buffer agree (`TOLERANCE`), else the
    first differing element, both values and how many differ."""
    if lanes == 3:
        mux_out, pocl_out = mux_out[..., :3], pocl_out[..., :3]
    if mux_out.dtype.names:  # a buffer of structs: its bytes
        mux_out, pocl_out = (
            np.ascontiguousarray(a).view(np.uint8) for a in (mux_out, pocl_out)
        )
    m, p = mux_out.reshape(-1), pocl_out.reshape(-1)
    same = m == p
    if m.dtype.kind == "f":
        wide_m, wide_p = m.astype(np.float64), p.astype(np.float64)
        scale = np.maximum(1.0, np.maximum(np.abs(wide_m), np.abs(wide_p)))
        with np.errstate(invalid="ignore"):
            close = np.abs(wide_m - wide_p) <= TOLERANCE * np.finfo(m.dtype).eps * scale
        same |= close | (np.isnan(m) & np.isnan(p))
    bad = np.flatnonzero(~same)
    if not bad.size:
        return None
    i = int(bad[0])
    where = np.unravel_index(i, mux_out.shape)
    element = ", ".join(map(str, where)) if len(where) > 1 else str(i)
    return (
        f"element {element}: mux {m[i].item()!r}, PoCL {p[i].item()!r} "
        f"({bad.size} of {m.size} differ)"
    )


def verdict(stem: str, mux_record: dict, pocl_record: dict | None, scratch: Path):
    """A file's outcome (`pocl_report.OUTCOMES`) from both sides' records and
    outputs."""
    inputs = mux_record.get("inputs", "")
    if mux_record["outcome"] != "ran":
        reason = mux_record["reason"]
        if mux_record["outcome"] == "crashed":
            reason = f"crashed: {reason}"
        pocl_outcome = (pocl_record or {}).get("outcome")
        if pocl_outcome in ("failed", "crashed"):
            reason += f" (PoCL failed too: {pocl_record['reason']})"
        return {
            "outcome": "mux failed",
            "reason": reason,
            "crashed": "crashed" in reason[:8],
        }
    assert pocl_record is not None
    if pocl_record["outcome"] != "ran":
        return {
            "outcome": "PoCL failed",
            "reason": pocl_record["reason"],
            "inputs": inputs,
        }
    cases, _ = load_cases(scratch, stem)
    compared = 0
    with (
        np.load(scratch / f"{stem}.mux.npz") as mux_out,
        np.load(scratch / f"{stem}.pocl.npz") as pocl_out,
    ):
        for i, case in enumerate(cases):
            for j, arg in enumerate(case.args):
                if arg.kind != "buffer":
                    continue
                key, compared = f"c{i}a{j}", compared + 1
                wrong = difference(mux_out[key], pocl_out[key], arg.lanes)
                if wrong:
                    where = f"{case.label}: " if case.label else ""
                    if len(cases) > 1 and not case.label:
                        where = f"{case.kernel}: "
                    reason = f"{where}argument {j}: {wrong}"
                    return {"outcome": "differ", "reason": reason, "inputs": inputs}
    mux_text, pocl_text = (_printed(scratch / f"{stem}.{s}.out") for s in SIDES)
    wrong = printed_difference(mux_text, pocl_text)
    if wrong:
        return {"outcome": "differ", "reason": f"printed: {wrong}", "inputs": inputs}
    printed = bool(mux_text or pocl_text)
    outcome = "agree" if compared or printed else "no output"
    return {"outcome": outcome, "buffers": compared, "inputs": inputs}


SIDES = ("mux", "pocl")


def _printed(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""


def printed_difference(mux_text: str, pocl_text: str) -> str | None:
    """None when both sides printed the same lines, in any order (work-groups
    run in parallel on both: whose line comes first is theirs to choose), else
    the first line each printed that the other did not."""
    mux_lines, pocl_lines = mux_text.splitlines(), pocl_text.splitlines()
    only_mux = Counter(mux_lines) - Counter(pocl_lines)
    only_pocl = Counter(pocl_lines) - Counter(mux_lines)
    if not only_mux and not only_pocl:
        return None
    first_mux = next((line for line in mux_lines if line in only_mux), None)
    first_pocl = next((line for line in pocl_lines if line in only_pocl), None)
    return (
        f"mux {first_mux!r}, PoCL {first_pocl!r} ({sum(only_mux.values())} of "
        f"{len(mux_lines)} lines of mux's not PoCL's, {sum(only_pocl.values())} of "
        f"{len(pocl_lines)} of PoCL's not mux's)"
    )


def side_command(side: str, suite: Path, scratch: Path) -> list[str]:
    """The command of a worker of `side` (mux or pocl) on `scratch`."""
    return [sys.executable, __file__, "--worker", side, str(suite), str(scratch)]


def compare_all(
    suite: Path,
    paths: list[Path],
    jobs: int,
    timeout: float,
    scratch: Path,
) -> dict[Path, dict]:
    """Each path's outcome: the mux side run over every file, then the PoCL
    side over those whose cases the mux side wrote, each by `jobs` workers."""
    mux_command = side_command("mux", suite, scratch)
    mux_results = conformance.run(suite, paths, jobs, timeout, mux_command)
    described = [p for p in paths if (scratch / f"{p.stem}.json").exists()]
    pocl_command = side_command("pocl", suite, scratch)
    pocl_results = conformance.run(suite, described, jobs, timeout, pocl_command)
    return {
        path: verdict(path.stem, mux_results[path], pocl_results.get(path), scratch)
        for path in paths
    }


def main(args: Any) -> int:
    """`--vs-pocl`: every file matching `--only` compared; the table printed,
    and written with `--markdown` (its section) and `--json` (every record).
    The exit status is 1 if mux crashed on a file, 2 if PoCL is missing."""
    import tempfile

    missing = pocl_missing()
    if missing:
        print(missing, file=sys.stderr)
        return 2
    paths = sorted(
        p
        for p in (args.suite / "kernels").glob("*.cl")
        if fnmatch.fnmatch(p.name, args.only)
    )
    with tempfile.TemporaryDirectory(prefix="vs-pocl-") as scratch:
        results = compare_all(args.suite, paths, args.jobs, args.timeout, Path(scratch))
    report = pocl_table(results)
    print(report)
    if args.markdown:
        write_section(args.markdown, report)
    if args.json:
        records = {p.name: r for p, r in sorted(results.items())}
        args.json.write_text(json.dumps(records, indent=1), encoding="utf-8")
    return 1 if any(r.get("crashed") for r in results.values()) else 0


def pocl_missing() -> str | None:
    """None if PoCL can be run here, else why not and how to install it."""
    try:
        Pocl()
    except Exception as error:  # no pyopencl (ImportError), no PoCL platform
        reason = str(error) or type(error).__name__
        return (
            f"no PoCL ({reason}): pip install pyopencl pocl-binary-distribution, "
            "or pip install -e '.[test]'"
        )
    return None


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:
        worker(sys.argv[2], Path(sys.argv[3]), Path(sys.argv[4]))
    else:
        sys.exit(conformance.main(["--vs-pocl", *sys.argv[1:]]))
