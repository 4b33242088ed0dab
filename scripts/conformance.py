#!/usr/bin/env python3
"""The reference implementation's kernels as our compile-coverage check.

    python scripts/conformance.py [SUITE] [--jobs N] [--timeout S] [--only GLOB]
                                  [--markdown FILE] [--json FILE]
                                  [--run | --vs-pocl]

SUITE (default `../shared/suites/unitcl` beside the repository) holds UnitCL's
OpenCL C kernels in `kernels/<group>.<nn>_<name>.cl`. Each file is compiled the
way its header asks (`// CL_STD: 3.0`, `// DEFINITIONS: "-DN=4";...`, and the
`-D` values a `parameters` kernel's C++ test passes, `test_macros`) with
`mux.compile(..., language="opencl")`, and every kernel in it through the whole
host pipeline to machine code (`Kernel.compiled()`). Each file ends as:

  compiled  every kernel of it reached machine code;
  refused   a `mux.CompileError`: the reason is named from its message
            (`REASONS`: images, printf, half, double, a builtin not in the
            library, ...);
  crashed   anything else: another exception, a dead worker process, or no
            answer within the timeout.

Files are compiled by worker processes (`--jobs`, default the number of CPUs),
each a fresh interpreter that compiles one file after another and is replaced
when it dies or hangs. The disk cache is turned off for them, so every run
compiles from the start. The table goes to standard output (and to FILE with
`--markdown`, as `docs/conformance.md` has it); the exit status is 1 if
anything crashed. The test suite runs a fast subset (tests/test_conformance.py).

With `--run`, the files that have an execution manifest
(`scripts/conformance_manifests/`: arguments, sizes, build options and the
expected results as numpy) are run instead, in the same worker processes, and
each is *passed*, *failed* (the first wrong element, expected vs got) or
*crashed*; `--markdown` then rewrites only the page's execution section.

With `--vs-pocl`, every file is run by mux and by PoCL on the same inputs and
their outputs compared (scripts/conformance_pocl.py): the second oracle.
"""

from __future__ import annotations

import argparse
import faulthandler
import fnmatch
import json
import os
import re
import select
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

REPO = Path(__file__).resolve().parent.parent


def _default_suite() -> Path:
    """`shared/suites/unitcl` beside the repository, or beside the main checkout
    when this is a git worktree (whose `.git` file names the main one's)."""
    suite = REPO.parent / "shared" / "suites" / "unitcl"
    dot_git = REPO / ".git"
    if not suite.is_dir() and dot_git.is_file():
        gitdir = Path(dot_git.read_text().split(":", 1)[1].strip())
        suite = gitdir.parents[2].parent / "shared" / "suites" / "unitcl"
    return suite


DEFAULT_SUITE = _default_suite()
TIMEOUT_SECONDS = 120.0
OUTCOMES = ("compiled", "refused", "crashed")


# ---------------------------------------------------------------------------
# What a kernel file asks for


@dataclass(frozen=True)
class KernelFile:
    """One `.cl` file of the suite and what its header asks of a build."""

    path: Path
    requires: tuple[str, ...] = ()
    """The `// REQUIRES:` words (double, half, images, parameters, ...)."""
    cl_std: str | None = None
    """The `// CL_STD:` version (`3.0`), None for the default."""
    definitions: tuple[str, ...] = ()
    """The `// DEFINITIONS:` options, one `-D` each."""

    @property
    def group(self) -> str:
        """The group: the part of the file name before the first dot."""
        return self.path.name.split(".", 1)[0]

    def build_options(self, macros: dict[str, str] | None = None) -> str:
        """clBuildProgram's options for the file: its standard, its definitions,
        then `macros` (`-Dname=value`) for those it does not define itself."""
        words = []
        if self.cl_std:
            words.append(f"-cl-std=CL{self.cl_std}")
        words.extend(self.definitions)
        defined = {_macro_name(word) for word in self.definitions}
        for name, value in (macros or {}).items():
            if name not in defined:
                words.append(f"-D{name}={value}")
        return " ".join(_quote(word) for word in words)


def _macro_name(option: str) -> str:
    return option[2:].strip().split("=", 1)[0]


def _quote(word: str) -> str:
    return word if re.fullmatch(r"[-\w=.,+]+", word) else json.dumps(word)


_HEADER_LINE = re.compile(r"//\s*(REQUIRES|CL_STD|DEFINITIONS)\s*:(.*)")


