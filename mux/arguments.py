"""A kernel's parameters as the runtime sees them, and the Python values each
takes (docs/kernels.md, "Parameters and numpy types", is the user's view):

- a buffer in global or constant memory (`memref`): a C-contiguous numpy array of
  its element type, passed as a bare pointer. A vector element (`float4*` in
  OpenCL C) is an array of the scalar type whose last axis is the vector's lanes
  in memory (4 for `float4` and for `float3`: `mux.records`); a buffer of bytes
  (`i8`, what a pointer to structs is imported as) also takes a structured array;
- a buffer in local memory: a `LocalBuffer(nbytes)`;
- a scalar: a Python or numpy number, converted as C converts it
  (`mux.conversions.convert`);
- a vector passed by value (`float4 x`): a tuple, list or 1-D array of its
  numbers;
- a struct passed by value (spir64 passes it behind a pointer marked
  `mux.byval`): a numpy record of its layout (`Param.dtype`) or its bytes; the
  runtime passes a pointer to its own aligned copy, which lives as long as the
  launch.

`Param.pack` checks a value and gives what goes into the kernel's packed
argument struct (`packed_struct`, the twin of add-kernel-wrapper's
`MuxPackedArgs.<kernel>`)."""

from __future__ import annotations

import ctypes
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    Float16Type,
    Float32Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    VectorType,
)
from xdsl.dialects.llvm import LLVMPointerType, LLVMStructType
from xdsl.ir import Attribute

from dialects import attributes as mux_attrs
from dialects.mux import (
    ADDRESS_SPACE_CONSTANT,
    ADDRESS_SPACE_GLOBAL,
    ADDRESS_SPACE_LOCAL,
    address_space_of,
)
from lowering.add_kernel_wrapper import packed_field_type
from lowering.common.layout import round_up, storage
from mux.conversions import (
    ArgumentProblem,
    article,
    convert,
    describe,
    numpy_kinds,
    what,
)
from mux.errors import LaunchError
from mux.records import (
    describe_record,
    numpy_type,
    record_bytes,
    vector_lanes,
    vector_values,
)


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
                f"LocalBuffer: a number of bytes (an int), got {what(nbytes)}"
            )
        if nbytes <= 0:
            raise ValueError(f"LocalBuffer: a positive number of bytes, got {nbytes}")
        object.__setattr__(self, "nbytes", int(nbytes))


class Packed(NamedTuple):
    """A checked argument: its field in the packed struct, the local memory it
    asks for, and what must live as long as the launch (a struct's copy)."""

    field: Any
    local_bytes: int = 0
    owner: Any = None


_INTEGER_CTYPES = {1: ctypes.c_bool, 8: ctypes.c_int8, 16: ctypes.c_int16}


def _scalar_ctype(type_: Attribute) -> Any:
    """The ctypes type of a scalar of `type_` as `convert` gives it."""
    if isinstance(type_, IndexType):
        return ctypes.c_int64
    if isinstance(type_, IntegerType):
        width = type_.width.data
        wide = ctypes.c_int32 if width == 32 else ctypes.c_int64
        return _INTEGER_CTYPES.get(width, wide)
    if isinstance(type_, Float16Type):
        return ctypes.c_uint16
    return ctypes.c_float if isinstance(type_, Float32Type) else ctypes.c_double


