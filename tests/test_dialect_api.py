"""The dialect as a library: builders, the spec's numeric codes, attribute utilities and
the scheduling-parameter structs, used from Python as another compiler would."""

import ctypes
import re

import pytest
from xdsl.builder import ImplicitBuilder
from xdsl.dialects import arith, func
from xdsl.dialects.builtin import (
    ArrayAttr,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    StringAttr,
    UnitAttr,
    VectorType,
    f32,
    i1,
    i32,
)
from xdsl.dialects.llvm import LLVMArrayType, LLVMPointerType
from xdsl.ir import Operation
from xdsl.utils.exceptions import VerifyException

from dialects import attributes as A
from dialects import mux
from dialects.scheduling import WORK_GROUP_INFO, WORK_ITEM_INFO, FieldKind


def _verified(ops: list[Operation], arg_types) -> func.FuncOp:
    """A function holding `ops`, which must verify."""
    fn = func.FuncOp("f", (arg_types, []))
    fn.body.block.add_ops([*ops, func.ReturnOp()])
    ModuleOp([fn]).verify()
    return fn


def test_every_op_has_a_builder_that_verifies():
    index = IndexType()
    local = MemRefType(f32, [64], memory_space=IntegerAttr(3, 64))
    glob = MemRefType(f32, [64], memory_space=IntegerAttr(1, 64))
    fn = func.FuncOp(
        "f", ([i32, f32, i1, VectorType(i32, [4]), index, local, glob], [])
    )
    dim, x, p, v, n, loc, gl = fn.body.block.args
    with ImplicitBuilder(fn.body.block):
        for query in mux.QUERY_OPS:
            if issubclass(query, mux._RankedQueryOp):
                query(dim)
            else:
                query()
        mux.MemBarrierOp(mux.MemScope.DEVICE, 0x108)
        mux.WorkGroupBarrierOp(0, 2, 0x108, mux.BarrierSchedule.LINEAR)
        mux.SubGroupBarrierOp(1, mux.MemScope.SUB_GROUP, [mux.MemSemantics.ACQUIRE])
        mux.SubGroupAnyOp(p)
        mux.WorkGroupAllOp(2, p)
        mux.VecGroupAnyOp(p)
        mux.SubGroupBroadcastOp(x, dim)
        mux.WorkGroupBroadcastOp(3, x, [n, n, n])
        vb = mux.VecGroupBroadcastOp(v, dim)
        mux.SubGroupReduceOp(mux.GroupOperation.FADD, x)
        mux.WorkGroupScanExclusiveOp(mux.GroupOperation.SMAX, 4, dim)
        vr = mux.VecGroupReduceOp(mux.GroupOperation.ADD, v)
        vs = mux.VecGroupScanInclusiveOp(mux.GroupOperation.MUL, v)
        mux.SubGroupShuffleOp(x, dim)
        mux.SubGroupShuffleUpOp(x, x, dim)
        mux.SubGroupShuffleDownOp(x, x, dim)
        mux.SubGroupShuffleXorOp(x, dim)
        e1 = mux.DmaRead1DOp(loc, gl, n)
        e2 = mux.DmaWrite2DOp(gl, loc, n, n, n, n, e1)
        e3 = mux.DmaRead3DOp(loc, gl, n, n, n, n, n, n, n)
        mux.DmaWaitOp([e1, e2, e3])
        func.ReturnOp()
    ModuleOp([fn]).verify()
    assert vb.result.type == i32
    assert vr.result.type == i32
    assert vs.result.type == VectorType(i32, [4])


def test_builders_reject_what_the_verifier_rejects():
    fn = func.FuncOp("f", ([i32], []))
    (x,) = fn.body.block.args
    fn.body.block.add_ops([mux.SubGroupReduceOp(mux.GroupOperation.FADD, x)])
    fn.body.block.add_op(func.ReturnOp())
    with pytest.raises(VerifyException, match=re.escape(mux.RULE_OP_FITS_TYPE[:30])):
        ModuleOp([fn]).verify()


@pytest.mark.parametrize(
    ("scope", "code"),
    [
        ("cross_device", 0),
        ("device", 1),
        ("work_group", 2),
        ("sub_group", 3),
        ("work_item", 4),
    ],
)
def test_mem_scope_codes_are_the_spec_values(scope, code):
    attr = mux.MemScopeAttr(mux.MemScope(scope))
    assert attr.code == code
    assert mux.MemScopeAttr.from_code(code) == attr


