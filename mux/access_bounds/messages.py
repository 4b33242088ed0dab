"""The messages of a launch the analysis refuses: which buffer, which work-item, which
element, and how many elements the buffer has and the launch needs.

`refusal` is asked about one key (a buffer's elements, or one of its static
dimensions) once concrete runs have found the indices work-items provably access
(`must`); it returns the message, or None when those indices are inside.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from xdsl.dialects.builtin import VectorType

from mux.access_bounds.intervals import Itv
from mux.access_bounds.launch import Launch, WorkItem
from mux.access_bounds.memory import Buffer, type_text
from mux.arguments import LocalBuffer


@dataclass(frozen=True)
class Found:
    """What the analysis knows of one key in a launch: the may-range, the indices
    concrete work-items provably access, and the work-items that reached their
    lowest and highest."""

    may: Itv
    must: tuple[int, int]
    low: WorkItem
    high: WorkItem


def refusal(
    buffer: Buffer, dim: int | None, has: int, found: Found, launch: Launch, value: Any
) -> str | None:
    """Why the launch is refused: a work-item accesses `buffer` (`dim` None: its
    `has` elements; else its static dimension `dim` of size `has`) outside it.
    `value` is the argument passed for a buffer parameter. None if it is inside."""
    must = found.must
    local = buffer.fixed is not None
    label = buffer.label
    if dim is not None and buffer.param is not None:
        label += f" ({type_text(buffer.type)})"
    if must[0] < 0:
        item = describe(launch, found.low, local)
        if dim is not None:
            return (
                f"{label}: {item} uses index {must[0]} in its "
                f"dimension {dim}, which has {has}"
            )
        return (
            f"{buffer.label}: the launch accesses its element {must[0]}, "
            f"before the first ({item})"
        )
    if must[1] < has:
        return None
    item = describe(launch, found.high, local)
    if dim is not None:
        return (
            f"{label}: {item} uses index {must[1]} in its dimension "
            f"{dim}, which has {has}"
        )
    if local:
        return f"{buffer.label}: {item} accesses element {must[1]}, it has {has}"
    return _too_short(buffer, has, found, item, value)


def _too_short(buffer: Buffer, has: int, found: Found, item: str, value: Any) -> str:
    """A buffer argument with fewer elements than the launch accesses."""
    must, may = found.must, found.may
    need = must[1] + 1
    exactly = "" if may is not None and may[1] + 1 == need else "at least "
    if isinstance(value, LocalBuffer):
        return (
            f"{buffer.label}: a local buffer of {value.nbytes} bytes "
            f"({has} elements of {buffer.type.element_type}), the launch "
            f"needs {exactly}{need * buffer.itemsize} bytes ({need} elements): "
            f"{item} accesses element {must[1]}"
        )
    element = buffer.type.element_type
    of = f" of {element}" if isinstance(element, VectorType) else ""
    return (
        f"{buffer.label}: the array has {has} elements{of}, the launch needs "
        f"{exactly}{need}: {item} accesses element {must[1]}"
    )


def describe(launch: Launch, item: WorkItem, local: bool) -> str:
    """A work-item, by its global id (and its local id, for a variable of the
    work-group or the work-item), in the launch's dimensions."""
    dims = range(launch.work_dim)
    gid = [launch.global_offset[d] + item.position[d] for d in dims]
    text = "work-item " + _tuple(gid)
    if local:
        lid = [item.position[d] % launch.local_size[d] for d in dims]
        text += f" (local id {_tuple(lid)})"
    return text


def _tuple(values: Sequence[int]) -> str:
    return f"({values[0]})" if len(values) == 1 else f"({', '.join(map(str, values))})"