@dataclass(frozen=True)
class Param:
    """One kernel parameter as the runtime sees it: `byval` is the type of the
    value an `!llvm.ptr` parameter points to when it is passed by value
    (`mux.byval`), aligned to `byval_align` bytes."""

    name: str
    type: Attribute
    byval: Attribute | None = None
    byval_align: int = 1

    @property
    def address_space(self) -> int | None:
        return (
            address_space_of(self.type) if isinstance(self.type, MemRefType) else None
        )

    @property
    def is_local(self) -> bool:
        return self.address_space == ADDRESS_SPACE_LOCAL

    @property
    def element(self) -> Attribute:
        """The type of one value: a buffer's element, the struct passed by value,
        or the parameter's own type."""
        if isinstance(self.type, MemRefType):
            return self.type.element_type
        return self.byval if self.byval is not None else self.type

    @property
    def dtype(self) -> np.dtype | None:
        """The numpy type of one value (`element`): `np.zeros(n, p.dtype)` is a
        buffer of n elements (shape (n, 4) for a `float4` buffer), `np.zeros((),
        p.dtype)[()]` a struct's record."""
        return numpy_type(self.element)

    @property
    def ctype(self) -> Any:
        """The field type in the packed argument struct (add-kernel-wrapper)."""
        if isinstance(self.type, MemRefType):
            return ctypes.c_int64 if self.is_local else ctypes.c_void_p
        if isinstance(self.type, LLVMPointerType):
            return ctypes.c_void_p
        if isinstance(self.type, VectorType):
            return _scalar_ctype(self.type.element_type) * vector_lanes(self.type)
        return _scalar_ctype(self.type)

    def describe(self) -> str:
        element = self.element
        if isinstance(self.type, MemRefType):
            if self.is_local:
                return "a mux.LocalBuffer"
            if isinstance(element, VectorType):
                return (
                    f"a contiguous array of {element.element_type} whose last axis is "
                    f"{vector_lanes(element)} (shape (n, {vector_lanes(element)}) for "
                    f"n {element} elements)"
                )
            return f"a contiguous {element} array"
        if isinstance(element, LLVMStructType):
            return describe_record(element)
        if isinstance(element, VectorType):
            return f"{article(str(element))} {element} (a tuple or 1-D array)"
        return describe(element)

    def pack(self, value: Any) -> Packed:
        """`value` checked and packed; LaunchError, naming the argument, if it
        does not fit this parameter."""
        try:
            if isinstance(self.type, MemRefType):
                return self._pack_memref(value)
            if isinstance(self.byval, LLVMStructType):
                return self._pack_record(self.byval, value)
            if isinstance(self.type, VectorType):
                lanes = vector_values(self.type, value)
                return Packed(self.ctype(*lanes))
            return Packed(convert(self.type, value))
        except ArgumentProblem as problem:
            raise LaunchError(f"argument '{self.name}': {problem}") from None

    def _pack_memref(self, value: Any) -> Packed:
        """A buffer is a C-contiguous numpy array of the element type, passed as a
        bare pointer to its first element: its shape does not matter (a 2-D array
        is its rows one after the other), except that a 0-d array is refused for a
        memref of rank 1 or more, and a vector element's lanes are the last axis.
        A local buffer is a `LocalBuffer` of at least the memref's static size."""
        assert isinstance(self.type, MemRefType)
        static = [d for d in self.type.get_shape() if d != DYNAMIC_INDEX]
        dynamic = len(static) != self.type.get_num_dims()
        element = self.type.element_type
        if self.is_local:
            if not isinstance(value, LocalBuffer):
                raise ArgumentProblem(f"expected {self.describe()}, got {what(value)}")
            needed = 0 if dynamic else math.prod(static) * storage(element)[0]
            if value.nbytes < needed:
                raise ArgumentProblem(
                    f"a local buffer of {value.nbytes} bytes; it needs {needed} at "
                    "least"
                )
            return Packed(value.nbytes, value.nbytes)
        count = self._check_array(value)
        if not dynamic and count < math.prod(static):
            raise ArgumentProblem(
                f"the array has {count} elements, the kernel's {self.type} needs "
                f"{math.prod(static)}"
            )
        return Packed(value.ctypes.data)

    def _check_array(self, value: Any) -> int:
        """The number of elements of the array `value` for this buffer;
        ArgumentProblem if it is not one."""
        assert isinstance(self.type, MemRefType)
        element = self.type.element_type
        scalar = element.element_type if isinstance(element, VectorType) else element
        kinds, itemsize = numpy_kinds(scalar) or ("", 0)
        if not isinstance(value, np.ndarray):
            raise ArgumentProblem(f"expected {self.describe()}, got {what(value)}")
        if value.ndim == 0 and self.type.get_num_dims() > 0:
            # numpy treats a 0-d array as a scalar; a kernel indexing it as a buffer
            # is almost surely a mistake (a scalar meant for another parameter).
            raise ArgumentProblem(
                f"a 0-d array is not a buffer for {self.type}: pass a 1-D array "
                "(a.reshape(1))"
            )
        structured = value.dtype.names is not None and value.flags.c_contiguous
        if structured and scalar == IntegerType(8):
            # a pointer to structs (`global params_t *`) is a buffer of bytes to
            # the importer (IR does not say which struct): a structured array is
            # its bytes
            value = value.reshape(-1).view(np.uint8)
        if value.dtype.kind not in kinds or value.dtype.itemsize != itemsize:
            raise ArgumentProblem(
                f"expected an array of {scalar}, got an array of {value.dtype}"
            )
        lanes = vector_lanes(element) if isinstance(element, VectorType) else 1
        if lanes > 1 and value.shape[-1] != lanes:
            padding = " (the 4th lane of a 3-element vector is padding)"
            raise ArgumentProblem(
                f"a buffer of {element} is an array whose last axis has its "
                f"{lanes} lanes{padding if lanes != element.get_shape()[0] else ''}"
                f": got shape {value.shape} (a.reshape(-1, {lanes}))"
            )
        if not value.flags.c_contiguous:
            raise ArgumentProblem(
                "the array is not C-contiguous (use np.ascontiguousarray)"
            )
        alignment = storage(element)[1]
        if value.ctypes.data % alignment:
            # the kernel's loads of a wide vector may be aligned ones (vmovaps):
            # on a misaligned address they fault
            raise ArgumentProblem(
                f"the array's data is not aligned to {alignment} bytes, as a buffer "
                f"of {element} must be (mux.aligned(a) is an aligned copy)"
            )
        if self.address_space != ADDRESS_SPACE_CONSTANT and not value.flags.writeable:
            raise ArgumentProblem("the array is read-only, and the kernel may write it")
        return value.size // lanes

    def _pack_record(self, struct: LLVMStructType, value: Any) -> Packed:
        """A struct passed by value: a pointer to a copy of its bytes, aligned as
        the kernel's `llvm.align` says."""
        data = np.frombuffer(record_bytes(struct, value), np.uint8)
        align = max(self.byval_align, storage(struct)[1])
        owner = np.zeros(data.size + align, np.uint8)
        start = -owner.ctypes.data % align
        owner[start : start + data.size] = data
        return Packed(owner.ctypes.data + start, 0, owner)


