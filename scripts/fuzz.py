"""Mutation fuzzing of the compiler: bad input must give a diagnostic, never a
Python traceback, a crash or a hang.

Seeds are every `examples/*.mlir` and `tests/filecheck/**/*.mlir` input, split at
the `// -----` markers (lit's `Output/` directories are skipped), each also in the
generic form when it parses. A mutant is a seed with one to four mutations (a token,
a type, a constant, an SSA name, an attribute or an enum replaced; a line deleted,
duplicated or swapped; the text truncated; a string literal left unclosed; ...),
drawn from a random generator seeded with `--seed` and the mutant's number: the same
`--seed` gives the same mutants, whatever `--jobs`.

Each mutant runs in a worker of a process pool, with a time limit (`--timeout`): a
worker that dies (a signal) or overruns is killed and replaced, and only that case is
lost. The targets (`--target`):

* `api`: `mux.compile(text)`, then for each kernel `prog.kernel(name)` and its first
  compile, `kernel.compiled()` (nothing is launched);
* `cli`: `mux-opt -p host` or `mux-opt -p host -t llvm` (alternately), through
  `mux.opt.main` in the worker;
* `both` (the default): the mutants alternate between the two;
* `checked`: `mux.compile(text, checked=True)`, then each kernel compiled for a
  local size of (4, 2, 1) (as its first launch would be; its required size if it
  has one): checked mode's passes, and the compile-time proofs that need a
  known work-group size (`lowering/common/group_values.py`).

Outcomes: `ok`; `error`, the expected refusal (`mux.CompileError`/`mux.LaunchError`
from the API; a diagnostic on stderr and exit status 1 from mux-opt); `uncaught`,
any other exception, grouped by its site (the innermost frame in this project's code
or in xDSL, and the exception's type); `crash`, the worker killed by a signal;
`hang`, over the time limit. The summary gives the count of each outcome and, per
distinct site, its count and its shortest reproducer; `--save DIR` writes that
reproducer of each site (minimised by deleting lines, as long as the site stays the
same) to DIR. The exit status is 1 if anything but `ok` and `error` was seen.

    python scripts/fuzz.py --count 2000 --jobs 2 --save /tmp/fuzz
"""

from __future__ import annotations

import argparse
import contextlib
import io
import multiprocessing
import multiprocessing.connection
import os
import random
import re
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUR_PACKAGES = tuple(
    str(REPO / package) + os.sep for package in ("dialects", "lowering", "mux")
)
OUTCOMES = ("ok", "error", "uncaught", "crash", "hang")
RECYCLE_AFTER = 300
"""Cases a worker runs before it is replaced (the JIT's memory is not all freed)."""

# ---------------------------------------------------------------------------
# Seeds


def seed_files() -> list[Path]:
    """The inputs: the examples and the lit tests' inputs (not lit's `Output/`)."""
    files = sorted((REPO / "examples").glob("*.mlir"))
    files += sorted(
        path
        for path in (REPO / "tests" / "filecheck").rglob("*.mlir")
        if "Output" not in path.relative_to(REPO).parts
    )
    return files


SPLIT_MARKER = re.compile(r"^// -----\s*$", re.MULTILINE)


def split_chunks(text: str) -> list[str]:
    """The chunks of a `--split-input-file` file, without their comment lines
    (RUN and CHECK lines would only waste mutations)."""
    chunks = []
    for chunk in SPLIT_MARKER.split(text):
        lines = [
            line for line in chunk.splitlines() if not line.lstrip().startswith("//")
        ]
        body = "\n".join(lines).strip()
        if body:
            chunks.append(body + "\n")
    return chunks


def generic_form(text: str) -> str | None:
    """`text` printed in the generic form, if it parses and verifies."""
    from xdsl.printer import Printer

    from mux.compiler import parse
    from mux.errors import CompileError

    try:
        module = parse(text)
    except CompileError:
        return None
    out = io.StringIO()
    Printer(stream=out, print_generic_format=True).print_op(module)
    return out.getvalue() + "\n"


