"""A `spir_kernel`'s metadata, and what the IR contract of issue 15 makes of it:
`mux.kernel = "entry-point"`, the spec's attributes where the spec has one
(`mux.reqd_work_group_size`, `mux.reqd_sub_group_size`), the OpenCL metadata the
spec has no attribute for kept as `opencl.<name>` attributes, and its pointer
parameters to global, constant and local memory as `memref<?xT, AS>` with T
from `kernel_arg_base_type` (a vector type for `float4*`: the runtime takes an
array whose last axis is the lanes).

A struct passed by value is, in spir64's ABI, a pointer parameter with LLVM's
`byval(<type>)` attribute. It stays an `!llvm.ptr` marked `mux.byval = <type>`
(and `llvm.align`), for the runtime, which passes a pointer to its copy of the
user's value. `byval` means the kernel owns its copy, and one copy serves every
work-item of the launch; so when the kernel may write it (the parameter is not
`readonly`), each work-item copies it into a private `llvm.alloca` at entry and
uses that."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from llvmlite import binding
from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DenseArrayBase,
    IntAttr,
    IntegerAttr,
    MemRefType,
    StringAttr,
    VectorType,
    f16,
    f32,
    f64,
    i8,
    i16,
    i32,
    i64,
)
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.ir import Attribute, BlockArgument
from xdsl.rewriter import InsertPoint, Rewriter

from dialects import llvmx
from dialects.attributes import (
    REQD_SUB_GROUP_SIZE,
    REQD_WORK_GROUP_SIZE,
    set_byval_type,
    set_is_kernel_entry_point,
)
from lowering.common.layout import storage
from mux.frontend.llvm_import.text import parse_type

MetadataItem = int | str
"""One operand of a metadata node: `i32 1` or `!"float*"` (others are kept as
their text)."""

_BASE_TYPES: dict[str, Attribute] = {
    "char": i8,
    "uchar": i8,
    "unsigned char": i8,
    "signed char": i8,
    "bool": i8,
    "short": i16,
    "ushort": i16,
    "unsigned short": i16,
    "int": i32,
    "uint": i32,
    "unsigned int": i32,
    "long": i64,
    "ulong": i64,
    "unsigned long": i64,
    "size_t": i64,
    "ptrdiff_t": i64,
    "intptr_t": i64,
    "uintptr_t": i64,
    "half": f16,
    "float": f32,
    "double": f64,
}
MEMREF_SPACES = (1, 2, 3)
"""The address spaces a kernel's pointer parameter is a buffer in: global,
constant, local."""

KERNEL_METADATA = (
    "kernel_arg_addr_space",
    "kernel_arg_access_qual",
    "kernel_arg_type",
    "kernel_arg_base_type",
    "kernel_arg_type_qual",
    "kernel_arg_name",
    "work_group_size_hint",
    "vec_type_hint",
    "reqd_work_group_size",
    "intel_reqd_sub_group_size",
)


def element_type(base_type: str) -> Attribute:
    """The memref element of a pointer parameter of `kernel_arg_base_type`
    `base_type` (`float*` -> f32, `float4*` -> vector<4xf32>, `_Atomic(int)*`
    -> i32); a struct, `void*` or a name we do not know is bytes (i8)."""
    name = base_type.rstrip("*").strip()
    atomic = re.fullmatch(r"_Atomic\((.+)\)", name)  # atomic_int: _Atomic(int)
    if atomic:
        name = atomic.group(1).strip()
    vector = re.fullmatch(
        r"(.+?)\s*__attribute__\(\(ext_vector_type\((\d+)\)\)\)", name
    )
    if vector:
        name = f"{vector.group(1)}{vector.group(2)}"
    match = re.fullmatch(r"([a-z ]+?)(2|3|4|8|16)?", name)
    if not match or match.group(1) not in _BASE_TYPES:
        return i8
    scalar = _BASE_TYPES[match.group(1)]
    return VectorType(scalar, [int(match.group(2))]) if match.group(2) else scalar


@dataclass(frozen=True)
class ByVal:
    """A parameter passed by value behind a pointer: LLVM's `byval(<type>)`."""

    type: Attribute
    align: int
    """The parameter's `align` attribute (bytes), else the type's own."""
    written: bool
    """The kernel may write it: the parameter is neither readonly nor readnone."""


