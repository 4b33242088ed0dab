"""`lower-to-mux-builtins`: the spec's LowerToMuxBuiltinsPass.

compiler-utils-passes.rst, "LowerToMuxBuiltinsPass": "This pass replaces calls to
the language implementation's builtin functions with alternative sequences of
instructions involving ComputeMux builtins. Not all builtins **must** be lowered,
but any builtins which can be re-expressed in the terms of the following ComputeMux
builtins **should** be lowered": the sync builtins (`__mux_mem_barrier`,
`__mux_(sub|work)_group_barrier`), the work-item builtins, the group builtins and
the DMA builtins, so that the other passes "corectly recognise the program
semantics". Here the language is OpenCL C, whose builtins clang leaves as calls of
Itanium-mangled declarations (`lowering.common.mangling` demangles them), and the
ComputeMux builtins are the `mux` dialect's ops:

    func.func private @_Z13get_global_idj(i32) -> i64
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %gid = func.call @_Z13get_global_idj(%c0) : (i32) -> i64

becomes

    %c0 = llvm.mlir.constant(0 : i32) : i32
    %0 = mux.get_global_id %c0
    %gid = arith.index_cast %0 : index to i64

and the declaration goes once nothing calls it. The families:

- **work-item functions**: `get_global_id`, `get_local_id`, `get_group_id`,
  `get_global_size`, `get_local_size`, `get_enqueued_local_size`, `get_num_groups`,
  `get_global_offset` (a `uint` dimension, a `size_t` result: `i64` on spir64, `i32`
  on spir, cast from the op's `index`), `get_work_dim`, `get_global_linear_id`,
  `get_local_linear_id`, and the sub-group queries `get_sub_group_size`,
  `get_max_sub_group_size`, `get_num_sub_groups`, `get_sub_group_id`,
  `get_sub_group_local_id` (`uint`), each its `mux` op. `get_enqueued_num_sub_groups`
  has no op: it is the sub-groups of a work-group of the enqueued size, the product
  of `get_enqueued_local_size(0..2)` divided by `get_max_sub_group_size()`, rounded
  up.
- **synchronisation**: `barrier(flags)` and `work_group_barrier(flags[, scope])` are
  `mux.work_group_barrier`, `sub_group_barrier(flags[, scope])`
  `mux.sub_group_barrier`, each with id 0 (`prepare-barriers` numbers them);
  `mem_fence`, `read_mem_fence`, `write_mem_fence(flags)` and
  `atomic_work_item_fence(flags, order, scope)` are `mux.mem_barrier`. The OpenCL
  C spec's `cl_mem_fence_flags` (`CLK_LOCAL_MEM_FENCE` 1, `CLK_GLOBAL_MEM_FENCE` 2,
  `CLK_IMAGE_MEM_FENCE` 4) give the semantics' memory: `work_group_memory` for local
  memory, `cross_work_group_memory` for global memory and images (which live in
  global memory). The ordering is `acq_rel` for the barriers and `mem_fence`,
  `acquire` for `read_mem_fence`, `release` for `write_mem_fence`, the
  `memory_order` for `atomic_work_item_fence` (clang's values: 0 relaxed, 2
  acquire, 3 release, 4 acq_rel, 5 seq_cst); no flags, no ordering. The scope
  is the `memory_scope` (clang's values: 0 work-item, 1 work-group, 2 device, 3 all
  SVM devices, 4 sub-group: `work_item`, `work_group`, `device`, `cross_device`,
  `sub_group`), by default `work_group` (`sub_group` for `sub_group_barrier`), as
  the OpenCL C spec defines the forms without a scope. The flags, order and scope
  must be constants.
- **work-group functions** (OpenCL 2.0) and **sub-group functions**
  (`cl_khr_subgroups`, `cl_khr_subgroup_shuffle`): `work_group_all`/`any`,
  `work_group_broadcast(value, x[, y[, z]])`, `work_group_reduce_<op>`,
  `work_group_scan_inclusive_<op>`, `work_group_scan_exclusive_<op>` and the same
  `sub_group_` functions (`sub_group_broadcast(value, id)`), `sub_group_shuffle`,
  `sub_group_shuffle_xor`, each its `mux` op (work-group ones with id 0). `<op>` is
  `add`, `min`, `max` (and `mul`, `and`, `or`, `xor`, `logical_and`, `logical_or`,
  `logical_xor` of the extended-arithmetic extensions), made `fadd`/`smin`/`umin`/
  ... by the value's type; `all`, `any` and the logical operations take and return
  an `int`, non-zero for true.
- **async copies** (`dma.py`): `async_work_group_copy`,
  `async_work_group_strided_copy` and cl_khr_extended_async_copies'
  `async_work_group_copy_2D2D`/`_3D3D`, for every gentype, are the `mux` DMA
  reads (`__local` destination, `__global` source) and writes (the other way),
  1-D, 2-D or 3-D, sizes in bytes; `wait_group_events(n, list)` is `mux.dma_wait`
  on the `n` (a constant) events of `list`; `prefetch` is a hint and goes. An
  event is an `!llvm.ptr` at the LLVM level, cast to `!mux.dma_event` for the ops.

A call of a function the pass does not know stays a call (the maths library
defines those). Diagnostics, before anything changes: a known builtin whose
declaration does not have its types (the LLVM types of the mangled parameters, and
its result), a builtin the mangled types do not make (`work_group_reduce_and` on
a float, an async copy between two `__global` pointers), and a call whose flags,
order, scope or number of events is not a constant or not a value of its enum.

Before: nothing (the IR of the LLVM IR importer or hand-written MLIR); the host
pipeline runs it first of the mux passes. After: no call of a known OpenCL builtin
remains, nor its declaration when nothing else refers to it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import FileLineColLoc, IntegerType, ModuleOp, i32, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from dialects import mux
from lowering.common.builders import const, constant_int, from_index, to_index
from lowering.common.errors import PassError, in_function
from lowering.common.functions import callers_of, functions
from lowering.common.mangling import Demangled, MangledType, demangle
from lowering.lower_to_mux_builtins.builtin import Build, Builtin, BuiltinError
from lowering.lower_to_mux_builtins.dma import DMA_EVENT, dma_builtin

FENCE_FLAGS = {
    1: mux.MemSemantics.WORK_GROUP_MEMORY,  # CLK_LOCAL_MEM_FENCE
    2: mux.MemSemantics.CROSS_WORK_GROUP_MEMORY,  # CLK_GLOBAL_MEM_FENCE
    4: mux.MemSemantics.CROSS_WORK_GROUP_MEMORY,  # CLK_IMAGE_MEM_FENCE
}
"""OpenCL C's `cl_mem_fence_flags` bits, as the memory kinds of MemSemantics."""
MEMORY_ORDERS = {
    0: None,
    2: mux.MemSemantics.ACQUIRE,
    3: mux.MemSemantics.RELEASE,
    4: mux.MemSemantics.ACQ_REL,
    5: mux.MemSemantics.SEQ_CST,
}
"""OpenCL C's `memory_order` (clang's `__ATOMIC_*`) as MemSemantics orderings."""
MEMORY_SCOPES = {
    0: mux.MemScope.WORK_ITEM,
    1: mux.MemScope.WORK_GROUP,
    2: mux.MemScope.DEVICE,
    3: mux.MemScope.CROSS_DEVICE,
    4: mux.MemScope.SUB_GROUP,
}
"""OpenCL C's `memory_scope` (clang's `__OPENCL_MEMORY_SCOPE_*`) as MemScopes."""


