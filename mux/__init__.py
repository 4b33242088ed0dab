"""ComputeMux on xDSL: compile kernels and run them on numpy arrays.

    import mux
    prog = mux.compile(mlir_text)          # or mux.load("kernel.mlir")
    k = prog.kernel("vadd")                # prog.kernels lists the kernels
                                           # (mux.KernelNotFound if none is "vadd")
    k(a, b, c, global_size=1000, local_size=64, global_offset=0)

`mux.explore("kernel.mlir", output="page.html")` writes a page showing a kernel go
through every pass (`mux.explorer`).

A compiler building on the library passes an xDSL `ModuleOp` instead of text, and a
`HostPipeline` with passes of its own (`with_pass`): docs/library.md, which also says
what is stable. See `mux.api` for the contract, `mux.arguments` for what each
kernel parameter takes, `mux.runtime` for how a launch runs.
"""

from lowering.common.compile_options import CompileOptions
from lowering.pipelines import HostPipeline
from mux.api import Kernel, Program, compile, load
from mux.arguments import LocalBuffer, aligned
from mux.compiler import context
from mux.errors import CompileError, KernelError, KernelNotFound, LaunchError
from mux.explorer import explore

__all__ = [
    "CompileError",
    "CompileOptions",
    "HostPipeline",
    "Kernel",
    "KernelError",
    "KernelNotFound",
    "LaunchError",
    "LocalBuffer",
    "Program",
    "aligned",
    "compile",
    "context",
    "explore",
    "load",
]
