"""`add-kernel-wrapper{local-buffers-by-size=...}`: the spec's
AddKernelWrapperPass.

compiler-utils-passes.rst, "AddKernelWrapperPass", and "Kernel Wrapping" in
compiler-pipeline-overview.txt: the kernel's parameters are packed into one struct,
`MuxPackedArgs.<kernel>`, and a wrapper `<kernel>.mux-kernel-wrapper` becomes the entry
point, taking a pointer to that struct and the scheduling parameters that are passed
externally (MuxWorkGroupInfo). Those that are not (MuxWorkItemInfo) are initialised
by the wrapper: "the default behaviour is to stack-allocate MuxWorkItemInfo, leaving
all fields uninitialized" since earlier passes always set before they get.

    func.func @k.mux-kernel-wrapper(%packed_args: !llvm.ptr, %wg: !llvm.ptr) {
      %wi = llvm.alloca MuxWorkItemInfo
      %a = load field 0 of MuxPackedArgs.k ...
      func.call @k(%a, ..., %wi, %wg)
    }

Fields of the struct: a memref is its pointer (`!llvm.ptr<address space>`), `index`
is the host's `size_t` (i64), other scalars and vectors have their memory type
(`types.memory_type`: an `i1` is a byte, as the runtime's `c_bool`). With
`local-buffers-by-size` (the default, as on the host), a memref in the local address
space (3) is passed as its size in bytes and the wrapper stack-allocates it: the
spec's `PassLocalBuffersBySize`. The struct has LLVM's natural alignment, and the
runtime lays out its argument buffer with the same rule. The spec's `IsPackedStruct`
option (no padding) is not offered: xDSL 0.74's `!llvm.struct` cannot be packed.
Memref values are rebuilt from the loaded pointers with
`builtin.unrealized_conversion_cast`, which `convert-to-llvm` resolves (a memref is
a bare pointer there).

The buffer of module-scope local variables (`replace-module-scope-vars`), the
parameter that `mux.local_vars_param = array<i64: index, size, alignment>` names, is
not in `MuxPackedArgs`: the runtime does not know about it. The wrapper allocates it
like a local buffer passed by size, but with the constant `size` and `alignment`,
whatever `local-buffers-by-size` says. The wrapper runs once per work-group, so each
work-group has its own.

**Checked mode.** A kernel with a local-memory shadow (`mux.local_shadow`, the
parameter `check-local-races` adds) gets all its work-group's local memory as one
block, the local buffers passed by size in parameter order then the module-scope
variables, each at the next multiple of its alignment, and the shadow of the
block (`lowering.common.local_shadow`: one i64 per cell of `2**mux.local_cell`
bytes after a header), zeroed
by `@__mux_check_local_epoch`. The shadow is hidden from the runtime too.

The wrapper takes the entry-point attribute and metadata of the kernel and records
`mux.base_fn_name`; it has no `mux.scheduled_fn` (the spec drops it: "no longer
accurate"); the kernel becomes private, to be inlined.

Before: `add-sched-params` (the kernel has `mux.scheduled_fn`), usually
`define-mux-builtins`. After: each entry point takes `(!llvm.ptr, !llvm.ptr)`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    IndexType,
    IntAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
    UnrealizedConversionCastOp,
    VectorType,
    i8,
    i64,
)
from xdsl.dialects.llvm import (
    GEP_USE_SSA_VAL,
    AllocaOp,
    GEPOp,
    LLVMPointerType,
    LLVMStructType,
    LoadOp,
    PtrToIntOp,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.passes import ModulePass

from dialects import attributes as mux_attrs
from dialects import llvmx
from dialects.mux import ADDRESS_SPACE_LOCAL, address_space_of
from dialects.scheduling import WORK_ITEM_INFO
from lowering.common import local_shadow
from lowering.common.builders import POINTER, SIZE_T, alloca, const, to_index
from lowering.common.errors import PassError
from lowering.common.functions import (
    base_name,
    kernel_entry_points,
    mark_internal,
    new_function,
)
from lowering.common.layout import from_memory, memory_type
from lowering.common.local_shadow import BLOCK_ALIGNMENT as LOCAL_BUFFER_ALIGNMENT
from lowering.common.local_shadow import SHADOW_TYPE

SUFFIX = ".mux-kernel-wrapper"
LOCAL_POINTER = LLVMPointerType(IntAttr(ADDRESS_SPACE_LOCAL))


def packed_field_type(param: Attribute, local_by_size: bool) -> Attribute:
    """The type a kernel parameter has in `MuxPackedArgs`."""
    if isinstance(param, MemRefType):
        space = address_space_of(param)
        if space is None:
            raise PassError(f"add-kernel-wrapper: memory space of {param} is unknown")
        if space == ADDRESS_SPACE_LOCAL and local_by_size:
            return SIZE_T
        return LLVMPointerType(IntAttr(space))
    if isinstance(param, IndexType):
        return SIZE_T
    if isinstance(param, IntegerType | AnyFloat | VectorType | LLVMPointerType):
        return memory_type(param)
    raise PassError(f"add-kernel-wrapper: no packed form for a parameter of {param}")


@dataclass(frozen=True)
class AddKernelWrapperPass(ModulePass):
    """Packs each kernel entry point's parameters into `MuxPackedArgs.<kernel>`."""

    name = "add-kernel-wrapper"

    local_buffers_by_size: bool = True
    """Local-memory buffers are passed by size and allocated by the wrapper."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for kernel in kernel_entry_points(op):
            op.body.block.insert_op_after(self._wrap(kernel), kernel)

    def _wrap(self, kernel: func.FuncOp) -> func.FuncOp:
        name = kernel.sym_name.data
        indices = mux_attrs.SCHEDULED_FN.get(kernel)
        if indices is None or -1 in indices[:2]:
            raise PassError(
                f"add-kernel-wrapper: kernel '{name}' has no scheduling parameters: "
                "run add-sched-params first"
            )
        wi_index, wg_index = indices[:2]
        params = kernel.function_type.inputs.data
        local_vars = _local_vars_param(kernel, (wi_index, wg_index))
        shadow = mux_attrs.LOCAL_SHADOW.get(kernel)
        hidden = (
            wi_index,
            wg_index,
            -1 if local_vars is None else local_vars.index,
            -1 if shadow is None else shadow,
        )
        kernel_args = [i for i in range(len(params)) if i not in hidden]
        fields = [
            packed_field_type(params[i], self.local_buffers_by_size)
            for i in kernel_args
        ]
        base = base_name(kernel)
        struct = LLVMStructType(StringAttr(f"MuxPackedArgs.{base}"), ArrayAttr(fields))
        wrapper, b = new_function(
            base + SUFFIX, [POINTER, POINTER], arg_names=["packed_args", "wg"]
        )
        packed_args, wg = wrapper.args
        wi = alloca(b, WORK_ITEM_INFO.llvm_type(SIZE_T.width.data), "wi")

        values: list[SSAValue] = [wi] * len(params)
        values[wg_index] = wg
        names = [a.name_hint for a in kernel.args]
        if local_vars is not None and shadow is None:
            size = const(b, local_vars.size, SIZE_T)
            param = params[local_vars.index]
            values[local_vars.index] = _local_buffer(
                b, size, local_vars.alignment, param
            )
            values[local_vars.index].name_hint = names[local_vars.index]
        by_size: list[tuple[int, SSAValue]] = []  # checked: allocated as one block
        for field, index in enumerate(kernel_args):
            value = _load_field(b, packed_args, struct, field)
            if shadow is not None and _by_size(value, params[index]):
                by_size.append((index, value))
                continue
            values[index] = _rebuild(b, value, params[index])
            values[index].name_hint = names[index]
        if shadow is not None:
            buffers = [(i, size, LOCAL_BUFFER_ALIGNMENT) for i, size in by_size]
            if local_vars is not None:
                size = const(b, local_vars.size, SIZE_T)
                buffers.append((local_vars.index, size, local_vars.alignment))
            shift = mux_attrs.LOCAL_CELL.get(kernel) or 0
            values[shadow] = _local_block(b, values, params, buffers, shift)
            for index, *_ in buffers:
                values[index].name_hint = names[index]
        b.insert(func.CallOp(name, values, []))
        b.insert(func.ReturnOp())

        mux_attrs.take_is_kernel(wrapper, kernel)
        for accessor in mux_attrs.FUNCTION_ATTRIBUTES:
            if accessor not in (
                mux_attrs.SCHEDULED_FN,
                mux_attrs.LOCAL_VARS_PARAM,
                mux_attrs.LOCAL_SHADOW,
                mux_attrs.LOCAL_CELL,
            ):
                accessor.take(wrapper, kernel)
        mux_attrs.BASE_FN_NAME.set(wrapper, base)
        mark_internal(kernel)
        return wrapper


def _local_vars_param(
    kernel: func.FuncOp, scheduling: tuple[int, int]
) -> mux_attrs.LocalVarsParam | None:
    """The kernel's `mux.local_vars_param`, checked against its signature."""
    local_vars = mux_attrs.LOCAL_VARS_PARAM.get(kernel)
    if local_vars is None:
        return None
    params = kernel.function_type.inputs.data
    index = local_vars.index
    param = params[index] if index < len(params) else None
    if (
        param is None
        or index in scheduling
        or not isinstance(param, MemRefType | LLVMPointerType)
        or address_space_of(param) != ADDRESS_SPACE_LOCAL
    ):
        raise PassError(
            f"add-kernel-wrapper: kernel '{kernel.sym_name.data}' names parameter "
            f"{index} in mux.local_vars_param, which is not a buffer in local "
            f"memory (got {param if param is not None else 'no parameter'})"
        )
    return local_vars


