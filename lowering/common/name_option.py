"""Pass options spelled as the reference implementation spells them."""

from __future__ import annotations

from xdsl.utils.arg_spec import ArgSpec


class NameOption:
    """Mixin for passes whose spec option is `name=` (the reference's spelling), which
    xDSL reserves for the pass's own name: the option is stored in the field
    `kernel_name` and spelled `name` on the command line and when printed."""

    @classmethod
    def from_spec(cls, spec: ArgSpec):  # type: ignore[override]
        parameters = dict(spec.parameters)
        if "name" in parameters:
            parameters["kernel_name"] = parameters.pop("name")
        return super().from_spec(ArgSpec(spec.name, parameters))  # type: ignore[misc]

    def spec(self, *, include_default: bool = False) -> ArgSpec:
        spec = super().spec(include_default=include_default)  # type: ignore[misc]
        parameters = dict(spec.parameters)
        if "kernel_name" in parameters:
            parameters["name"] = parameters.pop("kernel_name")
        return ArgSpec(spec.name, parameters)
