"""Atomics end to end: the `atomic` ops and the OpenCL atomic functions
(`replace-atomic-funcs`), compiled by the host pipeline and run with work-groups on
one thread and on all of them, against exact numpy references.

- `examples/histogram.mlir`: counts equal `np.bincount`.
- Every `atomicrmw` operation on i32 and i64 (and the float ones, xchg too, on f32),
  on global memory (several work-groups, on several threads, hit the same few
  slots) and on local memory (the work-items of a group hit a `mux.LocalBuffer`,
  which is then copied out with atomic loads): the final value of each slot is the
  reduction of its values by the operation (float data are small integers, so
  every order of additions gives the same sum). On global memory the old values
  are checked too where the operation makes them checkable: an `add` of 1 hands out
  tickets 0..n-1, an `xchg` chain returns every value but the last one stored.
- `cmpxchg`, strong and weak: a lock-free maximum (a compare-exchange loop) on
  global and local memory, and a ticket counter on i64.
- Atomic loads and stores with fences, on local memory declared at module scope.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from kernels import THREADS

import mux

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SLOTS = 4
"""Slots the work-items of the rmw tests share (work-item i uses slot i % SLOTS)."""
GLOBAL_SIZE, LOCAL_SIZE = 3001, 64
"""47 work-groups, the last one of 57 work-items."""

NP_TYPES = {"i32": np.int32, "i64": np.int64, "f32": np.float32}
UNSIGNED = {"i32": np.uint32, "i64": np.uint64}
INT_KINDS = ("add", "sub", "and", "or", "xor", "min", "max", "umin", "umax", "xchg")
FLOAT_KINDS = ("fadd", "fsub", "fmax", "fmin", "xchg")
CASES = [(k, t) for t in ("i32", "i64") for k in INT_KINDS] + [
    (k, "f32") for k in FLOAT_KINDS
]


# --------------------------------------------------------------------------------------
# The histogram example.
# --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def histogram():
    return mux.load(EXAMPLES / "histogram.mlir").kernel("histogram")


@THREADS
@pytest.mark.parametrize(
    ("size", "local_size"), [(2, 1), (1000, 7), (4099, 64), (100_003, 256)]
)
def test_histogram_counts_exactly(histogram, size, local_size, threads):
    rng = np.random.default_rng(size)
    data = rng.integers(0, 256, size, dtype=np.uint8)
    data[:2] = [0, 255]  # 255 is bin 255 (zero-extended), not -1
    bins = np.zeros(256, np.int32)
    histogram(data, bins, global_size=size, local_size=local_size, threads=threads)
    np.testing.assert_array_equal(bins, np.bincount(data, minlength=256))


@THREADS
def test_histogram_of_one_value_counts_every_item(histogram, threads):
    """All work-items on one bin: the most contended case."""
    data = np.full(50_000, 7, np.uint8)
    bins = np.zeros(256, np.int32)
    histogram(data, bins, global_size=data.size, local_size=100, threads=threads)
    expected = np.zeros(256, np.int32)
    expected[7] = data.size
    np.testing.assert_array_equal(bins, expected)


# --------------------------------------------------------------------------------------
# Every atomicrmw operation, on global and on local memory.
# --------------------------------------------------------------------------------------

RMW_GLOBAL = """
func.func @{name}(%data: memref<?x{t}, 1>, %acc: memref<?x{t}, 1>,
                  %old: memref<?x{t}, 1>)
    attributes {{mux.kernel = "entry-point"}} {{
  %d0 = arith.constant 0 : i32
  %slots = arith.constant {slots} : index
  %gid = mux.get_global_id %d0
  %v = memref.load %data[%gid] : memref<?x{t}, 1>
  %slot = arith.remui %gid, %slots : index
  %o = atomic.rmw {kind} monotonic %acc[%slot], %v : memref<?x{t}, 1>
  memref.store %o, %old[%gid] : memref<?x{t}, 1>
  func.return
}}
"""

RMW_LOCAL = """
func.func @{name}(%data: memref<?x{t}, 1>, %init: memref<?x{t}, 1>,
                  %out: memref<?x{t}, 1>,
                  %acc: memref<?x{t}, 3>) attributes {{mux.kernel = "entry-point"}} {{
  %d0 = arith.constant 0 : i32
  %slots = arith.constant {slots} : index
  %gid = mux.get_global_id %d0
  %lid = mux.get_local_id %d0
  %n = mux.get_local_size %d0
  %group = mux.get_group_id %d0
  scf.for %s = %lid to %slots step %n {{
    %x = memref.load %init[%s] : memref<?x{t}, 1>
    atomic.store monotonic %x, %acc[%s] : memref<?x{t}, 3>
  }}
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %v = memref.load %data[%gid] : memref<?x{t}, 1>
  %slot = arith.remui %lid, %slots : index
  %o = atomic.rmw {kind} acq_rel %acc[%slot], %v : memref<?x{t}, 3>
  mux.work_group_barrier id(1) scope(work_group) semantics(acq_rel | work_group_memory)
  %base = arith.muli %group, %slots : index
  scf.for %s = %lid to %slots step %n {{
    %x = atomic.load monotonic %acc[%s] : memref<?x{t}, 3>
    %at = arith.addi %base, %s : index
    memref.store %x, %out[%at] : memref<?x{t}, 1>
  }}
  func.return
}}
"""


def _name(space: str, kind: str, type_: str) -> str:
    return f"rmw_{space}_{kind}_{type_}"


@pytest.fixture(scope="module")
def rmw_program():
    sources = [
        template.format(name=_name(space, k, t), t=t, kind=k, slots=SLOTS)
        for space, template in (("global", RMW_GLOBAL), ("local", RMW_LOCAL))
        for k, t in CASES
    ]
    return mux.compile("\n".join(sources))


def _data(kind: str, type_: str, size: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if type_ == "f32":  # small integers: every order of additions is exact
        return rng.integers(-100, 100, size).astype(np.float32)
    dtype = NP_TYPES[type_]
    info = np.iinfo(dtype)
    values = rng.integers(info.min, info.max, size, dtype=dtype, endpoint=True)
    if kind in ("and", "or"):  # keep some bits alive through the reduction
        ones = rng.random(size) < 0.9
        mask = dtype(0x0F0F_0F0F if type_ == "i32" else 0x0F0F_0F0F_0F0F_0F0F)
        values = np.where(
            ones if kind == "and" else ~ones, values | ~mask, values & mask
        )
    return values.astype(dtype)


def _reduce(kind: str, type_: str, init, values: np.ndarray):
    """`init` combined with `values` by the atomicrmw operation `kind`."""
    dtype = NP_TYPES[type_]
    if kind == "xchg":
        return None  # order-dependent: checked separately
    if kind in ("umin", "umax"):
        unsigned = UNSIGNED[type_]
        both = np.append(np.asarray(init, dtype).view(unsigned), values.view(unsigned))
        reduced = both.min() if kind == "umin" else both.max()
        return np.asarray(reduced, unsigned).view(dtype)[()]
    both = np.append(np.asarray(init, dtype), values)
    if kind in ("add", "fadd"):
        return np.add.reduce(both, dtype=dtype)
    if kind in ("sub", "fsub"):
        return dtype(both[0] - np.add.reduce(both[1:], dtype=dtype))
    reduce = {
        "and": np.bitwise_and,
        "or": np.bitwise_or,
        "xor": np.bitwise_xor,
        "min": np.minimum,
        "max": np.maximum,
        "fmin": np.minimum,
        "fmax": np.maximum,
    }[kind]
    return reduce.reduce(both)


def _init(type_: str) -> np.ndarray:
    dtype = NP_TYPES[type_]
    return np.array([0, 1, -1, 5][:SLOTS], dtype=dtype)


@THREADS
@pytest.mark.parametrize(("kind", "type_"), CASES, ids=[f"{k}-{t}" for k, t in CASES])
def test_rmw_on_global_memory(rmw_program, kind, type_, threads):
    kernel = rmw_program.kernel(_name("global", kind, type_))
    data = _data(kind, type_, GLOBAL_SIZE, seed=len(kind))
    init = _init(type_)
    acc = init.copy()
    old = np.zeros_like(data)
    kernel(
        data, acc, old, global_size=GLOBAL_SIZE, local_size=LOCAL_SIZE, threads=threads
    )
    for slot in range(SLOTS):
        values, olds = data[slot::SLOTS], old[slot::SLOTS]
        if kind == "xchg":
            # Each xchg returns the value before it: the initial value and every
            # value stored but the last one, which is left in the slot.
            stored = np.sort(np.append(olds, acc[slot]))
            np.testing.assert_array_equal(
                stored, np.sort(np.append(values, init[slot]))
            )
            assert acc[slot] in values
        else:
            assert acc[slot] == _reduce(kind, type_, init[slot], values), slot


@THREADS
@pytest.mark.parametrize(("kind", "type_"), CASES, ids=[f"{k}-{t}" for k, t in CASES])
def test_rmw_on_local_memory(rmw_program, kind, type_, threads):
    kernel = rmw_program.kernel(_name("local", kind, type_))
    data = _data(kind, type_, GLOBAL_SIZE, seed=len(kind) + 1)
    init = _init(type_)
    groups = -(-GLOBAL_SIZE // LOCAL_SIZE)
    out = np.zeros(groups * SLOTS, data.dtype)
    local = mux.LocalBuffer(SLOTS * data.itemsize)
    kernel(
        data,
        init,
        out,
        local,
        global_size=GLOBAL_SIZE,
        local_size=LOCAL_SIZE,
        threads=threads,
    )
    for group in range(groups):
        items = data[group * LOCAL_SIZE : (group + 1) * LOCAL_SIZE]
        for slot in range(SLOTS):
            got = out[group * SLOTS + slot]
            values = items[slot::SLOTS]
            if kind == "xchg":
                assert got in values, (group, slot)
            else:
                assert got == _reduce(kind, type_, init[slot], values), (group, slot)


@THREADS
def test_add_of_one_hands_out_every_ticket(rmw_program, threads):
    """The old values of `add 1` on one counter are 0, 1, ..., n-1, each once."""
    kernel = rmw_program.kernel(_name("global", "add", "i64"))
    data = np.ones(GLOBAL_SIZE, np.int64)
    acc = np.zeros(SLOTS, np.int64)
    old = np.full(GLOBAL_SIZE, -1, np.int64)
    kernel(
        data, acc, old, global_size=GLOBAL_SIZE, local_size=LOCAL_SIZE, threads=threads
    )
    for slot in range(SLOTS):
        tickets = np.sort(old[slot::SLOTS])
        np.testing.assert_array_equal(tickets, np.arange(tickets.size))
        assert acc[slot] == tickets.size


# --------------------------------------------------------------------------------------
# cmpxchg: a lock-free maximum and a counter.
# --------------------------------------------------------------------------------------

CAS_MAX = """
func.func @cas_max_{space}_{strength}(%data: memref<?xi32, 1>, %out: memref<?xi32, 1>,
                                 %acc: memref<?xi32, {as}>)
    attributes {{mux.kernel = "entry-point"}} {{
  %d0 = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %gid = mux.get_global_id %d0
  %lid = mux.get_local_id %d0
  %group = mux.get_group_id %d0
  {init}
  %v = memref.load %data[%gid] : memref<?xi32, 1>
  %start = atomic.load monotonic %acc[%c0] : memref<?xi32, {as}>
  // while (v > cur) {{ (old, ok) = cmpxchg(acc, cur, v); cur = ok ? v : old }}
  %last = scf.while (%cur = %start) : (i32) -> i32 {{
    %bigger = arith.cmpi sgt, %v, %cur : i32
    scf.condition(%bigger) %cur : i32
  }} do {{
  ^bb0(%c: i32):
    %old, %ok = atomic.cmpxchg {weak}monotonic monotonic %acc[%c0], %c, %v
      : memref<?xi32, {as}>
    %next = arith.select %ok, %v, %old : i32
    scf.yield %next : i32
  }}
  {finish}
  func.return
}}
"""

LOCAL_INIT = """%first = arith.cmpi eq, %lid, %c0 : index
  %min = arith.constant -2147483648 : i32
  scf.if %first {
    atomic.store monotonic %min, %acc[%c0] : memref<?xi32, 3>
  }
  mux.work_group_barrier id(0) scope(work_group)
    semantics(acq_rel | work_group_memory)"""

LOCAL_FINISH = """mux.work_group_barrier id(1) scope(work_group)
    semantics(acq_rel | work_group_memory)
  scf.if %first {
    %m = atomic.load monotonic %acc[%c0] : memref<?xi32, 3>
    memref.store %m, %out[%group] : memref<?xi32, 1>
  }"""

CAS_COUNTER = """
func.func @cas_counter(%counter: memref<i64, 1>, %tickets: memref<?xi64, 1>)
    attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %one = arith.constant 1 : i64
  %true = arith.constant true
  %gid = mux.get_global_id %d0
  %start = atomic.load monotonic %counter[] : memref<i64, 1>
  // do { (old, ok) = cmpxchg weak(counter, cur, cur + 1); cur = old } while (!ok)
  %mine = scf.while (%cur = %start) : (i64) -> i64 {
    %next = arith.addi %cur, %one : i64
    %old, %ok = atomic.cmpxchg weak monotonic monotonic %counter[], %cur, %next
      : memref<i64, 1>
    %failed = arith.xori %ok, %true : i1
    scf.condition(%failed) %old : i64
  } do {
  ^bb0(%old: i64):
    scf.yield %old : i64
  }
  memref.store %mine, %tickets[%gid] : memref<?xi64, 1>
  func.return
}
"""


@pytest.fixture(scope="module")
def cas_program():
    sources = [
        CAS_MAX.format(
            space=space,
            strength=strength,
            weak="weak " if strength == "weak" else "",
            **{
                "as": 1 if space == "global" else 3,
                "init": "" if space == "global" else LOCAL_INIT,
                "finish": "" if space == "global" else LOCAL_FINISH,
            },
        )
        for space in ("global", "local")
        for strength in ("strong", "weak")
    ]
    return mux.compile("\n".join([*sources, CAS_COUNTER]))


def _signed_data(size: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(-(2**31), 2**31 - 1, size, dtype=np.int32, endpoint=True)


@THREADS
@pytest.mark.parametrize("strength", ["strong", "weak"])
def test_cmpxchg_max_on_global_memory(cas_program, strength, threads):
    kernel = cas_program.kernel(f"cas_max_global_{strength}")
    data = _signed_data(GLOBAL_SIZE, seed=3)
    acc = np.array([np.iinfo(np.int32).min], np.int32)
    kernel(
        data,
        np.zeros(1, np.int32),
        acc,
        global_size=GLOBAL_SIZE,
        local_size=LOCAL_SIZE,
        threads=threads,
    )
    assert acc[0] == data.max()


@THREADS
@pytest.mark.parametrize("strength", ["strong", "weak"])
def test_cmpxchg_max_on_local_memory(cas_program, strength, threads):
    kernel = cas_program.kernel(f"cas_max_local_{strength}")
    data = _signed_data(GLOBAL_SIZE, seed=4)
    groups = -(-GLOBAL_SIZE // LOCAL_SIZE)
    out = np.zeros(groups, np.int32)
    kernel(
        data,
        out,
        mux.LocalBuffer(4),
        global_size=GLOBAL_SIZE,
        local_size=LOCAL_SIZE,
        threads=threads,
    )
    expected = [
        data[g * LOCAL_SIZE : (g + 1) * LOCAL_SIZE].max() for g in range(groups)
    ]
    np.testing.assert_array_equal(out, expected)


@THREADS
def test_weak_cmpxchg_counter_hands_out_every_ticket(cas_program, threads):
    kernel = cas_program.kernel("cas_counter")
    counter = np.zeros((), np.int64)
    tickets = np.full(GLOBAL_SIZE, -1, np.int64)
    kernel(
        counter,
        tickets,
        global_size=GLOBAL_SIZE,
        local_size=LOCAL_SIZE,
        threads=threads,
    )
    assert counter == GLOBAL_SIZE
    np.testing.assert_array_equal(np.sort(tickets), np.arange(GLOBAL_SIZE))


# --------------------------------------------------------------------------------------
# Atomic loads, stores and fences on module-scope local memory; OpenCL's functions.
# --------------------------------------------------------------------------------------

LOAD_STORE = """
"memref.global"() <{sym_name = "shared", type = memref<64xf32, 3>, initial_value,
                    sym_visibility = "private"}> : () -> ()

