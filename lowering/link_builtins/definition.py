"""What a family of `link-builtins` gives for a builtin it defines (`Definition`),
and the signature patterns the families match a demangled builtin with
(`match`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.ir import Attribute, SSAValue

from lowering.common.mangling import Demangled, MangledType
from lowering.link_builtins.emit import Emitter

Build = Callable[[Emitter, list[SSAValue]], SSAValue | None]
"""Builds the builtin on the call's arguments; returns its result (None: void)."""


@dataclass(frozen=True)
class Definition:
    """A builtin's definition: the LLVM type of its result (None: void), and how
    to build it."""

    result: Attribute | None
    build: Build


def element_code(p: MangledType) -> str:
    """The scalar code of a scalar or vector type (`f` for `float4`); '' for
    others."""
    scalar = p.scalar
    return scalar.code if scalar.code not in ("Dv", "P", "N", "_Atomic") else ""


def width(p: MangledType) -> int:
    """The lanes of a vector type; 0 for a scalar."""
    return p.length if p.code == "Dv" else 0


def is_float_gentype(p: MangledType) -> bool:
    return element_code(p) in ("f", "d", "Dh")


def is_int_gentype(p: MangledType) -> bool:
    return p.scalar.is_integer and p.code in ("Dv", p.scalar.code)


def is_gentype(p: MangledType) -> bool:
    return is_float_gentype(p) or is_int_gentype(p)


def match(
    d: Demangled,
    pattern: str,
    kind: Callable[[MangledType], bool] = is_float_gentype,
) -> bool:
    """Whether `d`'s parameters follow `pattern`, one letter per parameter, around
    a *gentype*, the type of the first parameter whose letter is `g`, of `kind`
    (a float scalar or vector by default):

    - `g`: the gentype;
    - `s`: the gentype or its element (`fmin(float4, float)`);
    - `k`: an `int`, or `int`s in the gentype's lanes (`ldexp(float4, int4)`);
    - `i`: `int`s in the gentype's lanes (`pown(float4, int4)`);
    - `p`: a pointer to the gentype (`modf`'s out parameter);
    - `q`: a pointer to `int`s in the gentype's lanes (`frexp`'s).
    """
    if len(d.params) != len(pattern) or "g" not in pattern:
        return False
    gentype = d.params[pattern.index("g")]
    if not kind(gentype):
        return False
    return all(
        _fits(letter, p, gentype) for p, letter in zip(d.params, pattern, strict=True)
    )


def _fits(letter: str, p: MangledType, gentype: MangledType) -> bool:
    """Whether `p` is what `letter` of a pattern stands for (see `match`)."""
    lanes = width(gentype)
    if letter in "pq":
        if p.code != "P" or p.element is None:
            return False
        if letter == "p":
            return _plain(p.element) == _plain(gentype)
        return _ints(p.element, lanes, exact=True)
    if letter == "g":
        return _plain(p) == _plain(gentype)
    if letter == "s":
        return _plain(p) in (_plain(gentype), gentype.scalar.code)
    return _ints(p, lanes, exact=letter == "i")


def _plain(p: MangledType) -> str:
    """A type without address space or qualifiers, as a comparable string."""
    return f"Dv{p.length}_{p.scalar.code}" if p.code == "Dv" else p.code


def _ints(p: MangledType, lanes: int, exact: bool) -> bool:
    """`int`s in `lanes` lanes (or one `int` unless `exact`)."""
    if element_code(p) != "i":
        return False
    return width(p) == lanes or (not exact and width(p) == 0)
