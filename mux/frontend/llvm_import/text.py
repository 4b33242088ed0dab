"""LLVM IR text, read where llvmlite's API stops.

llvmlite 0.50 gives an instruction's opcode, operands and type, but its
predicates, alignment, flags, indices, masks and the constant expressions among its
operands only in the printed text. `Cursor` reads that text: types (`parse_type`)
and constants (`parse_constant`, a small tree `Constant` the importer builds ops
from). Named struct types come from the module's `%name = type {...}` lines.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field

from xdsl.dialects.builtin import (
    IntAttr,
    IntegerType,
    VectorType,
    bf16,
    f16,
    f32,
    f64,
)
from xdsl.dialects.llvm import (
    LLVMArrayType,
    LLVMPointerType,
    LLVMStructType,
    LLVMVoidType,
)
from xdsl.ir import Attribute

from dialects.llvmx import PackedStructType
from mux.frontend.llvm_import import events


class TextError(ValueError):
    """Text the importer cannot read; the message says what was expected."""


class UnknownStruct(TextError):
    """A `%name` type the text defines no struct of (yet)."""


_SCALARS: dict[str, Attribute] = {
    "half": f16,
    "bfloat": bf16,
    "float": f32,
    "double": f64,
    "void": LLVMVoidType(),
}
_WORD = re.compile(r"[%@]?[-\w.$\"]+")
_NUMBER = re.compile(r"-?(0x[0-9A-Fa-f]+|0x[HRK][0-9A-Fa-f]+|[0-9.]+(e[-+]?[0-9]+)?)")


def pointer(address_space: int) -> LLVMPointerType:
    """`ptr addrspace(N)`: xDSL spells address space 0 without a number."""
    return (
        LLVMPointerType(IntAttr(address_space)) if address_space else LLVMPointerType()
    )


@dataclass
class Constant:
    """A constant operand: `kind` is int, float, null, undef, poison, zero,
    vector (also a `splat`), array, struct, global or one of the constant expressions'
    opcodes (getelementptr, addrspacecast, bitcast, ptrtoint, inttoptr)."""

    kind: str
    type: Attribute
    value: int | float | str | None = None
    """An int's or a float's number, a global's name."""
    elements: list[Constant] = field(default_factory=list)
    source_type: Attribute | None = None
    """getelementptr's source element type."""
    inbounds: bool = False

    def number(self) -> int | float:
        """The number of an int or float constant."""
        assert isinstance(self.value, int | float), self
        return self.value


def hex_float(text: str, type_: Attribute) -> float:
    """LLVM's hexadecimal float: a double's bits (`0x3FB99999A0000000`, also for
    `float`) or a half's (`0xH3C00`)."""
    if text.startswith(("0xH", "0xh")):
        return struct.unpack(">e", bytes.fromhex(text[3:].rjust(4, "0")))[0]
    if text[2] in "RKLMrklm":
        raise TextError(f"unsupported float constant {text} of type {type_}")
    return struct.unpack(">d", bytes.fromhex(text[2:].rjust(16, "0")))[0]