def byval_parameters(
    function: binding.ValueRef, structs: dict[str, Attribute]
) -> dict[int, ByVal]:
    """The `byval` parameters of `function`, by position."""
    found = {}
    for index, argument in enumerate(function.arguments):
        attributes = [a.decode() for a in argument.attributes]
        types = [a[6:-1] for a in attributes if re.fullmatch(r"byval\(.*\)", a)]
        if not types:
            continue
        type_ = parse_type(types[0], structs)
        aligns = [int(a[6:]) for a in attributes if re.fullmatch(r"align \d+", a)]
        written = not {"readonly", "readnone"} & set(attributes)
        found[index] = ByVal(type_, aligns[0] if aligns else storage(type_)[1], written)
    return found


@dataclass
class Kernel:
    """A kernel's metadata nodes by name (`kernel_arg_base_type` -> items), and
    its parameters passed by value behind a pointer."""

    metadata: dict[str, list[MetadataItem]]
    byval: dict[int, ByVal] = field(default_factory=dict)

    def parameter_types(self, inputs: list[Attribute]) -> list[Attribute]:
        """The kernel's parameter types: memrefs for its buffers."""
        base_types = self.metadata.get("kernel_arg_base_type", [])
        types = []
        for index, type_ in enumerate(inputs):
            space = _space(type_)
            if space in MEMREF_SPACES:
                base = base_types[index] if index < len(base_types) else "char*"
                element = element_type(str(base))
                space_attr = IntegerAttr(space, i64)
                type_ = MemRefType(element, [DYNAMIC_INDEX], memory_space=space_attr)
            types.append(type_)
        return types

    def annotate(self, op: func.FuncOp) -> None:
        """The kernel's attributes on its `func.func`, and its parameters' names
        (`kernel_arg_name`, which the clang driver asks for with
        `-cl-kernel-arg-info`): launch errors then name `in`, not `arg0`."""
        set_is_kernel_entry_point(op)
        names = self.metadata.get("kernel_arg_name", [])
        for argument, name in zip(op.args, names, strict=False):
            if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", str(name)):
                argument.name_hint = str(name)
        for index, byval in self.byval.items():
            set_byval_type(op, index, byval.type, byval.align)
            if byval.written and op.args[index].uses:
                _private_copy(op.args[index], byval)
        for name, items in self.metadata.items():
            if name == "reqd_work_group_size":
                REQD_WORK_GROUP_SIZE.set(op, tuple(int(i) for i in items))
            elif name == "intel_reqd_sub_group_size":
                REQD_SUB_GROUP_SIZE.set(op, int(items[0]))
            elif all(isinstance(i, int) for i in items):
                op.attributes[f"opencl.{name}"] = DenseArrayBase.from_list(
                    i32, [int(i) for i in items]
                )
            else:
                op.attributes[f"opencl.{name}"] = ArrayAttr(
                    [StringAttr(str(i)) for i in items]
                )


def _private_copy(argument: BlockArgument, byval: ByVal) -> None:
    """Each work-item's own copy of the value `argument` points to, made at entry
    (`llvm.alloca` + `llvmx.memcpy`), in place of `argument` in the body."""
    one = llvm.ConstantOp(IntegerAttr(1, i64), i64)
    copy = llvm.AllocaOp(one, byval.type, byval.align)
    size = llvm.ConstantOp(IntegerAttr(storage(byval.type)[0], i64), i64)
    memcpy = llvmx.MemcpyOp(copy, argument, size)
    Rewriter.insert_op([one, copy, size, memcpy], InsertPoint.at_start(argument.block))
    argument.replace_uses_with_if(copy.res, lambda use: use.operation is not memcpy)


def _space(type_: Attribute) -> int | None:
    if not isinstance(type_, LLVMPointerType):
        return None
    space = type_.addr_space
    return space.data if isinstance(space, IntAttr) else 0


def metadata_nodes(module_text: str) -> dict[int, list[MetadataItem]]:
    """The module's metadata tuples `!N = !{...}` by number, items read."""
    nodes: dict[int, list[MetadataItem]] = {}
    for match in re.finditer(r"^!(\d+) = (?:distinct )?!\{(.*)\}$", module_text, re.M):
        items: list[MetadataItem] = []
        for item in re.findall(r'!"(?:[^"\\]|\\.)*"|[^,]+', match.group(2)):
            item = item.strip()
            if item.startswith('!"'):
                items.append(item[2:-1])
            elif re.fullmatch(r"i\d+ -?\d+", item):
                items.append(int(item.split()[1]))
            else:
                items.append(item)
        nodes[int(match.group(1))] = items
    return nodes


def kernel_metadata(
    header: str, nodes: dict[int, list[MetadataItem]]
) -> dict[str, list[MetadataItem]]:
    """The OpenCL metadata attached to a function, from its `define` line."""
    found = {}
    for name, number in re.findall(r"!([\w.]+) !(\d+)", header):
        if name in KERNEL_METADATA and int(number) in nodes:
            found[name] = nodes[int(number)]
    return found