def load_seeds() -> list[str]:
    seeds: list[str] = []
    for path in seed_files():
        for chunk in split_chunks(path.read_text()):
            seeds.append(chunk)
            generic = generic_form(chunk)
            if generic is not None:
                seeds.append(generic)
    return seeds


# ---------------------------------------------------------------------------
# Mutations

TOKEN = re.compile(
    r"""
    (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<ssa>%[A-Za-z0-9_$.-]+(?:[:#][0-9]+)?)
  | (?P<block>\^[A-Za-z0-9_$.-]+)
  | (?P<symbol>@[A-Za-z0-9_$.-]+)
  | (?P<alias>[#!][A-Za-z0-9_$.-]+)
  | (?P<number>-?(?:0x[0-9A-Fa-f]+|[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?))
  | (?P<word>[A-Za-z_][A-Za-z0-9_$.]*)
  | (?P<punct>->|::|[(){}\[\]<>,:=*?+|-])
    """,
    re.VERBOSE,
)

TYPES = (
    "i1",
    "i8",
    "i16",
    "i32",
    "i64",
    "i128",
    "i0",
    "si32",
    "ui8",
    "index",
    "f16",
    "bf16",
    "f32",
    "f64",
    "none",
    "vector<4xi32>",
    "vector<8xf32>",
    "vector<4xindex>",
    "vector<2xi1>",
    "vector<[4]xi32>",
    "vector<0xi32>",
    "memref<?xf32>",
    "memref<16xi32>",
    "memref<?xf32, 1>",
    "memref<?xf32, 3>",
    "memref<4x4xf32>",
    "memref<?x?xf32>",
    "memref<f32>",
    "tuple<>",
    "tuple<i32>",
    "!llvm.ptr",
    "!llvm.ptr<3>",
    "!llvm.struct<(i32)>",
    "!llvm.array<4 x i32>",
    "complex<f32>",
    "tensor<4xf32>",
)


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


TYPE_WORD = re.compile(r"^(?:[su]?i[0-9]+|index|f16|bf16|f32|f64|f80|f128|none)$")

NUMBERS = _words(
    "0 1 -1 2 3 7 8 31 32 63 64 127 128 255 256 1023 1024 65536 2147483647 "
    "2147483648 -2147483648 4294967295 4294967296 9223372036854775807 "
    "9223372036854775808 -9223372036854775808 -9223372036854775809 "
    "18446744073709551615 18446744073709551616 "
    "340282366920938463463374607431768211456 0.5 -0.0 1.5e38 3.5e38 1e309 "
    "0x7FC00000 0xFFFFFFFFFFFFFFFF 0x1FFFFFFFFFFFFFFFF "
)

ATTRIBUTE_VALUES = (
    "unit",
    '"entry-point"',
    '"kernel"',
    '""',
    '"x"',
    "0 : i32",
    "-1 : i64",
    "5 : i32",
    "1 : index",
    "true",
    "false",
    "array<i64: 1, 2, 3>",
    "array<i64: 0, 1, 1>",
    "array<i64>",
    "array<i32: 4>",
    "array<i128: 0>",
    "[]",
    "[1, 2]",
    "{}",
    "i32",
    "@k",
    "dense<0> : vector<4xi32>",
    "#llvm.linkage<internal>",
    "1.5 : f32",
)

ENUMS = _words(
    "eq ne slt sle sgt sge ult ule ugt uge oeq one olt ole ogt oge ueq une uno "
    "ord true false device work_group sub_group work_item acquire release "
    "acq_rel seq_cst relaxed monotonic unordered global local private constant "
    "add sub min max umin umax and or xor xchg fadd fmax x y z internal external "
    "weak "
)

UNCLOSED_STRINGS = (
    '"entry-point, ',
    '"abc',
    '"\\',
    '"\\q"',
    '"\\4',
)


def tokens(text: str) -> list[re.Match[str]]:
    return list(TOKEN.finditer(text))


