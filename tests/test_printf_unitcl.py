"""UnitCL's printf kernels (`kernels/printf.*.cl`) print what their tests
(`expectations/ktst_printf.cpp`) expect. The table gives each kernel's launch
(global and local size, arguments, build options) and expected output, written
from the facts of the C++ tests: the strings they compare with, the inputs they
give. Where a test compares many lines of C's own printf of its inputs (the
`17_float_formatting` kernels), the expected lines are the C library's
`snprintf` of the kernel's formats on the same inputs (`libc_format`), and a few
of them are checked against the C++ test's text. The global size the tests call
`kts::N` is 64 here (any size prints the same: one work-item prints)."""

from __future__ import annotations

import ctypes
import ctypes.util
import re
import struct
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest
from script_modules import UNITCL, needs_unitcl

import mux

REPO = Path(__file__).resolve().parents[1]
SUITE = UNITCL
KERNELS = SUITE / "kernels"
pytestmark = needs_unitcl
N = 64
LIBC = ctypes.CDLL(ctypes.util.find_library("c"))


def libc_format(format_: str, value: float) -> str:
    """C's `snprintf(format, (double)value)`."""
    out = ctypes.create_string_buffer(512)
    LIBC.snprintf(out, 512, format_.encode(), ctypes.c_double(value))
    return out.value.decode()


F32_MAX = struct.unpack("<f", struct.pack("<I", 0x7F7FFFFF))[0]
FORMATTING_INPUTS = np.array(
    [0.0, -0.0, 0.1, -0.1, 1 / 3, -1 / 3, 100.0, -100.0, F32_MAX, -F32_MAX],
    np.float32,
)
"""The inputs of the 17_float_formatting tests."""

BIG = 9999999933815811600000000000000000000.0
FLOATS = np.array(
    [-BIG] * 10 + [-6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5] + [BIG] * 10, np.float32
)
"""The inputs of 15_floats and 16_floats_vectors (their squares are printed)."""
SQUARES = [
    f"{text:>16}"
    for text in ["INF"] * 10
    + ["0X1.2P+5", "0X1.9P+4", "0X1.0P+4", "0X1.2P+3", "0X1.0P+2", "0X1.0P+0"]
    + ["0X0.0P+0", "0X1.0P+0", "0X1.0P+2", "0X1.2P+3", "0X1.0P+4", "0X1.9P+4"]
    + ["INF"] * 10
]
"""What `%#16.1A` prints of the squares of `FLOATS` (ktst_printf.cpp's lines)."""


@dataclass
class Case:
    file: str
    kernel: str
    expected: str | re.Pattern[str]
    args: list = field(default_factory=list)
    global_size: tuple[int, ...] = (1,)
    local_size: tuple[int, ...] | None = None
    options: str = ""
    exact: bool = True
    """False: only the length of the output is compared (the tests of
    concurrent printing)."""


def _nan_pattern() -> re.Pattern[str]:
    parts = ["f and F specifiers:\n", "nan", "-?nan", "NAN", "-?NAN"]
    for letters in ("e and E", "g and G", "a and A"):
        parts += [f"\n{letters} specifiers:\n", "nan", "-?nan", "NAN", "-?NAN"]
    parts += ["\ncomplex specifiers:\n", "nan", "    [- ]nan", "nan     "]
    parts += ["(-nan|nan )                ", "nan", " NAN", "[- ]NAN"]
    parts += [r"(\+|-)nan", r"(\+|-)nan", r"(\+|-)NAN"]
    parts += ["\nas part of a longer format:\n", "lorem ipsum nan dolor sit amet"]
    return re.compile("".join(parts))


def _inf_text() -> str:
    text = "f and F specifiers:\ninf-infINF-INF"
    for letters in ("e and E", "g and G", "a and A"):
        text += f"\n{letters} specifiers:\ninf-infINF-INF"
    text += "\ncomplex specifiers:\ninf    -infinf     -inf                inf INF-INF"
    return text + "+inf-inf+INF"


def _concurrent_13() -> str:
    return "".join(str(x if x % 2 == 0 else x + 1) for x in range(N))


def _formatting(kind: str) -> str:
    """The lines of a 17_float_formatting kernel: its formats (read from the
    kernel, one `printf` a line) by the C library on each input."""
    source = (KERNELS / f"printf.17_float_formatting_{kind}.cl").read_text()
    calls = re.findall(r'printf\("((?:[^"\\]|\\.)*)"(?:, in\[i\])*\)', source)
    out = []
    for value in FORMATTING_INPUTS:
        for call in calls:
            format_ = call.encode().decode("unicode_escape")
            count = format_.count("%") - 2 * format_.count("%%")
            text = format_
            if count == 2:
                half = libc_format(format_.split(",")[0], float(value))
                text = half + "," + libc_format(format_.split(",", 1)[1], float(value))
            elif count == 1:
                text = libc_format(format_, float(value))
            else:
                text = format_.replace("%%", "%")
            out.append(text)
    return "".join(out)