def _constant(call: func.CallOp, index: int, what: str, values: dict) -> int:
    value = constant_int(call.arguments[index])
    if value is None:
        raise BuiltinError(f"the {what} argument must be a constant")
    if value not in values:
        raise BuiltinError(f"{value} is not a {what} ({', '.join(map(str, values))})")
    return value


def _void(make: Callable[[], Operation]) -> Build:
    """Inserts the op `make` makes; no result."""

    def build(b: Builder) -> None:
        b.insert(make())

    return build


def _memory(call: func.CallOp) -> set[mux.MemSemantics]:
    """The memory kinds of the `cl_mem_fence_flags` argument 0."""
    flags = constant_int(call.arguments[0])
    if flags is None:
        raise BuiltinError("the cl_mem_fence_flags argument must be a constant")
    if flags & ~7:
        raise BuiltinError(
            f"{flags} is not a cl_mem_fence_flags (a combination of "
            "CLK_LOCAL_MEM_FENCE 1, CLK_GLOBAL_MEM_FENCE 2, CLK_IMAGE_MEM_FENCE 4)"
        )
    return {kind for bit, kind in FENCE_FLAGS.items() if flags & bit}


def _scope(call: func.CallOp, index: int, default: mux.MemScope) -> mux.MemScope:
    if index >= len(call.arguments):
        return default
    return MEMORY_SCOPES[_constant(call, index, "memory_scope", MEMORY_SCOPES)]