def _replace(text: str, match: re.Match[str], new: str) -> str:
    return text[: match.start()] + new + text[match.end() :]


class Mutator:
    """The mutations, drawn from `rng`, with replacements from the seeds' own tokens."""

    def __init__(self, seeds: list[str]):
        self.pool: dict[str, list[str]] = {}
        keys: set[str] = set()
        for seed in seeds:
            for match in tokens(seed):
                self.pool.setdefault(match.lastgroup or "", []).append(match.group())
            keys.update(re.findall(r"([A-Za-z_][\w.$]*)\s*=\s*(?![=])", seed))
        self.pool = {kind: sorted(set(values)) for kind, values in self.pool.items()}
        self.attribute_keys = sorted(keys)
        self.mutations = [
            self.token,
            self.token,
            self.type,
            self.constant,
            self.constant,
            self.ssa_name,
            self.ssa_name,
            self.attribute,
            self.attribute_key,
            self.enum,
            self.delete_line,
            self.delete_line,
            self.duplicate_line,
            self.swap_lines,
            self.move_line,
            self.truncate,
            self.unclosed_string,
            self.delete_char,
            self.insert_punct,
        ]

    def mutate(self, rng: random.Random, text: str) -> str:
        count = 1
        while count < 4 and rng.random() < 0.4:
            count += 1
        for _ in range(count):
            if not text:  # truncated to nothing: nothing left to mutate
                break
            text = rng.choice(self.mutations)(rng, text)
        return text

    # token-level

    def _pick(
        self, rng: random.Random, text: str, kinds: Iterable[str]
    ) -> re.Match[str] | None:
        kinds = set(kinds)
        matches = [m for m in tokens(text) if m.lastgroup in kinds]
        return rng.choice(matches) if matches else None

    def token(self, rng: random.Random, text: str) -> str:
        """A token replaced by another of its kind (an op name by another op name,
        a symbol by another symbol, ...), sometimes by one of any kind."""
        match = self._pick(rng, text, self.pool)
        if match is None:
            return text
        kind = match.lastgroup if rng.random() < 0.8 else rng.choice(sorted(self.pool))
        return _replace(text, match, rng.choice(self.pool[kind or ""]))

    def type(self, rng: random.Random, text: str) -> str:
        matches = [
            m
            for m in tokens(text)
            if m.lastgroup == "word" and TYPE_WORD.match(m.group())
        ]
        vectors = list(re.finditer(r"(?:vector|memref|tensor)<[^<>]*>", text))
        matches += vectors
        if not matches:
            return text
        return _replace(text, rng.choice(matches), rng.choice(TYPES))

    def constant(self, rng: random.Random, text: str) -> str:
        match = self._pick(rng, text, ["number"])
        if match is None:
            return text
        return _replace(text, match, rng.choice(NUMBERS))

    def ssa_name(self, rng: random.Random, text: str) -> str:
        """A use of a value replaced by another value of the text (maybe defined
        later, maybe the op's own result), or a name never defined."""
        ssa = [m for m in tokens(text) if m.lastgroup == "ssa"]
        if not ssa:
            return text
        match = rng.choice(ssa)
        names = sorted({m.group() for m in ssa})
        new = rng.choice(names) if rng.random() < 0.9 else "%undefined"
        return _replace(text, match, new)

    def attribute(self, rng: random.Random, text: str) -> str:
        """The value of a `key = value` entry replaced (up to the next `,` or `}`
        when the value is simple, else its first token)."""
        entries = list(re.finditer(r"([A-Za-z_][\w.$]*\s*=\s*)([^,{}()\n]*)", text))
        if not entries:
            return text
        match = rng.choice(entries)
        value = rng.choice(ATTRIBUTE_VALUES)
        return text[: match.start(2)] + value + text[match.end(2) :]

    def attribute_key(self, rng: random.Random, text: str) -> str:
        """An attribute entry added to an attribute dictionary (a `{` after which
        an entry follows), or an entry's key replaced."""
        if rng.random() < 0.5:
            keys = list(re.finditer(r"([A-Za-z_][\w.$]*)(\s*=)", text))
            if not keys:
                return text
            match = rng.choice(keys)
            return (
                text[: match.start(1)]
                + rng.choice(self.attribute_keys)
                + text[match.end(1) :]
            )
        braces = [m.end() for m in re.finditer(r"\{", text)]
        if not braces:
            return text
        at = rng.choice(braces)
        entry = f"{rng.choice(self.attribute_keys)} = {rng.choice(ATTRIBUTE_VALUES)}"
        after = text[at:].lstrip()
        separator = "" if after.startswith("}") or after.startswith("\n") else ", "
        return text[:at] + entry + separator + text[at:]

    def enum(self, rng: random.Random, text: str) -> str:
        matches = [
            m for m in tokens(text) if m.lastgroup == "word" and m.group() in ENUMS
        ]
        if not matches:
            matches = [
                m
                for m in tokens(text)
                if m.lastgroup == "word" and "." not in m.group()
            ]
        if not matches:
            return text
        return _replace(text, rng.choice(matches), rng.choice(ENUMS))

    # line-level

    def delete_line(self, rng: random.Random, text: str) -> str:
        lines = text.splitlines(keepends=True)
        if len(lines) > 1:
            del lines[rng.randrange(len(lines))]
        return "".join(lines)

    def duplicate_line(self, rng: random.Random, text: str) -> str:
        lines = text.splitlines(keepends=True)
        if not lines:
            return text
        i = rng.randrange(len(lines))
        lines.insert(rng.randrange(len(lines) + 1), lines[i])
        return "".join(lines)

    def swap_lines(self, rng: random.Random, text: str) -> str:
        lines = text.splitlines(keepends=True)
        if len(lines) > 1:
            i = rng.randrange(len(lines) - 1)
            j = i + 1 if rng.random() < 0.6 else rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        return "".join(lines)

    def move_line(self, rng: random.Random, text: str) -> str:
        lines = text.splitlines(keepends=True)
        if not lines:
            return text
        line = lines.pop(rng.randrange(len(lines)))
        lines.insert(rng.randrange(len(lines) + 1), line)
        return "".join(lines)

    # character-level

    def truncate(self, rng: random.Random, text: str) -> str:
        return text[: rng.randrange(len(text) + 1)]

    def unclosed_string(self, rng: random.Random, text: str) -> str:
        """A string literal whose closing quote is gone (the rest of its line is
        then inside the string), or an unclosed one inserted."""
        strings = self._pick(rng, text, ["string"])
        if strings is not None and rng.random() < 0.7:
            return text[: strings.end() - 1] + text[strings.end() :]
        at = rng.randrange(len(text) + 1)
        return text[:at] + rng.choice(UNCLOSED_STRINGS) + text[at:]

    def delete_char(self, rng: random.Random, text: str) -> str:
        if not text:
            return text
        at = rng.randrange(len(text))
        return text[:at] + text[at + 1 :]

    def insert_punct(self, rng: random.Random, text: str) -> str:
        at = rng.randrange(len(text) + 1)
        return text[:at] + rng.choice('(){}[]<>,:=%^@#!"-?*x0') + text[at:]


