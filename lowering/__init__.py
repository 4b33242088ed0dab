"""The spec's passes, one module each, and the one table of their names.

`ALL_PASSES` maps a pass's command-line name (the one the reference implementation's
`muxc` uses) to a factory returning the pass class, as xDSL's tools expect. A new pass
is a module in this package plus one line here.
"""

from collections.abc import Callable

from xdsl.passes import ModulePass

ALL_PASSES: dict[str, Callable[[], type[ModulePass]]] = {}