def _semantics(
    memory: set[mux.MemSemantics], ordering: mux.MemSemantics | None
) -> set[mux.MemSemantics]:
    return memory | {ordering} if memory and ordering else set()


def _barrier(op: type[mux.WorkGroupBarrierOp | mux.SubGroupBarrierOp]) -> Callable:
    default = (
        mux.MemScope.SUB_GROUP
        if op is mux.SubGroupBarrierOp
        else mux.MemScope.WORK_GROUP
    )

    def plan(call: func.CallOp, d: Demangled) -> Build:
        semantics = _semantics(_memory(call), mux.MemSemantics.ACQ_REL)
        scope = _scope(call, 1, default)
        return _void(lambda: op(0, scope, semantics))

    return plan


def _fence(ordering: mux.MemSemantics) -> Callable:
    def plan(call: func.CallOp, d: Demangled) -> Build:
        semantics = _semantics(_memory(call), ordering)
        return _void(lambda: mux.MemBarrierOp(mux.MemScope.WORK_GROUP, semantics))

    return plan


def _work_item_fence(call: func.CallOp, d: Demangled) -> Build:
    memory = _memory(call)
    order = MEMORY_ORDERS[_constant(call, 1, "memory_order", MEMORY_ORDERS)]
    scope = _scope(call, 2, mux.MemScope.WORK_GROUP)
    return _void(lambda: mux.MemBarrierOp(scope, _semantics(memory, order)))


def _query(op: type[Operation]) -> Callable:
    """A query: ranked (its dimension is the call's argument) or not; an `index`
    result is cast to the call's `size_t`."""

    def plan(call: func.CallOp, d: Demangled) -> Build:
        def build(b: Builder) -> SSAValue:
            result = b.insert(op(*call.arguments)).results[0]
            return from_index(b, result, call.res[0].type)

        return build

    return plan


def _enqueued_num_sub_groups(call: func.CallOp, d: Demangled) -> Build:
    def build(b: Builder) -> SSAValue:
        size = const(b, 1)
        for dim in range(3):
            extent = b.insert(mux.GetEnqueuedLocalSizeOp(const(b, dim, i32))).result
            size = b.insert(arith.MuliOp(size, extent)).result
        items = from_index(b, size, i32)
        width = b.insert(mux.GetMaxSubGroupSizeOp()).result
        rounded = b.insert(arith.AddiOp(items, width)).result
        rounded = b.insert(arith.SubiOp(rounded, const(b, 1, i32))).result
        return b.insert(arith.DivUIOp(rounded, width)).result

    return build


WORK_ITEM_RANKED = {
    "get_global_id": mux.GetGlobalIdOp,
    "get_local_id": mux.GetLocalIdOp,
    "get_group_id": mux.GetGroupIdOp,
    "get_global_size": mux.GetGlobalSizeOp,
    "get_local_size": mux.GetLocalSizeOp,
    "get_enqueued_local_size": mux.GetEnqueuedLocalSizeOp,
    "get_num_groups": mux.GetNumGroupsOp,
    "get_global_offset": mux.GetGlobalOffsetOp,
}
WORK_ITEM_UINT = {
    "get_work_dim": mux.GetWorkDimOp,
    "get_sub_group_size": mux.GetSubGroupSizeOp,
    "get_max_sub_group_size": mux.GetMaxSubGroupSizeOp,
    "get_num_sub_groups": mux.GetNumSubGroupsOp,
    "get_sub_group_id": mux.GetSubGroupIdOp,
    "get_sub_group_local_id": mux.GetSubGroupLocalIdOp,
}
WORK_ITEM_SIZE_T = {
    "get_global_linear_id": mux.GetGlobalLinearIdOp,
    "get_local_linear_id": mux.GetLocalLinearIdOp,
}


