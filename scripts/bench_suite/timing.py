"""Timing a problem: every implementation once untimed and checked, then the
timed repetitions interleaved round-robin, then checked again."""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bench_suite.impls import Impl
from bench_suite.problems import Problem, check


@dataclass
class ImplResult:
    status: str = "missing"
    """ok, fail (a check failed), error (an exception), missing (not available)."""
    check: str = ""
    """pass or fail: the check after the first run, and after the timed ones."""
    detail: str = ""
    times: list[float] = field(default_factory=list)

    def summary(self, work: float) -> dict[str, Any]:
        out: dict[str, Any] = {
            "status": self.status,
            "check": self.check,
            "detail": self.detail,
        }
        if self.times:
            median = statistics.median(self.times)
            out |= {
                "median_s": median,
                "min_s": min(self.times),
                "max_s": max(self.times),
                "times_s": self.times,
                "rate": work / median / 1e9,
            }
        return out


def error_line(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}".splitlines()[0][:300]


def _check_impl(impl: Impl, problem: Problem, result: ImplResult) -> None:
    passed, detail = check(impl.result(), problem.expected, problem.rtol)
    if not passed:
        result.status, result.check, result.detail = "fail", "fail", detail
    elif result.check != "fail":
        result.status, result.check, result.detail = "ok", "pass", detail


def time_problem(
    problem: Problem,
    impls: Sequence[Impl],
    reps: int,
    budget: float | None,
) -> tuple[dict[str, ImplResult], int]:
    """Runs every implementation once and checks it, then `reps` interleaved timed
    rounds (fewer, but at least 3, when `budget` seconds would be exceeded). Returns
    the results and the number of rounds."""
    results = {impl.name: ImplResult() for impl in impls}
    active: list[Impl] = []
    for impl in impls:
        result = results[impl.name]
        try:
            impl.setup(problem)
            impl.prepare()
            impl.run()
            _check_impl(impl, problem, result)
            active.append(impl)
        except Exception as error:
            result.status, result.detail = "error", error_line(error)
    rounds = reps
    done = 0
    gc.collect()
    gc.disable()
    try:
        while done < rounds and active:
            start = done % len(active)
            elapsed = 0.0
            for impl in active[start:] + active[:start]:
                result = results[impl.name]
                try:
                    impl.prepare()
                    t0 = time.perf_counter()
                    impl.run()
                    t1 = time.perf_counter()
                except Exception as error:
                    result.status, result.detail = "error", error_line(error)
                    active.remove(impl)
                    continue
                result.times.append(t1 - t0)
                elapsed += t1 - t0
            if done == 0 and budget is not None and elapsed > 0:
                rounds = max(min(3, reps), min(reps, int(budget / elapsed)))
            done += 1
    finally:
        gc.enable()
    for impl in active:
        try:
            _check_impl(impl, problem, results[impl.name])
        except Exception as error:
            results[impl.name].status = "error"
            results[impl.name].detail = error_line(error)
    return results, done
