"""The DMA family of `lower-to-mux-builtins`: OpenCL C's async copies between
global and local memory, `wait_group_events` and `prefetch` (OpenCL C 1.2,
6.12.10) as the `mux` DMA ops (mux-compiler-spec.rst, `__mux_dma_*`), whose sizes
and strides are bytes. `s` below is `sizeof(gentype)`, a 3-component vector
counting as a 4-component one, as OpenCL C says of the async copies.

- `async_work_group_copy(dst, src, num_gentypes, event)`: a `__local` `dst` and a
  `__global` `src` is `mux.dma_read_1d dst, src width(num_gentypes * s)`, the
  other way round `mux.dma_write_1d`.
- `async_work_group_strided_copy(dst, src, num_gentypes, stride, event)`: the
  stride (in gentypes) is the global side's, so this is a 2-D transfer of
  `num_gentypes` rows of one gentype: `mux.dma_read_2d dst, src width(s)
  dst_stride(s) src_stride(stride * s) height(num_gentypes)`, and for a write
  `dst_stride(stride * s) src_stride(s)`.
- `async_work_group_copy_2D2D(dst, dst_offset, src, src_offset, bytes_per_element,
  elements_per_line, num_lines, src_total_line_length, dst_total_line_length,
  event)` and `async_work_group_copy_3D3D(..., num_lines, num_planes,
  src_total_line_length, src_total_plane_area, dst_total_line_length,
  dst_total_plane_area, event)` (cl_khr_extended_async_copies, whose offsets,
  line lengths and plane areas count elements of `bytes_per_element` bytes, from
  the start of one line or plane to the next): `mux.dma_read_2d`/`_3d` (or
  `write`) from `src + src_offset * bytes_per_element` to `dst + dst_offset *
  bytes_per_element`, every size times `bytes_per_element`.
- `wait_group_events(num_events, event_list)`: `mux.dma_wait` on the events
  loaded from `event_list[0 .. num_events - 1]`; `num_events` must be a constant
  (the op names each event it waits on).
- `prefetch(p, num_gentypes)`: nothing. It is a hint that changes no result, and
  no mux builtin prefetches.

Events are `!llvm.ptr` at the LLVM level (`DMA_EVENT`: the importer's type of
clang's `target("spirv.Event")`, mux/frontend/llvm_import/events.py): an event
argument is cast (`builtin.unrealized_conversion_cast`) to `!mux.dma_event` for
the op, and the op's event back; `define-mux-dma` makes `!mux.dma_event` that
pointer, so the casts fold away. The event 0 (`llvm.mlir.zero`) is no event
operand: the transfer starts a new event.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.builder import Builder
from xdsl.dialects import arith, func, llvm
from xdsl.dialects.builtin import UnrealizedConversionCastOp, i8
from xdsl.ir import Attribute, Operation, SSAValue

from dialects import mux
from lowering.common.builders import const, constant_int, to_index
from lowering.common.layout import storage
from lowering.common.mangling import EVENT, Demangled, MangledType
from lowering.lower_to_mux_builtins.builtin import Build, Builtin, BuiltinError


def _event_type() -> Attribute:
    type_ = MangledType("N", EVENT).llvm_type()
    assert type_ is not None  # a pointer
    return type_


DMA_EVENT = _event_type()
"""An event at the LLVM level."""
GLOBAL, LOCAL = 1, 3
_Transfers = tuple[
    type[mux.DmaRead1DOp] | type[mux.DmaWrite1DOp],
    type[mux.DmaRead2DOp] | type[mux.DmaWrite2DOp],
    type[mux.DmaRead3DOp] | type[mux.DmaWrite3DOp],
]
TRANSFERS: dict[tuple[int, int], _Transfers] = {
    (LOCAL, GLOBAL): (mux.DmaRead1DOp, mux.DmaRead2DOp, mux.DmaRead3DOp),
    (GLOBAL, LOCAL): (mux.DmaWrite1DOp, mux.DmaWrite2DOp, mux.DmaWrite3DOp),
}
"""The 1-D, 2-D and 3-D transfer ops, by the address spaces of (dst, src)."""
SIZES = frozenset("mj")
"""`size_t`: `ulong` on spir64, `uint` on spir."""
NOT_THE_FUNCTION = "not a parameter list of the function"


# --------------------------------------------------------------------------------------
# The mangled types.
# --------------------------------------------------------------------------------------


def _pointers(d: Demangled) -> tuple[MangledType, MangledType]:
    """The destination and source pointer parameters of a copy."""
    return d.params[0], d.params[2 if d.name in EXTENDED_SHAPES else 1]


def _space(p: MangledType | None) -> int:
    return p.element.address_space if p and p.code == "P" and p.element else -1


def _gentype_bytes(p: MangledType) -> int:
    assert p.element is not None
    type_ = p.element.llvm_type()
    assert type_ is not None  # _copy_problem found a gentype
    return storage(type_)[0]


def _copy_problem(d: Demangled, shape: str) -> str | None:
    """Unless `d`'s parameters have the `shape` (`P` a pointer, `s` a size_t, `e`
    an event, one letter each), its pointers in (local, global) or (global, local)
    memory, to one gentype (to void for the extended copies)."""
    kinds = {"P": ("P",), "s": SIZES, "e": ("N",)}
    if len(d.params) != len(shape) or any(
        p.code not in kinds[k] or (p.code == "N" and p.name != EVENT)
        for p, k in zip(d.params, shape, strict=True)
    ):
        return NOT_THE_FUNCTION
    dst, src = _pointers(d)
    if (_space(dst), _space(src)) not in TRANSFERS:
        return "a copy is from __global to __local memory or back"
    assert dst.element is not None and src.element is not None
    if d.name in EXTENDED_SHAPES:
        void = dst.element.code == src.element.code == "v"
        return None if void else "the extended copies take void pointers"
    if dst.element.llvm_type() != src.element.llvm_type() or dst.element.code == "v":
        return "the two pointers point to one gentype"
    return None


def _wait_problem(d: Demangled) -> str | None:
    if len(d.params) != 2 or d.params[0].code != "i" or d.params[1].code != "P":
        return NOT_THE_FUNCTION
    pointee = d.params[1].element
    return (
        None
        if pointee and (pointee.code, pointee.name) == ("N", EVENT)
        else (NOT_THE_FUNCTION)
    )


def _prefetch_problem(d: Demangled) -> str | None:
    if len(d.params) != 2 or _space(d.params[0]) != GLOBAL:
        return NOT_THE_FUNCTION
    return None if d.params[1].code in SIZES else NOT_THE_FUNCTION


# --------------------------------------------------------------------------------------
# The replacements.
# --------------------------------------------------------------------------------------


def _times(b: Builder, count: SSAValue, size: SSAValue | int) -> SSAValue:
    """`count * size` as an index."""
    factor = const(b, size) if isinstance(size, int) else to_index(b, size)
    return b.insert(arith.MuliOp(to_index(b, count), factor)).result


def _event_in(b: Builder, event: SSAValue) -> SSAValue | None:
    """The op's event operand: none for the event 0."""
    if isinstance(event.owner, llvm.ZeroOp):
        return None
    cast = UnrealizedConversionCastOp.get([event], [mux.DmaEventType()])
    return b.insert(cast).results[0]


