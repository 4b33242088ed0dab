"""`replace-module-scope-vars`: the spec's ReplaceLocalModuleScopeVariablesPass.

compiler-utils-passes.rst, "ReplaceLocalModuleScopeVariablesPass": the global
variables in the local address space (3) are placed "in a struct ... allocated in a
newly created wrapper function. A pointer to the struct is then passed via a
parameter to the original kernel"; each use of a variable becomes a use of its
member, and the variables are erased. Each member is aligned as OpenCL aligns its
type, and the struct to its largest member alignment.

The variables are `memref.global`s whose memory space is 3, as hand-written kernels
declare local memory, and `llvm.mlir.global`s in address space 3, as LLVM IR has
them:

    "memref.global"() <{sym_name = "tile", type = memref<16x16xf32, 3>,
                        initial_value, sym_visibility = "private"}> : () -> ()
    %t = memref.get_global @tile : memref<16x16xf32, 3>

**The struct is a byte buffer**, `memref<N x i8, 3>`, whose layout the pass
computes. Alignment (ir-conventions.rst, "Alignment"): a type is aligned to its own
size, a 3-element vector as a 4-element one; a variable has the alignment of its
element type, or the global's `alignment` if that is larger. The variables used
anywhere are placed in module order, each at the next offset that is a multiple of
its alignment; the buffer's alignment is the largest, and its size is rounded up to
it. Unused variables (no use of their address) take no room. One layout serves the
whole module, so that a function called by several kernels finds a variable at the
same offset in each; a kernel's buffer may then hold variables only other kernels
use.

**Uses.** Every function that uses a variable, and every function that calls one of
those (transitively, through `func.call`), gets one more parameter at the end,
`%local_vars: memref<N x i8, 3>`; each call passes the caller's. A use becomes the
address of the variable's offset in the buffer, in the form `convert-to-llvm`
resolves (a memref is a bare pointer there, and it converts no memref views); for a
variable `@sums : memref<16xf32, 3>` placed after `@tile` (1024 bytes):

    %0 = builtin.unrealized_conversion_cast %local_vars
             : memref<1088xi8, 3> to !llvm.ptr<3>
    %1 = llvm.getelementptr inbounds %0[1024] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
    %sums = builtin.unrealized_conversion_cast %1 : !llvm.ptr<3> to memref<16xf32, 3>

(`llvm.mlir.addressof @g` becomes `%1` itself; at offset 0 there is no GEP). The
address is computed right before each op that uses it, from the buffer, which is an
argument: so no value derived from it lives across a barrier, and `work-item-loops`
finds nothing to keep per work-item (LLVM's CSE merges the copies).

**The layout is recorded** on the op that gives each variable's address (the last
of the cast, GEP, cast above), for checked mode, which checks an access through it
against that variable alone and names it (`lowering.common.memory_objects`):

    %sums = builtin.unrealized_conversion_cast %1 : !llvm.ptr<3> to memref<16xf32, 3>
              {mux.local_variable = {name = "sums", offset = 1024 : i64,
                                     size = 64 : i64, type = memref<16xf32, 3>}}

The attribute is all an unchecked kernel gains: nothing reads it there, and the
LLVM IR is the same.

**Allocation.** The buffer is one per work-group, shared by its work-items, but the
kernel runs once per work-item until `work-item-loops`: so this pass runs before
`work-item-loops`, for which the buffer is one more kernel argument, the same for
every work-item, and the spec's wrapper is `add-kernel-wrapper`'s, which runs once
per work-group. An entry point that gets the buffer records
`mux.local_vars_param = array<i64: index, size, alignment>`; `work-item-loops` moves
it to its wrapper with the other metadata, and `add-kernel-wrapper` allocates the
buffer (`size` bytes, `alignment`) instead of reading it from `MuxPackedArgs`. The
runtime does not ask for it.

Diagnostics: a local variable with an initial value (OpenCL C does not allow one on
a `__local` variable; an `llvm.mlir.global` whose initialiser is `undef` has none) or
with a dynamic shape; a use by another op than `memref.get_global` or
`llvm.mlir.addressof`, or of another type than the global's; a use outside a
`func.func`; a function that has a buffer already (the pass ran before).

Before: kernel metadata (`transfer-kernel-metadata`, `encode-kernel-metadata`);
passes that add local variables (`replace-wgc`). After: no global variable in the
local address space remains; the functions that used one take the buffer, and the
kernel entry points among them carry `mux.local_vars_param`; each variable's address
carries `mux.local_variable`; `work-item-loops` runs after it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypeGuard

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import func, llvm, memref
from xdsl.dialects.builtin import (
    ArrayAttr,
    IntAttr,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    NoneAttr,
    SymbolRefAttr,
    UnitAttr,
    UnrealizedConversionCastOp,
    i8,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint

from dialects import attributes as mux_attrs
from dialects.attributes import LocalVariable
from dialects.mux import ADDRESS_SPACE_LOCAL, address_space_of
from lowering.common.errors import PassError
from lowering.common.functions import append_arguments, callers_of, functions
from lowering.common.layout import round_up
from lowering.common.layout import storage as type_storage
from lowering.common.llvm_types import ConversionError

BUFFER_NAME = "local_vars"
LOCAL_POINTER = llvm.LLVMPointerType(IntAttr(ADDRESS_SPACE_LOCAL))
_GLOBALS = (memref.GlobalOp, llvm.GlobalOp)
_USES = (memref.GetGlobalOp, llvm.AddressOfOp)


# --------------------------------------------------------------------------------------
# Storage: bytes and alignment of the types a variable may have.
# --------------------------------------------------------------------------------------


def storage(type_: Attribute) -> tuple[int, int]:
    """(size, alignment) in bytes of a variable of `type_` (`types.storage`)."""
    try:
        return type_storage(type_)
    except ConversionError as error:
        raise PassError(f"replace-module-scope-vars: {error}") from error


# --------------------------------------------------------------------------------------
# The module's local variables, their layout and their users.
# --------------------------------------------------------------------------------------


@dataclass
class ModuleScopeLocals:
    """The local variables of a module, where they go, and who uses them."""

    globals: dict[str, Operation] = field(default_factory=dict)
    """Every global variable in the local address space, by name."""
    uses: list[Operation] = field(default_factory=list)
    """The `memref.get_global` and `llvm.mlir.addressof` ops of them."""
    variables: dict[str, LocalVariable] = field(default_factory=dict)
    """The used variables, in module order, with their places in the buffer."""
    size: int = 0
    """Bytes of the buffer (0: no variable is used)."""
    alignment: int = 1
    """Alignment of the buffer: the largest of its variables'."""
    users: set[str] = field(default_factory=set)
    """The functions that need the buffer: they use a variable, or call one that
    does, transitively."""

    @property
    def buffer_type(self) -> MemRefType:
        """`memref<size x i8, 3>`."""
        return MemRefType(i8, [self.size], NoneAttr(), IntegerAttr(3, i64))


