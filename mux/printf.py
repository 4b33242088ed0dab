"""printf's host side: the buffer a launch gives a kernel that prints, and the
formatting of its records after the launch (the records themselves:
`lowering.lower_printf`).

A launch of such a kernel allocates a buffer of `buffer_size` bytes (1 MiB by
default, OpenCL's minimum `CL_DEVICE_PRINTF_BUFFER_SIZE`; set
`mux.printf.buffer_size` to change it), runs the kernel, then writes what the
records say to `sys.stdout`, flushed, before the launch returns: the records
ordered by the work-item's global linear id, each work-item's in the order it
printed them. When the records do not fit, the ones that did are printed and a
line on `sys.stderr` says how many words of records were dropped (a truncation:
the kernel's later records go to a scratch area the host ignores, and their
printf calls return -1).

The formatting is C's `printf` as OpenCL C specifies it (6.15.14): the
conversions `d i o u x X` of the argument's integer cut to the length (`hh` 8
bits, `h` 16, none 32 in a scalar, `hl` 32 in a vector, `l` 64), `f F e E g G a
A` of a double (a vector's floats are not promoted, but a float's value is the
same as a double), `c`, `s` (a string the compiler read), `p`, with flags,
width and precision; a vector's elements are formatted alike and joined by
commas. NaN and infinity are printed as C does (`nan`, `-inf`, `NAN`), `%a` as
glibc does (`0x1.8p+1`, `0x0p+0`)."""

from __future__ import annotations

import math
import struct
import sys
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from lowering.lower_printf import (
    BUFFER_TYPE,
    CONVERSION,
    HEADER_WORDS,
    RECORD_HEADER_WORDS,
    Argument,
    Format,
    formats,
    users_of_printf,
)

PRINTF_BUFFER = BUFFER_TYPE
"""The type of the printf buffer parameter `lower-printf` appends."""


def kernel_formats(module: ModuleOp, kernel: str) -> list[Format] | None:
    """The formats of `module`'s printf calls (`lower-printf` numbers them) if
    kernel `kernel` prints, else None."""
    if kernel not in users_of_printf(module):
        return None
    return formats(module)


buffer_size = 1 << 20
"""The bytes of each launch's printf buffer (its records; the header and the
scratch area come on top)."""

_CODES = {
    "i8": "B",
    "i16": "H",
    "i32": "I",
    "i64": "Q",
    "index": "Q",
    "ptr": "Q",
    "f16": "e",
    "f32": "f",
    "f64": "d",
}
"""The `struct` code of each element type (integers read unsigned: the
conversion says how to read them)."""
_LENGTH_BITS = {"hh": 8, "h": 16, "hl": 32, "l": 64, None: 32}


@dataclass
class PrintfBuffer:
    """One launch's buffer (`words`, numpy i32) for the formats of its kernel."""

    formats: list[Format]
    words: np.ndarray

    @classmethod
    def allocate(cls, formats: list[Format], size: int | None = None) -> PrintfBuffer:
        capacity = HEADER_WORDS + max(0, (buffer_size if size is None else size)) // 4
        scratch = max(f.words for f in formats)
        words = np.zeros(capacity + scratch, np.int32)
        words[:4].view(np.int64)[:] = (HEADER_WORDS, capacity)
        return cls(formats, words)

    def text(self) -> tuple[str, int]:
        """The formatted records, and the words of records that did not fit."""
        data = self.words.tobytes()
        used, capacity = struct.unpack_from("<qq", data)
        records = []
        sizes = [f.words for f in self.formats]
        header = struct.Struct("<iq")
        at = HEADER_WORDS
        while at < min(used, capacity):
            number, item = header.unpack_from(data, 4 * at)
            if number < 1 or number > len(self.formats):
                break  # a record that straddled the end: not written
            records.append((item, at, self.formats[number - 1]))
            at += sizes[number - 1]
        records.sort(key=lambda r: (r[0], r[1]))
        out = [
            format_record(f, data, 4 * (start + RECORD_HEADER_WORDS))
            for _, start, f in records
        ]
        # the words reserved after the last record that fit (a record that
        # straddled the capacity included) were dropped
        return "".join(out), used - at if used > capacity else 0

    def flush(self) -> None:
        """Writes the records to `sys.stdout` (flushed), a truncation to stderr."""
        text, dropped = self.text()
        if text:
            sys.stdout.write(text)
            sys.stdout.flush()
        if dropped:
            print(
                f"mux: printf buffer full ({buffer_size} bytes): {dropped} words of "
                "records dropped (set mux.printf.buffer_size)",
                file=sys.stderr,
            )


