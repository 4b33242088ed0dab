"""printf (OpenCL C 6.15.14; `lower-printf` and `mux.printf`): kernels of our own
print what C's printf prints of the same values, which Python's `%` formatting
gives for the conversions it shares with C (`d i o u x X f F e E g G c s %`), the C
library's `snprintf` for `%a`. Each launch's output is on `sys.stdout` when the
launch returns (capsys, a redirected stdout); the records of several work-items
come in work-item order, each one's in its order; a full buffer prints the
records that fit, says so on stderr, and the calls that did not fit return -1.
"""

# The references are Python's % formatting, C's printf semantics: not f-strings.
# ruff: noqa: UP031
from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import io
import sys

import numpy as np
import pytest

import mux
import mux.printf
from mux.errors import CompileError

LIBC = ctypes.CDLL(ctypes.util.find_library("c"))


def libc(format_: str, *values: float) -> str:
    out = ctypes.create_string_buffer(256)
    LIBC.snprintf(out, 256, format_.encode(), *(ctypes.c_double(v) for v in values))
    return out.value.decode()


def run(source: str, *args, global_size=1, local_size=None, capsys=None) -> str:
    """What the kernel of `source` prints (its stderr is left to `capsys`)."""
    program = mux.compile(source, language="opencl")
    kernel = program.kernel(program.kernels[0])
    kernel(*args, global_size=global_size, local_size=local_size)
    captured = capsys.readouterr()
    print(captured.err, end="", file=sys.stderr)
    return captured.out


INTS = [0, 1, -1, 42, -123456, 2**31 - 1, -(2**31)]
FLOATS = [0.0, -0.0, 1.5, -2.25, 1e-5, 123456.789, 1e20, 3.0e-39]


@pytest.mark.parametrize(
    "spec",
    [
        "%d",
        "%i",
        "%5d",
        "%-5d|",
        "%+d",
        "% d",
        "%05d",
        "%.3d",
        "%o",
        "%u",
        "%x",
        "%X",
        "%#x",
        "%#o",
        "%8.4x",
        "%c",
    ],
)
def test_int_conversions(spec, capsys):
    source = f"""kernel void k(global int *v, int n) {{
      for (int i = 0; i < n; i++) printf("{spec}\\n", v[i]);
    }}"""
    values = [v for v in INTS if spec != "%c" or 32 <= v < 127] or [65, 97]
    printed = run(
        source, np.array(values, np.int32), np.int32(len(values)), capsys=capsys
    )
    expected = ""
    for v in values:
        if spec[-1] in "ouxX":
            v &= 0xFFFFFFFF
        if spec == "%c":
            v = chr(v)
        if spec in ("%#o", "%#x") and v == 0:
            expected += "0\n"  # C: no prefix for a zero
            continue
        expected += (spec % v).replace("0o", "0") + "\n"  # C's '#o': a 0
    assert printed == expected


def test_lengths_cut_the_integer(capsys):
    """`hh` prints the value as a char, `h` as a short, `l` as a long."""
    source = r"""kernel void k(global long *v) {
      int x = (int)v[0];
      printf("%hhd %hhu %hd %hu %hx %ld %lu %lx %d\n", x, x, x, x, x, v[0], v[0],
             v[0], x);
    }"""
    value = -0x123456789ABCD
    x = np.int64(value).astype(np.int32).item()
    printed = run(source, np.array([value], np.int64), capsys=capsys)
    expected = "%d %d %d %d %x %d %d %x %d\n" % (
        np.array(x).astype(np.int8),
        x & 0xFF,
        np.array(x).astype(np.int16),
        x & 0xFFFF,
        x & 0xFFFF,
        value,
        value & 0xFFFFFFFFFFFFFFFF,
        value & 0xFFFFFFFFFFFFFFFF,
        x,
    )
    assert printed == expected


@pytest.mark.parametrize(
    "spec",
    [
        "%f",
        "%F",
        "%e",
        "%E",
        "%g",
        "%G",
        "%.2f",
        "%10.3e",
        "%-12g|",
        "%+.1f",
        "%#g",
        "%010.2f",
        "%.0e",
        "% f",
    ],
)
def test_float_conversions(spec, capsys):
    source = f"""kernel void k(global float *v, global double *d, int n) {{
      for (int i = 0; i < n; i++) printf("{spec} {spec}\\n", v[i], d[i]);
    }}"""
    floats = np.array(FLOATS, np.float32)
    doubles = np.array(FLOATS, np.float64) * np.pi
    printed = run(source, floats, doubles, np.int32(len(FLOATS)), capsys=capsys)
    expected = "".join(
        f"{spec % float(f)} {spec % float(d)}\n"
        for f, d in zip(floats, doubles, strict=True)
    )
    assert printed == expected


