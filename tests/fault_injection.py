"""Faults injected into the example kernels, for the checked mode's tests
(tests/test_checked_faults.py).

Each fault is the smallest change a user gets wrong most often, made the same way
in every example, so that every example kernel gets every fault:

- `off_by_one`: every index into one buffer parameter one element further (a
  subscript `p[i]` becomes `p[(i) + 1]`, a pointer `p + n` becomes `p + 1 + n`;
  in MLIR, the last index of each access to the parameter, and a pointer cast
  of it, one element further). A kernel that reaches its buffer's last element
  then reaches one past it.
- `local_write`: a work-group-local array of 4 ints written at `local id + 4`.
- `race`: every work-item writes its local id to one local int.
- `divergent_barrier`: a barrier only work-item 0 of each group reaches.

The OpenCL C variants are source text (the fault has a line of the .cl file);
the MLIR ones are built into the parsed module with xDSL's builders (the
inserted ops have no location of their own: the messages name the kernel's).
The local variables are `volatile` in OpenCL C, so that clang keeps stores that
nothing reads.
"""

from __future__ import annotations

import re

from xdsl.builder import Builder
from xdsl.dialects import arith, func, llvm, memref, scf
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    UnitAttr,
    i32,
    i64,
)
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.rewriter import InsertPoint

from dialects import atomic, mux

LOCAL_ARRAY = "mux_fault_local"
"""The local array `local_write` writes past."""
SHARED = "mux_fault_shared"
"""The local int every work-item writes in `race`."""

# --------------------------------------------------------------------------------------
# OpenCL C: source text.
# --------------------------------------------------------------------------------------


def cl_off_by_one(source: str, param: str) -> str:
    """`source` with every subscript of `param` one element further and every
    `param + n` one element further."""
    out, at = [], 0
    for match in re.finditer(rf"\b{re.escape(param)}\s*(\[|\+)", source):
        if match.start() < at:
            continue
        if match.group(1) == "+":
            out += [source[at : match.end()], " 1 +"]
            at = match.end()
            continue
        close = _closing_bracket(source, match.end() - 1)
        inner = source[match.end() : close]
        out += [source[at : match.end()], f"({inner}) + 1"]
        at = close
    if not out:
        raise ValueError(f"no access to {param} in the source")
    return "".join(out) + source[at:]


def _closing_bracket(text: str, open_at: int) -> int:
    depth = 0
    for index in range(open_at, len(text)):
        depth += {"[": 1, "]": -1}.get(text[index], 0)
        if depth == 0:
            return index
    raise ValueError("unbalanced [")


def cl_prologue(source: str, kernel: str, statements: str) -> str:
    """`source` with `statements` first in `kernel`'s body."""
    match = re.search(rf"__kernel\s+void\s+{re.escape(kernel)}\s*\(", source)
    if match is None:
        raise ValueError(f"no kernel {kernel} in the source")
    body = source.index("{", match.end())
    return f"{source[: body + 1]}\n    {statements}\n{source[body + 1 :]}"


CL_FAULTS = {
    "local_write": (
        f"__local volatile int {LOCAL_ARRAY}[4]; "
        f"{LOCAL_ARRAY}[get_local_id(0) + 4] = 1;"
    ),
    "race": f"__local volatile int {SHARED}; {SHARED} = (int)get_local_id(0);",
    "divergent_barrier": "if (get_local_id(0) == 0) barrier(CLK_LOCAL_MEM_FENCE);",
}
"""The statements each prologue fault puts first in a kernel."""

# --------------------------------------------------------------------------------------
# MLIR: the parsed module.
# --------------------------------------------------------------------------------------


def kernel_of(module: ModuleOp, name: str) -> func.FuncOp:
    for op in module.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data == name:
            return op
    raise ValueError(f"no kernel {name}")


