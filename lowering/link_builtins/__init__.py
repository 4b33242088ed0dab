"""`link-builtins`: the spec's LinkBuiltinsPass, for the pure OpenCL C builtins.

compiler-utils-passes.rst, "LinkBuiltinsPass": the pass "will manually link in any
functions required from a given `builtins` module, into the current module", and
"in some cases linking builtins before vectorization is desirable" (its
`EarlyLinking`). ir-conventions.rst, "Builtins": "The definitions of builtins
**shall** be assumed to be provided by ComputeMux", which "**may** modify the
implementation of a builtin function at any point in the compilation pipeline".
OptimalBuiltinReplacementPass goes further: a call "is deleted and is replaced
with a series of inline IR instructions".

Ours is that last form for every builtin it knows: each `func.call @_Z<mangled>`
of a pure OpenCL C builtin (math, common, integer, relational and geometric
functions, conversions, `vload<n>`/`vstore<n>`) becomes the ops that compute it,
on the call's own types, scalars or vectors:

    %r = func.call @_Z4fminff(%a, %b) : (f32, f32) -> f32

becomes

    %r = arith.minnumf %a, %b : f32

Why inline ops rather than a library module linked in:

- *No library to build and ship.* A module of definitions would be OpenCL C or
  MLIR compiled by us for every overload (a builtin has up to 6 widths of 3 to 10
  element types) and kept in step with the importer's IR; the ops are written
  once, generic in the width, and a definition is at most a few dozen ops.
- *Vectorisation sees through them.* The definitions are `arith`/`math` ops where
  the dialects have the operation, ops `run-vecz` widens and LLVM vectorises;
  a call of a library function would be opaque to both (the spec links early for
  that reason). Where `math` lacks a function, an LLVM intrinsic (`ldexp`,
  `frexp`, `exp10`, `fshl`, `sadd.sat`, ...) keeps it visible to LLVM; the C
  library is called only for what neither has (`hypot`, `tgamma`, `lgamma_r`, ...).
- *The precision is the C library's and LLVM's.* `convert-to-llvm` makes `math`
  ops LLVM intrinsics, which the host's C library computes to within an ulp or
  two, inside the OpenCL C limits; the compositions (`*pi`, `rootn`, `fract`,
  the conversions' rounding modes, ...) are written from the specification's
  definitions and edge cases, and exact where the function is.

The families (a module each): `maths` (with `math_compositions`), `common`,
`integer`, `relational`, `geometric`, `conversions` and `vectors` (`vload<n>`,
`vstore<n>`, `vload_half`, `vstore_half`, `shuffle`). A builtin none of them
defines stays a call (the family says so by returning no definition), and
`mux.backend.linking` refuses it by name at the end: a builtin is either computed
right or refused, never approximated by something else.

Before: `lower-to-mux-builtins` (the work-item, synchronisation and group builtins
are `mux` ops; what remains called are library functions); the host pipeline runs
this pass right after it, so `run-vecz` then vectorises the result. After: no call
of a builtin a family defines, nor its declaration once nothing calls it; C
library functions some definitions call are declared (`func.func private`).
Diagnostics: a declaration of a builtin whose types are not its mangled
parameters' and result's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from lowering.common.errors import PassError
from lowering.common.functions import callers_of, functions
from lowering.common.mangling import Demangled, demangle
from lowering.link_builtins import (
    common,
    conversions,
    geometric,
    integer,
    maths,
    relational,
    vectors,
)
from lowering.link_builtins.definition import Definition
from lowering.link_builtins.emit import Emitter

FAMILIES: tuple[Callable[[Demangled], Definition | None], ...] = (
    maths.find,
    common.find,
    integer.find,
    relational.find,
    geometric.find,
    conversions.find,
    vectors.find,
)
"""Each family's lookup: the definition of a builtin, or None if not its own."""


def find_definition(d: Demangled) -> Definition | None:
    """The definition of builtin `d`, if a family has one."""
    for find in FAMILIES:
        definition = find(d)
        if definition is not None:
            return definition
    return None


def check_declaration(fn: func.FuncOp, d: Demangled, definition: Definition) -> None:
    """A diagnostic unless `fn` has the types of `d`'s parameters and result."""
    inputs = list(fn.function_type.inputs.data)
    outputs = list(fn.function_type.outputs.data)
    expected = [p.llvm_type() for p in d.params]
    result = [] if definition.result is None else [definition.result]
    if inputs == expected and outputs == result:
        return
    want = f"({', '.join(map(str, expected))}) -> ({', '.join(map(str, result))})"
    got = f"({', '.join(map(str, inputs))}) -> ({', '.join(map(str, outputs))})"
    raise PassError(
        f"link-builtins: @{fn.sym_name.data} is {d.signature()}: its declaration "
        f"must have the types {want}, got {got}",
        fn,
    )


@dataclass(frozen=True)
class LinkBuiltinsPass(ModulePass):
    """Replaces calls of pure OpenCL C builtins by the ops that compute them (see
    the module docstring)."""

    name = "link-builtins"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        known: dict[str, tuple[func.FuncOp, Definition]] = {}
        for name, fn in functions(op).items():
            d = demangle(name) if fn.is_declaration else None
            definition = find_definition(d) if d is not None else None
            if d is not None and definition is not None:
                check_declaration(fn, d, definition)
                known[name] = (fn, definition)
        if not known:
            return
        callers = callers_of(op)
        for name, (fn, definition) in known.items():
            for call in callers.get(name, []):
                emitter = Emitter(Builder(InsertPoint.before(call)), op)
                result = definition.build(emitter, list(call.arguments))
                Rewriter.replace_op(call, [], [result] if call.results else [])
            Rewriter.erase_op(fn)