@pytest.mark.parametrize(
    "spec", ["%a", "%A", "%.3a", "%#.0a", "%12a", "%-12.1A|", "%+a", "%010.2a"]
)
def test_hex_floats_as_the_c_library(spec, capsys):
    source = f"""kernel void k(global double *d, int n) {{
      for (int i = 0; i < n; i++) printf("{spec}\\n", d[i]);
    }}"""
    values = [
        *FLOATS,
        1 / 3,
        -0.1,
        1.9999999,
        4.9e-324,
        2.2250738585072014e-308,
        1.7976931348623157e308,
    ]
    printed = run(source, np.array(values), np.int32(len(values)), capsys=capsys)
    assert printed == "".join(libc(spec, v) + "\n" for v in values)


def test_nan_and_infinity(capsys):
    source = r"""kernel void k(void) {
      float n = NAN, i = INFINITY;
      printf("%f %F %e %G %a %5.1f|%-6f|%+f %+f\n", -n, n, i, -i, n, i, n, i, -n);
    }"""
    assert (
        run(source, capsys=capsys) == "-nan NAN inf -INF nan   inf|nan   |+inf -nan\n"
    )


def test_vectors(capsys):
    """Each element by the conversion, joined by commas; a float vector's
    elements are floats (not promoted), a `%v4hd` prints shorts."""
    source = r"""kernel void k(global float4 *f, global int *i, global double *d) {
      printf("%v4hlf|%v2hle\n", f[0], f[0].xy);
      printf("%v4hld|%v4hlx|%#v4hlo\n", vload4(0, i), vload4(0, i), vload4(0, i));
      printf("%v8hhd|%v8hhx\n", convert_char8(vload8(0, i)),
             convert_uchar8(vload8(0, i)));
      printf("%v4hd|%v3hu|%v2ld\n", convert_short4(vload4(0, i)),
             convert_ushort3(vload3(0, i)), convert_long2(vload2(0, i)));
      printf("%v2lf|%v3hlg\n", vload2(0, d), f[0].xyz);
      printf("%5v2hld|%-5v2hld|\n", vload2(0, i), vload2(0, i));
    }"""
    f = np.array([[1.5, -2.25, 1e-3, 1e10]], np.float32)
    i = np.array([3, -7, 300, 65537, 9, -1, 255, 128], np.int32)
    words = [int(x) & 0xFFFFFFFF for x in i]
    d = np.array([np.pi, -np.e])
    printed = run(source, f, i, d, capsys=capsys)
    row = [float(x) for x in f[0]]
    lines = [
        ",".join("%f" % x for x in row) + "|" + ",".join("%e" % x for x in row[:2]),
        ",".join(str(x) for x in i[:4])
        + "|"
        + ",".join("%x" % x for x in words[:4])
        + "|"
        + ",".join("%#o" % x for x in words[:4]).replace("0o", "0"),
        ",".join(str(x) for x in i.astype(np.int8))
        + "|"
        + ",".join("%x" % x for x in i.astype(np.uint8)),
        ",".join(str(x) for x in i[:4].astype(np.int16))
        + "|"
        + ",".join(str(x) for x in i[:3].astype(np.uint16))
        + "|"
        + ",".join(str(x) for x in i[:2]),
        ",".join("%f" % x for x in d) + "|" + ",".join("%g" % x for x in row[:3]),
        ",".join("%5d" % x for x in i[:2])
        + "|"
        + ",".join("%-5d" % x for x in i[:2])
        + "|",
    ]
    assert printed == "".join(line + "\n" for line in lines)


def test_strings_percent_and_pointers(capsys):
    source = r"""kernel void k(global int *p) {
      printf("%s|%10s|%-6s|%.2s|%%|%c%c|%d%%\n", "abc", "right", "left", "cut",
             'o', 'k', 100);
      printf("%s%s\n", "", "only");
      printf("%p\n", p);
    }"""
    p = np.zeros(4, np.int32)
    printed = run(source, p, capsys=capsys)
    lines = printed.splitlines()
    assert lines[:2] == ["abc|     right|left  |cu|%|ok|100%", "only"]
    assert lines[2] == hex(p.ctypes.data)