def _error(message: str) -> PassError:
    return PassError(f"replace-module-scope-vars: {message}")


def _is_local(op: Operation) -> TypeGuard[memref.GlobalOp | llvm.GlobalOp]:
    if isinstance(op, memref.GlobalOp):
        return address_space_of(op.type) == ADDRESS_SPACE_LOCAL
    if isinstance(op, llvm.GlobalOp):
        return op.addr_space.value.data == ADDRESS_SPACE_LOCAL
    return False


def _global_storage(op: Operation) -> tuple[int, int]:
    """(size, alignment) of a local variable; a diagnostic for one the pass cannot
    place."""
    assert isinstance(op, _GLOBALS)
    name = op.sym_name.data
    if isinstance(op, memref.GlobalOp):
        type_ = op.type
        if not isinstance(op.initial_value, UnitAttr):
            raise _error(_INITIALISED.format(name=name))
        if not type_.has_static_shape():
            raise _error(f"local variable @{name} of {type_}: its shape must be static")
        size, alignment = storage(type_.element_type)
        for extent in type_.get_shape():
            size *= extent
    else:
        initialiser = [o for o in op.body.walk() if not isinstance(o, llvm.ReturnOp)]
        if op.value is not None or any(
            not isinstance(o, llvm.UndefOp) for o in initialiser
        ):
            raise _error(_INITIALISED.format(name=name))
        size, alignment = storage(op.global_type)
    if op.alignment is not None:
        alignment = max(alignment, op.alignment.value.data)
    return size, alignment