@lru_cache(maxsize=1024)
def _layout(format_: Format) -> tuple[tuple[Argument, struct.Struct | None, int], ...]:
    """Each argument of a format, how to read it (None: a string of the table)
    and where, in bytes from the record's first argument."""
    layout = []
    offset = 0
    for argument in format_.arguments:
        if argument.string is not None:
            layout.append((argument, None, 0))
            continue
        count = max(argument.lanes, 1)
        reader = struct.Struct(f"<{count}{_CODES[argument.element]}")
        layout.append((argument, reader, offset))
        offset += 4 * argument.words
    return tuple(layout)


def format_record(format_: Format, data: bytes, offset: int) -> str:
    """The text of one record, its arguments from byte `offset` of `data`."""
    values: list = []
    for argument, reader, at in _layout(format_):
        if reader is None:
            assert argument.string is not None  # as `_layout` read it
            values.append(argument.string.decode("latin-1"))
            continue
        read = reader.unpack_from(data, offset + at)
        if not format_.python:
            values.append((read, argument.lanes, argument.element))
        elif argument.element[0] in "ip":  # signless integers, read as signed
            values.append(_signed(read[0], 8 * reader.size))
        else:
            values.append(read[0])
    if format_.python:
        return format_.text.decode().format(*values)
    return c_format(format_.text.decode("latin-1"), values)


def c_format(text: str, values: list) -> str:
    """`text` formatted as OpenCL C's printf does, each conversion taking the
    next value ((element values, lanes, element type) or a string)."""
    pieces = []
    index = 0
    for part in _parsed(text):
        if isinstance(part, str):
            pieces.append(part)
            continue
        value = values[index]
        index += 1
        if isinstance(value, str):
            pieces.append(_spec(part, "s") % value)
            continue
        elements, _, element = value
        pieces.append(",".join(_one(part, x, element) for x in elements))
    return "".join(pieces)


@dataclass(frozen=True)
class Spec:
    """One conversion of a format, its parts as `CONVERSION` names them."""

    flags: str
    width: str
    precision: str | None
    vector: str | None
    length: str | None
    conversion: str


@lru_cache(maxsize=1024)
def _parsed(text: str) -> tuple[str | Spec, ...]:
    """`text` as its literal pieces (`%%` a literal `%`) and conversions."""
    parts: list[str | Spec] = []
    at = 0
    for match in CONVERSION.finditer(text):
        parts.append(text[at : match.start()])
        at = match.end()
        if match["conversion"] == "%":
            parts.append("%")
        else:
            parts.append(Spec(**match.groupdict()))
    parts.append(text[at:])
    return tuple(p for p in parts if p != "")


@lru_cache(maxsize=1024)
def _spec(match: Spec, conversion: str, drop: str = "") -> str:
    flags = "".join(f for f in match.flags if f not in drop)
    precision = "" if match.precision is None else "." + (match.precision or "0")
    return f"%{flags}{match.width}{precision}{conversion}"


def _signed(value: int, bits: int) -> int:
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >> (bits - 1) else value