func.func @rotate(%in: memref<?xf32, 1>, %out: memref<?xf32, 1>)
    attributes {mux.kernel = "entry-point",
                mux.reqd_work_group_size = array<i32: 64, 1, 1>} {
  %d0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %gid = mux.get_global_id %d0
  %lid = mux.get_local_id %d0
  %shared = memref.get_global @shared : memref<64xf32, 3>
  %v = atomic.load acquire %in[%gid] : memref<?xf32, 1>
  atomic.store release %v, %shared[%lid] : memref<64xf32, 3>
  atomic.fence release
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  atomic.fence acquire
  %next = arith.addi %lid, %c1 : index
  %wrapped = arith.remui %next, %c64 : index
  %w = atomic.load seq_cst %shared[%wrapped] : memref<64xf32, 3>
  atomic.fence seq_cst
  atomic.store seq_cst %w, %out[%gid] : memref<?xf32, 1>
  func.return
}
"""


@THREADS
def test_atomic_load_store_and_fences_on_module_scope_local_memory(threads):
    kernel = mux.compile(LOAD_STORE).kernel("rotate")
    data = np.arange(64 * 40, dtype=np.float32) * 0.5
    out = np.zeros_like(data)
    kernel(data, out, global_size=data.size, local_size=64, threads=threads)
    np.testing.assert_array_equal(
        out, np.roll(data.reshape(40, 64), -1, axis=1).ravel()
    )


OPENCL_HISTOGRAM = """
func.func private @_Z10atomic_incPU3AS1Vj(!llvm.ptr<1>) -> i32
func.func private @_Z10atomic_addPU3AS3Vii(!llvm.ptr<3>, i32) -> i32
func.func private @_Z10atomic_maxPU3AS1Vjj(memref<1xi32, 1>, i32) -> i32