# ---------------------------------------------------------------------------
# Running a case (in a worker)

TARGETS = {
    "api": (),
    "checked": (),
    "cli": ("-p", "host"),
    "cli-llvm": ("-p", "host", "-t", "llvm"),
}


@dataclass(frozen=True)
class Result:
    outcome: str
    site: str = ""
    """For `uncaught`: file:line of the innermost frame of ours or xDSL's, and the
    exception type; for `crash`: the signal; for `hang`: the target."""
    message: str = ""


def crash_site(error: BaseException) -> str:
    """file:line of the innermost frame in dialects/, lowering/, mux/ or xDSL."""
    import xdsl

    xdsl_dir = Path(xdsl.__file__).resolve().parent
    where = "?"
    for frame in traceback.extract_tb(error.__traceback__):
        path = Path(frame.filename).resolve()
        if str(path).startswith(OUR_PACKAGES):
            where = f"{path.relative_to(REPO)}:{frame.lineno}"
        elif path.is_relative_to(xdsl_dir):
            where = f"{path.relative_to(xdsl_dir.parent)}:{frame.lineno}"
    return f"{where} {type(error).__name__}"


CHECKED_LOCAL_SIZE = (4, 2, 1)
"""The local size the `checked` target compiles each kernel for."""


def run_api(text: str, checked: bool = False) -> Result:
    import mux

    try:
        program = mux.compile(text, name="<fuzz>", checked=checked)
        for name in program.kernels:
            kernel = program.kernel(name)
            kernel.compiled(CHECKED_LOCAL_SIZE if checked else None)
    except (mux.CompileError, mux.LaunchError) as error:
        return Result("error", message=str(error)[:200])
    return Result("ok")


