"""Bad input gives a CompileError, never a Python exception or a hang.

The inputs scripts/fuzz.py found (tests/filecheck/tools/fuzz_regressions.mlir, each
chunk with the message it must give) go through the API here, as they go through
mux-opt in lit; a short fuzz of both targets, and one compiled checked, with a fixed
seed look for new ones.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from script_modules import load_script

import mux

REPO = Path(__file__).resolve().parent.parent
REGRESSIONS = REPO / "tests" / "filecheck" / "tools" / "fuzz_regressions.mlir"


def _regressions() -> list:
    cases = []
    for index, chunk in enumerate(REGRESSIONS.read_text().split("// -----")):
        check = re.search(r"^// CHECK: (.*)$", chunk, re.MULTILINE)
        assert check is not None, f"chunk {index} of {REGRESSIONS.name} has no CHECK"
        cases.append(pytest.param(chunk, check.group(1), id=f"chunk{index}"))
    return cases


@pytest.mark.parametrize(("source", "message"), _regressions())
def test_found_input_is_a_compile_error(source: str, message: str) -> None:
    with pytest.raises(mux.CompileError) as info:
        program = mux.compile(source, name="fuzz_regressions.mlir")
        for name in program.kernels:
            program.kernel(name).compiled()
    assert message in str(info.value)


def test_unclosed_string_literal_fails_in_linear_time() -> None:
    """xDSL 0.74's lexer took exponential time on a string literal not closed
    before the end of its line (mux/source.py installs a linear rule). In a
    subprocess with a time limit, so that a regression fails the test instead
    of hanging it: with 400 repetitions the exponential rule would run for
    ages and the linear one takes milliseconds, so the limit can be generous
    (no timed assertion that a loaded machine could break)."""
    code = (
        "import mux\n"
        "heads = ['mux.kernel = \"entry-point, mux.max_work_dim = 1 : i32',\n"
        "         'mux.kernel = \"' + 'entry-point, ' * 2,\n"
        "         'mux.kernel = \"' + 'entry-point, ' * 400]\n"
        "for head in heads:\n"
        "    try:\n"
        "        mux.compile('func.func @k() attributes {' + head + '} {}')\n"
        "    except mux.CompileError as error:\n"
        "        assert 'closing string literal' in str(error), error\n"
        "print('done')\n"
    )
    # The code under test: `python -c` puts its working directory first on the path.
    root = str(Path(mux.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": root}
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "done"


def test_short_fuzz_finds_no_exception_crash_or_hang() -> None:
    """300 mutants, both targets, a fixed seed (on the code before the fixes of
    issue 13 this found 2 uncaught exceptions and 5 hangs)."""
    fuzz = load_script("fuzz")
    report = fuzz.campaign(count=300, seed=0, jobs=2, timeout=30.0, target="both")
    assert report.outcomes["ok"] + report.outcomes["error"] == 300, report.summary()
    assert report.failures == 0, report.summary()


def test_short_checked_fuzz_finds_no_exception_crash_or_hang() -> None:
    """300 mutants compiled checked, for a local size (scripts/fuzz.py's
    `checked` target): checked mode's passes and the compile-time proofs of a
    known work-group size (with this seed, before the fix, a required
    work-group size of 12 x 1 x 2**31 - 1 made them allocate 192 GiB)."""
    fuzz = load_script("fuzz")
    report = fuzz.campaign(count=300, seed=0, jobs=2, timeout=30.0, target="checked")
    assert report.outcomes["ok"] + report.outcomes["error"] == 300, report.summary()
    assert report.outcomes["ok"] > 0, report.summary()
    assert report.failures == 0, report.summary()