def test_work_items_in_order_each_with_several_records(capsys):
    """64 work-items in groups of 8 on several threads: the records sorted by
    global linear id, each work-item's three in its order; 2-D ids."""
    source = r"""kernel void k(global int *v) {
      size_t x = get_global_id(0), y = get_global_id(1);
      size_t i = y * get_global_size(0) + x;
      printf("%d: first %d\n", (int)i, v[i]);
      printf("%d: second %lu,%lu\n", (int)i, x, y);
      if (i % 3 == 0) printf("%d: third\n", (int)i);
    }"""
    v = np.arange(64, dtype=np.int32) * 7
    printed = run(source, v, global_size=(16, 4), local_size=(8, 2), capsys=capsys)
    expected = ""
    for i in range(64):
        expected += f"{i}: first {7 * i}\n{i}: second {i % 16},{i // 16}\n"
        expected += f"{i}: third\n" if i % 3 == 0 else ""
    assert printed == expected


@pytest.mark.parametrize("spare", [0, 8])
def test_return_value_and_a_full_buffer(spare, capsys, monkeypatch):
    """A buffer for 10 records of 64 (and `spare` bytes, where the 11th record
    would start but not end): 10 lines printed, whole and in work-item order, 10
    calls return 0, the others -1; stderr says how many words were dropped."""
    source = r"""kernel void k(global int *r) {
      int i = get_global_id(0);
      r[i] = printf("item %d\n", i);
    }"""
    words = 4  # a record: format number, linear id (2 words), the int
    monkeypatch.setattr(mux.printf, "buffer_size", 10 * words * 4 + spare)
    r = np.full(64, 7, np.int32)
    printed = run(source, r, global_size=64, local_size=8, capsys=capsys)
    lines = printed.splitlines()
    assert len(lines) == 10
    ids = [int(line.split()[1]) for line in lines]
    assert ids == sorted(ids) and lines == [f"item {i}" for i in ids]
    assert sorted(np.flatnonzero(r == 0).tolist()) == ids
    assert np.count_nonzero(r == -1) == 54
    err = capsys.readouterr().err
    assert "printf buffer full" in err and f"{54 * words} words" in err


def test_undefined_format_returns_minus_one(capsys):
    source = r"""kernel void k(global int *r) {
      r[0] = printf("%lc", 65);
      r[1] = printf("ok\n");
      r[2] = printf("%q\n");
    }"""
    r = np.full(3, 7, np.int32)
    assert run(source, r, capsys=capsys) == "ok\n"
    assert r.tolist() == [-1, 0, -1]


def test_redirected_stdout_sees_the_output():
    program = mux.compile(
        'kernel void k(void) { printf("to %s\\n", "stdout"); }', language="opencl"
    )
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        program.kernel("k")(global_size=2)
    assert out.getvalue() == "to stdout\n" * 2


def test_a_string_the_compiler_cannot_know_is_an_error():
    source = r"""kernel void k(int c) {
      printf("%s\n", c ? "yes" : "no");
    }"""
    with pytest.raises(CompileError, match="printf's %s argument is not a string"):
        mux.compile(source, language="opencl", name="strings.cl")


MLIR = """
func.func @k(%v: memref<?xi32, 1>, %f: memref<?xf32, 1>)
    attributes {mux.kernel = "entry-point"} {
  %x_dim = arith.constant 0 : i32
  %g = mux.get_global_id %x_dim
  %x = memref.load %v[%g] : memref<?xi32, 1>
  %y = memref.load %f[%g] : memref<?xf32, 1>
  printf.print_format "item {} has {} and {}\\n", %g : index, %x : i32, %y : f32
  func.return
}
"""


def test_mlir_kernels_print_with_the_printf_dialect(capsys):
    """xDSL's printf.print_format: its Python format, the integers signed."""
    program = mux.compile(MLIR)
    v = np.array([5, -6, 7, -8], np.int32)
    f = np.array([0.5, 1.25, -2.125, 3.0], np.float32)
    program.kernel("k")(v, f, global_size=4, local_size=2)
    expected = "".join(
        f"item {i} has {int(v[i])} and {float(f[i])}\n" for i in range(4)
    )
    assert capsys.readouterr().out == expected