def read_header(path: Path) -> KernelFile:
    """The file's header lines (comments before the code) as a `KernelFile`."""
    requires: list[str] = []
    cl_std = None
    definitions: list[str] = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        match = _HEADER_LINE.match(line.strip())
        if not match:
            continue
        key, value = match.group(1), match.group(2).strip()
        if key == "REQUIRES":
            requires.extend(w for w in re.split(r"[;\s]+", value) if w)
        elif key == "CL_STD":
            cl_std = value
        else:
            definitions.extend(_definitions(value))
    return KernelFile(path, tuple(requires), cl_std, tuple(definitions))


def _definitions(value: str) -> list[str]:
    """`"-DA=1";"-DB=2"` or `-D NUM=16` -> ["-DA=1", "-DB=2"] / ["-DNUM=16"]."""
    options = []
    for part in value.split(";"):
        part = part.strip().strip('"').strip()
        if part.startswith("-D"):
            options.append("-D" + part[2:].strip())
    return options


# ---------------------------------------------------------------------------
# The -D values a `parameters` kernel's C++ test passes

_TEST_NAME = re.compile(r"TEST_P\(\s*\w+\s*,\s*(\w+?)_(\d+)_(\w+)\s*\)")
_ADD_MACRO = re.compile(r"AddMacro\(\s*\"(\w+)\"\s*,\s*([^;]*?)\)\s*;")
_NUMBER = re.compile(r"[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?[uUlLfF]*")


PARAMETERISED: dict[str, dict[str, str]] = {
    "compiler_barrier.03_odd_work_group_size": {"ARRAY_SIZE": "16"},
    "conversion.01_implicit_cast": {
        "IN_TYPE": "half",
        "OUT_TYPE_SCALAR": "int",
        "OUT_TYPE_VECTOR": "int",
    },
    "conversion.02_explicit_cast": {
        "IN_TYPE": "half",
        "OUT_TYPE_SCALAR": "int",
        "OUT_TYPE_VECTOR": "int",
    },
    "conversion.03_reinterpret": {
        "IN_TYPE_SCALAR": "half",
        "OUT_TYPE_SCALAR": "short",
        "IN_TYPE_VECTOR": "half",
        "OUT_TYPE_VECTOR": "short",
        "AS_FUNC": "as_short",
    },
    "conversion.04_explicit_convert": {
        "IN_TYPE_SCALAR": "half",
        "OUT_TYPE_SCALAR": "int",
        "IN_TYPE_VECTOR": "half",
        "OUT_TYPE_VECTOR": "int",
        "CONVERT_FUNC": "convert_int",
    },
    "regression.30_local_alignment": {
        "SIZE": "2",
        **{f"TYPE{n}": f"short{n}" for n in ("2", "3", "4", "8", "16")},
        "TYPE": "short",
    },
    "regression.31_local_struct_alignment": {"ALIGN": "8"},
    "regression.31_local_struct_alignment2": {"ALIGN": "8"},
    "regression.31_local_struct_alignment3": {"ALIGN": "8"},
    "regression.32_struct_member_alignment": {"TYPE": "char16"},
    "regression.38_attribute_align": {"ALIGN1": "8", "ALIGN2": "16"},
    "regression.44_short3_char3_codegen": {"CONVERT_FUNCTION": "convert_short3"},
    "regression.44_short3_uchar3_codegen": {"CONVERT_FUNCTION": "convert_short3"},
    "regression.44_ushort3_char3_codegen": {"CONVERT_FUNCTION": "convert_ushort3"},
    "regression.44_ushort3_uchar3_codegen": {"CONVERT_FUNCTION": "convert_ushort3"},
    "regression.49_local_select": {"SIZE": "16"},
    "task_10.04_onearg_relationals": {
        "IN_TY": "float",
        "OUT_TY": "int",
        "FUNC": "isfinite",
    },
    **{
        f"vloadvstore.0{n}_half_{space}": {
            "HALFN": "half4",
            "LOADN": "vload4",
            "STOREN": "vstore4",
            "ARRAY_LEN": "4",
        }
        for n, space in ((1, "global"), (2, "local"), (3, "private"), (4, "constant"))
    },
}
"""The -D values of kernels whose C++ test is parameterised (`testing::Values`):
the first parameter of each, read from the tests (ktst_conversions.cpp,
ktst_regression_02.cpp, ktst_compiler_barrier.cpp, ktst_vecz_tasks_task_10.cpp,
ktst_vload_vstore.cpp), where `test_macros` cannot evaluate them."""