def test_mem_scope_rejects_unknown_codes():
    with pytest.raises(VerifyException, match="5 is not a MemScope"):
        mux.MemScopeAttr.from_code(5)


@pytest.mark.parametrize(
    ("flags", "code"),
    [
        ([], 0x0),
        (["acquire"], 0x2),
        (["release"], 0x4),
        (["acq_rel"], 0x8),
        (["seq_cst"], 0x10),
        (["acq_rel", "sub_group_memory"], 0x88),
        (["acq_rel", "work_group_memory"], 0x108),
        (["seq_cst", "cross_work_group_memory", "work_group_memory"], 0x310),
    ],
)
def test_mem_semantics_codes_are_the_spec_values(flags, code):
    attr = mux.MemSemanticsAttr([mux.MemSemantics(f) for f in flags])
    assert attr.code == code
    assert mux.MemSemanticsAttr.from_code(code) == attr


def test_mem_semantics_split_into_ordering_and_memory():
    attr = mux.MemSemanticsAttr.from_code(0x304)
    assert attr.ordering is mux.MemSemantics.RELEASE
    assert attr.memory == {
        mux.MemSemantics.WORK_GROUP_MEMORY,
        mux.MemSemantics.CROSS_WORK_GROUP_MEMORY,
    }
    assert mux.MemSemanticsAttr.from_code(0x100).ordering is None


@pytest.mark.parametrize("code", [0x6, 0x18, 0x1E])
def test_mem_semantics_rejects_two_orderings(code):
    with pytest.raises(VerifyException, match=re.escape(mux.RULE_ONE_ORDERING)):
        mux.MemSemanticsAttr.from_code(code)


@pytest.mark.parametrize("code", [0x1, 0x20, 0x40, 0x400])
def test_mem_semantics_rejects_unknown_bits(code):
    with pytest.raises(VerifyException, match="not MemSemantics"):
        mux.MemSemanticsAttr.from_code(code)


def test_address_space_of_memrefs_and_pointers():
    assert mux.address_space_of(MemRefType(f32, [4])) == 0
    local = MemRefType(f32, [4], memory_space=IntegerAttr(3, 64))
    assert mux.address_space_of(local) == 3
    assert mux.address_space_of(LLVMPointerType(IntAttr(1))) == 1
    assert mux.address_space_of(LLVMPointerType()) == 0
    assert mux.address_space_of(f32) is None


def test_work_item_order_dimensions_innermost_first():
    assert mux.WorkItemOrder.XYZ.dimensions == (0, 1, 2)
    assert mux.WorkItemOrder.ZYX.dimensions == (2, 1, 0)
    assert mux.WorkItemOrder.YZX.dimensions == (1, 2, 0)


# --------------------------------------------------------------------------------------
# Attribute utilities.
# --------------------------------------------------------------------------------------


def _fn(name: str = "k") -> func.FuncOp:
    fn = func.FuncOp(name, ([], []))
    fn.body.block.add_op(func.ReturnOp())
    return fn


def test_kernel_attribute_utilities():
    fn, other = _fn(), _fn("other")
    assert not A.is_kernel(fn)
    A.set_is_kernel(fn)
    assert A.is_kernel(fn) and not A.is_kernel_entry_point(fn)
    A.set_is_kernel_entry_point(fn)
    assert A.is_kernel_entry_point(fn)
    assert fn.attributes[A.KERNEL] == StringAttr("entry-point")
    A.set_is_kernel(fn)  # keeps the entry point
    assert A.is_kernel_entry_point(fn)
    A.take_is_kernel(other, fn)
    assert A.is_kernel_entry_point(other) and not A.is_kernel(fn)
    A.take_is_kernel(other, fn)  # nothing to take: other keeps its own
    assert A.is_kernel_entry_point(other)
    A.drop_is_kernel(other)
    assert not A.is_kernel(other)
    A.drop_is_kernel(other)  # dropping what is absent is fine


