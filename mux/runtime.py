"""The host runtime: checks a launch, packs the arguments, runs the NDRange.

It follows the spec's host target model (compiler-pipeline-overview.txt, "Host"): the
NDRange is cut into slices of work-groups, each slice is one call of the kernel's entry
hook on a worker thread (ctypes releases the GIL during the call), and the hook loops
over the work-groups of its slice.

Everything about a launch is checked before anything runs, so a refused launch
(`LaunchError`, naming the argument) writes nothing.
"""

from __future__ import annotations

import ctypes
import math
import os
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    MemRefType,
)
from xdsl.ir import Attribute

from dialects import attributes as mux_attrs
from dialects.mux import (
    ADDRESS_SPACE_CONSTANT,
    ADDRESS_SPACE_GLOBAL,
    ADDRESS_SPACE_LOCAL,
    address_space_of,
)
from dialects.scheduling import WORK_GROUP_INFO, FieldKind
from mux.errors import LaunchError

MAX_WORK_GROUP_SIZE = 1024
"""Work-items in one work-group, and in each dimension of it."""
LOCAL_MEMORY_SIZE = 64 * 1024
"""Bytes of local memory one work-group may use."""


@dataclass(frozen=True)
class LocalBuffer:
    """A local-memory kernel argument: `nbytes` bytes per work-group."""

    nbytes: int


# --------------------------------------------------------------------------------------
# Parameters: what each kernel parameter accepts and how it is packed.
# --------------------------------------------------------------------------------------

_FLOATS = {Float16Type: np.float16, Float32Type: np.float32, Float64Type: np.float64}


