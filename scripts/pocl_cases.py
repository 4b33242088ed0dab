"""The launches `scripts/conformance.py --vs-pocl` runs on mux and on PoCL
(scripts/conformance_pocl.py): what one is (`Case`, its `Arg`s), how the mux
worker hands them to the PoCL worker (`save_cases`, `load_cases`: a JSON
description and a `.npz` of the arrays), and where their inputs come from:

- a file's manifest (`conformance_manifests`), when it has one (`manifest_cases`):
  the arguments, sizes and build options `--run` uses; the expected values are
  not used (comparing these checks the oracle against the references);
- else the parameters of its kernel, as mux's front-end imports them
  (`derive_cases`): every global buffer of `DEFAULT_ELEMENTS` elements of
  deterministic random values seeded by the file and kernel names (integers from
  1 to 16, so that a value used as an index or a divisor stays small and not
  zero; floats from -2 to 2; a struct's fields each so); a local buffer of
  `LOCAL_PER_ITEM` elements per work-item of a group; scalars, vectors and
  structs by value drawn the same way; over a 1-D
  NDRange of `DEFAULT_GLOBAL` work-items in groups of `DEFAULT_LOCAL` (the
  kernel's required work-group size, 4 groups of it in x, if it has one), no
  offset. The kernel run is the one named as the file (UnitCL's rule), else
  every kernel of the file, one case each.

What derived inputs cannot serve: a kernel that indexes past `DEFAULT_ELEMENTS`
(a large stride, an index loaded from a buffer: such a run may differ or crash,
and shows so), one whose loop bounds or sizes come from data or need values
other than small ones, one that needs a `-D` value neither its header nor its
C++ test gives (it does not compile).
"""

from __future__ import annotations

import json
import zlib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

DEFAULT_GLOBAL = 64
DEFAULT_LOCAL = 16
DEFAULT_ELEMENTS = 4096
"""A derived buffer's elements: 64 per work-item, room for the strides of
UnitCL's kernels. Not sized by mux's access analysis (`mux.access_bounds`): a
kernel from OpenCL C addresses its buffers through `!llvm.ptr` casts of them,
which the analysis counts as escaping, so it knows no bound."""
LOCAL_PER_ITEM = 16
"""A derived local buffer's elements per work-item of a group (at most 32 KiB
for 16 items of a `double16`: the host's local memory is 64 KiB)."""

# ---------------------------------------------------------------------------
# A launch, as both sides run it


@dataclass
class Arg:
    """One argument: a global buffer (`data` its contents before the launch),
    a local buffer (`nbytes`), or a value (`data` a 0-d or vector array of the
    parameter's type). `lanes` is 3 for a buffer of 3-element vectors, whose 4th
    lane in memory is padding and is not compared."""

    kind: str
    data: np.ndarray | None = None
    nbytes: int = 0
    lanes: int = 0


@dataclass
class Case:
    """One launch of one kernel: build options, NDRange, arguments."""

    kernel: str
    options: str
    global_size: tuple[int, ...]
    local_size: tuple[int, ...]
    global_offset: tuple[int, ...] = ()
    sub_group_size: int = 1
    label: str = ""
    args: list[Arg] = field(default_factory=list)


def save_cases(scratch: Path, stem: str, cases: list[Case], inputs: str) -> None:
    """The cases of a file: their description (`<stem>.json`) and their
    arrays (`<stem>.in.npz`)."""
    arrays, described = {}, []
    for i, case in enumerate(cases):
        record = asdict(case)
        record["args"] = []
        for j, arg in enumerate(case.args):
            if arg.data is not None:
                arrays[f"c{i}a{j}"] = arg.data
            record["args"].append({**asdict(arg), "data": None})
        described.append(record)
    np.savez(scratch / f"{stem}.in.npz", **arrays)
    text = json.dumps({"inputs": inputs, "cases": described})
    (scratch / f"{stem}.json").write_text(text, encoding="utf-8")


def load_cases(scratch: Path, stem: str) -> tuple[list[Case], str]:
    """`save_cases`'s cases back, and where their inputs came from."""
    described = json.loads((scratch / f"{stem}.json").read_text(encoding="utf-8"))
    cases = []
    with np.load(scratch / f"{stem}.in.npz") as arrays:
        for i, record in enumerate(described["cases"]):
            args = [
                Arg(**{**a, "data": arrays.get(f"c{i}a{j}")})
                for j, a in enumerate(record.pop("args"))
            ]
            for key in ("global_size", "local_size", "global_offset"):
                record[key] = tuple(record[key])
            cases.append(Case(**record, args=args))
    return cases, described["inputs"]


# ---------------------------------------------------------------------------
# The cases of a file: from its manifest, or derived from its kernels


