"""`mux-run`: compile one kernel of a file and run it once, from the command line.

    mux-run examples/vadd.mlir vadd --global 8 --local 4 range:8 ones:8 zeros:8

Arguments follow the kernel's parameters, in order; each is

- a number, for a scalar parameter (`3`, `-1`, `2.5`); comma-separated numbers
  for a vector (`1,2,3,4` for a `float4`);
- for a buffer: `zeros:N`, `ones:N`, `range:N` (0, 1, ..., N-1), `random:N` or
  `random:N:SEED` (uniform in [0, 1) for floats, in [0, 100) for integers; seed 0 by
  default), or the path of a `.npy` file; the element type is the parameter's (N
  elements of a `float4` buffer are an N x 4 array);
- for a local-memory buffer: `local:BYTES`.

Sizes are one to three comma-separated integers (`--global 64,32`). `--fast`,
`--software-wgc`, `--sub-group-size N`, `--vecz-width N` and `--checked` are
`mux.compile`'s options. After the run
the buffers are printed, one `name = [...]` line each, in full; `--out FILE.npz`
writes them to a file instead. Errors (a bad argument, a refused launch, a module that
does not compile) are printed to stderr, with exit status 1.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerType,
    MemRefType,
    VectorType,
)

import mux
from lowering.common.compile_options import CompileOptions, OptionError
from mux.api import load_program
from mux.arguments import Param
from mux.errors import file_error


class ArgumentError(Exception):
    """A command-line argument that does not fit its kernel parameter."""


def parse_argument(param: Param, spec: str) -> Any:
    """The value of `param` that `spec` describes."""
    if param.is_local:
        kind, _, size = spec.partition(":")
        if kind != "local" or not size.isdigit() or int(size) == 0:
            raise ArgumentError(
                f"'{param.name}' is local memory: give local:BYTES (a positive "
                f"number), got '{spec}'"
            )
        return mux.LocalBuffer(int(size))
    if param.byval is not None:
        raise ArgumentError(
            f"'{param.name}' is a struct passed by value, which mux-run does not "
            "build: launch the kernel from Python, with a numpy record"
        )
    if isinstance(param.type, VectorType):
        try:
            return [_number(param, param.type.element_type, s) for s in spec.split(",")]
        except ArgumentError:
            lanes = param.type.get_shape()[0]
            raise ArgumentError(
                f"'{param.name}' is a {param.type}: give its {lanes} numbers, comma "
                f"separated, got '{spec}'"
            ) from None
    if not isinstance(param.type, MemRefType):
        return _number(param, param.type, spec)
    dtype = param.dtype
    assert dtype is not None  # the kernel's parameters all have one
    if spec.endswith(".npy"):
        return _load_npy(param, spec)
    kind, _, rest = spec.partition(":")
    count, _, seed = rest.partition(":")
    if (
        kind not in ("zeros", "ones", "range", "random")
        or not count.isdigit()
        or (seed and (kind != "random" or not seed.isdigit()))
    ):
        raise ArgumentError(
            f"'{param.name}' is a buffer: give zeros:N, ones:N, range:N, "
            f"random:N[:SEED] or a .npy file, got '{spec}'"
        )
    try:
        return _buffer(kind, int(count), int(seed or 0), dtype)
    except (MemoryError, ValueError):
        raise ArgumentError(
            f"'{param.name}': cannot allocate {count} elements of {dtype}"
        ) from None


def _number(param: Param, type_: object, spec: str) -> Any:
    """The number `spec` for a scalar (or a vector's lane) of `type_`."""
    try:
        if isinstance(type_, AnyFloat):
            return float(spec)
        if isinstance(type_, IntegerType | IndexType):
            return int(spec, 0)
    except ValueError:
        pass
    raise ArgumentError(f"'{param.name}' is {param.describe()}, got '{spec}'")


def _load_npy(param: Param, path: str) -> np.ndarray:
    try:
        array = np.load(path)  # no pickles: only arrays of plain numbers
    except OSError as error:
        raise ArgumentError(f"'{param.name}': {file_error('read', error)}") from None
    except (ValueError, EOFError):
        raise ArgumentError(
            f"'{param.name}': {path} is not a .npy file of numbers"
        ) from None
    if not isinstance(array, np.ndarray):
        raise ArgumentError(f"'{param.name}': {path} is not a .npy file of numbers")
    return np.ascontiguousarray(array)


def _buffer(kind: str, n: int, seed: int, dtype: np.dtype) -> np.ndarray:
    """`n` elements of `dtype` (a vector's lanes are the last axis)."""
    shape, base = (n, *dtype.shape), dtype.base
    if kind == "zeros":
        return np.zeros(shape, base)
    if kind == "ones":
        return np.ones(shape, base)
    if kind == "range":
        return np.arange(np.prod(shape)).astype(base).reshape(shape)
    rng = np.random.default_rng(seed)
    if base.kind == "f":
        return rng.random(shape).astype(base)
    return rng.integers(0, 100, shape).astype(base)


def sizes(text: str) -> tuple[int, ...]:
    """An argument of one to three comma-separated sizes (`64,32`)."""
    try:
        return tuple(int(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"sizes are integers: '{text}'") from None


def add_compile_arguments(parser: argparse.ArgumentParser) -> None:
    """The compile options (named as `CompileOptions`' fields, so that
    `CompileOptions.from_attributes` reads them) and --build-options: mux-run's
    and mux-explore's."""
    parser.add_argument(
        "--fast", action="store_true", help="maths may trade accuracy for speed"
    )
    parser.add_argument(
        "--software-wgc",
        action="store_true",
        help="work-group collectives in software (replace-wgc)",
    )
    parser.add_argument(
        "--sub-group-size", type=int, default=1, help="the sub-group size (default 1)"
    )
    parser.add_argument(
        "--vecz-width",
        type=int,
        default=0,
        help="work-items a vectorised kernel runs at once (run-vecz; 1: none; "
        "0, the default: its cost model chooses)",
    )
    parser.add_argument(
        "--checked",
        action="store_true",
        help="checked mode: out-of-bounds accesses raise mux.KernelError "
        "(docs/checked.md)",
    )
    parser.add_argument(
        "--build-options",
        default="",
        help="OpenCL C's clBuildProgram options, for a .cl file (-D, -I, -cl-std=...)",
    )


def kernel_file_parser(
    prog: str, description: str, doc: str | None
) -> argparse.ArgumentParser:
    """The parser of a tool that reads a kernel file (mux-run, mux-explore): the
    file comes first; the help ends with `doc`, the tool's module docstring, but
    for its first two paragraphs."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description=description,
        epilog=doc.split("\n\n", 2)[2] if doc else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "file", help="the kernel file: .mlir, .cl (OpenCL C), .ll or .bc (LLVM IR)"
    )
    return parser


def _parser() -> argparse.ArgumentParser:
    parser = kernel_file_parser(
        "mux-run", "Compile one kernel of an MLIR file and run it once.", __doc__
    )
    parser.add_argument("kernel", help="the kernel to run")
    parser.add_argument("args", nargs="*", help="one per kernel parameter")
    parser.add_argument("--global", dest="global_size", type=sizes, required=True)
    parser.add_argument("--local", dest="local_size", type=sizes, default=None)
    parser.add_argument("--offset", dest="global_offset", type=sizes, default=None)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--out", help="write the buffers to this .npz file")
    add_compile_arguments(parser)
    return parser


def _run(options: argparse.Namespace) -> dict[str, np.ndarray]:
    """Compiles and runs the kernel as the command line says; the buffers after
    the run, by parameter name."""
    if options.out and not os.path.isdir(os.path.dirname(options.out) or "."):
        # found before the run, which may take long, rather than after it
        raise ArgumentError(f"cannot write {options.out}: No such file or directory")
    program = load_program(
        options.file, CompileOptions.from_attributes(options), options.build_options
    )
    kernel = program.kernel(options.kernel)
    if len(options.args) != len(kernel.params):
        names = " ".join(p.name for p in kernel.params)
        raise ArgumentError(
            f"{kernel.name} takes {len(kernel.params)} arguments ({names}), "
            f"got {len(options.args)}"
        )
    values = [
        parse_argument(p, s) for p, s in zip(kernel.params, options.args, strict=True)
    ]
    kernel(
        *values,
        global_size=options.global_size,
        local_size=options.local_size,
        global_offset=options.global_offset or 0,
        threads=options.threads,
    )
    return {
        p.name: v
        for p, v in zip(kernel.params, values, strict=True)
        if isinstance(v, np.ndarray)
    }


def main(argv: Sequence[str] | None = None) -> int:
    options = _parser().parse_intermixed_args(argv)
    try:
        buffers = _run(options)
    except (
        ArgumentError,
        OptionError,
        mux.LaunchError,
        mux.CompileError,
        mux.KernelError,
        KeyError,
        OSError,
    ) as e:
        if isinstance(e, OSError):
            message = file_error("read", e)
        else:
            message = e.args[0] if isinstance(e, KeyError) else str(e)
        print(f"mux-run: {message}", file=sys.stderr)
        return 1
    if options.out:
        try:
            # numpy's stub gives **kwds the type of its keyword allow_pickle
            np.savez(options.out, **buffers)  # pyright: ignore[reportArgumentType]
        except OSError as error:
            print(f"mux-run: {file_error('write', error)}", file=sys.stderr)
            return 1
        return 0
    with np.printoptions(threshold=sys.maxsize, linewidth=sys.maxsize):
        for name, value in buffers.items():
            print(f"{name} = {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