Operands = Callable[[Builder], tuple[SSAValue, SSAValue, list[SSAValue]]]
"""Builds a transfer's destination, source and sizes (bytes, as `index`)."""


def _transfer(call: func.CallOp, d: Demangled, operands: Operands) -> Build:
    """The transfer op of as many dimensions as `operands` has sizes; its event
    cast to the call's type."""
    dst, src = _pointers(d)
    transfers = TRANSFERS[_space(dst), _space(src)]

    def build(b: Builder) -> SSAValue:
        to, from_, sizes = operands(b)
        event = _event_in(b, call.arguments[-1])
        transfer = b.insert(_transfer_op(transfers, to, from_, sizes, event))
        cast = UnrealizedConversionCastOp.get([transfer.results[0]], [DMA_EVENT])
        return b.insert(cast).results[0]

    return build


def _transfer_op(
    transfers: _Transfers,
    to: SSAValue,
    from_: SSAValue,
    sizes: list[SSAValue],
    event: SSAValue | None,
) -> Operation:
    """The transfer of as many dimensions as there are `sizes` (1, 4 or 7)."""
    one, two, three = transfers
    match sizes:
        case [width]:
            return one(to, from_, width, event)
        case [width, to_line, from_line, height]:
            return two(to, from_, width, to_line, from_line, height, event)
        case [width, to_line, from_line, height, to_plane, from_plane, depth]:
            return three(
                to,
                from_,
                width,
                to_line,
                from_line,
                height,
                to_plane,
                from_plane,
                depth,
                event,
            )
    raise AssertionError(f"a transfer of {len(sizes)} sizes")


