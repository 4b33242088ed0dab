"""The xDSL dialects of ComputeMux: the library other compilers import.

`ALL_DIALECTS` maps each dialect's name to a factory, as xDSL's tools expect. The
dialects themselves are the modules `dialects.mux`, `dialects.llvmx` and
`dialects.atomic` (their `__all__`), the `mux.*` attributes' helpers
`dialects.attributes`, the scheduling structs `dialects.scheduling`: what is
stable is docs/library.md.
"""

from collections.abc import Callable

from xdsl.ir import Dialect

__all__ = ["ALL_DIALECTS"]


def _mux() -> Dialect:
    from dialects.mux import Mux

    return Mux


def _llvmx() -> Dialect:
    from dialects.llvmx import Llvmx

    return Llvmx


def _atomic() -> Dialect:
    from dialects.atomic import Atomic

    return Atomic


ALL_DIALECTS: dict[str, Callable[[], Dialect]] = {
    "mux": _mux,
    "llvmx": _llvmx,
    "atomic": _atomic,
}
