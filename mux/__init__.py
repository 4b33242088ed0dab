"""ComputeMux on xDSL: compile kernels and run them on numpy arrays.

    import mux
    prog = mux.compile(mlir_text)          # or mux.load("kernel.mlir")
    k = prog.kernel("vadd")                # prog.kernels lists the kernels
                                           # (mux.KernelNotFound if none is "vadd")
    k(a, b, c, global_size=1000, local_size=64, global_offset=0)

`mux.explore("kernel.mlir", output="page.html")` writes a page showing a kernel go
through every pass (`mux.explorer`).

See `mux.api` for the contract, `mux.arguments` for what each kernel parameter
takes, `mux.runtime` for how a launch runs.
"""

from mux.api import Kernel, Program, compile, load
from mux.arguments import LocalBuffer, aligned
from mux.errors import CompileError, KernelNotFound, LaunchError
from mux.explorer import explore

__all__ = [
    "CompileError",
    "Kernel",
    "KernelNotFound",
    "LaunchError",
    "LocalBuffer",
    "Program",
    "aligned",
    "compile",
    "explore",
    "load",
]
