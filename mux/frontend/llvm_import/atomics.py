"""The atomic and volatile memory instructions: `atomicrmw`, `cmpxchg`, `fence`,
`load atomic`, `store atomic`, and the volatile `load` xDSL's `llvm.load` cannot say.

The atomics become the `atomic` dialect's ops on an `!llvm.ptr` (what
`replace-atomic-funcs` makes of OpenCL's atomic functions, and what
`convert-to-llvm` makes `llvmx` instructions of), so every pass sees one form of
them, and none takes an atomic access for a plain load or store (the bound
functions of `work-item-loops` take a load from a uniform address to be uniform,
which only a race-free access is):

    %old = atomicrmw add ptr addrspace(1) %p, i32 1 seq_cst, align 4
        -> %old = atomic.rmw add seq_cst %p, %one : !llvm.ptr<1>, i32
    %r = cmpxchg weak ptr %p, i32 %c, i32 %n acq_rel monotonic, align 4
        -> %old, %ok = atomic.cmpxchg weak acq_rel monotonic %p, %c, %n
           and the `{i32, i1}` of the two (`llvm.insertvalue`s)
    fence acquire                             -> atomic.fence acquire
    %v = load atomic i32, ptr %p acquire, align 4 -> atomic.load acquire %p
    store atomic i32 %v, ptr %p release, align 4  -> atomic.store release %v, %p

What is dropped, with the reason:
- a `syncscope("...")`: the mux spec's atomics "shall not have" one, and none is
  the widest scope, never wrong;
- `volatile` on an atomic: the host never removes or merges an atomic access;
- the alignment of an atomic: `convert-to-llvm` gives each its natural one.

A volatile load that is not atomic is `llvmx.load volatile`, with its alignment (a
volatile store is xDSL's `llvm.store` with its flag, `instructions.py`).

Refused, with the reason: `atomicrmw` operations the `atomic` dialect has not
(`nand`, `uinc_wrap`, ...), and atomics on pointers or vectors.
"""

from __future__ import annotations

import re

from llvmlite import binding
from xdsl.dialects import llvm
from xdsl.dialects.builtin import AnyFloat, DenseArrayBase, IntegerType, i64
from xdsl.ir import Attribute, SSAValue

from dialects import atomic, llvmx
from dialects.llvmx import AtomicBinOp, AtomicOrdering
from mux.frontend.llvm_import import facts
from mux.frontend.llvm_import.text import parse_type
from mux.frontend.llvm_import.values import FunctionValues, Refusal

_SYNCSCOPE = re.compile(r'\s*syncscope\("[^"]*"\)')
_ORDERING = re.compile(
    r"(?<![%@\w.$\"-])(unordered|monotonic|acquire|release|acq_rel|seq_cst)\b"
)


def _orderings(text: str) -> list[AtomicOrdering]:
    """The orderings of the instruction, in order (cmpxchg has two)."""
    body = _SYNCSCOPE.sub("", facts.body(text))
    body = re.sub(r",\s*align\s+\d+\s*$", "", body)
    return [AtomicOrdering(word) for word in _ORDERING.findall(body)]


def _result_type(values: FunctionValues, instruction: binding.ValueRef) -> Attribute:
    return parse_type(str(instruction.type), values.structs)


def _operands(values: FunctionValues, instruction: binding.ValueRef) -> list[SSAValue]:
    return [values.operand(o) for o in instruction.operands]


def _check_value(type_: Attribute, what: str) -> None:
    """The `atomic` dialect's values: integers and floats (of 8 to 64 bits)."""
    if not isinstance(type_, IntegerType | AnyFloat):
        raise Refusal(f"{what} on {type_} (atomics are on integers and floats)")
    if atomic.bit_width(type_) not in (8, 16, 32, 64):
        raise Refusal(f"{what} on {type_} (atomics are on 8 to 64 bits)")


def load(values: FunctionValues, instruction: binding.ValueRef) -> None:
    """An atomic load (`atomic.load`) or a volatile one (`llvmx.load volatile`)."""
    text = str(instruction)
    (pointer,) = _operands(values, instruction)
    type_ = _result_type(values, instruction)
    if facts.is_atomic(text):
        _check_value(type_, "load atomic")
        (ordering,) = _orderings(text)
        values.result(instruction, atomic.LoadOp(ordering, pointer, [], type_))
    else:
        op = llvmx.VolatileLoadOp(pointer, type_, facts.alignment(text))
        values.result(instruction, op)


def store(values: FunctionValues, instruction: binding.ValueRef) -> None:
    """An atomic store (`atomic.store`)."""
    text = str(instruction)
    value, pointer = _operands(values, instruction)
    _check_value(value.type, "store atomic")
    (ordering,) = _orderings(text)
    values.emit(atomic.StoreOp(ordering, value, pointer, []))


def _atomicrmw(values: FunctionValues, instruction: binding.ValueRef) -> None:
    text = str(instruction)
    words = [w for w in facts.body(text).split()[1:] if w != "volatile"]
    try:
        kind = AtomicBinOp(words[0])
    except ValueError:
        raise Refusal(
            f"atomicrmw {words[0]} (not an operation of atomic.rmw)"
        ) from None
    pointer, value = _operands(values, instruction)
    _check_value(value.type, f"atomicrmw {kind.value}")
    (ordering,) = _orderings(text)
    values.result(instruction, atomic.RMWOp(kind, ordering, pointer, [], value))


def _cmpxchg(values: FunctionValues, instruction: binding.ValueRef) -> None:
    text = str(instruction)
    pointer, cmp, new = _operands(values, instruction)
    if not isinstance(cmp.type, IntegerType):
        raise Refusal(f"cmpxchg on {cmp.type} (atomic.cmpxchg compares integers)")
    _check_value(cmp.type, "cmpxchg")
    success, failure = _orderings(text)
    weak = facts.body(text).split()[1:2] == ["weak"]
    op = values.emit(atomic.CmpXchgOp(success, failure, pointer, [], cmp, new, weak))
    # LLVM's result is the pair {old value, success}.
    pair: SSAValue = values.emit(
        llvm.UndefOp(_result_type(values, instruction))
    ).results[0]
    for position, field in enumerate(op.results):
        at = DenseArrayBase.from_list(i64, [position])
        pair = values.emit(llvm.InsertValueOp(at, pair, field)).results[0]
    values.values[instruction] = pair


def _fence(values: FunctionValues, instruction: binding.ValueRef) -> None:
    (ordering,) = _orderings(str(instruction))
    values.emit(atomic.FenceOp(ordering))


TRANSLATORS = {"atomicrmw": _atomicrmw, "cmpxchg": _cmpxchg, "fence": _fence}
"""The instructions of this module that have an opcode of their own."""
