"""A tiny kernel DSL on the library: a 2-D stencil from a list of offsets and
weights, built with xDSL's builders (no MLIR text), compiled with
`mux.compile(module)`, run, and compared with numpy (docs/library.md).

python examples/stencil_dsl.py
"""

import numpy as np
from xdsl.builder import ImplicitBuilder
from xdsl.dialects import arith, func, memref, scf
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    FloatAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    f32,
)
from xdsl.ir import Block, Region

import mux
from dialects import attributes
from dialects import mux as mux_ops

Taps = list[tuple[int, int, float]]  # (dy, dx, weight)


def stencil_kernel(name: str, taps: Taps) -> ModuleOp:
    """kernel(input, output, width, height): output[y][x] = sum of weight *
    input[y + dy][x + dx] over `taps`, for the pixels whose taps are all inside."""
    index, buffer = (
        IndexType(),
        MemRefType(f32, [DYNAMIC_INDEX], memory_space=IntegerAttr(1, 64)),
    )
    kernel = func.FuncOp(name, ([buffer, buffer, index, index], []))
    attributes.set_is_kernel_entry_point(kernel)
    source, target, width, height = kernel.body.block.args
    r = max(max(abs(dy), abs(dx)) for dy, dx, _ in taps)  # the border left alone
    with ImplicitBuilder(kernel.body.block):
        const = lambda v: arith.ConstantOp(IntegerAttr(v, index)).result  # noqa: E731
        x, y = (
            mux_ops.GetGlobalIdOp(arith.ConstantOp.from_int_and_width(d, 32)).result
            for d in (0, 1)
        )
        inside = [arith.CmpiOp(v, const(r), "uge") for v in (x, y)]
        inside += [
            arith.CmpiOp(v, arith.SubiOp(n, const(r)), "ult")
            for v, n in ((x, width), (y, height))
        ]
        ok = inside[0]
        for test in inside[1:]:
            ok = arith.AndIOp(ok, test)
        guarded = scf.IfOp(ok, [], Region(Block()))
    with ImplicitBuilder(guarded.true_region.block):
        total = arith.ConstantOp(FloatAttr(0.0, f32)).result
        for dy, dx, weight in taps:
            at = arith.AddiOp(
                arith.MuliOp(arith.AddiOp(y, const(dy)), width),
                arith.AddiOp(x, const(dx)),
            )
            value = memref.LoadOp.get(source, [at])
            term = arith.MulfOp(value, arith.ConstantOp(FloatAttr(weight, f32)))
            total = arith.AddfOp(total, term).result
        memref.StoreOp.get(total, target, [arith.AddiOp(arith.MuliOp(y, width), x)])
        scf.YieldOp()
    with ImplicitBuilder(kernel.body.block):
        func.ReturnOp()
    return ModuleOp([kernel])


def reference(image: np.ndarray, taps: Taps) -> np.ndarray:
    """What the kernel computes, with numpy (in the same order of additions)."""
    h, w = image.shape
    r = max(max(abs(dy), abs(dx)) for dy, dx, _ in taps)
    out = np.zeros_like(image)
    inner = np.zeros((h - 2 * r, w - 2 * r), np.float32)
    for dy, dx, weight in taps:
        inner += np.float32(weight) * image[r + dy : h - r + dy, r + dx : w - r + dx]
    out[r : h - r, r : w - r] = inner
    return out


def main() -> None:
    taps = [(0, 0, 0.5), (-1, 0, 0.125), (1, 0, 0.125), (0, -1, 0.125), (0, 1, 0.125)]
    kernel = mux.compile(stencil_kernel("blur", taps)).kernel("blur")
    h, w = 37, 53
    image = np.random.default_rng(0).random((h, w), dtype=np.float32)
    out = np.zeros_like(image)
    kernel(image.ravel(), out.ravel(), w, h, global_size=(w, h), local_size=(8, 4))
    assert np.allclose(out, reference(image, taps), rtol=1e-6), "stencil differs"
    print(f"stencil_dsl: {len(taps)} taps over {w}x{h}, result matches numpy")


if __name__ == "__main__":
    main()
