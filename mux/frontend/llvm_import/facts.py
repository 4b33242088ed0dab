"""The facts of an instruction only its printed text holds (llvmlite 0.50 does not
expose them): one small function per fact, each given `str(instruction)`.

The text is LLVM's printing of one instruction, for example

    %5 = getelementptr inbounds nuw float, ptr addrspace(1) %0, i64 %4
    store float %9, ptr addrspace(1) %10, align 4, !tbaa !12
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from xdsl.dialects.builtin import VectorType
from xdsl.dialects.llvm import FastMathAttr, OverflowAttr, OverflowFlag
from xdsl.dialects.utils.fast_math import FastMathFlag
from xdsl.ir import Attribute

from mux.frontend.llvm_import.text import Constant, Cursor, TextError

_RESULT = re.compile(r"^\s*(%[-\w.$\"]+\s*=\s*)?")
_METADATA = re.compile(r",\s*!(?!\")[-\w.]+\s+!\d+|,\s*!(?!\")[-\w.]+\s+!\{[^}]*\}")

OVERFLOW_FLAGS = ("nuw", "nsw")
FAST_MATH_FLAGS = ("nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc", "fast")
OTHER_FLAGS = ("exact", "disjoint", "nneg", "inbounds", "nusw", "volatile", "samesign")


def body(text: str) -> str:
    """The instruction without its result name and its trailing metadata
    attachments (`, !tbaa !12`, `, !dbg !7`)."""
    text = _RESULT.sub("", text, count=1)
    return _METADATA.sub("", text).strip()


def words_after_opcode(text: str) -> list[str]:
    """The flag words between the opcode and what follows (`add nuw nsw i32 ...`
    gives ["nuw", "nsw"]; `tail call` and `notail call` count as the opcode)."""
    words = body(text).split()
    start = 2 if words and words[0] in ("tail", "musttail", "notail") else 1
    known = OVERFLOW_FLAGS + FAST_MATH_FLAGS + OTHER_FLAGS
    flags = []
    for word in words[start:]:
        if word not in known:
            break
        flags.append(word)
    return flags


def fast_math(words: Iterable[str]) -> FastMathAttr:
    """The fast-math flags among an instruction's flag `words`, as xDSL's enum
    members (xDSL prints and translates only those); LLVM's `fast` is all seven."""
    flags = set[FastMathFlag]()
    for word in words:
        if word == "fast":
            flags.update(FastMathFlag)
        elif word in FAST_MATH_FLAGS:
            flags.add(FastMathFlag(word))
    return FastMathAttr(flags)


def overflow(words: Iterable[str]) -> OverflowAttr:
    """The `nuw`/`nsw` flags among an instruction's flag `words`."""
    return OverflowAttr([OverflowFlag(w) for w in words if w in OVERFLOW_FLAGS])


def predicate(text: str) -> str:
    """icmp's or fcmp's condition: the first word after the opcode and its flags."""
    words = body(text).split()
    return words[1 + len(words_after_opcode(text))]


def alignment(text: str) -> int | None:
    """`, align N` of a load, store or alloca; None when absent."""
    match = re.search(r",\s*align\s+(\d+)", body(text))
    return int(match.group(1)) if match else None


def is_atomic(text: str) -> bool:
    """A load or store with an ordering (`load atomic i32, ptr %p acquire`)."""
    return body(text).split()[1:2] == ["atomic"]


def has_operand_bundles(text: str) -> bool:
    """A call with operand bundles after its arguments (`) [ "align"(ptr %p) ]`)."""
    return re.search(r'\)\s*\[\s*"', body(text)) is not None


def leading_type(text: str, structs: dict[str, Attribute]) -> Attribute:
    """The type right after the opcode and its flags: getelementptr's source
    element type, alloca's allocated type."""
    rest = body(text)
    for word in rest.split()[: 1 + len(words_after_opcode(text))]:
        rest = rest[rest.index(word) + len(word) :]
    return Cursor(rest, structs).parse_type()


def shuffle_mask(text: str) -> list[int]:
    """shufflevector's mask: its lanes, -1 for a poison (or undef) lane."""
    rest = body(text)
    match = list(re.finditer(r",\s*<\d+ x i32>\s", rest))
    if not match:
        raise TextError("shufflevector without a mask")
    mask = Cursor(rest[match[-1].start() + 1 :]).parse_constant()
    assert isinstance(mask.type, VectorType)
    count = mask.type.get_shape()[0]
    if mask.kind == "zero":
        return [0] * count
    if mask.kind in ("undef", "poison"):
        return [-1] * count
    return [int(e.number()) if e.kind == "int" else -1 for e in mask.elements]


def aggregate_indices(text: str) -> list[int]:
    """extractvalue's and insertvalue's constant indices (`, 0, 1` at the end)."""
    match = re.search(r"((?:,\s*\d+)+)$", body(text))
    if not match:
        raise TextError("no indices")
    return [int(i) for i in re.findall(r"\d+", match.group(1))]


def constant_operand(operand_text: str, structs: dict[str, Attribute]) -> Constant:
    """A constant operand's tree, from llvmlite's printing of it (`i32 7`,
    `ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @g, i64 32)`)."""
    cursor = Cursor(operand_text.strip(), structs)
    constant = cursor.parse_constant()
    cursor.skip()
    if cursor.pos != len(cursor.text):
        raise TextError(f"unexpected '{cursor.text[cursor.pos :]}' after a constant")
    return constant