def _declared_type(op: Operation) -> Attribute:
    assert isinstance(op, _GLOBALS)
    return op.type if isinstance(op, memref.GlobalOp) else op.global_type


_INITIALISED = (
    "local variable @{name} has an initial value: local memory is not initialised "
    "(OpenCL C allows no initialiser on a __local variable)"
)


def _enclosing_function(op: Operation, what: str) -> func.FuncOp:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, func.FuncOp | llvm.FuncOp):
        parent = parent.parent_op()
    if not isinstance(parent, func.FuncOp):
        where = f"'{parent.sym_name.data}'" if parent is not None else "no function"
        raise _error(f"{what} is in {where}: only func.func can take the buffer")
    return parent


def _symbol_refs(attributes: Iterable[Attribute]) -> Iterable[str]:
    for attr in attributes:
        if isinstance(attr, SymbolRefAttr):
            yield attr.root_reference.data
        elif isinstance(attr, ArrayAttr):
            yield from _symbol_refs(attr.data)


def _referenced(use: Operation) -> str:
    """The name of the global a `memref.get_global` or `llvm.mlir.addressof` uses."""
    if isinstance(use, memref.GetGlobalOp):
        return use.name_.root_reference.data
    assert isinstance(use, llvm.AddressOfOp)
    return use.global_name.root_reference.data


def _check_use(use: Operation, variable: Operation) -> None:
    """The use's type is the variable's: its memref type, or `!llvm.ptr<3>`."""
    if isinstance(use, memref.GetGlobalOp) and isinstance(variable, memref.GlobalOp):
        expected: Attribute = variable.type
    elif isinstance(use, llvm.AddressOfOp):
        expected = LOCAL_POINTER
    else:
        raise _error(
            f"{use.name} @{_referenced(use)}: the variable is an {variable.name}, "
            "use llvm.mlir.addressof"
        )
    result = use.results[0].type
    if result != expected:
        raise _error(
            f"{use.name} @{_referenced(use)} : {result} does not match the local "
            f"variable, of type {expected}"
        )


def find_module_scope_locals(module: ModuleOp) -> ModuleScopeLocals:
    """The local variables of `module`, their layout and the functions that need
    the buffer; a diagnostic for what the pass cannot handle. Does not change
    `module`."""
    found = ModuleScopeLocals()
    found.globals = {op.sym_name.data: op for op in module.ops if _is_local(op)}
    if not found.globals:
        return found
    storages = {name: _global_storage(op) for name, op in found.globals.items()}
    used: set[str] = set()
    for op in module.walk():
        if isinstance(op, _USES):
            name = _referenced(op)
            if name in found.globals:
                _check_use(op, found.globals[name])
                fn = _enclosing_function(op, f"a use of @{name}")
                found.uses.append(op)
                if op.results[0].uses:
                    found.users.add(fn.sym_name.data)
                    used.add(name)
            continue
        refs = _symbol_refs([*op.properties.values(), *op.attributes.values()])
        for name in refs:
            if name in found.globals:
                raise _error(
                    f"{op.name} refers to local variable @{name}: only "
                    "memref.get_global and llvm.mlir.addressof can use one"
                )
    offset = 0
    for name in found.globals:
        if name in used:
            size, alignment = storages[name]
            offset = round_up(offset, alignment)
            type_ = _declared_type(found.globals[name])
            found.variables[name] = LocalVariable(name, offset, size, type_)
            offset += size
            found.alignment = max(found.alignment, alignment)
    found.size = round_up(offset, found.alignment)
    callers = callers_of(module)
    work = list(found.users)
    while work:
        for call in callers.get(work.pop(), []):
            caller = _enclosing_function(call, "a call of a function using it")
            if caller.sym_name.data not in found.users:
                found.users.add(caller.sym_name.data)
                work.append(caller.sym_name.data)
    return found


