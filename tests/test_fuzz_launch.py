"""A quick run of the launch fuzzer (scripts/fuzz_launch.py): 100 random launches of
the examples, seed 1, each in a worker process with guard bytes around its arrays.

What holds today: every launch whose preconditions hold runs and leaves the guards
intact; every launch that breaks a precondition the runtime checks (types, the
device's range, static shapes) is refused; no refused launch writes a byte; nothing
crashes, writes outside or raises but launches whose buffers are too short for the
NDRange. Those are the `bounds` analysis's to refuse (issue 13, point 4): until it is
merged, the last test is an expected failure."""

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from script_modules import load_script

FUZZ = Path(__file__).resolve().parent.parent / "scripts" / "fuzz_launch.py"


@pytest.fixture(scope="module")
def fuzz_launch():
    return load_script("fuzz_launch")


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    out = tmp_path_factory.mktemp("fuzz_launch") / "records.json"
    command = [sys.executable, str(FUZZ), "--count", "100", "--seed", "1"]
    command += ["--jobs", "2", "--timeout", "20", "--json", str(out)]
    run = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert out.exists(), run.stdout + run.stderr
    return json.loads(out.read_text())


def _show(rows):
    return "\n".join(
        f"--repro 1:{r['index']} {r['outcome']} {r['detail']}: {r['case']} "
        f"{r['violations']}"
        for r in rows[:5]
    )


def test_the_run_has_every_kind_of_launch(records):
    assert len(records) == 100
    tags = Counter(r["tag"] for r in records)
    assert tags[""] >= 30 and tags["runtime"] >= 15 and tags["extent"] >= 10, tags


def test_launches_whose_preconditions_hold_run(records):
    wrong = [r for r in records if r["holds"] and r["outcome"] != "ok"]
    assert not wrong, _show(wrong)


def test_launches_breaking_what_the_runtime_checks_are_refused(records):
    wrong = [r for r in records if r["tag"] == "runtime" and r["outcome"] != "refused"]
    assert not wrong, _show(wrong)


def test_refused_launches_write_nothing(records):
    wrong = [r for r in records if r["outcome"] == "wrote"]
    assert not wrong, _show(wrong)


def test_only_too_short_buffers_crash_or_write_outside(records):
    harmful = ("crash", "outside", "exception", "timeout")
    wrong = [r for r in records if r["outcome"] in harmful and r["tag"] != "extent"]
    assert not wrong, _show(wrong)


def test_launches_with_too_short_buffers_are_refused(records):
    wrong = [r for r in records if r["tag"] == "extent" and r["outcome"] != "refused"]
    assert not wrong, _show(wrong)


def test_the_guards_see_a_write_past_an_array(fuzz_launch):
    arg = fuzz_launch.Arg("array", "float32", 8)
    data = np.random.default_rng(0)
    array, base = fuzz_launch._build(arg, data)
    assert fuzz_launch.guards_intact(base)
    array[:] = 1  # inside: the guards do not change
    assert fuzz_launch.guards_intact(base)
    base[fuzz_launch.GUARD + array.nbytes] ^= 0xFF  # the byte after the array
    assert not fuzz_launch.guards_intact(base)


def test_cases_are_drawn_from_the_seed_alone(fuzz_launch):
    first = [fuzz_launch.draw(3, i).describe() for i in range(20)]
    assert first == [fuzz_launch.draw(3, i).describe() for i in range(20)]
    assert first != [fuzz_launch.draw(4, i).describe() for i in range(20)]
