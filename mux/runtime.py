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
import re
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
from lowering.common.device import HOST
from mux.errors import LaunchError

SIZE_MAX = 2**63 - 1
"""The largest value of the device's `size_t` a launch may use: a global size, a
global offset, their sum in each dimension, and the number of work-items of the
NDRange (the bound of the global linear id). `size_t` is 64 bits, but the scheduling
fields (`MuxWorkGroupInfo`) are int64 and the lowered code compares ids signed (an
`scf.for` over ids, `arith.maxsi`), so a launch stays below 2^63: nothing wraps."""


@dataclass(frozen=True)
class LocalBuffer:
    """A local-memory kernel argument: `nbytes` bytes per work-group, a positive int
    (a Python or numpy integer, not a bool). TypeError or ValueError otherwise, when
    it is made: a size that is not a number of bytes is a mistake wherever it goes.
    Whether it fits the kernel (a static local memref's size) and the device
    (`HOST.local_memory_size`) is checked at launch."""

    nbytes: int

    def __post_init__(self) -> None:
        nbytes = self.nbytes
        if isinstance(nbytes, bool | np.bool_) or not isinstance(
            nbytes, int | np.integer
        ):
            raise TypeError(
                f"LocalBuffer: a number of bytes (an int), got {_what(nbytes)}"
            )
        if nbytes <= 0:
            raise ValueError(f"LocalBuffer: a positive number of bytes, got {nbytes}")
        object.__setattr__(self, "nbytes", int(nbytes))


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
        return f"{_a(str(self.type))} {self.type} scalar"

    def pack(self, value: Any) -> tuple[Any, int]:
        """(the packed field value, local-memory bytes); LaunchError if `value` does
        not fit this parameter."""
        if isinstance(self.type, MemRefType):
            return self._pack_memref(value)
        return self._pack_scalar(value), 0

    def _error(self, problem: str) -> LaunchError:
        return LaunchError(f"argument '{self.name}': {problem}")

    def _pack_memref(self, value: Any) -> tuple[Any, int]:
        """A buffer is a C-contiguous numpy array of the element type, passed as a
        bare pointer to its first element: its shape does not matter (a 2-D array
        is its rows one after the other), except that a 0-d array is refused for a
        memref of rank 1 or more. A local buffer is a `LocalBuffer` of at least the
        memref's static size."""
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
        if value.ndim == 0 and self.type.get_num_dims() > 0:
            # numpy treats a 0-d array as a scalar; a kernel indexing it as a buffer
            # is almost surely a mistake (a scalar meant for another parameter).
            raise self._error(
                f"a 0-d array is not a buffer for {self.type}: pass a 1-D array "
                "(a.reshape(1))"
            )
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
        """C's implicit conversions: an integer (Python or numpy, not a bool) whose
        value fits an integer parameter; a real (Python or numpy, integer or
        floating) for a float parameter, rounded to the nearest as C converts it; a
        bool (Python or numpy) or 0 or 1 for an i1. A 0-d array counts as its
        element, as in numpy.

        A signless iN takes the union of the signed and unsigned ranges, -2^(N-1) to
        2^N - 1 (the kernel's ops decide how to read the bits); `index`, the
        device's 64-bit `size_t`, takes the same range as i64, since MLIR's index is
        signless too (a kernel may read it signed: `arith.maxsi`, `cmpi slt`)."""
        if isinstance(value, np.ndarray) and value.ndim == 0:
            value = value[()]
        kind = _scalar_kind(value)
        if isinstance(self.type, AnyFloat):
            if kind not in ("i", "u", "f"):
                raise self._error(f"expected {self.describe()}, got {_what(value)}")
            return self._pack_float(value)
        width = 64 if isinstance(self.type, IndexType) else self.type.width.data
        if width == 1 and kind == "b":
            return bool(value)
        if kind not in ("i", "u"):
            raise self._error(f"expected {self.describe()}, got {_what(value)}")
        value = int(value)
        if width == 1:
            # i1 is a truth value: 0 or 1, as C's _Bool holds (-1 is not one).
            if value not in (0, 1):
                raise self._error(f"{value} is out of range for i1: 0, 1 or a bool")
            return bool(value)
        low, high = -(1 << (width - 1)), (1 << width) - 1
        if not low <= value <= high:
            raise self._error(
                f"{value} is out of range for {self.type}: an integer from {low} to "
                f"{high}"
            )
        # A signless integer: store the two's complement of an unsigned value.
        return value - (1 << width) if value >= 1 << (width - 1) else value

    def _pack_float(self, value: Any) -> Any:
        """`value` rounded to the parameter's float type; LaunchError if a finite
        value rounds to an infinity (out of range: C leaves that undefined)."""
        dtype = _FLOATS[type(self.type)]
        rounded = to_float(value, dtype)
        if np.isinf(rounded) and not (_scalar_kind(value) == "f" and np.isinf(value)):
            raise self._error(
                f"{value} is out of range for {self.type}: finite values are within "
                f"±{_largest(dtype)}"
            )
        if dtype is np.float16:
            return int(rounded.view(np.uint16))
        return float(rounded)