// A histogram with the OpenCL 1.x functions, as a front-end would emit it: a
// pointer to the bin (GEP), atomic_inc on global memory; atomic_add of 1 to a
// counter in local memory, whose group total work-item 0 adds to the global
// bin 256; atomic_max (unsigned) of the bytes seen.
func.func @histogram_cl(%data: memref<?xi8, 1>, %bins: memref<257xi32, 1>,
                        %max: memref<1xi32, 1>, %count: memref<1xi32, 3>)
    attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %one = arith.constant 1 : i32
  %zero = arith.constant 0 : i32
  %gid = mux.get_global_id %d0
  %lid = mux.get_local_id %d0
  %first = arith.cmpi eq, %lid, %c0 : index
  scf.if %first {
    memref.store %zero, %count[%c0] : memref<1xi32, 3>
  }
  mux.work_group_barrier id(0) scope(work_group) semantics(acq_rel | work_group_memory)
  %byte = memref.load %data[%gid] : memref<?xi8, 1>
  %bin = arith.extui %byte : i8 to i64
  %base = builtin.unrealized_conversion_cast %bins : memref<257xi32, 1> to !llvm.ptr<1>
  %at = llvm.getelementptr %base[%bin] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, i32
  %a = func.call @_Z10atomic_incPU3AS1Vj(%at) : (!llvm.ptr<1>) -> i32
  %local = builtin.unrealized_conversion_cast %count : memref<1xi32, 3> to !llvm.ptr<3>
  %b = func.call @_Z10atomic_addPU3AS3Vii(%local, %one) : (!llvm.ptr<3>, i32) -> i32
  %byte32 = arith.extui %byte : i8 to i32
  %c = func.call @_Z10atomic_maxPU3AS1Vjj(%max, %byte32)
    : (memref<1xi32, 1>, i32) -> i32
  mux.work_group_barrier id(1) scope(work_group) semantics(acq_rel | work_group_memory)
  scf.if %first {
    %total = memref.load %count[%c0] : memref<1xi32, 3>
    %c256 = arith.constant 256 : index
    %old = atomic.rmw add monotonic %bins[%c256], %total : memref<257xi32, 1>
  }
  func.return
}
"""


@THREADS
def test_opencl_atomic_functions_are_replaced_and_run(threads):
    kernel = mux.compile(OPENCL_HISTOGRAM).kernel("histogram_cl")
    rng = np.random.default_rng(9)
    data = rng.integers(0, 200, 10_007, dtype=np.uint8)
    bins = np.zeros(257, np.int32)
    top = np.zeros(1, np.int32)
    kernel(
        data,
        bins,
        top,
        mux.LocalBuffer(4),
        global_size=data.size,
        local_size=50,
        threads=threads,
    )
    np.testing.assert_array_equal(bins[:256], np.bincount(data, minlength=256))
    assert bins[256] == data.size
    assert top[0] == data.max()


FADD = (
    "_Z25atomic_fetch_add_explicit"  # (atomic_float *, float, order, scope)
    "PU3AS1VU7_Atomicff12memory_order12memory_scope"
)
FENCE = "_Z22atomic_work_item_fencej12memory_order12memory_scope"
OPENCL_20 = """
func.func private @FADD(!llvm.ptr<1>, f32, i32, i32) -> f32
func.func private @_Z16atomic_fetch_maxPU3AS1VU7_Atomicii(!llvm.ptr<1>, i32) -> i32
func.func private @FENCE(i32, i32, i32)