class Cursor:
    """A position in one piece of LLVM IR text."""

    def __init__(self, text: str, structs: dict[str, Attribute] | None = None):
        self.text = text
        self.pos = 0
        self.structs = structs or {}

    def skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in " \t\n":
            self.pos += 1

    def peek(self, token: str) -> bool:
        self.skip()
        return self.text.startswith(token, self.pos)

    def accept(self, token: str) -> bool:
        if self.peek(token):
            self.pos += len(token)
            return True
        return False

    def expect(self, token: str) -> None:
        if not self.accept(token):
            raise TextError(f"expected '{token}' at '{self.text[self.pos :][:30]}'")

    def word(self) -> str:
        return self._token(_WORD, "a word")

    def number(self) -> str:
        return self._token(_NUMBER, "a number")

    def _token(self, pattern: re.Pattern[str], what: str) -> str:
        self.skip()
        match = pattern.match(self.text, self.pos)
        if not match:
            raise TextError(f"expected {what} at '{self.text[self.pos :][:30]}'")
        self.pos = match.end()
        return match.group(0)

    # ----------------------------------------------------------------- types

    def parse_type(self) -> Attribute:
        """One LLVM type."""
        if self.accept("<{"):
            members = [] if self.peek("}>") else self._type_list("}>")
            self.expect("}>")
            return PackedStructType(members)
        if self.accept("{"):
            members = [] if self.peek("}") else self._type_list("}")
            self.expect("}")
            return LLVMStructType.from_type_list(members)
        if self.accept("<"):
            count = int(self.number())
            self.expect("x")
            element = self.parse_type()
            self.expect(">")
            if isinstance(element, LLVMPointerType):
                raise TextError("vectors of pointers are not supported")
            return VectorType(element, [count])
        if self.accept("["):
            count = int(self.number())
            self.expect("x")
            element = self.parse_type()
            self.expect("]")
            return LLVMArrayType(count, element)
        name = self.word()
        return self._named_type(name)

    def _type_list(self, end: str) -> list[Attribute]:
        types = [self.parse_type()]
        while self.accept(","):
            types.append(self.parse_type())
        return types

    def _named_type(self, name: str) -> Attribute:
        if name == "ptr":
            space = 0
            if self.accept("addrspace("):
                space = int(self.number())
                self.expect(")")
            return pointer(space)
        if name in _SCALARS:
            return _SCALARS[name]
        if re.fullmatch(r"i\d+", name):
            return IntegerType(int(name[1:]))
        if name.startswith("%") and name[1:] in self.structs:
            return self.structs[name[1:]]
        if name.startswith("%"):
            raise UnknownStruct(f"type '{name}' is not supported")
        if name == "target":
            return self._target_type()
        raise TextError(f"unknown type '{name}'")

    def _target_type(self) -> Attribute:
        """`target("name", ...)`, after `target` (`events.py`)."""
        start = self.pos
        self.expect("(")
        end = self.text.find(")", self.pos)
        if end < 0:
            raise TextError(f"expected ')' at '{self.text[self.pos :][:30]}'")
        self.pos = end + 1
        type_ = events.target_type(self.text[start + 1 : end])
        if type_ is None:
            raise TextError(
                f"type 'target{self.text[start : end + 1]}' is not supported"
            )
        return type_

    # ------------------------------------------------------------- constants

    def parse_constant(self) -> Constant:
        """`TYPE VALUE`: a typed constant operand."""
        type_ = self.parse_type()
        return self.parse_value(type_)

    def parse_value(self, type_: Attribute) -> Constant:
        """The VALUE of a constant of type `type_`."""
        for keyword in ("null", "undef", "poison", "zeroinitializer"):
            if self.accept(keyword):
                kind = "zero" if keyword == "zeroinitializer" else keyword
                return Constant(kind, type_)
        for word, bit in (("true", 1), ("false", 0)):
            if self.accept(word):
                return Constant("int", type_, bit)
        if self.peek("<") or self.peek("[") or self.peek("{"):
            return self._aggregate(type_)
        if self.peek('c"'):
            return self._bytes(type_)
        if self.peek("@"):
            return Constant("global", type_, self.word()[1:].strip('"'))
        if self.peek("-") or self.text[self.pos : self.pos + 1].isdigit():
            return self._number(type_)
        opcode = self.word()
        if opcode == "splat":
            return self._splat(type_)
        if opcode in ("getelementptr",):
            return self._gep(type_)
        if opcode in ("addrspacecast", "bitcast", "ptrtoint", "inttoptr"):
            self.expect("(")
            inner = self.parse_constant()
            self.expect("to")
            result = self.parse_type()
            self.expect(")")
            return Constant(opcode, result, elements=[inner])
        raise TextError(f"unsupported constant '{opcode}'")

    def _number(self, type_: Attribute) -> Constant:
        text = self.number()
        if isinstance(type_, IntegerType):
            return Constant("int", type_, int(text, 0))
        if text.startswith(("0x", "-0x")):
            return Constant("float", type_, hex_float(text, type_))
        return Constant("float", type_, float(text))

    def _aggregate(self, type_: Attribute) -> Constant:
        close = {"<": ">", "[": "]", "{": "}"}[self.text[self.pos]]
        kind = {">": "vector", "]": "array", "}": "struct"}[close]
        self.pos += 1
        elements = []
        if not self.peek(close):
            elements.append(self.parse_constant())
            while self.accept(","):
                elements.append(self.parse_constant())
        self.expect(close)
        return Constant(kind, type_, elements=elements)

    def _bytes(self, type_: Attribute) -> Constant:
        """`c"ab\\0A"`: an `[N x i8]` of the bytes (`\\XX` a byte in hex)."""
        self.expect('c"')
        end = self.text.index('"', self.pos)
        raw = self.text[self.pos : end]
        self.pos = end + 1
        data = re.sub(
            r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)), raw
        ).encode("latin-1")
        byte = IntegerType(8)
        return Constant(
            "array", type_, elements=[Constant("int", byte, b) for b in data]
        )

    def _splat(self, type_: Attribute) -> Constant:
        """`splat (i32 1)`: LLVM 19's spelling of a vector whose lanes are all one
        constant, as the vector of those lanes."""
        if not isinstance(type_, VectorType):
            raise TextError(f"splat of type {type_}: only vector splats are read")
        self.expect("(")
        lane = self.parse_constant()
        self.expect(")")
        return Constant("vector", type_, elements=[lane] * type_.get_shape()[0])

    def _gep(self, type_: Attribute) -> Constant:
        inbounds = False
        while not self.peek("("):
            inbounds |= self.word() == "inbounds"
        self.expect("(")
        source = self.parse_type()
        self.expect(",")
        operands = [self.parse_constant()]
        while self.accept(","):
            operands.append(self.parse_constant())
        self.expect(")")
        return Constant(
            "getelementptr",
            type_,
            elements=operands,
            source_type=source,
            inbounds=inbounds,
        )


def struct_types(module_text: str) -> dict[str, Attribute]:
    """The module's named struct types, `%name = type { ... }`, by name. LLVM
    prints them in the order it met them, so a struct may name one defined below:
    each is read once the structs it holds are (a struct cannot hold itself, only
    a pointer, which names no type)."""
    pending = {
        match.group(1): match.group(2)
        for match in re.finditer(r"^%([-\w.$]+) = type (.*)$", module_text, re.M)
        if match.group(2).strip() != "opaque"
    }
    structs: dict[str, Attribute] = {}
    while pending:
        left, unknown = len(pending), None
        for name, text in list(pending.items()):
            try:
                structs[name] = Cursor(text, structs).parse_type()
            except UnknownStruct as error:
                unknown = error
            else:
                del pending[name]
        if unknown is not None and len(pending) == left:
            raise unknown
    return structs


def parse_type(text: str, structs: dict[str, Attribute] | None = None) -> Attribute:
    """The type spelled by all of `text`."""
    cursor = Cursor(text, structs)
    type_ = cursor.parse_type()
    cursor.skip()
    if cursor.pos != len(text):
        raise TextError(f"unexpected '{text[cursor.pos :]}' after type")
    return type_
