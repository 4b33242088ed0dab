"""What replaces a call of an OpenCL atomic function: the `atomic` ops (and, for
compare_exchange, the load and the conditional store of `expected`), built before
the call, whose result they replace."""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import arith, func, llvm, memref, scf
from xdsl.dialects.builtin import (
    AnyFloat,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    i1,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from dialects import atomic
from dialects.llvmx import AtomicOrdering
from lowering.common.builders import const
from lowering.replace_atomic_funcs.names import AtomicFunction


def _zeros(b: Builder, pointer: SSAValue) -> list[SSAValue]:
    """The indices of the first element of a memref (none for a pointer)."""
    if not isinstance(pointer.type, MemRefType):
        return []
    zero = b.insert(arith.ConstantOp(IntegerAttr(0, IndexType()))).result
    return [zero] * pointer.type.get_num_dims()


def _plain_load(b: Builder, pointer: SSAValue, type_: Attribute) -> SSAValue:
    """A non-atomic load of the first element of a memref, or through a pointer."""
    if isinstance(pointer.type, MemRefType):
        return b.insert(memref.LoadOp.get(pointer, _zeros(b, pointer))).res
    return b.insert(llvm.LoadOp(pointer, type_)).dereferenced_value


def _plain_store(b: Builder, value: SSAValue, pointer: SSAValue) -> None:
    if isinstance(pointer.type, MemRefType):
        b.insert(memref.StoreOp.get(value, pointer, _zeros(b, pointer)))
    else:
        b.insert(llvm.StoreOp(value, pointer))


def _as_integer(b: Builder, value: SSAValue) -> SSAValue:
    """A float's bits (LLVM's cmpxchg compares integers, as C11 compares the
    objects' representations); an integer as it is."""
    if not isinstance(value.type, AnyFloat):
        return value
    bits = IntegerType(value.type.bitwidth)
    return b.insert(arith.BitcastOp(value, bits)).result


def _compare_exchange(
    b: Builder,
    call: func.CallOp,
    function: AtomicFunction,
    orderings: tuple[AtomicOrdering, ...],
) -> SSAValue:
    """`bool atomic_compare_exchange_*(object, expected, desired, ...)`: a cmpxchg
    of `*expected` and `desired`; when it fails, what it found goes to `*expected`.
    Returns whether it succeeded."""
    target, expected, desired = call.arguments[:3]
    value_type = function.type_
    cmp = _as_integer(b, _plain_load(b, expected, value_type))
    new = _as_integer(b, desired)
    weak = function.operation.endswith("weak")
    success, failure = orderings
    op = b.insert(
        atomic.CmpXchgOp(
            success, failure, target, _zeros(b, target), cmp, new, weak=weak
        )
    )
    failed = b.insert(arith.XOrIOp(op.success, const(b, -1, i1))).result
    store = Block()
    inner = Builder(InsertPoint.at_end(store))
    found = op.old
    if found.type != value_type:
        found = inner.insert(arith.BitcastOp(found, value_type)).result
    _plain_store(inner, found, expected)
    inner.insert(scf.YieldOp())
    b.insert(scf.IfOp(failed, [], Region(store)))
    return op.success


def _flag_test_and_set(
    b: Builder, target: SSAValue, type_: Attribute, ordering: AtomicOrdering
) -> SSAValue:
    """`bool atomic_flag_test_and_set(object)`: 1 swapped in; whether the flag was
    set (not 0) before."""
    indices = _zeros(b, target)
    one = const(b, 1, type_)
    old = b.insert(atomic.RMWOp("xchg", ordering, target, indices, one)).result
    return b.insert(arith.CmpiOp(old, const(b, 0, type_), "ne")).result


def _single(
    b: Builder,
    call: func.CallOp,
    function: AtomicFunction,
    ordering: AtomicOrdering,
) -> SSAValue | None:
    """The functions that are one atomic op; the op's result, if it has one."""
    pointer, *values = call.arguments[: 1 + function.value_count]
    operation = function.operation
    if operation == "flag_test_and_set":
        return _flag_test_and_set(b, pointer, function.type_, ordering)
    indices = _zeros(b, pointer)
    op: Operation
    if operation == "cmpxchg":
        cmp, new = values
        op = atomic.CmpXchgOp(ordering, ordering, pointer, indices, cmp, new)
    elif operation == "load":
        op = atomic.LoadOp(ordering, pointer, indices, function.type_)
    elif operation in ("store", "init"):
        op = atomic.StoreOp(ordering, values[0], pointer, indices)
    elif operation == "flag_clear":
        zero = const(b, 0, function.type_)
        op = atomic.StoreOp(ordering, zero, pointer, indices)
    else:
        if operation in ("inc", "dec"):
            values = [const(b, 1, function.type_)]
        op = atomic.RMWOp(function.bin_op, ordering, pointer, indices, values[0])
    b.insert(op)
    return op.results[0] if op.results else None


def replace_call(
    call: func.CallOp,
    function: AtomicFunction,
    orderings: tuple[AtomicOrdering, ...],
) -> None:
    """Replaces `call` of `function` by its atomic ops, with `orderings` (one, or
    compare_exchange's success and failure orderings)."""
    b = Builder(InsertPoint.before(call))
    if function.is_compare_exchange:
        result: SSAValue | None = _compare_exchange(b, call, function, orderings)
    else:
        result = _single(b, call, function, orderings[0])
    Rewriter.replace_op(call, [], [result] if result is not None else [])
