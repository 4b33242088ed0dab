"""OpenCL C's events, and the other target extension types of LLVM IR.

clang types OpenCL C's `event_t` as the target extension type
`target("spirv.Event")`: the result and last argument of `async_work_group_copy`,
the elements of the `event_t` arrays `wait_group_events` reads, phis and selects
between events, `zeroinitializer` for the event 0. LLVM lays a `spirv.*` target
type out as a pointer (address space 0), and clang's byte offsets into an array
of events count 8 bytes an event on spir64, so the importer types an event as that
pointer, `!llvm.ptr`: allocas, loads, stores, phis, selects and calls of events are
those of a pointer, and the event 0 is `llvm.mlir.zero : !llvm.ptr`.
`lower-to-mux-builtins` casts an event to `!mux.dma_event` where a DMA op takes
one, and back; `define-mux-dma` makes `!mux.dma_event` that pointer again.

Other target types (`spirv.Image`, `spirv.Sampler`, ...) are refused by name.
"""

from __future__ import annotations

import re

from llvmlite import binding
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import Attribute

LAYOUT_TYPES: dict[str, Attribute] = {"spirv.Event": LLVMPointerType()}
"""The target types the importer takes, by name: the type each is imported as."""


def target_type(parameters: str) -> Attribute | None:
    """The type `target(<parameters>)` is imported as, or None if refused."""
    match = re.fullmatch(r'\s*"([^"]*)"\s*', parameters)
    return LAYOUT_TYPES.get(match.group(1)) if match else None


def value_kind(value: binding.ValueRef) -> binding.ValueKind | None:
    """`value.value_kind`, or None for a constant of a target type: llvmlite 0.50
    has no ValueKind for LLVM's ConstantTargetNone (`target("spirv.Event")
    zeroinitializer`) and raises a ValueError."""
    try:
        return value.value_kind
    except ValueError:
        return None