def test_macros(expectations: Path) -> dict[str, dict[str, str]]:
    """Kernel file stem (`barrier.03_name`, lower-case) -> the first value each
    `AddMacro(name, value)` of its C++ tests gives. A value that is not a literal
    is looked up as a variable initialised with one earlier in the test
    (`const unsigned global_id = 1;`); one that cannot be resolved is left out."""
    macros: dict[str, dict[str, str]] = {}
    for cpp in sorted(expectations.glob("*.cpp")):
        text = cpp.read_text(encoding="utf-8", errors="replace")
        tests = list(_TEST_NAME.finditer(text))
        for index, test in enumerate(tests):
            end = tests[index + 1].start() if index + 1 < len(tests) else len(text)
            body = text[test.end() : end]
            found = _macros_of(body)
            if found:
                stem = f"{test.group(1)}.{test.group(2)}_{test.group(3)}".lower()
                macros.setdefault(stem, found)
    for stem, values in PARAMETERISED.items():
        macros[stem] = {**macros.get(stem, {}), **values}
    return macros


def _macros_of(body: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for match in _ADD_MACRO.finditer(body):
        name, value = match.group(1), match.group(2).strip()
        if name in found:
            continue
        value = re.sub(
            r"^\((?:unsigned|cl_\w+|int|unsigned int|size_t)\)\s*", "", value
        )
        if value.startswith('"') and value.endswith('"'):
            value = value[1:-1]
        elif not _NUMBER.fullmatch(value):
            value = _variable_value(body[: match.start()], value)
        if value is not None:
            found[name] = value
    return found


def _variable_value(before: str, name: str) -> str | None:
    if not re.fullmatch(r"\w+", name):
        return None
    pattern = rf"\b{name}\s*(?:=\s*|\{{\s*)([-+\w.]+)\s*\}}?\s*;"
    assigned = re.findall(pattern, before)
    if assigned and _NUMBER.fullmatch(assigned[-1]):
        return assigned[-1]
    return None


# ---------------------------------------------------------------------------
# Naming the reason of a refusal

REASONS: tuple[tuple[str, str], ...] = (
    (r"image|sampler", "images"),
    (r"printf", "printf"),
    (r"not (yet )?in the (builtin )?library", "builtin"),
    (r"struct by value, not a !llvmx\.packed_struct", "packed struct by value"),
    (r"\bhalf\b|cl_khr_fp16|\bf16\b", "half"),
    (r"\bdouble\b|cl_khr_fp64|\bf64\b", "double"),
    (r"^[^\n]*:\d+:\d+: error:[^\n]*(undeclared|no matching|unknown type)", "clang"),
    (r"^[^\n]*:\d+:\d+: error:", "clang"),
)
"""(pattern of a CompileError message, the reason it names), first match wins;
a message none matches is its first line's gist."""


def refusal_reason(message: str) -> str:
    """The reason a CompileError's message names (`REASONS`)."""
    for pattern, reason in REASONS:
        if re.search(pattern, message, re.IGNORECASE | re.MULTILINE):
            if reason == "builtin":
                name = re.search(r"builtin '?([\w.]+)", message)
                return f"builtin {name.group(1)}" if name else reason
            return reason
    first = message.strip().splitlines()[0] if message.strip() else "no message"
    first = re.sub(r"^\S*?:(\d+:)*\s*error:\s*", "", first)
    return re.sub(r"'[^']*'|\"[^\"]*\"|\d+", "_", first)[:90]


# ---------------------------------------------------------------------------
# The worker: compiles files one after another


def compile_file(kernel_file: KernelFile, macros: dict[str, str]) -> dict:
    """Compiles one file through the whole pipeline; its outcome as a record."""
    import mux

    options = kernel_file.build_options(macros)
    try:
        program = mux.compile(
            kernel_file.path.read_text(encoding="utf-8"),
            language="opencl",
            build_options=options,
            name=kernel_file.path.name,
        )
        for name in program.kernels:
            program.kernel(name).compiled()
    except mux.CompileError as error:
        message = str(error)
        return {
            "outcome": "refused",
            "reason": refusal_reason(message),
            "message": message,
        }
    except Exception as error:  # every other exception is a crash
        detail = "".join(traceback.format_exception(error))
        return {"outcome": "crashed", "reason": type(error).__name__, "message": detail}
    return {"outcome": "compiled", "kernels": len(program.kernels)}


def execute_file(kernel_file: KernelFile, macros: dict[str, str], launches) -> dict:
    """Runs a file's manifest (`conformance_manifests`): its record, `passed`,
    `failed` (with the reason) or `crashed`."""
    from conformance_manifests import run_file

    program = program_cache(kernel_file)

    def build(launch):
        options = launch_options(kernel_file, macros, launch)
        return program(options, launch.sub_group_size)

    try:
        return run_file(launches, build, kernel_file.path.stem)
    except Exception as error:  # every other exception is a crash
        detail = "".join(traceback.format_exception(error))
        return {"outcome": "crashed", "reason": type(error).__name__, "message": detail}


def program_cache(kernel_file: KernelFile):
    """A function compiling the file with mux (`mux.compile`) for given build
    options and sub-group size, each pair once."""
    import mux

    source = kernel_file.path.read_text(encoding="utf-8")
    programs: dict[tuple[str, int], mux.Program] = {}

    def program(options: str, sub_group_size: int = 1) -> mux.Program:
        key = (options, sub_group_size)
        if key not in programs:
            programs[key] = mux.compile(
                source,
                language="opencl",
                build_options=options,
                name=kernel_file.path.name,
                sub_group_size=sub_group_size,
            )
        return programs[key]

    return program


def launch_options(kernel_file: KernelFile, macros: dict[str, str], launch) -> str:
    """clBuildProgram's options for a manifest's launch: the file's, its test's
    `macros` under the launch's own, then the launch's other options."""
    options = kernel_file.build_options({**macros, **launch.macros})
    return f"{options} {launch.options}".strip()


def worker(suite: Path, execute: bool = False) -> None:
    """Reads file paths from stdin, answers one JSON line each on stdout: the
    file compiled, or (`execute`) its manifest run."""
    os.environ["MUX_CACHE_DIR"] = ""
    faulthandler.enable()  # a fatal signal's stacks to stderr, the parent's log
    macros = test_macros(suite / "expectations")
    launches = {}
    if execute:
        from conformance_manifests import manifests

        launches = manifests()
    out = sys.stdout
    sys.stdout = sys.stderr  # nothing else may write to the answers' stream
    for line in sys.stdin:
        path = Path(line.strip())
        kernel_file = read_header(path)
        file_macros = macros.get(path.stem.lower(), {})
        if execute:
            record = execute_file(kernel_file, file_macros, launches[path.stem])
        else:
            record = compile_file(kernel_file, file_macros)
        out.write(json.dumps(record) + "\n")
        out.flush()


# ---------------------------------------------------------------------------
# The parent: hands files to workers, replaces the dead and the hung


@dataclass
class _Worker:
    command: list[str]
    process: subprocess.Popen = field(init=False)
    path: Path | None = None
    started: float = 0.0
    log: IO[bytes] = field(init=False)
    """The worker's stderr, emptied for each file: what a dying worker last said
    (`last_words`)."""

    def __post_init__(self) -> None:
        # appended to by the worker, closed by `kill`
        self.log = tempfile.TemporaryFile("a+b")  # noqa: SIM115
        self.process = subprocess.Popen(
            self.command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
            cwd=REPO,
            env={**os.environ, "PYTHONPATH": str(REPO), "MUX_CACHE_DIR": ""},
        )

    def give(self, path: Path) -> None:
        self.log.truncate(0)
        self.path, self.started = path, time.monotonic()
        assert self.process.stdin is not None
        self.process.stdin.write(f"{path}\n")
        self.process.stdin.flush()

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()
        self.log.close()

    def last_words(self) -> str:
        """The end of what the worker wrote to stderr on its current file: for a
        fatal signal, faulthandler's stacks of its threads, after what the
        library that raised it said (LLVM's fatal errors print before aborting)."""
        self.log.seek(0)
        text = self.log.read().decode("utf-8", "replace")
        start = text.rfind("Fatal Python error")
        return text[max(0, start - 2000) :] if start >= 0 else text[-2000:]


def run(
    suite: Path,
    paths: list[Path],
    jobs: int,
    timeout: float,
    worker_command: list[str] | None = None,
    execute: bool = False,
) -> dict[Path, dict]:
    """Each path's outcome record, compiled (or, `execute`, its manifest run) by
    `jobs` workers (processes running `worker_command`, by default this script's
    `--worker`)."""
    command = worker_command or [sys.executable, __file__, "--worker", str(suite)]
    if execute and worker_command is None:
        command.append("--run")
    pending = list(reversed(paths))
    results: dict[Path, dict] = {}
    workers = [_Worker(command) for _ in range(min(jobs, len(paths)))]
    for w in workers:
        if pending:
            w.give(pending.pop())
    while any(w.path is not None for w in workers):
        busy = {w.process.stdout: w for w in workers if w.path is not None}
        ready, _, _ = select.select(list(busy), [], [], 1.0)
        for stream in ready:
            w = busy[stream]
            line = stream.readline()
            if line:
                results[w.path] = json.loads(line)
            else:
                code = w.process.wait()
                reason = f"the worker process died (status {code})"
                results[w.path] = _crash(reason, w.last_words())
                w.log.close()
                workers[workers.index(w)] = w = _Worker(command)
            w.path = None
        for i, w in enumerate(workers):
            if w.path is not None and time.monotonic() - w.started > timeout:
                results[w.path] = _crash(f"no answer within {timeout:g} s (a hang)")
                w.kill()
                workers[i] = w = _Worker(command)
        for w in workers:
            if w.path is None and pending:
                w.give(pending.pop())
        _progress(len(results), len(paths))
    for w in workers:
        w.kill()
    return results


def _crash(reason: str, detail: str = "") -> dict:
    message = f"{reason}\n{detail}" if detail else reason
    return {"outcome": "crashed", "reason": reason, "message": message}


def _progress(done: int, total: int) -> None:
    if sys.stderr.isatty():
        print(f"\r{done}/{total}", end="", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------
# The report


def group_table(
    results: dict[Path, dict],
    outcomes: Sequence[str],
    counted: str = "files",
    largest_first: bool = False,
) -> tuple[list[str], Counter]:
    """The markdown table of the records `results` (by kernel file) by group, a
    file's name up to its first dot: a header, a row per group (alphabetical, or
    the largest first) of how many files had each of `outcomes`, then the totals;
    and the totals. Every mode's report starts with one."""
    by_group: dict[str, Counter] = defaultdict(Counter)
    for path, record in results.items():
        by_group[path.name.split(".", 1)[0]][record["outcome"]] += 1

    def size_then_name(group: str) -> tuple[int, str]:
        return -sum(by_group[group].values()), group

    def row(name: str, counts: Counter) -> str:
        cells = " | ".join(str(counts[o]) for o in outcomes)
        return f"| {name} | {sum(counts.values())} | {cells} |"

    lines = [
        f"| group | {counted} | " + " | ".join(outcomes) + " |",
        "| --- | ---: | " + " | ".join("---:" for _ in outcomes) + " |",
    ]
    total: Counter = Counter()
    for group in sorted(by_group, key=size_then_name if largest_first else None):
        total.update(by_group[group])
        lines.append(row(group, by_group[group]))
    lines.append(row("**all**", total))
    return lines, total


def table(results: dict[Path, dict]) -> str:
    """The markdown tables: outcomes by group, then refusals and crashes by reason."""
    reasons: dict[str, Counter] = defaultdict(Counter)
    crashes = []
    for path, record in results.items():
        group = path.name.split(".", 1)[0]
        if record["outcome"] == "refused":
            reasons[record["reason"]][group] += 1
        elif record["outcome"] == "crashed":
            crashes.append(f"- `{path.name}`: {record['reason']}")
    lines, total = group_table(results, OUTCOMES, largest_first=True)
    files = sum(total.values())
    share = 100.0 * total["compiled"] / files if files else 0.0
    lines += [
        "",
        f"Compiled: {total['compiled']} of {files} files ({share:.1f} %).",
        "",
    ]
    lines += ["| refused because | files | groups |", "| --- | ---: | --- |"]
    for reason, groups in sorted(reasons.items(), key=lambda r: -sum(r[1].values())):
        named = ", ".join(f"{g} {n}" for g, n in groups.most_common())
        lines.append(f"| {reason} | {sum(groups.values())} | {named} |")
    if crashes:
        lines += ["", "Crashed:", "", *sorted(crashes)]
    return "\n".join(lines) + "\n"


PAGE = """\
# Conformance: UnitCL's kernels through our compiler

The oneAPI Construction Kit's own OpenCL C test suite, UnitCL (930 kernels, in
`../shared/suites/unitcl/`), compiled file by file through the whole host
pipeline to machine code, every kernel of each file. Generated by

    python scripts/conformance.py --markdown docs/conformance.md

which says how each file is built (its header's `CL_STD` and `DEFINITIONS`, the
`-D` values its C++ test passes). A file is *compiled* when every kernel in it
reached machine code, *refused* when the compiler said why not with a
`CompileError` (the reason below is named from its message), *crashed* for any
other exception, a dead process or a hang. Whether they compute the right
values is the execution section below (`--run`). `tests/test_conformance.py`
runs a subset of both in the test suite.

{table}"""
"""docs/conformance.md: what the table means, then the table."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("suite", nargs="?", type=Path, default=DEFAULT_SUITE)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=float, default=TIMEOUT_SECONDS)
    parser.add_argument("--only", default="*", help="a glob of file names")
    parser.add_argument("--markdown", type=Path, help="write the table here too")
    parser.add_argument("--json", type=Path, help="write every file's record here")
    parser.add_argument("--run", action="store_true", help="run the manifests")
    parser.add_argument(
        "--vs-pocl", action="store_true", help="run on mux and PoCL, compare"
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.suite, execute=args.run)
        return 0
    if args.run:
        return execute(args)
    if args.vs_pocl:
        import conformance_pocl

        return conformance_pocl.main(args)
    paths = sorted(
        p
        for p in (args.suite / "kernels").glob("*.cl")
        if fnmatch.fnmatch(p.name, args.only)
    )
    if not paths:
        print(
            f"no kernels matching '{args.only}' in {args.suite / 'kernels'}",
            file=sys.stderr,
        )
        return 2
    results = run(args.suite, paths, args.jobs, args.timeout)
    report = table(results)
    print(report)
    if args.markdown:
        old = (
            args.markdown.read_text(encoding="utf-8") if args.markdown.exists() else ""
        )
        starts = [old.index(h) for h in (EXECUTION_HEADING, POCL_HEADING) if h in old]
        kept = old[min(starts) :] if starts else ""
        page = PAGE.format(table=report)
        args.markdown.write_text(f"{page}\n{kept}" if kept else page, encoding="utf-8")
    if args.json:
        records = {p.name: r for p, r in sorted(results.items())}
        args.json.write_text(json.dumps(records, indent=1), encoding="utf-8")
    return 1 if any(r["outcome"] == "crashed" for r in results.values()) else 0


def execute(args: argparse.Namespace) -> int:
    """`--run`: every file with a manifest (and matching `--only`) run and checked;
    the table printed, and with `--markdown` put in that page's execution section
    (the compile table stays)."""
    from conformance_manifests import manifests, run_table

    stems = manifests()
    paths = sorted(
        args.suite / "kernels" / f"{stem}.cl"
        for stem in stems
        if fnmatch.fnmatch(f"{stem}.cl", args.only)
    )
    results = run(args.suite, paths, args.jobs, args.timeout, execute=True)
    report = run_table(results)
    print(report)
    if args.markdown:
        exists = args.markdown.exists()
        page = args.markdown.read_text(encoding="utf-8") if exists else ""
        page, _, after = page.partition(EXECUTION_HEADING)
        kept = after[after.index(POCL_HEADING) :] if POCL_HEADING in after else ""
        section = EXECUTION_SECTION.format(table=report)
        page = f"{page.rstrip()}\n\n{section}" + (f"\n{kept}" if kept else "")
        args.markdown.write_text(page, encoding="utf-8")
    if args.json:
        records = {p.name: r for p, r in sorted(results.items())}
        args.json.write_text(json.dumps(records, indent=1), encoding="utf-8")
    return 1 if any(r["outcome"] == "crashed" for r in results.values()) else 0


EXECUTION_HEADING = "## Execution: the manifests"
EXECUTION_SECTION = (
    EXECUTION_HEADING
    + """

The kernels that have a manifest (`scripts/conformance_manifests/`: each
launch's arguments, sizes and build options and the expected result as numpy,
written from the facts of UnitCL's C++ tests) run and checked by

    python scripts/conformance.py --run --markdown docs/conformance.md

A kernel *passed* when every launch of its manifest produced the expected
outputs, *failed* when one did not (the first wrong element, expected vs got),
did not compile or was refused at launch, *crashed* for any other exception, a
dead process or a hang.

{table}"""
)
"""The execution section of docs/conformance.md, after the compile tables."""
POCL_HEADING = "## Against PoCL"
"""The section of `--vs-pocl` (scripts/conformance_pocl.py), after the execution
section: `--run` keeps it."""


if __name__ == "__main__":
    sys.exit(main())
