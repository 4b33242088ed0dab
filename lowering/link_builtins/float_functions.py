"""The machinery of the float families of `link-builtins` (`maths`, `common`,
`geometric`): a `Function` says how one builtin is computed, `define` makes its
definition for one demangled overload, computing `half` (and, where the function
asks, `float`) in a wider type and storing what an out pointer receives."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.dialects.builtin import Float16Type, Float64Type, i32
from xdsl.ir import Attribute, SSAValue

from lowering.common.llvm_types import element_type, natural_alignment
from lowering.common.mangling import Demangled
from lowering.link_builtins.definition import Build, Definition, match
from lowering.link_builtins.emit import Emitter, is_float, shaped
from lowering.link_builtins.floats import F32, widened

Compute = Callable[..., SSAValue | tuple[SSAValue, SSAValue]]


@dataclass(frozen=True)
class Function:
    """How to compute one math function: `compute(emitter, *values)` on the
    values of the call (pointers left out), which returns the result, or with an
    out pointer (`p`, `q` in `pattern`) the result and what to store."""

    pattern: str
    compute: Compute
    wide: Attribute | None = None
    """The type `half` and `float` values are computed in; None: their own type
    (`halves` for halves)."""
    halves: Attribute = F32
    doubles: bool = True
    """Whether `double` arguments are defined (or left as calls)."""
    writes: bool = False
    """`compute` takes the out pointer and writes through it itself."""
    result: str = "g"
    """The result: the gentype (`g`), `int`s in its lanes (`int`), or its element
    (`scalar`)."""

    def computed_in(self, element: Attribute) -> Attribute:
        """The type arguments of type `element` are computed in."""
        if isinstance(element, Float64Type):
            return element
        if self.wide is not None:
            return self.wide
        return self.halves if isinstance(element, Float16Type) else element


RESULTS: dict[str, Callable[[Attribute], Attribute]] = {
    "g": lambda gentype: gentype,
    "int": lambda gentype: shaped(gentype, i32),
    "scalar": element_type,
}


def define(d: Demangled, function: Function) -> Definition | None:
    """The definition of `d` computed as `function` says, if `d`'s parameters
    follow its pattern."""
    if not match(d, function.pattern):
        return None
    gentype = d.params[function.pattern.index("g")].llvm_type()
    assert gentype is not None
    if not function.doubles and isinstance(element_type(gentype), Float64Type):
        return None
    return Definition(RESULTS[function.result](gentype), _builder(d, function, gentype))


def _builder(d: Demangled, function: Function, gentype: Attribute) -> Build:
    wide = function.computed_in(element_type(gentype))
    if function.pattern[-1] not in "pq" or function.writes:

        def compute_result(e: Emitter, *values: SSAValue) -> SSAValue:
            result = function.compute(e, *values)
            assert isinstance(result, SSAValue)  # no out pointer: the result alone
            return result

        return lambda e, args: widened(e, args, wide, compute_result)
    pointee = d.params[-1].element
    out_type = pointee.llvm_type() if pointee is not None else None
    assert out_type is not None

    def build(e: Emitter, args: list[SSAValue]) -> SSAValue:
        """Computes the result and the value to store; stores it, of the
        pointee's type, through the last argument."""
        stored: list[SSAValue] = []

        def compute(e: Emitter, *values: SSAValue) -> SSAValue:
            computed = function.compute(e, *values)
            assert isinstance(computed, tuple)  # the result and what to store
            result, out = computed
            stored.append(out)
            return result

        result = widened(e, args[:-1], wide, compute)
        out = stored[0]
        if is_float(out.type):
            out = e.resize_float(out, element_type(out_type))
        e.store(out, args[-1], natural_alignment(out_type))
        return result

    return build