def _numpy_kinds(type_: Attribute) -> tuple[str, int] | None:
    """(numpy kind letters, item size) accepted for elements of `type_`. Signless
    integers accept signed and unsigned arrays of their width."""
    if isinstance(type_, IndexType):
        return "iu", 8
    if isinstance(type_, IntegerType):
        width = type_.width.data
        return ("b", 1) if width == 1 else ("iu", max(1, width // 8))
    if isinstance(type_, AnyFloat) and type(type_) in _FLOATS:
        return "f", np.dtype(_FLOATS[type(type_)]).itemsize
    return None


@dataclass(frozen=True)
class Param:
    """One kernel parameter as the runtime sees it."""

    name: str
    type: Attribute

    @property
    def address_space(self) -> int | None:
        return (
            address_space_of(self.type) if isinstance(self.type, MemRefType) else None
        )

    @property
    def is_local(self) -> bool:
        return self.address_space == ADDRESS_SPACE_LOCAL

    @property
    def ctype(self) -> Any:
        """The field type in the packed argument struct (add-kernel-wrapper)."""
        if isinstance(self.type, MemRefType):
            return ctypes.c_int64 if self.is_local else ctypes.c_void_p
        if isinstance(self.type, IndexType):
            return ctypes.c_int64
        if isinstance(self.type, IntegerType):
            width = self.type.width.data
            return {1: ctypes.c_bool, 8: ctypes.c_int8, 16: ctypes.c_int16}.get(
                width, ctypes.c_int32 if width == 32 else ctypes.c_int64
            )
        if isinstance(self.type, Float16Type):
            return ctypes.c_uint16
        return ctypes.c_float if isinstance(self.type, Float32Type) else ctypes.c_double

    def describe(self) -> str:
        if isinstance(self.type, MemRefType):
            if self.is_local:
                return "a mux.LocalBuffer"
            return f"a contiguous {self.type.element_type} array"
        return f"a {self.type} scalar"

    def pack(self, value: Any) -> tuple[Any, int]:
        """(the packed field value, local-memory bytes); LaunchError if `value` does
        not fit this parameter."""
        if isinstance(self.type, MemRefType):
            return self._pack_memref(value)
        return self._pack_scalar(value), 0

    def _error(self, problem: str) -> LaunchError:
        return LaunchError(f"argument '{self.name}': {problem}")

    def _pack_memref(self, value: Any) -> tuple[Any, int]:
        assert isinstance(self.type, MemRefType)
        static = [d for d in self.type.get_shape() if d != DYNAMIC_INDEX]
        dynamic = len(static) != self.type.get_num_dims()
        element = self.type.element_type
        kinds, itemsize = _numpy_kinds(element) or ("", 0)
        if self.is_local:
            if not isinstance(value, LocalBuffer):
                raise self._error(f"expected {self.describe()}, got {_what(value)}")
            needed = 0 if dynamic else math.prod(static) * itemsize
            if value.nbytes <= 0 or value.nbytes < needed:
                raise self._error(
                    f"a local buffer of {value.nbytes} bytes; it needs "
                    f"{max(needed, 1)} at least"
                )
            return value.nbytes, value.nbytes
        if not isinstance(value, np.ndarray):
            raise self._error(f"expected {self.describe()}, got {_what(value)}")
        if value.dtype.kind not in kinds or value.dtype.itemsize != itemsize:
            raise self._error(
                f"expected an array of {element}, got an array of {value.dtype}"
            )
        if not value.flags.c_contiguous:
            raise self._error(
                "the array is not C-contiguous (use np.ascontiguousarray)"
            )
        if self.address_space != ADDRESS_SPACE_CONSTANT and not value.flags.writeable:
            raise self._error("the array is read-only, and the kernel may write it")
        if not dynamic and value.size < math.prod(static):
            raise self._error(
                f"the array has {value.size} elements, the kernel's {self.type} "
                f"needs {math.prod(static)}"
            )
        return value.ctypes.data, 0

    def _pack_scalar(self, value: Any) -> Any:
        if isinstance(value, np.ndarray | LocalBuffer) or not np.isscalar(value):
            raise self._error(f"expected {self.describe()}, got {_what(value)}")
        if isinstance(value, np.generic):
            kinds, itemsize = _numpy_kinds(self.type) or ("", 0)
            if value.dtype.kind not in kinds or value.dtype.itemsize != itemsize:
                raise self._error(
                    f"expected {self.describe()}, got a numpy {value.dtype} scalar"
                )
            value = value.item()
        if isinstance(self.type, AnyFloat):
            if not isinstance(value, int | float) or isinstance(value, bool):
                raise self._error(f"expected {self.describe()}, got {_what(value)}")
            if isinstance(self.type, Float16Type):
                return int(np.float16(value).view(np.uint16))
            return float(value)
        if not isinstance(value, int):
            raise self._error(f"expected {self.describe()}, got {_what(value)}")
        width = 64 if isinstance(self.type, IndexType) else self.type.width.data
        if not -(1 << (width - 1)) <= value < (1 << width) or (
            width == 1 and value < 0
        ):
            raise self._error(f"{value} is out of range for {self.type}")
        # A signless integer: store the two's complement of an unsigned value.
        return (
            value - (1 << width) if width > 1 and value >= 1 << (width - 1) else value
        )


def _what(value: Any) -> str:
    if isinstance(value, np.ndarray):
        return f"an array of {value.dtype}"
    return f"{type(value).__name__} {value!r}"


def kernel_params(fn: func.FuncOp) -> list[Param]:
    """The parameters of kernel `fn`, as the runtime checks and packs them. The
    buffer of module-scope local variables (`mux.local_vars_param`) is not one: the
    kernel wrapper allocates it."""
    params = []
    local_vars = mux_attrs.LOCAL_VARS_PARAM.get(fn)
    hidden = -1 if local_vars is None else local_vars.index
    for index, (arg, type_) in enumerate(
        zip(fn.args, fn.function_type.inputs.data, strict=True)
    ):
        if index == hidden:
            continue
        param = Param(arg.name_hint or f"arg{index}", type_)
        if isinstance(type_, MemRefType):
            space = param.address_space
            if space not in (ADDRESS_SPACE_GLOBAL, ADDRESS_SPACE_CONSTANT, 3):
                raise LaunchError(
                    f"parameter '{param.name}': a kernel buffer is in global (1), "
                    f"constant (2) or local (3) memory, not {type_}"
                )
            if _numpy_kinds(type_.element_type) is None:
                raise LaunchError(
                    f"parameter '{param.name}': no numpy type for {type_.element_type}"
                )
        elif _numpy_kinds(type_) is None:
            raise LaunchError(
                f"parameter '{param.name}': the runtime cannot pass a {type_}"
            )
        params.append(param)
    return params


def packed_struct(params: Sequence[Param]) -> type[ctypes.Structure]:
    """The ctypes twin of `MuxPackedArgs.<kernel>`: C layout is LLVM's natural one."""
    fields = [(f"f{i}", p.ctype) for i, p in enumerate(params)]
    return type("MuxPackedArgs", (ctypes.Structure,), {"_fields_": fields})


def _schedule_struct() -> type[ctypes.Structure]:
    """The ctypes twin of MuxWorkGroupInfo (dialects/scheduling.py)."""
    fields = [
        (
            f.name,
            ctypes.c_int64 * 3 if f.kind is FieldKind.SIZE_T_X3 else ctypes.c_int32,
        )
        for f in WORK_GROUP_INFO.fields
    ]
    return type("MuxWorkGroupInfo", (ctypes.Structure,), {"_fields_": fields})


WorkGroupInfo = _schedule_struct()


# --------------------------------------------------------------------------------------
# Sizes.
# --------------------------------------------------------------------------------------


def ndrange_sizes(what: str, sizes: Any, allow_zero: bool = False) -> tuple[int, ...]:
    """An int or a tuple of 1 to 3 ints, as a tuple; LaunchError otherwise."""
    values = (sizes,) if isinstance(sizes, int | np.integer) else sizes
    if not isinstance(values, tuple | list) or not 1 <= len(values) <= 3:
        raise LaunchError(f"{what}: an int or 1 to 3 ints, got {sizes!r}")
    low = 0 if allow_zero else 1
    if any(not isinstance(v, int | np.integer) or v < low for v in values):
        kind = "non-negative" if allow_zero else "positive"
        raise LaunchError(f"{what}: sizes must be {kind} integers, got {sizes!r}")
    return tuple(int(v) for v in values)


def default_local_size(global_size: tuple[int, ...]) -> tuple[int, ...]:
    """The local size the runtime picks: in x, the largest divisor of the global size
    from 16 to 256 (so that work-groups are uniform), else 64; 1 in y and z."""
    x = global_size[0]
    divisors = [d for d in range(256, 15, -1) if x % d == 0]
    first = divisors[0] if divisors else min(x, 64)
    return (first, *(1,) * (len(global_size) - 1))


def slices(num_groups: tuple[int, int, int], count: int) -> list[tuple[int, ...]]:
    """Cuts the work-groups into up to `count` boxes along the dimension that has the
    most work-groups: (x_begin, x_end, y_begin, y_end, z_begin, z_end) each."""
    d = max(range(3), key=lambda i: num_groups[i])
    n = num_groups[d]
    count = max(1, min(count, n))
    boxes = []
    for k in range(count):
        begin, end = n * k // count, n * (k + 1) // count
        box = [0, num_groups[0], 0, num_groups[1], 0, num_groups[2]]
        box[2 * d], box[2 * d + 1] = begin, end
        boxes.append(tuple(box))
    return boxes


_pool: ThreadPoolExecutor | None = None


def thread_pool() -> ThreadPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=os.cpu_count() or 1)
    return _pool


def launch(
    hook: Any,
    packed: ctypes.Structure,
    global_size: tuple[int, ...],
    local_size: tuple[int, ...],
    global_offset: tuple[int, ...],
    threads: int,
) -> None:
    """Runs the NDRange: `threads` slices of work-groups, the first on the calling
    thread and the others on the thread pool."""
    dims = len(global_size)
    pad = (1,) * (3 - dims)
    g, lsz = (*global_size, *pad), (*local_size, *pad)
    num_groups = tuple(-(-g[d] // lsz[d]) for d in range(3))
    schedule = WorkGroupInfo()
    for d in range(3):
        schedule.num_groups[d] = num_groups[d]
        schedule.global_offset[d] = (*global_offset, 0, 0)[d]
        schedule.local_size[d] = lsz[d]
        schedule.enqueued_local_size[d] = lsz[d]
        schedule.global_size[d] = g[d]
    schedule.work_dim = dims
    args, sched = ctypes.addressof(packed), ctypes.addressof(schedule)
    boxes = slices(num_groups, threads)  # type: ignore[arg-type]
    if len(boxes) == 1:
        hook(args, sched, *boxes[0])
        return
    # the calling thread runs the first slice itself rather than waiting idle
    futures = [thread_pool().submit(hook, args, sched, *box) for box in boxes[1:]]
    try:
        hook(args, sched, *boxes[0])
    finally:
        for future in futures:
            future.result()


def check_local_size(
    fn: func.FuncOp,
    global_size: tuple[int, ...],
    local_size: tuple[int, ...],
) -> None:
    """LaunchError if `local_size` does not suit the device or the kernel."""
    if len(local_size) != len(global_size):
        raise LaunchError(
            f"local_size: {len(local_size)} dimensions, global_size has "
            f"{len(global_size)}"
        )
    if max(local_size) > MAX_WORK_GROUP_SIZE or math.prod(local_size) > (
        MAX_WORK_GROUP_SIZE
    ):
        raise LaunchError(
            f"local_size: {local_size} is over the device maximum of "
            f"{MAX_WORK_GROUP_SIZE} work-items per work-group"
        )
    reqd = mux_attrs.REQD_WORK_GROUP_SIZE.get(fn)
    if reqd is not None:
        padded = (*local_size, *(1,) * (3 - len(local_size)))
        if padded != reqd:
            raise LaunchError(
                f"local_size: the kernel requires a work-group size of {reqd}, got "
                f"{local_size}"
            )
        if any(g % s for g, s in zip(global_size, local_size, strict=True)):
            raise LaunchError(
                f"global_size: {global_size} is not a multiple of the kernel's "
                f"required work-group size {reqd}"
            )