def run_cli(text: str, flags: tuple[str, ...]) -> Result:
    from mux.opt import main

    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as file:
        file.write(text)
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main([file.name, *flags, "-o", os.devnull])
    finally:
        os.unlink(file.name)
    if status == 0:
        return Result("ok")
    if status == 1 and err.getvalue().strip():
        return Result("error", message=err.getvalue()[:200])
    return Result(
        "uncaught", f"mux-opt exit {status} with stderr {err.getvalue()[:80]!r}"
    )


def run_case(target: str, text: str) -> Result:
    import mux.compiler

    try:
        if target in ("api", "checked"):
            return run_api(text, checked=target == "checked")
        return run_cli(text, TARGETS[target])
    except SystemExit as error:
        return Result("uncaught", f"SystemExit {error.code}", text[:0])
    except Exception as error:  # what the fuzzer is here to find
        message = "".join(traceback.format_exception_only(error)).strip()
        return Result("uncaught", crash_site(error), message[:300])
    finally:
        # Each case on its own: no compiled kernel or parsed module is shared.
        mux.compiler._CACHE.clear()
        mux.compiler._PARSED.clear()


def worker_main(connection: multiprocessing.connection.Connection) -> None:
    os.environ["MUX_CACHE_DIR"] = ""  # no disk cache: every case compiles for real
    while True:
        case = connection.recv()
        if case is None:
            return
        number, target, text = case
        connection.send((number, run_case(target, text)))


# ---------------------------------------------------------------------------
# The pool


@dataclass
class Worker:
    process: multiprocessing.Process
    connection: multiprocessing.connection.Connection
    case: tuple[int, str, str] | None = None
    started: float = 0.0
    done: int = 0


