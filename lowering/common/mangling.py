"""Itanium-mangled names of OpenCL builtins, demangled: the one parser of them.

clang mangles OpenCL C's overloaded builtins with the Itanium C++ ABI plus SPIR's
vendor qualifiers: `_Z<length><name><parameter types>`, where a parameter type is

- a builtin type, one letter: `v` void (no parameters), `b` bool, `c` char, `a`
  signed char, `h` uchar, `s` short, `t` ushort, `i` int, `j` uint, `l` long, `m`
  ulong, `f` float, `d` double, and `Dh` half;
- a vector, `Dv<n>_<element>` (`Dv4_f`: float4);
- a pointer, `P<qualifiers><pointee>`, whose qualifiers are the vendor ones
  (`U3AS<n>`: address space n; SPIR writes `__global` as 1, `__constant` 2,
  `__local` 3, the generic space 4), then `r` (restrict), `V` (volatile), `K`
  (const);
- `U7_Atomic<type>`, an `_Atomic` type (`atomic_int` is `U7_Atomici`);
- a named type, `<length><name>`: `9ocl_event`, `12memory_order`, `12memory_scope`;
- a substitution, `S_`, `S0_`, `S1_`, ...: the first, second, third, ... type seen
  earlier in the name that is not a builtin type (a pointer, its qualified pointee, a
  vector, an `_Atomic` or named type; a qualified type and its unqualified type are
  two entries), counted in the order their manglings end.

So `_Z21async_work_group_copyPU3AS3Dv4_fPU3AS1KS_m9ocl_event` is
`async_work_group_copy(__local float4 *, const __global float4 *, ulong,
event_t)`: `S_` is `Dv4_f`, the first type the name completes. `demangle` returns
None for what it does not know (nested names, templates, other types): such a
function is not an OpenCL builtin.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    IntegerType,
    VectorType,
)
from xdsl.ir import Attribute

from lowering.common.llvm_types import pointer_type

BUILTIN_TYPES = {
    "v": ("void", 0),
    "b": ("bool", 1),
    "c": ("char", 8),
    "a": ("char", 8),
    "h": ("uchar", 8),
    "s": ("short", 16),
    "t": ("ushort", 16),
    "i": ("int", 32),
    "j": ("uint", 32),
    "l": ("long", 64),
    "m": ("ulong", 64),
    "f": ("float", 32),
    "d": ("double", 64),
    "Dh": ("half", 16),
}
"""Itanium's one-letter codes (and `Dh`) of OpenCL's scalar types: name and bits."""
UNSIGNED = frozenset("bhtjm")
FLOATS = frozenset(("f", "d", "Dh"))
ENUM_TYPES = frozenset(("memory_order", "memory_scope", "cl_mem_fence_flags"))
"""Named types that are enums, `i32` at the LLVM level."""
EVENT = "ocl_event"
"""OpenCL C's `event_t`: a pointer (address space 0) at the LLVM level, as LLVM
lays out clang's `target("spirv.Event")` (mux/frontend/llvm_import/events.py)."""
_SPACE_NAMES = {1: "__global", 2: "__constant", 3: "__local", 4: "__generic"}


@dataclass(frozen=True)
class MangledType:
    """One parameter type of a mangled name.

    `code` is the builtin type's code (`i`, `Dh`, ...), or `Dv` (a vector of
    `length` `element`s), `P` (a pointer to `element`), `_Atomic` (of `element`),
    or `N` (the named type `name`). A pointee's qualifiers are on the pointee."""

    code: str
    name: str = ""
    element: MangledType | None = None
    length: int = 0
    address_space: int = 0
    qualifiers: frozenset[str] = field(default=frozenset())
    """`const`, `volatile`, `restrict`."""

    @property
    def is_float(self) -> bool:
        return self.code in FLOATS

    @property
    def is_unsigned(self) -> bool:
        return self.code in UNSIGNED

    @property
    def is_integer(self) -> bool:
        return self.code in BUILTIN_TYPES and not self.is_float and self.code != "v"

    @property
    def scalar(self) -> MangledType:
        """The element of a vector, else the type itself."""
        return self.element if self.code == "Dv" and self.element else self

    def __str__(self) -> str:
        """The OpenCL C spelling: `__global const float4 *`, `atomic_int`."""
        if self.code == "Dv":
            text = f"{self.element}{self.length}"
        elif self.code == "P":
            text = f"{self.element} *"
        elif self.code == "_Atomic":
            text = f"atomic_{self.element}"
        else:
            text = self.name if self.code == "N" else BUILTIN_TYPES[self.code][0]
            text = "event_t" if text == EVENT else text
        words = [_SPACE_NAMES.get(self.address_space, "")] if self.address_space else []
        words += [*sorted(self.qualifiers), text]
        return " ".join(words)

    def llvm_type(self) -> Attribute | None:
        """The type an argument of this type has at the LLVM level (`i32`,
        `vector<4xf32>`, `!llvm.ptr<3>`, an event's `!llvm.ptr`), None for a type
        without one here (`void`, a named type not known here)."""
        if self.code == "P":
            return pointer_type(self.element.address_space if self.element else 0)
        if self.code == "Dv" and self.element is not None:
            element = self.element.llvm_type()
            return None if element is None else VectorType(element, [self.length])
        if self.code == "_Atomic" and self.element is not None:
            return self.element.llvm_type()
        if self.code == "N" and self.name == EVENT:
            return pointer_type(0)
        if self.code == "N":
            return IntegerType(32) if self.name in ENUM_TYPES else None
        if self.code == "v":
            return None
        bits = BUILTIN_TYPES[self.code][1]
        if self.is_float:
            return {16: Float16Type(), 32: Float32Type(), 64: Float64Type()}[bits]
        return IntegerType(bits)