def _builtins() -> dict[tuple[str, tuple[str, ...] | None], Builtin]:
    """The builtins by (name, mangled parameter codes; None: any)."""
    table: dict[tuple[str, tuple[str, ...] | None], Builtin] = {}
    for name, op in WORK_ITEM_RANKED.items():
        table[name, ("j",)] = Builtin(("j",), "size_t", _query(op))
    for name, op in WORK_ITEM_UINT.items():
        table[name, ()] = Builtin((), "uint", _query(op))
    for name, op in WORK_ITEM_SIZE_T.items():
        table[name, ()] = Builtin((), "size_t", _query(op))
    table["get_enqueued_num_sub_groups", ()] = Builtin(
        (), "uint", _enqueued_num_sub_groups
    )
    work_group, sub_group = (
        _barrier(mux.WorkGroupBarrierOp),
        _barrier(mux.SubGroupBarrierOp),
    )
    for params in (("j",), ("j", "N")):
        table["work_group_barrier", params] = Builtin(params, "void", work_group)
        table["sub_group_barrier", params] = Builtin(params, "void", sub_group)
    table["barrier", ("j",)] = Builtin(("j",), "void", work_group)
    for name, ordering in (
        ("mem_fence", mux.MemSemantics.ACQ_REL),
        ("read_mem_fence", mux.MemSemantics.ACQUIRE),
        ("write_mem_fence", mux.MemSemantics.RELEASE),
    ):
        table[name, ("j",)] = Builtin(("j",), "void", _fence(ordering))
    fence_params = ("j", "N", "N")
    table["atomic_work_item_fence", fence_params] = Builtin(
        fence_params, "void", _work_item_fence
    )
    return table


BUILTINS = _builtins()


def _named(d: Demangled) -> tuple[str, ...]:
    return tuple(p.code for p in d.params)


def find_builtin(d: Demangled) -> Builtin | None:
    """The builtin `d` is, if the pass lowers it."""
    return BUILTINS.get((d.name, _named(d))) or group_builtin(d) or dma_builtin(d)


def _result_fits(rule: str, d: Demangled, results: list[Attribute]) -> str | None:
    """The result the declaration should have, unless it has it."""
    if rule == "void":
        return None if not results else "no result"
    if rule == "size_t":
        return None if results in ([i32], [i64]) else "an i32 or i64 result (size_t)"
    expected = i32
    if rule in ("value", "event"):
        expected = d.params[0].llvm_type() if rule == "value" else DMA_EVENT
    return None if results == [expected] else f"the result {expected}"


def check_declaration(fn: func.FuncOp, d: Demangled, builtin: Builtin) -> None:
    """A diagnostic unless `fn` has the types `d` and `builtin` say."""
    name = f"lower-to-mux-builtins: @{fn.sym_name.data} is {d.signature()}"
    problem = builtin.check(d)
    if problem is not None:
        raise PassError(f"{name}: {problem}", fn)
    inputs = list(fn.function_type.inputs.data)
    outputs = list(fn.function_type.outputs.data)
    expected = [p.llvm_type() for p in d.params]
    if inputs != expected:
        problem = f"the parameters ({', '.join(map(str, expected))})"
    else:
        problem = _result_fits(builtin.result, d, outputs)
    if problem is not None:
        got = f"({', '.join(map(str, inputs))})"
        got += f" -> {', '.join(map(str, outputs))}" if outputs else ""
        raise PassError(f"{name}: its declaration must have {problem}, got {got}", fn)


def _plan(call: func.CallOp, d: Demangled, builtin: Builtin) -> Build:
    try:
        return builtin.plan(call, d)
    except BuiltinError as error:
        where = in_function(call)
        raise PassError(
            f"lower-to-mux-builtins: call of {d.signature()}{where}: {error}", call
        ) from None


def _replace(call: func.CallOp, build: Build) -> None:
    b = Builder(InsertPoint.before(call))
    before, block = call.prev_op, call.parent_block()
    result = build(b)
    assert block is not None
    _locate(before.next_op if before is not None else block.first_op, call)
    Rewriter.replace_op(call, [], [result] if result is not None else [])


