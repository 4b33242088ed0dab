"""The command-line tools' bad inputs: exit status 1 and one line on stderr, never a
traceback (the messages themselves are checked by tests/filecheck/tools and run)."""

from pathlib import Path

import pytest

from mux import opt, run

VADD = str(Path(__file__).parent.parent / "examples" / "vadd.mlir")


@pytest.mark.parametrize(
    "args",
    [
        [VADD, "-p", "work-item-lops"],
        [VADD, "-p", "work-item-loops{bogus=1}"],
        [VADD, "-p", "work-item-loops{sub-group-size=abc}"],
        [VADD, "-p", "host{bogus=1}"],
        [VADD, "-p", "host{"],
        [VADD, "-t", "llvm{x=1}"],
        [VADD, "-t", "llvm{"],
        [VADD + ".nope"],
        [VADD, "-o", "/nonexistent-dir/out.mlir"],
    ],
)
def test_mux_opt_usage_errors(args, capsys):
    assert opt.main(args) == 1
    err = capsys.readouterr().err
    assert err.startswith("mux-opt: ") and err.count("\n") == 1, err


@pytest.mark.parametrize(
    "args",
    [
        [VADD + ".nope", "vadd", "--global", "4"],
        [
            VADD,
            "vadd",
            "--global",
            "4",
            "zeros:4",
            "zeros:4",
            "zeros:4",
            "--out",
            "/nonexistent-dir/out.npz",
        ],
        [VADD, "nope", "--global", "4"],
        [VADD, "vadd", "--global", "4", "zeros:4"],
        [VADD, "vadd", "--global", "4", "zeros:4", "zeros:4", "zeros:1e30"],
        [VADD, "vadd", "--global", "4", "zeros:4", "zeros:4", "random:4:x"],
        [VADD, "vadd", "--global", "4", "zeros:4", "zeros:4", "/nonexistent.npy"],
    ],
)
def test_mux_run_errors(args, capsys):
    assert run.main(args) == 1
    err = capsys.readouterr().err
    assert err.startswith("mux-run: ") and err.count("\n") == 1, err
