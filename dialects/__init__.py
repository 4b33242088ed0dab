"""The xDSL dialects of ComputeMux: the library other compilers import.

`ALL_DIALECTS` maps each dialect's name to a factory, as xDSL's tools expect.
"""

from collections.abc import Callable

from xdsl.ir import Dialect


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