def _load_field(
    b: Builder, ptr: SSAValue, struct: LLVMStructType, field: int
) -> SSAValue:
    gep = b.insert(GEPOp(ptr, [0, field], struct, inbounds=True)).result
    return b.insert(LoadOp(gep, struct.types.data[field])).dereferenced_value


def _by_size(value: SSAValue, param: Attribute) -> bool:
    """Whether `value`, loaded for `param`, is a local buffer's size."""
    return isinstance(param, MemRefType) and value.type == SIZE_T


def _rebuild(b: Builder, value: SSAValue, param: Attribute) -> SSAValue:
    """The kernel's argument from the value loaded out of the packed struct."""
    if isinstance(param, IndexType):
        return to_index(b, value)
    if not isinstance(param, MemRefType):
        return from_memory(b, value, param)
    if value.type == SIZE_T:  # a local buffer passed by size: allocate it here
        return _local_buffer(b, value, LOCAL_BUFFER_ALIGNMENT, param)
    cast = UnrealizedConversionCastOp.get([value], [param])
    return b.insert(cast).results[0]


def _local_buffer(
    b: Builder, size: SSAValue, alignment: int, param: Attribute
) -> SSAValue:
    """A stack allocation of `size` bytes, as a value of the local-memory `param`
    type (a memref, or `!llvm.ptr<3>`)."""
    buffer = b.insert(AllocaOp(size, i8, alignment)).res
    value = b.insert(llvmx.AddrSpaceCastOp(buffer, LOCAL_POINTER)).results[0]
    return _as_param(b, value, param)