def _one(match: Spec, value: int | float, element: str) -> str:
    """One scalar (a vector's element) by one conversion."""
    conversion = match.conversion
    if conversion in "diouxX":
        bits = _LENGTH_BITS[match.length]
        if isinstance(value, float):
            value = int(value)
        return _integer(match, value, bits)
    if conversion == "c":
        return _spec(match, "c") % chr(int(value) & 0xFF)
    if conversion == "p":
        return _pad(match, hex(int(value) & (2**64 - 1)))
    value = float(value)
    if not math.isfinite(value):
        return _nonfinite(match, value)
    if conversion in "aA":
        return _hex_float(match, value)
    return _spec(match, conversion) % value


def _integer(match: Spec, value: int, bits: int) -> str:
    conversion = match.conversion
    if conversion in "di":
        return _spec(match, "d", drop="#") % _signed(value, bits)
    value &= (1 << bits) - 1
    if conversion == "u":
        return _spec(match, "d", drop="#+ ") % value
    if conversion == "o" and "#" in match.flags:
        # C's '#o' makes the first digit 0; Python's adds "0o"
        digits = f"{value:o}"
        precision = int(match.precision or 0)
        digits = digits.rjust(precision, "0")
        if not digits.startswith("0"):
            digits = "0" + digits
        return _pad(match, digits, zero=match.precision is None)
    if conversion in "xX" and value == 0:
        return _spec(match, conversion, drop="#+ ") % value  # C: no 0x for zero
    return _spec(match, conversion, drop="+ ") % value


def _pad(match: Spec, body: str, zero: bool = False) -> str:
    """`body` to the conversion's width (`-`: left, `0`: zeros after a sign or
    prefix when `zero`)."""
    width = int(match.width or 0)
    flags = match.flags
    if len(body) >= width:
        return body
    if "-" in flags:
        return body.ljust(width)
    if zero and "0" in flags:
        sign = body[0] if body[0] in "+- " else ""
        rest = body[len(sign) :]
        prefix = rest[:2] if rest[:2].lower() == "0x" else ""
        rest = rest[len(prefix) :]
        return sign + prefix + rest.rjust(width - len(sign) - len(prefix), "0")
    return body.rjust(width)


def _sign(match: Spec, negative: bool) -> str:
    if negative:
        return "-"
    if "+" in match.flags:
        return "+"
    return " " if " " in match.flags else ""


def _nonfinite(match: Spec, value: float) -> str:
    """NaN and infinity as C prints them: the sign bit shown, no zero padding."""
    negative = math.copysign(1.0, value) < 0
    body = "nan" if math.isnan(value) else "inf"
    if match.conversion.isupper():
        body = body.upper()
    return _pad(match, _sign(match, negative) + body)


def _hex_float(match: Spec, value: float) -> str:
    """`%a`: glibc's hexadecimal form of a double, `0x1.<hex>p<exp>` (subnormals
    `0x0.<hex>p-1022`), the digits rounded to the precision (to even) or as few
    as the value needs."""
    negative = math.copysign(1.0, value) < 0
    bits = struct.unpack("<Q", struct.pack("<d", abs(value)))[0]
    exponent, mantissa = bits >> 52, bits & ((1 << 52) - 1)
    lead = 1 if exponent else 0
    exp = (exponent - 1023) if exponent else (-1022 if mantissa else 0)
    precision = match.precision
    if precision is None:
        digits = f"{mantissa:013x}".rstrip("0")
    else:
        keep = int(precision or 0)
        total = (lead << 52) | mantissa
        drop = 4 * (13 - keep)
        if drop > 0:
            half = 1 << (drop - 1)
            low = total & ((1 << drop) - 1)
            total >>= drop
            if low > half or (low == half and total & 1):
                total += 1
            lead, frac = total >> (4 * keep), total & ((1 << (4 * keep)) - 1)
        else:
            lead, frac = total >> 52, (total & ((1 << 52) - 1)) << (-drop)
        digits = f"{frac:0{keep}x}" if keep else ""
    point = "." if digits or "#" in match.flags else ""
    body = f"0x{lead}{point}{digits}p{'+' if exp >= 0 else '-'}{abs(exp)}"
    if match.conversion == "A":
        body = body.upper()
    return _pad(match, _sign(match, negative) + body, zero=True)