@pytest.mark.parametrize(
    ("accessor", "value"),
    [
        (A.REQD_WORK_GROUP_SIZE, (8, 4, 1)),
        (A.MAX_WORK_DIM, 2),
        (A.WORK_ITEM_ORDER, mux.WorkItemOrder.ZYX),
        (A.LOCAL_MEM_USAGE, 4096),
        (A.LOCAL_MEM_USAGE, 0),
        (A.NO_SUBGROUPS, True),
        (A.DEGENERATE_SUBGROUPS, True),
        (A.REQD_SUB_GROUP_SIZE, 8),
        (A.ORIG_FN, "vadd"),
        (A.BASE_FN_NAME, "vadd"),
        (A.SCHEDULED_FN, (2, -1)),
        (A.SCHEDULED_FN, (2, 3, 4, 5)),
    ],
)
def test_function_attribute_set_get_take_drop(accessor, value):
    fn, other = _fn(), _fn("other")
    assert accessor.get(fn) is None
    accessor.set(fn, value)
    assert accessor.get(fn) == value
    A.verify_mux_attributes(ModuleOp([fn]))
    accessor.take(other, fn)
    assert accessor.get(other) == value and accessor.get(fn) is None
    accessor.drop(other)
    assert accessor.get(other) is None


@pytest.mark.parametrize(
    ("accessor", "value"),
    [
        (A.REQD_WORK_GROUP_SIZE, (8, 0, 1)),
        (A.REQD_WORK_GROUP_SIZE, (8, 4)),
        (A.MAX_WORK_DIM, 0),
        (A.MAX_WORK_DIM, 4),
        (A.LOCAL_MEM_USAGE, -1),
        (A.REQD_SUB_GROUP_SIZE, 0),
        (A.SCHEDULED_FN, (1,)),
        (A.SCHEDULED_FN, (0, -2)),
    ],
)
def test_function_attribute_set_rejects_malformed_values(accessor, value):
    fn = _fn()
    with pytest.raises(VerifyException, match=re.escape(accessor.name)):
        accessor.set(fn, value)
    assert accessor.name not in fn.attributes


def test_defaults_the_spec_gives():
    fn = _fn()
    assert A.work_item_order(fn) is mux.WorkItemOrder.XYZ
    assert A.max_work_dim(fn) == 3
    A.WORK_ITEM_ORDER.set(fn, mux.WorkItemOrder.YXZ)
    A.MAX_WORK_DIM.set(fn, 1)
    assert A.work_item_order(fn) is mux.WorkItemOrder.YXZ
    assert A.max_work_dim(fn) == 1


def test_barrier_schedule_defaults_to_unordered():
    assert A.barrier_schedule(mux.WorkGroupBarrierOp(0, 2, 0)) is (
        mux.BarrierSchedule.UNORDERED
    )
    once = mux.WorkGroupBarrierOp(0, 2, 0, mux.BarrierSchedule.ONCE)
    assert A.barrier_schedule(once) is mux.BarrierSchedule.ONCE


def test_module_attribute_scheduling_params():
    module = ModuleOp([_fn()])
    A.SCHEDULING_PARAMS.set(module, ("MuxWorkItemInfo", "MuxWorkGroupInfo"))
    assert A.SCHEDULING_PARAMS.get(module) == ("MuxWorkItemInfo", "MuxWorkGroupInfo")
    A.verify_mux_attributes(module)


def test_verify_rejects_misplaced_and_unknown_attributes():
    fn = _fn()
    module = ModuleOp([fn])
    fn.attributes["mux.scheduling_params"] = ArrayAttr([])
    with pytest.raises(VerifyException, match=re.escape("belongs on builtin.module")):
        A.verify_mux_attributes(module)
    del fn.attributes["mux.scheduling_params"]
    module.attributes["mux.no_subgroups"] = UnitAttr()
    with pytest.raises(VerifyException, match="belongs on a function"):
        A.verify_mux_attributes(module)
    del module.attributes["mux.no_subgroups"]
    fn.attributes["mux.typo"] = UnitAttr()
    with pytest.raises(
        VerifyException, match=re.escape("unknown mux attribute 'mux.typo'")
    ):
        A.verify_mux_attributes(module)
    del fn.attributes["mux.typo"]
    c = arith.ConstantOp.from_int_and_width(1, 32)
    c.attributes["mux.orig_fn"] = StringAttr("x")
    fn.body.block.insert_op_before(c, fn.body.block.first_op)
    with pytest.raises(
        VerifyException, match=re.escape("belongs on a function, not on arith")
    ):
        A.verify_mux_attributes(module)