# --------------------------------------------------------------------------------------
# The pass.
# --------------------------------------------------------------------------------------


def _address(
    b: Builder, buffer: SSAValue, variable: LocalVariable, old: SSAValue
) -> SSAValue:
    """The variable's address in the buffer, with the type of `old`, its use; the
    op that gives it records the variable (`mux.local_variable`)."""
    pointer = b.insert(UnrealizedConversionCastOp.get([buffer], [LOCAL_POINTER]))
    address: SSAValue = pointer.results[0]
    if variable.offset:
        gep = llvm.GEPOp(
            address, [variable.offset], i8, result_type=LOCAL_POINTER, inbounds=True
        )
        address = b.insert(gep).result
    if old.type != LOCAL_POINTER:
        cast = UnrealizedConversionCastOp.get([address], [old.type])
        address = b.insert(cast).results[0]
    assert isinstance(address.owner, Operation)
    mux_attrs.LOCAL_VARIABLE.set(address.owner, variable)
    address.name_hint = old.name_hint
    return address


def _replace_use(use: Operation, buffer: SSAValue, variable: LocalVariable) -> None:
    """Replaces `use` by the variable's address, computed right before each op
    using it: from the buffer, a function argument, so that no value derived from
    it lives across a barrier (`work-item-loops` would store it per work-item)."""
    old = use.results[0]
    users = list(dict.fromkeys(u.operation for u in old.uses))
    for user in users:
        address = _address(Builder(InsertPoint.before(user)), buffer, variable, old)
        for index, operand in enumerate(user.operands):
            if operand is old:
                user.operands[index] = address
    use.detach()
    use.erase()


@dataclass(frozen=True)
class ReplaceModuleScopeVarsPass(ModulePass):
    """Replaces the module's local variables by offsets in one buffer per
    work-group, passed to the functions that use them."""

    name = "replace-module-scope-vars"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        found = find_module_scope_locals(op)
        fns = functions(op)
        for name in sorted(found.users):
            if mux_attrs.LOCAL_VARS_PARAM.get(fns[name]) is not None:
                raise _error(
                    f"'{name}' already has a buffer of local variables "
                    "(mux.local_vars_param): this pass has run before"
                )
        buffers: dict[str, SSAValue] = {}
        for name in sorted(found.users):
            fn = fns[name]
            (buffers[name],) = append_arguments(fn, [found.buffer_type])
            buffers[name].name_hint = BUFFER_NAME
            if mux_attrs.is_kernel_entry_point(fn):
                index = len(fn.function_type.inputs) - 1
                mux_attrs.LOCAL_VARS_PARAM.set(
                    fn, mux_attrs.LocalVarsParam(index, found.size, found.alignment)
                )
        callers = callers_of(op)
        for name in found.users:
            for call in callers.get(name, []):
                caller = _enclosing_function(call, "a call")
                call.operands = [*call.operands, buffers[caller.sym_name.data]]
        for use in found.uses:
            if not use.results[0].uses:
                use.detach()
                use.erase()
                continue
            fn = _enclosing_function(use, "a use")
            variable = found.variables[_referenced(use)]
            _replace_use(use, buffers[fn.sym_name.data], variable)
        for variable in found.globals.values():
            variable.detach()
            variable.erase()