def _as_param(b: Builder, value: SSAValue, param: Attribute) -> SSAValue:
    """The local pointer `value` as a value of `param`'s type."""
    if param == LOCAL_POINTER:
        return value
    return b.insert(UnrealizedConversionCastOp.get([value], [param])).results[0]


def _local_block(
    b: Builder,
    values: list[SSAValue],
    params: Sequence[Attribute],
    buffers: list[tuple[int, SSAValue, int]],
    shift: int,
) -> SSAValue:
    """Checked mode (`mux.local_shadow`): the work-group's local memory as one
    block, each of `buffers` (parameter index, size in bytes, alignment) at the
    next multiple of its alignment, its value set in `values`; and the shadow
    of the block (`lowering.common.local_shadow`: cells of `2**shift` bytes),
    zeroed, which is returned."""
    end = const(b, 0, SIZE_T)
    offsets = []
    for _, size, alignment in buffers:
        mask = const(b, alignment - 1, SIZE_T)
        start = b.insert(arith.AddiOp(end, mask)).result
        start = b.insert(arith.AndIOp(start, const(b, -alignment, SIZE_T))).result
        offsets.append(start)
        end = b.insert(arith.AddiOp(start, size)).result
    alignment = max([LOCAL_BUFFER_ALIGNMENT] + [a for *_, a in buffers])
    block = _local_buffer(b, end, alignment, LOCAL_POINTER)
    for (index, *_), offset in zip(buffers, offsets, strict=True):
        at = GEPOp(block, [GEP_USE_SSA_VAL], i8, [offset], result_type=LOCAL_POINTER)
        b.insert(at)
        values[index] = _as_param(b, at.result, params[index])
    cell = const(b, (1 << shift) - 1, SIZE_T)
    cells = b.insert(arith.AddiOp(end, cell)).result
    cells = b.insert(arith.ShRUIOp(cells, const(b, shift, SIZE_T))).result
    words = b.insert(arith.AddiOp(cells, const(b, local_shadow.HEADER_WORDS, SIZE_T)))
    memory = b.insert(AllocaOp(words.result, i64, 8)).res
    shadow = b.insert(UnrealizedConversionCastOp.get([memory], [SHADOW_TYPE]))
    shadow = shadow.results[0]
    base = b.insert(PtrToIntOp(block, i64)).results[0]
    header = ((local_shadow.EPOCH, const(b, -1, i64)), (local_shadow.BASE, base))
    sizes = ((local_shadow.BYTES, end), (local_shadow.CELLS, cells))
    for word, value in (*header, *sizes):
        b.insert(memref.StoreOp.get(value, shadow, [const(b, word)]))
    # epoch 0, before the first barrier: its tag 0 zeroes the cells
    b.insert(func.CallOp(local_shadow.NEXT_EPOCH, [shadow], []))
    return shadow