# --------------------------------------------------------------------------------------
# Scheduling parameters.
# --------------------------------------------------------------------------------------


def test_work_item_info_fields_by_name():
    names = [f.name for f in WORK_ITEM_INFO.fields]
    assert names == [
        "local_id",
        "sub_group_id",
        "kernel_width",
        "num_sub_groups",
        "max_sub_group_size",
    ]
    assert WORK_ITEM_INFO.field_index("num_sub_groups") == 3
    struct = WORK_ITEM_INFO.llvm_type()
    assert struct.struct_name.data == "MuxWorkItemInfo"
    assert struct.types.data[0] == LLVMArrayType(3, IntegerType(64))
    assert list(struct.types.data[1:]) == [i32] * 4


def test_work_group_info_fields_and_size_t_width():
    assert WORK_GROUP_INFO.field_index("local_size") == 3
    assert WORK_GROUP_INFO.field_index("work_dim") == 4
    struct = WORK_GROUP_INFO.llvm_type(size_t_bits=32)
    assert struct.types.data[0] == LLVMArrayType(3, IntegerType(32))
    assert struct.types.data[4] == i32
    with pytest.raises(KeyError, match="no field 'local_id'"):
        WORK_GROUP_INFO.field_index("local_id")
    with pytest.raises(ValueError, match="32 or 64"):
        WORK_GROUP_INFO.llvm_type(16)


# --------------------------------------------------------------------------------------
# The atomic dialect from Python.
# --------------------------------------------------------------------------------------


def test_atomic_ops_are_built_from_python_values():
    from dialects import atomic

    buffer = MemRefType(i32, [16], memory_space=IntegerAttr(1, 64))
    pointer = LLVMPointerType(IntAttr(3))
    fn = func.FuncOp("f", ([buffer, pointer, IndexType(), i32], []))
    base, ptr, index, value = fn.body.block.args
    rmw = atomic.RMWOp("umax", "acq_rel", base, [index], value)
    cas = atomic.CmpXchgOp("seq_cst", "acquire", ptr, [], value, rmw, weak=True)
    load = atomic.LoadOp("monotonic", ptr, result_type=i32)
    store = atomic.StoreOp("release", load, base, [index])
    fence = atomic.FenceOp("acq_rel")
    fn.body.block.add_ops([rmw, cas, load, store, fence, func.ReturnOp()])
    ModuleOp([fn]).verify()
    assert rmw.result.type == i32 and cas.old.type == i32 and cas.success.type == i1
    assert cas.weak is not None and load.result.type == i32
    assert str(fence) == "atomic.fence acq_rel"


def test_atomic_op_verifier_names_the_rule():
    from dialects import atomic

    buffer = MemRefType(f32, [4], memory_space=IntegerAttr(3, 64))
    fn = func.FuncOp("f", ([buffer, IndexType(), f32], []))
    base, index, value = fn.body.block.args
    with pytest.raises(VerifyException, match=re.escape(atomic.RULE_OP_FITS_TYPE)):
        atomic.RMWOp("xor", "monotonic", base, [index], value).verify()
    with pytest.raises(VerifyException, match=re.escape(atomic.RULE_CMPXCHG_TYPE)):
        atomic.CmpXchgOp("monotonic", "monotonic", base, [index], value, value).verify()


@pytest.mark.parametrize("size_t", [ctypes.c_int32, ctypes.c_int64], ids=["32", "64"])
@pytest.mark.parametrize(
    "struct", [WORK_ITEM_INFO, WORK_GROUP_INFO], ids=lambda s: s.name
)
def test_scheduling_struct_byte_size_is_c_sizeof(struct, size_t):
    """`byte_size` is what C (ctypes) lays out for the same fields: add-entry-hook
    copies the runtime's MuxWorkGroupInfo with it."""
    fields = [
        (f.name, size_t * 3 if f.kind is FieldKind.SIZE_T_X3 else ctypes.c_int32)
        for f in struct.fields
    ]
    twin = type(struct.name, (ctypes.Structure,), {"_fields_": fields})
    assert struct.byte_size(ctypes.sizeof(size_t) * 8) == ctypes.sizeof(twin)