@dataclass(frozen=True)
class Demangled:
    """A demangled builtin: its OpenCL name and parameter types."""

    mangled: str
    name: str
    params: tuple[MangledType, ...]

    def signature(self) -> str:
        """`async_work_group_copy(__local float4 *, ...)`."""
        return f"{self.name}({', '.join(map(str, self.params))})"


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.pos = 0
        self.substitutions: list[MangledType] = []

    def peek(self, prefix: str) -> bool:
        return self.text.startswith(prefix, self.pos)

    def take(self, prefix: str) -> bool:
        if self.peek(prefix):
            self.pos += len(prefix)
            return True
        return False

    def number(self) -> int | None:
        start = self.pos
        while self.pos < len(self.text) and self.text[self.pos].isdigit():
            self.pos += 1
        return int(self.text[start : self.pos]) if self.pos > start else None

    def source_name(self) -> str | None:
        length = self.number()
        if length is None or self.pos + length > len(self.text):
            return None
        name = self.text[self.pos : self.pos + length]
        self.pos += length
        return name

    def substitution(self) -> MangledType | None:
        end = self.text.find("_", self.pos)
        if end < 0:
            return None
        digits = self.text[self.pos : end]
        self.pos = end + 1
        try:
            index = int(digits, 36) + 1 if digits else 0
        except ValueError:
            return None
        return self.substitutions[index] if index < len(self.substitutions) else None

    def qualified(self) -> MangledType | None:
        """A pointee: qualifiers, then a type (a substitution candidate of its own
        when qualified)."""
        space = 0
        while self.peek("U") and not self.peek("U7_Atomic"):
            self.pos += 1
            qualifier = self.source_name()
            if qualifier is None or not qualifier.startswith("AS"):
                return None
            space = int(qualifier[2:]) if qualifier[2:].isdigit() else -1
        qualifiers = {q for c, q in _CV.items() if self.take(c)}
        inner = self.type_()
        if inner is None or space < 0:
            return None
        if not space and not qualifiers:
            return inner
        result = replace(inner, address_space=space, qualifiers=frozenset(qualifiers))
        self.substitutions.append(result)
        return result

    def type_(self) -> MangledType | None:
        if self.take("Dh"):
            return MangledType("Dh")
        if self.pos < len(self.text) and self.text[self.pos] in BUILTIN_TYPES:
            self.pos += 1
            return MangledType(self.text[self.pos - 1])
        if self.take("S"):
            return self.substitution()
        result: MangledType | None
        if self.take("Dv"):
            length = self.number()
            element = self.type_() if length and self.take("_") else None
            result = None
            if element is not None and length is not None:
                result = MangledType("Dv", "", element, length)
        elif self.take("P"):
            pointee = self.qualified()
            result = None if pointee is None else MangledType("P", "", pointee)
        elif self.take("U7_Atomic"):
            element = self.type_()
            result = None if element is None else MangledType("_Atomic", "", element)
        elif self.pos < len(self.text) and self.text[self.pos].isdigit():
            name = self.source_name()
            result = None if name is None else MangledType("N", name)
        else:
            result = None
        if result is not None:
            self.substitutions.append(result)
        return result


_CV = {"r": "restrict", "V": "volatile", "K": "const"}


def demangle(mangled: str) -> Demangled | None:
    """The OpenCL builtin `mangled` names, or None (see the module docstring)."""
    parser = _Parser(mangled)
    if not parser.take("_Z"):
        return None
    name = parser.source_name()
    if not name or not (name[0].isalpha() or name[0] == "_"):
        return None
    params: list[MangledType] = []
    while parser.pos < len(mangled):
        param = parser.type_()
        if param is None:
            return None
        params.append(param)
    if [p.code for p in params] == ["v"]:  # `v` alone: no parameters
        return Demangled(mangled, name, ())
    if not params or any(p.code == "v" for p in params):
        return None
    return Demangled(mangled, name, tuple(params))