CASES = [
    Case("01_hello", "hello", "Hello world!\n"),
    Case("02_order", "order", "Execution 5\n", [np.int32(5)], (8,)),
    Case("02_order", "order", "Execution 0\n", [np.int32(0)], (1,)),
    Case("02_order", "order", f"Execution {N - 1}\n", [np.int32(N - 1)], (N,)),
    Case("03_string", "string", "Hello World!\n"),
    Case("04_multiple_printf", "multiple_printf", "1,2,3,4,5,6"),
    Case("05_side_effects", "side_effects", "1", [np.zeros(1, np.int32)]),
    Case("06_signed_unsigned", "signed_unsigned", "-1, 1, -1, 1"),
    Case("07_multiple_functions", "multiple_functions", "1,2,3"),
    Case("08_multiple_strings", "multiple_strings", "test string"),
    Case("09_percent", "percent", "% 1 % 2 % %"),
    Case("10_print_nan", "print_nan", _nan_pattern()),
    Case("11_print_inf", "print_inf", _inf_text()),
    Case(
        "12_multiple_workgroups",
        "multiple_workgroups",
        "(0, 0, 0)" * 8,
        [],
        (2, 2, 2),
        (1, 1, 1),
        exact=False,
    ),
    Case(
        "13_concurrent_printf",
        "concurrent_printf",
        _concurrent_13(),
        [],
        (N,),
        exact=False,
    ),
    Case(
        "14_print_vector",
        "print_vector",
        "0: 0013,0017,0019,0023-%-0xc,0x10,0x12,0x16\n",
        [np.tile(np.array([13, 17, 19, 23], np.int32), (N, 1)), np.int32(1)],
        (N,),
    ),
    Case(
        "15_floats",
        "floats",
        "".join(s + "\n" for s in SQUARES),
        [np.resize(FLOATS, N), np.zeros(N, np.float32)],
        (N,),
        options=f"-DNUM_INPUTS={len(FLOATS)}",
    ),
    Case(
        "16_floats_vectors",
        "floats_vectors",
        "".join(f"{a},{b}\n" for a, b in zip(SQUARES[::2], SQUARES[1::2], strict=True)),
        [np.resize(FLOATS, (N, 2)), np.zeros((N, 2), np.float32)],
        (N,),
        options=f"-DNUM_INPUTS={len(FLOATS) // 2}",
    ),
    *[
        Case(
            f"17_float_formatting_{kind}",
            f"float_formatting_{kind}",
            kind,  # expanded by _expected
            [np.int32(len(FORMATTING_INPUTS)), FORMATTING_INPUTS],
        )
        for kind in ("aa", "ee", "ff", "gg")
    ],
    Case(
        "18_concurrent_printf",
        "concurrent_printf",
        "Hello world!\n" * N,
        [],
        (N,),
        (8,),
    ),
    Case(
        "19_print_halfs",
        "print_halfs",
        "input: (0x1.e68p+7, -0x1.b38p+2)\n",
        [
            np.array([0x5B9A], np.uint16).view(np.float16),
            np.array([0xC6CE], np.uint16).view(np.float16),
        ],
    ),
    Case("20_multiple_kernels", "multiple_kernels", "Hello multiple_kernels Foo 10\n"),
    Case("20_multiple_kernels", "first_kernel", "Hello first_kernel 3 Bar \n"),
    Case(
        "21_float_with_double_conversion", "float_with_double_conversion", "4.000000\n"
    ),
    Case(
        "22_half_with_double_conversion",
        "half_with_double_conversion",
        "0x1.e68p+7\n",
        [np.array([0x5B9A], np.uint16).view(np.float16)],
    ),
    Case("24_empty_string_param", "empty_string_param", "\n"),
]


def _expected(case: Case) -> str | re.Pattern[str]:
    if case.file.startswith("17_"):
        return _formatting(case.file.rsplit("_", 1)[1])
    return case.expected


@pytest.mark.parametrize(
    "case", CASES, ids=[f"{c.file}-{c.kernel}-{c.global_size}" for c in CASES]
)
def test_unitcl_printf_kernel(case, capsys):
    path = KERNELS / f"printf.{case.file}.cl"
    program = mux.compile(
        path.read_text(),
        language="opencl",
        build_options=case.options,
        name=str(path),
    )
    program.kernel(case.kernel)(
        *case.args, global_size=case.global_size, local_size=case.local_size
    )
    printed = capsys.readouterr().out
    expected = _expected(case)
    if isinstance(expected, re.Pattern):
        assert expected.fullmatch(printed), printed
    elif case.exact:
        assert printed == expected
    else:
        assert len(printed) == len(expected), printed


def test_formatting_lines_agree_with_the_cpp_test():
    """A few lines of the C library's output the 17_float_formatting tests
    spell out (their inputs 0.1 and -FLT_MAX)."""
    assert libc_format("%a", float(np.float32(0.1))) == "0x1.99999ap-4"
    assert libc_format("%.3e", float(-F32_MAX)) == "-3.403e+38"
    assert libc_format("%#.0g", 0.0) == "0."