def _locate(first: Operation | None, call: func.CallOp) -> None:
    """Gives the ops from `first` up to `call` (what replaces it) the call's
    location where they have none: checked mode's messages name the line of a
    barrier (`lowering.scheduling.divergence`)."""
    op = first
    while op is not None and op is not call:
        for inner in op.walk():
            if not isinstance(inner.location, FileLineColLoc):
                inner.location = call.location
        op = op.next_op


def bool_of(b: Builder, value: SSAValue) -> SSAValue:
    """An OpenCL `int` predicate as an `i1` (non-zero: true)."""
    zero = const(b, 0, value.type)
    return b.insert(arith.CmpiOp(value, zero, "ne")).result


def int_of(b: Builder, value: SSAValue, type_: IntegerType = i32) -> SSAValue:
    """An `i1` as an OpenCL `int` (1 for true)."""
    return b.insert(arith.ExtUIOp(value, type_)).result


# --------------------------------------------------------------------------------------
# Work-group and sub-group functions.
# --------------------------------------------------------------------------------------

GROUP_OPERATIONS = {
    "add": ("add", "fadd"),
    "mul": ("mul", "fmul"),
    "min": ("smin", "fmin"),
    "max": ("smax", "fmax"),
    "and": ("and", None),
    "or": ("or", None),
    "xor": ("xor", None),
    "logical_and": ("logical_and", None),
    "logical_or": ("logical_or", None),
    "logical_xor": ("logical_xor", None),
}
"""OpenCL's `<op>` of reduce and scan: the mux operation on integers, on floats."""
COLLECTIVES = {
    ("work_group", "reduce"): mux.WorkGroupReduceOp,
    ("work_group", "scan_inclusive"): mux.WorkGroupScanInclusiveOp,
    ("work_group", "scan_exclusive"): mux.WorkGroupScanExclusiveOp,
    ("sub_group", "reduce"): mux.SubGroupReduceOp,
    ("sub_group", "scan_inclusive"): mux.SubGroupScanInclusiveOp,
    ("sub_group", "scan_exclusive"): mux.SubGroupScanExclusiveOp,
}
ANY_ALL = {
    ("work_group", "all"): mux.WorkGroupAllOp,
    ("work_group", "any"): mux.WorkGroupAnyOp,
    ("sub_group", "all"): mux.SubGroupAllOp,
    ("sub_group", "any"): mux.SubGroupAnyOp,
}


def _operation(name: str, t: MangledType) -> mux.GroupOperation | None:
    """The mux operation of OpenCL's `<op>` `name` on values of type `t`."""
    integer, floating = GROUP_OPERATIONS[name]
    if t.is_float:
        return None if floating is None else mux.GroupOperation(floating)
    if name.startswith("logical_") and t.code != "i":
        return None  # the logical operations take an int predicate
    if t.is_unsigned and name in ("min", "max"):
        return mux.GroupOperation(f"u{name}")
    return mux.GroupOperation(integer)


def _scalar_problem(d: Demangled, count: int, index: str = "") -> str | None:
    """Unless `d` takes a scalar value and then `count` parameters of code `index`
    (for `m`, size_t: one to `count` of them, `m` or `j`)."""
    value, *rest = d.params or (None,)
    if value is None or not (value.is_integer or value.is_float):
        return "the group functions take a scalar value"
    codes = "".join(p.code for p in rest)
    if index == "m":
        fits = 1 <= len(codes) <= count and set(codes) <= {"m", "j"}
    else:
        fits = codes == index * count
    return None if fits else "not a parameter list of the function"