class Pool:
    """Workers forked from this process (which has imported the compiler already),
    one case each at a time, each case with a time limit."""

    def __init__(self, jobs: int, timeout: float):
        self.jobs = jobs
        self.timeout = timeout
        self.context = multiprocessing.get_context("fork")
        self.workers: list[Worker] = []

    def _start(self) -> Worker:
        parent, child = self.context.Pipe()
        process = self.context.Process(target=worker_main, args=(child,), daemon=True)
        process.start()
        child.close()
        return Worker(process, parent)

    def _stop(self, worker: Worker, kill: bool) -> None:
        if kill:
            worker.process.kill()
        else:
            with contextlib.suppress(OSError):
                worker.connection.send(None)
        worker.process.join(5)
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join()
        worker.connection.close()

    def run(
        self, cases: Iterable[tuple[int, str, str]], timeout: float | None = None
    ) -> Iterator[tuple[int, str, str, Result]]:
        """(number, target, text, result) of each case, in the order they end."""
        limit = self.timeout if timeout is None else timeout
        pending = iter(cases)
        while len(self.workers) < self.jobs:
            self.workers.append(self._start())
        exhausted = False
        while True:
            for worker in self.workers:
                if worker.case is None and not exhausted:
                    case = next(pending, None)
                    if case is None:
                        exhausted = True
                        break
                    worker.case, worker.started = case, time.monotonic()
                    worker.connection.send(case)
            busy = [w for w in self.workers if w.case is not None]
            if not busy:
                return
            now = time.monotonic()
            wait = max(0.0, min(w.started + limit for w in busy) - now)
            ready = multiprocessing.connection.wait([w.connection for w in busy], wait)
            for index, worker in enumerate(self.workers):
                case = worker.case
                if case is None:
                    continue
                result = None
                replace = False
                if worker.connection in ready:
                    try:
                        number, result = worker.connection.recv()
                        assert number == case[0]
                        worker.done += 1
                        replace = worker.done >= RECYCLE_AFTER
                    except (EOFError, OSError):
                        worker.process.join(5)
                        code = worker.process.exitcode
                        signal = (
                            f"signal {-code}"
                            if code is not None and code < 0
                            else f"exit {code}"
                        )
                        result, replace = Result("crash", f"{signal} ({case[1]})"), True
                elif time.monotonic() - worker.started >= limit:
                    result, replace = (
                        Result("hang", f"over {limit:g} s ({case[1]})"),
                        True,
                    )
                if result is None:
                    continue
                worker.case = None
                if replace:
                    self._stop(worker, kill=result.outcome in ("crash", "hang"))
                    self.workers[index] = self._start()
                yield case[0], case[1], case[2], result

    def close(self) -> None:
        for worker in self.workers:
            self._stop(worker, kill=worker.case is not None)
        self.workers = []


# ---------------------------------------------------------------------------
# Minimising a reproducer