def to_float(value: Any, dtype: type[np.floating]) -> np.floating:
    """The `dtype` nearest to the real `value` (a Python or numpy integer or float),
    ties to even, rounded once as C's conversions do (through a double first, an
    integer above 2^53 would be rounded twice, and may land on the other side of a
    tie). Infinity when the value is beyond the type's largest finite one."""
    with np.errstate(over="ignore", invalid="ignore"):
        if isinstance(value, np.generic):
            return value.astype(dtype)  # numpy's casts are C's
        if isinstance(value, float):
            return dtype(value)
        # A Python int: numpy's uint64 cast rounds once. Beyond 64 bits keep the top
        # 64 and a sticky bit for the rest (every float type here has far fewer
        # digits, so the rounding sees the same value above and below the halfway
        # point), and scale back by the power of two.
        magnitude = abs(value)
        shift = max(0, magnitude.bit_length() - 64)
        top = magnitude >> shift
        if magnitude & ((1 << shift) - 1):
            top |= 1
        rounded = np.ldexp(np.uint64(top).astype(dtype), shift).astype(dtype)
        return -rounded if value < 0 else rounded


def _largest(dtype: type[np.floating]) -> str:
    """The largest finite `dtype`, as short as it reads back: 65504, 3.4028235e+38."""
    largest = np.finfo(dtype).max
    return str(int(largest)) if float(largest) < 2**53 else str(largest)


def _scalar_kind(value: Any) -> str | None:
    """numpy's kind letter of a Python or numpy scalar (b, i, u, f, c, ...)."""
    if isinstance(value, np.generic):
        return value.dtype.kind
    if isinstance(value, bool):
        return "b"
    if isinstance(value, int):
        return "i"
    if isinstance(value, float):
        return "f"
    if isinstance(value, complex):
        return "c"
    return None


def _a(word: str) -> str:
    """The article for `word`, by how it is read: an i32, an f32, an index, a
    memref."""
    return "an" if re.match(r"[aeiou]|[fhlmnrsx]\d", word) else "a"


def _what(value: Any) -> str:
    if isinstance(value, np.ndarray):
        return f"an array of {value.dtype}"
    if isinstance(value, np.generic):
        return f"a numpy {value.dtype} scalar"
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
                f"parameter '{param.name}': the runtime cannot pass "
                f"{_a(str(type_))} {type_}"
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
    """An int or a tuple of 1 to 3 ints (Python or numpy integers, not bools), each
    positive (or zero, with `allow_zero`) and at most `SIZE_MAX`, as a tuple of
    Python ints; LaunchError otherwise."""
    values = (sizes,) if _is_int(sizes) else sizes
    if not isinstance(values, tuple | list) or not 1 <= len(values) <= 3:
        raise LaunchError(f"{what}: an int or 1 to 3 ints, got {sizes!r}")
    if any(isinstance(v, bool | np.bool_) for v in values):
        raise LaunchError(f"{what}: sizes are ints, not a bool: got {sizes!r}")
    low = 0 if allow_zero else 1
    if any(not _is_int(v) or v < low for v in values):
        kind = "non-negative" if allow_zero else "positive"
        raise LaunchError(f"{what}: sizes must be {kind} integers, got {sizes!r}")
    result = tuple(int(v) for v in values)
    if max(result) > SIZE_MAX:
        raise LaunchError(
            f"{what}: {max(result)} is over the device's maximum of {SIZE_MAX} "
            "(2**63 - 1)"
        )
    return result


def _is_int(value: Any) -> bool:
    """A Python or numpy integer or bool (bools are refused by name, later)."""
    return isinstance(value, int | np.integer | np.bool_)


def check_ndrange(
    fn: func.FuncOp,
    global_size: tuple[int, ...],
    local_size: tuple[int, ...],
    global_offset: tuple[int, ...],
) -> None:
    """LaunchError if the NDRange does not suit the kernel `fn` or the device: more
    dimensions than the kernel's `mux.max_work_dim`, a sum of offset and size or a
    number of work-items over `SIZE_MAX`, a local size `check_local_size` refuses.
    The sizes come from `ndrange_sizes`: each is already at most `SIZE_MAX`."""
    # mux-compiler-spec.rst, "Metadata": `!max_work_dim` is the "Maximum dimension
    # used for work-items. If not present, 3 is assumed." The spec's dimensions "in
    # use" are those of the NDRange (`__mux_get_work_dim`: "Returns the number of
    # dimensions in use"), so it bounds the launch's number of dimensions, sizes of
    # 1 included: a 2-D launch of a kernel declared 1-D would see get_work_dim() = 2.
    # Beyond it work-item-loops builds no loop (one work-item per work-group), so a
    # local size over 1 there would also run wrong, not only be out of contract.
    max_dim = mux_attrs.max_work_dim(fn)
    if len(global_size) > max_dim:
        raise LaunchError(
            f"global_size: the kernel's mux.max_work_dim = {max_dim} allows "
            f"{max_dim} dimension{'s' if max_dim > 1 else ''} at most, got "
            f"{len(global_size)} ({global_size})"
        )
    for d, (offset, size) in enumerate(zip(global_offset, global_size, strict=True)):
        if offset + size > SIZE_MAX:
            raise LaunchError(
                f"global_offset + global_size: {offset} + {size} in dimension {d} is "
                f"over the device's maximum of {SIZE_MAX} (2**63 - 1)"
            )
    if math.prod(global_size) > SIZE_MAX:
        raise LaunchError(
            f"global_size: {global_size} is {math.prod(global_size)} work-items, over "
            f"the device's maximum of {SIZE_MAX} (2**63 - 1)"
        )
    check_local_size(fn, global_size, local_size)


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
    if max(local_size) > HOST.max_work_group_size or math.prod(local_size) > (
        HOST.max_work_group_size
    ):
        raise LaunchError(
            f"local_size: {local_size} is over the device maximum of "
            f"{HOST.max_work_group_size} work-items per work-group"
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