def param_of(fn: func.FuncOp, name: str) -> BlockArgument:
    for arg in fn.body.block.args:
        if arg.name_hint == name:
            return arg
    raise ValueError(f"{fn.sym_name.data} has no parameter {name}")


def mlir_off_by_one(module: ModuleOp, kernel: str, param: str) -> None:
    """Each access to `param` of `kernel` one element further: the last index of
    a memref access, and the pointer a cast of the memref gives."""
    buffer = param_of(kernel_of(module, kernel), param)
    for use in list(buffer.uses):
        op = use.operation
        if isinstance(op, memref.LoadOp | memref.StoreOp | atomic.RMWOp):
            indices = list(op.indices)
            if not indices:
                raise ValueError(f"{op.name} of {param} has no index")
            first = 2 if isinstance(op, memref.StoreOp) else 1  # after the memref
            position = first + len(indices) - 1
            op.operands[position] = _plus_one(op, indices[-1])
        elif op.name == "builtin.unrealized_conversion_cast":
            _shift_pointer(op)
        elif not isinstance(op, func.CallOp):
            raise ValueError(f"{param} is used by {op.name}: not injected")


def _plus_one(before: Operation, index: SSAValue) -> SSAValue:
    builder = Builder(InsertPoint.before(before))
    one = builder.insert(arith.ConstantOp(IntegerAttr(1, IndexType())))
    return builder.insert(arith.AddiOp(index, one)).result


def _shift_pointer(cast: Operation) -> None:
    """The pointer `cast` gives, one element further (a GEP of 1 of the memref's
    element type)."""
    memref_type = cast.operands[0].type
    assert isinstance(memref_type, MemRefType)
    pointer = cast.results[0]
    builder = Builder(InsertPoint.after(cast))
    one = builder.insert(arith.ConstantOp(IntegerAttr(1, i64)))
    gep = builder.insert(
        llvm.GEPOp(
            pointer, [llvm.GEP_USE_SSA_VAL], memref_type.element_type, ssa_indices=[one]
        )
    )
    pointer.replace_uses_with_if(gep.result, lambda use: use.operation is not gep)


def mlir_prologue(module: ModuleOp, kernel: str, fault: str) -> None:
    """`fault` (a key of `CL_FAULTS`) first in `kernel`'s body."""
    fn = kernel_of(module, kernel)
    builder = Builder(InsertPoint.at_start(fn.body.block))
    zero_i32 = builder.insert(arith.ConstantOp(IntegerAttr(0, i32)))
    lid = builder.insert(mux.GetLocalIdOp(zero_i32)).result
    if fault == "divergent_barrier":
        zero = builder.insert(arith.ConstantOp(IntegerAttr(0, IndexType())))
        first = builder.insert(arith.CmpiOp(lid, zero, "eq"))
        ids = [
            o.id.value.data
            for o in module.walk()
            if isinstance(o, mux.WorkGroupBarrierOp)
        ]
        barrier = mux.WorkGroupBarrierOp(max(ids, default=-1) + 1, 2, 0x108)
        builder.insert(scf.IfOp(first, [], [barrier, scf.YieldOp()]))
        return
    name, count, offset = (
        (LOCAL_ARRAY, 4, 4) if fault == "local_write" else (SHARED, 1, 0)
    )
    local = MemRefType(i32, [count], memory_space=IntegerAttr(3, i64))
    module.body.block.insert_op_before(
        memref.GlobalOp.get(
            StringAttr(name), local, UnitAttr(), sym_visibility=StringAttr("private")
        ),
        module.body.block.first_op,  # pyright: ignore[reportArgumentType]
    )
    array = builder.insert(memref.GetGlobalOp(name, local)).memref
    shift = builder.insert(arith.ConstantOp(IntegerAttr(offset, IndexType())))
    index = builder.insert(arith.AddiOp(lid, shift)).result if offset else shift
    value = builder.insert(arith.IndexCastOp(lid, i32)).result
    builder.insert(memref.StoreOp.get(value, array, [index]))