BUFFER_ALIGNMENT = 128
"""The alignment `aligned` gives: the size of the widest OpenCL C type (a
`double16`), so enough for a buffer of any."""


def aligned(array: np.ndarray, alignment: int = BUFFER_ALIGNMENT) -> np.ndarray:
    """A C-contiguous copy of `array` whose data starts at a multiple of
    `alignment` bytes (numpy aligns to 16 only): for buffers of wide vectors
    (`float8`, `double4`, `int16`, ...), which a kernel may load with aligned
    instructions."""
    source = np.ascontiguousarray(array)
    owner = np.empty(source.nbytes + alignment, np.uint8)
    start = -owner.ctypes.data % alignment
    copy = owner[start : start + source.nbytes].view(source.dtype)
    copy = copy.reshape(source.shape)
    copy[...] = source
    return copy


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
        byval = mux_attrs.byval_type(fn, index)
        attrs = fn.arg_attrs
        align = attrs.data[index].data.get("llvm.align") if byval and attrs else None
        assert align is None or isinstance(align, IntegerAttr)  # set_byval_type's
        param = Param(
            arg.name_hint or f"arg{index}",
            type_,
            byval,
            align.value.data if align is not None else 1,
        )
        _check_param(param)
        params.append(param)
    return params


def _check_param(param: Param) -> None:
    """LaunchError if the runtime has no way to pass `param`."""
    type_ = param.type
    if isinstance(type_, MemRefType):
        space = param.address_space
        if space not in (ADDRESS_SPACE_GLOBAL, ADDRESS_SPACE_CONSTANT, 3):
            raise LaunchError(
                f"parameter '{param.name}': a kernel buffer is in global (1), "
                f"constant (2) or local (3) memory, not {type_}"
            )
    if param.byval is not None and not isinstance(param.byval, LLVMStructType):
        raise LaunchError(
            f"parameter '{param.name}': the runtime passes a struct by value, not "
            f"{article(str(param.byval))} {param.byval}"
        )
    if param.byval is None and isinstance(type_, LLVMPointerType):
        raise LaunchError(
            f"parameter '{param.name}': the runtime cannot pass {article(str(type_))} "
            f"{type_}"
        )
    element = param.element
    scalar = element.element_type if isinstance(element, VectorType) else element
    if isinstance(element, LLVMStructType):
        passable = numpy_type(element) is not None
    else:
        passable = numpy_kinds(scalar) is not None
    if not passable and isinstance(type_, MemRefType):
        raise LaunchError(f"parameter '{param.name}': no numpy type for {element}")
    if not passable:
        raise LaunchError(
            f"parameter '{param.name}': the runtime cannot pass "
            f"{article(str(element))} {element}"
        )


def packed_struct(params: Sequence[Param]) -> type[ctypes.Structure]:
    """The ctypes twin of `MuxPackedArgs.<kernel>`, in LLVM's natural layout: each
    field at a multiple of its alignment (`lowering.common.layout.storage` of its
    type in the struct, `packed_field_type`), with explicit padding where
    LLVM aligns more than ctypes would (a `float4` on 16 bytes)."""
    fields: list[tuple[str, Any]] = []
    offset, alignment = 0, 1
    for i, param in enumerate(params):
        size, align = storage(packed_field_type(param.type, True))
        assert ctypes.sizeof(param.ctype) == size, (param, size)
        start = round_up(offset, align)
        if start > offset:
            fields.append((f"pad{i}", ctypes.c_uint8 * (start - offset)))
        fields.append((f"f{i}", param.ctype))
        offset, alignment = start + size, max(alignment, align)
    if round_up(offset, alignment) > offset:
        fields.append(("pad", ctypes.c_uint8 * (round_up(offset, alignment) - offset)))
    return type("MuxPackedArgs", (ctypes.Structure,), {"_fields_": fields})
