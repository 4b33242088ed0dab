"""Pass options spelled as the reference implementation spells them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Self

from xdsl.utils.arg_spec import ArgSpec, ArgSpecConvertible


@dataclass(frozen=True)
class NameOption(ArgSpecConvertible):
    """Mixin for passes whose spec option is `name=` (the reference's spelling), which
    xDSL reserves for the pass's own name: the option is stored in the field
    `kernel_name` and spelled `name` on the command line and when printed. (A
    subclass of what defines `from_spec` and `spec`, which it wraps: a pass is
    `class P(NameOption, ModulePass)`.)"""

    @classmethod
    def from_spec(cls, spec: ArgSpec) -> Self:
        parameters = dict(spec.parameters)
        if "name" in parameters:
            parameters["kernel_name"] = parameters.pop("name")
        return super().from_spec(ArgSpec(spec.name, parameters))

    def spec(self, *, include_default: bool = False) -> ArgSpec:
        spec = super().spec(include_default=include_default)
        parameters = dict(spec.parameters)
        if "kernel_name" in parameters:
            parameters["name"] = parameters.pop("kernel_name")
        return ArgSpec(spec.name, parameters)