def minimise(pool: Pool, target: str, text: str, result: Result, budget: float) -> str:
    """`text` with as many lines deleted as keep the same outcome and site (delta
    debugging over lines: chunks of half the lines, then quarters, ... then single
    lines), for at most `budget` seconds."""
    deadline = time.monotonic() + budget
    lines = text.splitlines(keepends=True)
    timeout = min(pool.timeout, 5.0)

    def same(candidate: list[str]) -> bool:
        [(_, _, _, got)] = pool.run([(0, target, "".join(candidate))], timeout)
        return got.outcome == result.outcome and got.site == result.site

    chunk = max(1, len(lines) // 2)
    while chunk >= 1 and time.monotonic() < deadline:
        start = 0
        while start < len(lines) and time.monotonic() < deadline:
            candidate = lines[:start] + lines[start + chunk :]
            if candidate and same(candidate):
                lines = candidate
            else:
                start += chunk
        chunk //= 2
    return "".join(lines)


# ---------------------------------------------------------------------------
# The campaign


@dataclass
class Site:
    count: int = 0
    reproducer: str = ""
    target: str = ""
    message: str = ""
    result: Result | None = None
    numbers: list[int] = field(default_factory=list)


def target_of(mode: str, number: int) -> str:
    if mode in ("api", "checked"):
        return mode
    cli = "cli-llvm" if (number // 2) % 2 else "cli"
    if mode == "cli":
        return "cli-llvm" if number % 2 else "cli"
    return "api" if number % 2 == 0 else cli


def mutants(seeds: list[str], mutator: Mutator, seed: int, count: int, mode: str):
    for number in range(count):
        rng = random.Random(f"{seed}:{number}")
        text = mutator.mutate(rng, rng.choice(seeds))
        yield number, target_of(mode, number), text


@dataclass
class Report:
    """The outcome of a campaign."""

    count: int
    seed: int
    target: str
    jobs: int
    timeout: float
    seeds: int = 0
    elapsed: float = 0.0
    outcomes: Counter[str] = field(default_factory=Counter)
    per_target: Counter[tuple[str, str]] = field(default_factory=Counter)
    sites: dict[tuple[str, str], Site] = field(default_factory=dict)

    @property
    def failures(self) -> int:
        """Cases that were neither `ok` nor an expected `error`."""
        return sum(self.outcomes[outcome] for outcome in ("uncaught", "crash", "hang"))

    def summary(self) -> str:
        rate = self.count / self.elapsed if self.elapsed else 0.0
        lines = [
            f"fuzz: {self.count} mutants of {self.seeds} seeds, seed {self.seed}, "
            f"target {self.target}, {self.jobs} jobs, timeout {self.timeout:g} s: "
            f"{self.elapsed:.1f} s ({rate:.1f} cases/s)"
        ]
        for outcome in OUTCOMES:
            by_target = ", ".join(
                f"{target} {self.per_target[target, outcome]}"
                for target in TARGETS
                if self.per_target[target, outcome]
            )
            line = f"  {outcome:9} {self.outcomes[outcome]:6}"
            lines.append(line + (f"  ({by_target})" if by_target else ""))
        lines.append(f"distinct sites: {len(self.sites)}")
        ranked = sorted(self.sites.items(), key=lambda item: -item[1].count)
        for (outcome, where), site in ranked:
            lines.append(
                f"\n== {outcome} {where}: {site.count} cases "
                f"(e.g. #{site.numbers[0]}, {site.target})"
            )
            if site.message:
                lines.append(f"   {site.message.splitlines()[-1]}")
            lines += [f"   | {line}" for line in site.reproducer.splitlines()]
        return "\n".join(lines)


def campaign(
    count: int,
    seed: int = 0,
    jobs: int = 2,
    timeout: float = 20.0,
    target: str = "both",
    save: Path | None = None,
    progress: bool = False,
) -> Report:
    """Runs `count` mutants (see the module docstring); with `save`, writes each
    site's minimised reproducer there."""
    import mux
    import mux.opt  # noqa: F401

    report = Report(count, seed, target, jobs, timeout)
    seeds = load_seeds()
    report.seeds = len(seeds)
    mutator = Mutator(seeds)
    pool = Pool(jobs, timeout)
    started = time.monotonic()
    try:
        cases = mutants(seeds, mutator, seed, count, target)
        for done, (number, kind, text, result) in enumerate(pool.run(cases), 1):
            report.outcomes[result.outcome] += 1
            report.per_target[kind, result.outcome] += 1
            if result.outcome not in ("ok", "error"):
                site = report.sites.setdefault((result.outcome, result.site), Site())
                site.count += 1
                site.numbers.append(number)
                if not site.reproducer or len(text) < len(site.reproducer):
                    site.reproducer, site.target = text, kind
                    site.message, site.result = result.message, result
                if progress:
                    print(
                        f"[{number}] {result.outcome}: {result.site}", file=sys.stderr
                    )
            if progress and done % 500 == 0:
                rate = done / (time.monotonic() - started)
                counts = dict(report.outcomes)
                print(f"... {done} cases, {rate:.1f}/s, {counts}", file=sys.stderr)
        report.elapsed = time.monotonic() - started
        if save is not None and report.sites:
            save.mkdir(parents=True, exist_ok=True)
            for index, (key, site) in enumerate(sorted(report.sites.items()), 1):
                assert site.result is not None
                site.reproducer = minimise(
                    pool, site.target, site.reproducer, site.result, 60
                )
                header = (
                    f"// {key[0]} at {key[1]} (target {site.target}, "
                    f"{site.count} cases)\n"
                )
                (save / f"site{index:02}.mlir").write_text(header + site.reproducer)
    finally:
        pool.close()
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=1000, help="mutants to run")
    parser.add_argument("--seed", type=int, default=0, help="random seed")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds per case")
    parser.add_argument(
        "--target", choices=("api", "cli", "both", "checked"), default="both"
    )
    parser.add_argument("--save", type=Path, help="write each site's reproducer here")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    args = parser.parse_args(argv)
    report = campaign(
        args.count,
        args.seed,
        args.jobs,
        args.timeout,
        args.target,
        args.save,
        progress=not args.quiet,
    )
    print(report.summary())
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