def _copy(call: func.CallOp, d: Demangled) -> Build:
    dst, src, count, _ = call.arguments
    size = _gentype_bytes(d.params[0])
    return _transfer(call, d, lambda b: (dst, src, [_times(b, count, size)]))


def _strided_copy(call: func.CallOp, d: Demangled) -> Build:
    """One gentype a row; the stride is the global side's."""
    dst, src, count, stride, _ = call.arguments
    size = _gentype_bytes(d.params[0])
    read = _space(d.params[0]) == LOCAL

    def operands(b: Builder) -> tuple[SSAValue, SSAValue, list[SSAValue]]:
        element = const(b, size)
        strided = _times(b, stride, element)
        dst_stride, src_stride = (element, strided) if read else (strided, element)
        return dst, src, [element, dst_stride, src_stride, to_index(b, count)]

    return _transfer(call, d, operands)


def _at_element(
    b: Builder, base: SSAValue, index: SSAValue, size: SSAValue
) -> SSAValue:
    """`base + index * size` bytes."""
    offset = b.insert(arith.MuliOp(index, size)).result
    assert isinstance(base.type, llvm.LLVMPointerType)  # a call's pointer argument
    gep = llvm.GEPOp.from_mixed_indices(base, [offset], i8, result_type=base.type)
    return b.insert(gep).result


def _extended_copy(call: func.CallOp, d: Demangled) -> Build:
    """2D2D and 3D3D: every size in elements of `bytes_per_element` bytes."""
    dst, dst_offset, src, src_offset, element, per_line, lines, *rest = call.arguments
    planes: list[SSAValue] = []
    if d.name.endswith("2D2D"):
        src_line, dst_line, _ = rest
    else:
        depth, src_line, src_plane, dst_line, dst_plane, _ = rest
        planes = [dst_plane, src_plane, depth]

    def operands(b: Builder) -> tuple[SSAValue, SSAValue, list[SSAValue]]:
        to = _at_element(b, dst, dst_offset, element)
        from_ = _at_element(b, src, src_offset, element)
        size = to_index(b, element)
        sizes = [_times(b, v, size) for v in (per_line, dst_line, src_line)]
        sizes.append(to_index(b, lines))
        if planes:
            sizes += [_times(b, v, size) for v in planes[:2]]
            sizes.append(to_index(b, planes[2]))
        return to, from_, sizes

    return _transfer(call, d, operands)


def _wait(call: func.CallOp, d: Demangled) -> Build:
    count, events = call.arguments
    n = constant_int(count)
    if n is None or n < 0:
        raise BuiltinError(
            "num_events must be a constant (mux.dma_wait names each event it waits on)"
        )

    def build(b: Builder) -> None:
        waited = []
        for i in range(n):
            at = events
            if i:
                assert isinstance(events.type, llvm.LLVMPointerType)  # event_t *
                gep = llvm.GEPOp(events, [i], DMA_EVENT, result_type=events.type)
                at = b.insert(gep).result
            event = b.insert(llvm.LoadOp(at, DMA_EVENT)).dereferenced_value
            cast = UnrealizedConversionCastOp.get([event], [mux.DmaEventType()])
            waited.append(b.insert(cast).results[0])
        b.insert(mux.DmaWaitOp(waited))

    return build


def _prefetch(call: func.CallOp, d: Demangled) -> Build:
    return lambda b: None


EXTENDED_SHAPES = {
    "async_work_group_copy_2D2D": "PsPs" + "s" * 5 + "e",
    "async_work_group_copy_3D3D": "PsPs" + "s" * 8 + "e",
}
"""cl_khr_extended_async_copies' parameters (see `_copy_problem`)."""
COPIES = {
    "async_work_group_copy": ("PPse", _copy),
    "async_work_group_strided_copy": ("PPsse", _strided_copy),
    **{name: (shape, _extended_copy) for name, shape in EXTENDED_SHAPES.items()},
}


def dma_builtin(d: Demangled) -> Builtin | None:
    """The DMA builtin `d` is, if it is one."""
    if d.name in COPIES:
        shape, plan = COPIES[d.name]
        return Builtin(None, "event", plan, lambda d: _copy_problem(d, shape))
    if d.name == "wait_group_events":
        return Builtin(None, "void", _wait, _wait_problem)
    if d.name == "prefetch":
        return Builtin(None, "void", _prefetch, _prefetch_problem)
    return None