def _reduce_scan(group: str, kind: str, op_name: str) -> Builtin:
    op_class = COLLECTIVES[group, kind]
    logical = op_name.startswith("logical_")

    def check(d: Demangled) -> str | None:
        problem = _scalar_problem(d, 0)
        if problem is None and _operation(op_name, d.params[0]) is None:
            return f"{op_name} is not an operation on {d.params[0]}"
        return problem

    def plan(call: func.CallOp, d: Demangled) -> Build:
        operation = _operation(op_name, d.params[0])
        (value,) = call.arguments

        def build(b: Builder) -> SSAValue:
            operand = bool_of(b, value) if logical else value
            args = (
                (operation, 0, operand)
                if group == "work_group"
                else (operation, operand)
            )
            result = b.insert(op_class(*args)).results[0]
            if not logical:
                return result
            assert isinstance(value.type, IntegerType)  # bool_of took an integer
            return int_of(b, result, value.type)

        return build

    return Builtin(None, "value", plan, check)


def _any_all(group: str, kind: str) -> Builtin:
    op_class = ANY_ALL[group, kind]

    def plan(call: func.CallOp, d: Demangled) -> Build:
        def build(b: Builder) -> SSAValue:
            operand = bool_of(b, call.arguments[0])
            args = (0, operand) if group == "work_group" else (operand,)
            return int_of(b, b.insert(op_class(*args)).results[0])

        return build

    return Builtin(("i",), "int", plan)


def _work_group_broadcast(call: func.CallOp, d: Demangled) -> Build:
    value, *indices = call.arguments

    def build(b: Builder) -> SSAValue:
        local_id = [to_index(b, i) for i in indices]
        local_id += [const(b, 0)] * (3 - len(local_id))
        return b.insert(mux.WorkGroupBroadcastOp(0, value, local_id)).result

    return build


def _sub_group_pair(op_class: type[Operation]) -> Builtin:
    """`sub_group_broadcast`, `sub_group_shuffle`, `sub_group_shuffle_xor`: a value
    and a `uint`."""

    def plan(call: func.CallOp, d: Demangled) -> Build:
        return lambda b: b.insert(op_class(*call.arguments)).results[0]

    return Builtin(None, "value", plan, lambda d: _scalar_problem(d, 1, "j"))


SUB_GROUP_PAIRS = {
    "sub_group_broadcast": _sub_group_pair(mux.SubGroupBroadcastOp),
    "sub_group_shuffle": _sub_group_pair(mux.SubGroupShuffleOp),
    "sub_group_shuffle_xor": _sub_group_pair(mux.SubGroupShuffleXorOp),
}


def group_builtin(d: Demangled) -> Builtin | None:
    """The work-group or sub-group function `d` is, if it is one."""
    if d.name in SUB_GROUP_PAIRS:
        return SUB_GROUP_PAIRS[d.name]
    if d.name == "work_group_broadcast":
        return Builtin(
            None, "value", _work_group_broadcast, lambda d: _scalar_problem(d, 3, "m")
        )
    group, _, rest = d.name.partition("_group_")
    group += "_group"
    if (group, rest) in ANY_ALL:
        return _any_all(group, rest)
    for (g, kind), _ in COLLECTIVES.items():
        op_name = rest.removeprefix(f"{kind}_")
        if g == group and rest.startswith(f"{kind}_") and op_name in GROUP_OPERATIONS:
            return _reduce_scan(group, kind, op_name)
    return None


@dataclass(frozen=True)
class LowerToMuxBuiltinsPass(ModulePass):
    """Replaces calls of OpenCL builtins by `mux` ops (see the module docstring)."""

    name = "lower-to-mux-builtins"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        known: dict[str, tuple[func.FuncOp, Demangled, Builtin]] = {}
        for name, fn in functions(op).items():
            d = demangle(name) if fn.is_declaration else None
            builtin = find_builtin(d) if d is not None else None
            if d is not None and builtin is not None:
                check_declaration(fn, d, builtin)
                known[name] = (fn, d, builtin)
        if not known:
            return
        callers = callers_of(op)
        calls = [
            (call, d, builtin)
            for name, (_, d, builtin) in known.items()
            for call in callers.get(name, [])
        ]
        for call, d, builtin in calls:  # every call checked before anything changes
            _plan(call, d, builtin)
        for call, d, builtin in calls:
            # planned again: a plan holds the call's arguments, and replacing an
            # earlier call (a get_local_size feeding a copy) replaced some of them
            _replace(call, _plan(call, d, builtin))
        still_called = callers_of(op)
        for name, (fn, _, _) in known.items():
            if name not in still_called:
                Rewriter.erase_op(fn)
