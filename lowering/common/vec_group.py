"""Definitions of the vec-group collectives: operations across the lanes of one
invocation's vector.

mux-compiler-spec.rst, "Group operation builtins": a vec-group is "a software level
group of invocations processing data in parallel *on a single invocation*. ...
These builtins **may** take scalar *or vector* values. The scalar versions of these
builtins are essentially identical to the corresponding `sub-group` builtins with a
sub-group size of 1." So each op is arithmetic on the lanes of its operand, defined
where it stands by `define-mux-builtins` (`DefineVecGroup`), with the operations and
identities of `lowering/common/group_ops.py`, lane `i` being `vector.extract %v[i]`:

- `vec_group_reduce ⊕ %v` (`vector<N x T> -> T`): the left fold
  `((v0 ⊕ v1) ⊕ v2) ⊕ ...` of the lanes; `vec_group_any`/`_all` are the reduce with
  `logical_or`/`logical_and` on `i1` lanes.
- `vec_group_scan_inclusive ⊕ %v` (`-> vector<N x T>`): lane `i` is the fold of
  lanes `0..i`, built lane by lane with `vector.insert` into the identity splat;
  `vec_group_scan_exclusive`: lane `i` is the fold of the identity and lanes
  `0..i-1` (lane 0 is the identity).
- `vec_group_broadcast %v, %lane` (`-> T`): `vector.extract %v[%lane]` with a
  runtime position (`llvmx.extractelement` in the `llvm` dialect); a lane out of
  range gives an undefined value, as LLVM's `extractelement` does.

A scalar operand is a group of one: reduce, inclusive scan, any, all and broadcast
return it, the exclusive scan returns the identity.
"""

from __future__ import annotations

from xdsl.builder import Builder
from xdsl.dialects import arith, vector
from xdsl.dialects.builtin import IndexType, VectorType
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from dialects import mux
from dialects.mux import GroupOperation
from lowering.common.group_ops import combine, identity

_ANY_ALL: dict[type[Operation], GroupOperation] = {
    mux.VecGroupAnyOp: GroupOperation.LOGICAL_OR,
    mux.VecGroupAllOp: GroupOperation.LOGICAL_AND,
}

_REDUCE_SCAN = (
    mux.VecGroupReduceOp,
    mux.VecGroupScanInclusiveOp,
    mux.VecGroupScanExclusiveOp,
)

VEC_GROUP_OPS: tuple[type[Operation], ...] = (
    *_ANY_ALL,
    mux.VecGroupBroadcastOp,
    *_REDUCE_SCAN,
)
"""The ops `define_vec_group` defines."""


def _lane(b: Builder, value: SSAValue, index: int) -> SSAValue:
    """Lane `index` of the vector `value`."""
    assert isinstance(value.type, VectorType)
    extract = vector.ExtractOp(value, [index], value.type.element_type)
    return b.insert(extract).result


def _lanes(b: Builder, value: SSAValue) -> list[SSAValue]:
    """The lanes of `value`, or `value` itself if it is a scalar."""
    if not isinstance(value.type, VectorType):
        return [value]
    return [_lane(b, value, index) for index in range(value.type.get_shape()[0])]


def reduce_lanes(b: Builder, kind: GroupOperation, value: SSAValue) -> SSAValue:
    """The left fold of the lanes of `value` with `kind`."""
    lanes = _lanes(b, value)
    result = lanes[0]
    for lane in lanes[1:]:
        result = combine(b, kind, result, lane)
    return result


def scan_lanes(
    b: Builder, kind: GroupOperation, value: SSAValue, inclusive: bool
) -> SSAValue:
    """The inclusive or exclusive scan of the lanes of `value` with `kind`, of
    `value`'s type."""
    if not isinstance(value.type, VectorType):
        return value if inclusive else identity(b, kind, value.type)
    result = identity(b, kind, value.type)
    lanes = value.type.get_shape()[0]
    shift = 0 if inclusive else 1  # lane i of the source goes to lane i + shift
    running: SSAValue | None = None
    for index in range(lanes - shift):
        lane = _lane(b, value, index)
        running = lane if running is None else combine(b, kind, running, lane)
        result = b.insert(vector.InsertOp(running, result, [index + shift])).result
    return result


def broadcast_lane(b: Builder, value: SSAValue, lane: SSAValue) -> SSAValue:
    """Lane `lane` (an i32) of `value`; a scalar `value` itself."""
    type_ = value.type
    if not isinstance(type_, VectorType):
        return value
    position = b.insert(arith.IndexCastOp(lane, IndexType())).result
    extract = vector.ExtractOp(value, [position], type_.element_type)
    return b.insert(extract).result


def define_vec_group(b: Builder, op: Operation) -> SSAValue:
    """The definition of the vec-group op `op` (one of `VEC_GROUP_OPS`), built at
    `b`: its result."""
    if isinstance(op, mux.VecGroupBroadcastOp):
        return broadcast_lane(b, op.value, op.lane)
    if isinstance(op, mux.VecGroupAnyOp | mux.VecGroupAllOp):
        return reduce_lanes(b, _ANY_ALL[type(op)], op.value)
    assert isinstance(op, _REDUCE_SCAN), op
    kind = op.op.data
    if isinstance(op, mux.VecGroupReduceOp):
        return reduce_lanes(b, kind, op.value)
    inclusive = isinstance(op, mux.VecGroupScanInclusiveOp)
    return scan_lanes(b, kind, op.value, inclusive)


class DefineVecGroup(RewritePattern):
    """Replaces a vec-group collective by arithmetic on its lanes."""

    source = VEC_GROUP_OPS
    """The ops it defines (`lowering.common.dispatch`)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter, /) -> None:
        if not isinstance(op, VEC_GROUP_OPS):
            return
        result = define_vec_group(Builder(InsertPoint.before(op)), op)
        if op.results[0].name_hint and not result.name_hint:
            result.name_hint = op.results[0].name_hint
        rewriter.replace(op, [], [result])