def manifest_cases(program_for, launches, stem: str) -> list[Case]:
    """The manifest's launches as cases; `program_for(launch)` gives the
    `mux.Program` and the options it was built with."""
    from conformance_manifests import In, Local, Scalar, _kernel_of

    cases = []
    for launch in launches:
        program, options = program_for(launch)
        kernel = program.kernel(launch.kernel or _kernel_of(program, stem))
        if len(launch.args) != len(kernel.params):
            raise ValueError(
                f"the manifest gives {len(launch.args)} arguments, {kernel.name} "
                f"takes {len(kernel.params)}"
            )
        args = []
        for arg, param in zip(launch.args, kernel.params, strict=True):
            if isinstance(arg, Local):
                nbytes = arg.count * np.dtype(arg.dtype).itemsize
                args.append(Arg("local", nbytes=nbytes))
            elif isinstance(arg, Scalar):
                args.append(Arg("value", _value(param.dtype, arg.value)))
            else:
                data = arg.data if isinstance(arg, In) else arg.initial()
                args.append(Arg("buffer", np.array(data), lanes=_lanes(param)))
        global_size = _sizes(launch.global_size)
        local = launch.local_size
        local = _sizes(local) if local is not None else _local_size(kernel, global_size)
        case = Case(kernel.name, options, global_size, local, (0,) * len(global_size))
        case.sub_group_size, case.label, case.args = (
            launch.sub_group_size,
            launch.label,
            args,
        )
        cases.append(case)
    return cases


def derive_cases(program: Any, options: str, stem: str) -> list[Case]:
    """Cases for a file without a manifest: the kernel named as the file (or
    every kernel) over the default NDRange, on deterministic random inputs
    (the module's docstring says which)."""
    named = stem.split(".", 1)[-1].split("_", 1)[-1]
    names = [named] if named in program.kernels else list(program.kernels)
    return [_derived_case(program.kernel(name), options, stem) for name in names]


def _derived_case(kernel: Any, options: str, stem: str) -> Case:
    from xdsl.dialects.builtin import MemRefType

    from dialects import attributes as mux_attrs

    reqd = mux_attrs.REQD_WORK_GROUP_SIZE.get(kernel.function)
    if reqd:
        local = tuple(reqd)
        global_size = (local[0] * 4, *local[1:])
    else:
        global_size, local = (DEFAULT_GLOBAL,), (DEFAULT_LOCAL,)
    offset = (0,) * len(global_size)
    rng = np.random.default_rng(zlib.crc32(f"{stem}:{kernel.name}".encode()))
    values = {
        i: Arg("value", _random(rng, p.dtype, ()))
        for i, p in enumerate(kernel.params)
        if not isinstance(p.type, MemRefType)
    }
    args = []
    for i, param in enumerate(kernel.params):
        if i in values:
            args.append(values[i])
        elif param.is_local:
            count = int(np.prod(local)) * LOCAL_PER_ITEM
            args.append(Arg("local", nbytes=count * param.dtype.itemsize))
        else:
            data = _random(rng, param.dtype, (DEFAULT_ELEMENTS,))
            args.append(Arg("buffer", data, lanes=_lanes(param)))
    return Case(kernel.name, options, global_size, local, offset, args=args)


def _random(rng: np.random.Generator, dtype: np.dtype, shape: tuple) -> np.ndarray:
    """Values of `dtype` (a scalar, vector or record type) in `shape`: integers
    from 1 to 16, floats from -2 to 2; a record's fields each so."""
    if dtype.names:
        out = np.zeros(shape, dtype)
        for name in dtype.names:
            out[name] = _random(rng, dtype.fields[name][0], shape)
        return out
    base, inner = (dtype.subdtype or (dtype, ()))[0], (dtype.subdtype or (0, ()))[1]
    full = (*shape, *inner)
    if base.names or base.subdtype:  # an array inside a record
        return _random(rng, base, full)
    if base.kind == "f":
        return rng.uniform(-2.0, 2.0, full).astype(base)
    return rng.integers(1, 17, full).astype(base)


def _value(dtype: np.dtype, value: Any) -> np.ndarray:
    """A manifest's scalar as an array of the parameter's type (`dtype`)."""
    given = np.asarray(value)
    if given.dtype.names or dtype.names:
        return given
    if dtype.subdtype:  # a vector by value: its lanes, padded
        base, shape = dtype.subdtype
        out = np.zeros(shape, base)
        lanes = given.astype(base).reshape(-1)
        out[: lanes.size] = lanes
        return out
    return given.astype(dtype).reshape(())


def _lanes(param: Any) -> int:
    shape = getattr(param.element, "get_shape", lambda: ())()
    return 3 if tuple(shape) == (3,) else 0


def _sizes(size: int | tuple[int, ...]) -> tuple[int, ...]:
    return (size,) if isinstance(size, int) else tuple(size)


def _local_size(kernel: Any, global_size: tuple[int, ...]) -> tuple[int, ...]:
    """The local size mux picks when a launch names none (the kernel's required
    one, else the runtime's default): PoCL is given the same."""
    from dialects import attributes as mux_attrs
    from mux.runtime import default_local_size

    reqd = mux_attrs.REQD_WORK_GROUP_SIZE.get(kernel.function)
    return tuple(reqd[: len(global_size)]) if reqd else default_local_size(global_size)