// OpenCL 2.0: a relaxed float sum (cl_ext_float_atomics), a seq_cst signed max, a
// release fence.
func.func @sum_max(%data: memref<?xf32, 1>, %ints: memref<?xi32, 1>,
                   %sum: memref<1xf32, 1>, %max: memref<1xi32, 1>)
    attributes {mux.kernel = "entry-point"} {
  %d0 = arith.constant 0 : i32
  %relaxed = arith.constant 0 : i32
  %release = arith.constant 3 : i32
  %device = arith.constant 2 : i32
  %global = arith.constant 2 : i32
  %gid = mux.get_global_id %d0
  %x = memref.load %data[%gid] : memref<?xf32, 1>
  %p = builtin.unrealized_conversion_cast %sum : memref<1xf32, 1> to !llvm.ptr<1>
  %a = func.call @FADD(%p, %x, %relaxed, %device)
    : (!llvm.ptr<1>, f32, i32, i32) -> f32
  %i = memref.load %ints[%gid] : memref<?xi32, 1>
  %q = builtin.unrealized_conversion_cast %max : memref<1xi32, 1> to !llvm.ptr<1>
  %b = func.call @_Z16atomic_fetch_maxPU3AS1VU7_Atomicii(%q, %i)
    : (!llvm.ptr<1>, i32) -> i32
  func.call @FENCE(%global, %release, %device) : (i32, i32, i32) -> ()
  func.return
}
""".replace("FADD", FADD).replace("FENCE", FENCE)


@THREADS
def test_opencl_20_atomic_functions_are_replaced_and_run(threads):
    kernel = mux.compile(OPENCL_20).kernel("sum_max")
    rng = np.random.default_rng(11)
    data = rng.integers(-50, 50, 20_011).astype(np.float32)
    ints = _signed_data(data.size, seed=12)
    total = np.zeros(1, np.float32)
    top = np.full(1, np.iinfo(np.int32).min, np.int32)
    kernel(
        data, ints, total, top, global_size=data.size, local_size=64, threads=threads
    )
    assert total[0] == data.sum(dtype=np.float64)
    assert top[0] == ints.max()
