"""OpenCL C 2.0 atomics end to end: kernels written here (CL3.0, where the atomic
functions take generic pointers, `PU3AS4VU7_Atomic...`) go through clang, the LLVM IR
importer, `replace-atomic-funcs` and the host pipeline, and are run on 1-D launches
(a multiple of the local size, a global size that is not one, local size 1; one
thread and all of them) against numpy.

What each kernel checks:
- `tickets`: `atomic_fetch_add_explicit` of 1 on a global counter hands out every
  ticket 0..n-1 once (the values returned); `atomic_fetch_add` and
  `atomic_fetch_sub_explicit` of long data sum per slot.
- `group_tickets`: the same on a `__local atomic_int *` parameter, initialised by
  `atomic_init` and read back by `atomic_load_explicit` after a barrier, per work-group
  (the last one may be smaller); `atomic_fetch_max_explicit` on a kernel-scope
  `__local atomic_int`.
- `exchange_once`: one `atomic_compare_exchange_strong_explicit` per work-item on its
  own element: it stores `desired` where the object equals `*expected`, and writes
  the object's value to `*expected` where it does not; the bool says which.
  `exchange_private` does it with `expected` in private memory.
- `cas_loops`: a maximum by a strong compare-exchange loop and a float sum by a
  weak one, on global memory; `local_cas`: a maximum on local memory per group.
- `flags`: `atomic_flag_test_and_set_explicit` returns the old flag (one winner
  per clear flag, none for a set one); a spin lock of test_and_set (acquire) and
  `atomic_flag_clear_explicit` (release) guards a plain increment; `clear_flags`.
- `exchanges`: `atomic_exchange` of int and double: the values handed back and the
  last ones left are each slot's initial value and every value stored, once.
- `publish`: `atomic_store_explicit` (release, seq_cst) and `atomic_load_explicit`
  (acquire, seq_cst) with work-group and device scopes on local and global memory,
  read by a neighbour after a barrier.
- `clang_builtins`: clang's `__opencl_atomic_*` builtins, which are LLVM's atomic
  instructions (the importer's), not calls.
- `volatile_twice`: volatile loads stay two loads; `fences`, `fence_all`:
  `mem_fence` and `atomic_work_item_fence` with every flag and the all-devices
  scope are fences, one at work-item scope is none.
"""

from __future__ import annotations

import numpy as np
import pytest
from kernels import THREADS

import mux

SLOTS = 4
SHAPES = [(256, 64), (1000, 64), (37, 1)]
"""(global size, local size): a multiple, a partial last work-group, local size 1."""
SHAPE_IDS = [f"{g}/{lo}" for g, lo in SHAPES]

SOURCE = """
#define SLOTS 4

__kernel void tickets(volatile __global atomic_uint *counter, __global uint *ticket,
                      volatile __global atomic_long *sums,
                      __global const long *data) {
  size_t gid = get_global_id(0);
  ticket[gid] = atomic_fetch_add_explicit(counter, 1u, memory_order_relaxed,
                                          memory_scope_device);
  atomic_fetch_add(&sums[gid % SLOTS], data[gid]);
  atomic_fetch_sub_explicit(&sums[SLOTS + gid % SLOTS], data[gid],
                            memory_order_acq_rel, memory_scope_all_devices);
}

__kernel void group_tickets(__global int *ticket, __global int *count,
                            __local atomic_int *counter) {
  __local atomic_int highest;
  size_t lid = get_local_id(0);
  if (lid == 0) {
    atomic_init(counter, 0);
    atomic_init(&highest, -1);
  }
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  int mine = atomic_fetch_add_explicit(counter, 1, memory_order_relaxed,
                                       memory_scope_work_group);
  ticket[get_global_id(0)] = mine;
  atomic_fetch_max_explicit(&highest, mine, memory_order_relaxed,
                            memory_scope_work_group);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    size_t group = get_group_id(0);
    count[2 * group] = atomic_load_explicit(counter, memory_order_acquire,
                                            memory_scope_work_group);
    count[2 * group + 1] = atomic_load(&highest);
  }
}

__kernel void exchange_once(volatile __global atomic_long *object,
                            __global long *expected, __global const long *desired,
                            __global int *ok) {
  size_t gid = get_global_id(0);
  ok[gid] = atomic_compare_exchange_strong_explicit(
      &object[gid], &expected[gid], desired[gid], memory_order_acq_rel,
      memory_order_acquire, memory_scope_device);
}

__kernel void exchange_private(volatile __global atomic_int *object,
                               __global int *expected, __global const int *desired,
                               __global int *ok) {
  size_t gid = get_global_id(0);
  int mine = expected[gid];
  ok[gid] = atomic_compare_exchange_strong(&object[gid], &mine, desired[gid]);
  expected[gid] = mine;
}

__kernel void cas_loops(volatile __global atomic_int *top,
                        volatile __global atomic_float *sum,
                        __global const int *data) {
  int value = data[get_global_id(0)];
  int seen = atomic_load_explicit(top, memory_order_relaxed, memory_scope_device);
  while (seen < value && !atomic_compare_exchange_strong(top, &seen, value)) {
  }
  float old = atomic_load(sum);
  while (!atomic_compare_exchange_weak_explicit(
      sum, &old, old + (float)value, memory_order_relaxed, memory_order_relaxed,
      memory_scope_device)) {
  }
}

__kernel void local_cas(__global const int *data, __global int *top) {
  __local atomic_int highest;
  if (get_local_id(0) == 0) {
    atomic_store_explicit(&highest, -2147483647 - 1, memory_order_relaxed,
                          memory_scope_work_group);
  }
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  int value = data[get_global_id(0)];
  int seen = atomic_load(&highest);
  while (seen < value && !atomic_compare_exchange_weak(&highest, &seen, value)) {
  }
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    top[get_group_id(0)] = atomic_load(&highest);
  }
}

__kernel void flags(volatile __global atomic_flag *flag, __global int *was_set,
                    volatile __global atomic_flag *lock, __global int *guarded) {
  size_t gid = get_global_id(0);
  was_set[gid] = atomic_flag_test_and_set_explicit(
      &flag[gid % SLOTS], memory_order_relaxed, memory_scope_device);
  while (atomic_flag_test_and_set_explicit(lock, memory_order_acquire,
                                           memory_scope_device)) {
  }
  guarded[0] += 1;
  atomic_flag_clear_explicit(lock, memory_order_release, memory_scope_device);
}

__kernel void clear_flags(volatile __global atomic_flag *flag) {
  atomic_flag_clear(&flag[get_global_id(0)]);
}

__kernel void exchanges(volatile __global atomic_int *slot, __global int *old,
                        volatile __global atomic_double *wide, __global double *wold) {
  int gid = get_global_id(0);
  old[gid] = atomic_exchange_explicit(&slot[gid % SLOTS], gid, memory_order_acq_rel,
                                      memory_scope_device);
  wold[gid] = atomic_exchange(&wide[gid % SLOTS], gid + 0.5);
}

__kernel void publish(__global const float *in, __global float *out,
                      __local atomic_float *board,
                      volatile __global atomic_uint *shared, __global uint *seen) {
  size_t lid = get_local_id(0), gid = get_global_id(0), n = get_local_size(0);
  atomic_store_explicit(&board[lid], in[gid] * 2.0f, memory_order_release,
                        memory_scope_work_group);
  atomic_store_explicit(&shared[gid], (uint)gid * 3u, memory_order_seq_cst,
                        memory_scope_device);
  work_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  size_t next = (lid + 1) % n;
  out[gid] = atomic_load_explicit(&board[next], memory_order_acquire,
                                  memory_scope_work_group);
  seen[gid] = atomic_load_explicit(&shared[gid - lid + next], memory_order_seq_cst,
                                   memory_scope_device);
}

__kernel void clang_builtins(__global atomic_int *counter, __global int *ticket,
                             __global atomic_long *top, __global atomic_float *most,
                             __global atomic_int *done) {
  size_t gid = get_global_id(0);
  int mine = __opencl_atomic_fetch_add(counter, 1, __ATOMIC_RELAXED,
                                       __OPENCL_MEMORY_SCOPE_DEVICE);
  ticket[gid] = mine;
  long seen = __opencl_atomic_load(top, __ATOMIC_ACQUIRE,
                                   __OPENCL_MEMORY_SCOPE_WORK_GROUP);
  while (seen < (long)gid &&
         !__opencl_atomic_compare_exchange_weak(
             top, &seen, (long)gid, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED,
             __OPENCL_MEMORY_SCOPE_DEVICE)) {
  }
  __opencl_atomic_fetch_max(most, (float)mine, __ATOMIC_SEQ_CST,
                            __OPENCL_MEMORY_SCOPE_ALL_SVM_DEVICES);
  __c11_atomic_thread_fence(__ATOMIC_RELEASE);
  __opencl_atomic_store(done, 1, __ATOMIC_RELEASE,
                        __OPENCL_MEMORY_SCOPE_WORK_GROUP);
}

__kernel void volatile_twice(volatile __global int *in, __global int *out) {
  size_t gid = get_global_id(0);
  out[gid] = in[gid] + in[gid];
}

__kernel void fences(__global int *a, __global int *b) {
  size_t gid = get_global_id(0);
  a[gid] += 1;
  mem_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  b[gid] = a[gid] * 2;
  atomic_work_item_fence(CLK_LOCAL_MEM_FENCE, memory_order_release,
                         memory_scope_work_item);
  a[gid] += 1;
}

__kernel void fence_all(__global int *a, __global int *b) {
  size_t gid = get_global_id(0);
  a[gid] += 1;
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE |
                             CLK_IMAGE_MEM_FENCE,
                         memory_order_seq_cst, memory_scope_all_devices);
  b[gid] = a[gid] * 2;
}
"""


@pytest.fixture(scope="module")
def program():
    return mux.compile(SOURCE, language="opencl", build_options="-cl-std=CL3.0")


def _groups(size: int, local: int) -> list[range]:
    return [range(start, min(start + local, size)) for start in range(0, size, local)]


shapes = pytest.mark.parametrize(("size", "local"), SHAPES, ids=SHAPE_IDS)


@THREADS
@shapes
def test_fetch_add_on_global_memory_hands_out_every_ticket(
    program, size, local, threads
):
    data = np.random.default_rng(size).integers(-(2**40), 2**40, size)
    counter = np.zeros(1, np.uint32)
    ticket = np.full(size, 99, np.uint32)
    sums = np.arange(2 * SLOTS, dtype=np.int64)
    program.kernel("tickets")(
        counter, ticket, sums, data, global_size=size, local_size=local, threads=threads
    )
    assert counter[0] == size
    np.testing.assert_array_equal(np.sort(ticket), np.arange(size))
    per_slot = [data[s::SLOTS].sum() for s in range(SLOTS)]
    np.testing.assert_array_equal(sums[:SLOTS], np.arange(SLOTS) + per_slot)
    np.testing.assert_array_equal(sums[SLOTS:], np.arange(SLOTS, 2 * SLOTS) - per_slot)


@THREADS
@shapes
def test_fetch_add_on_local_memory_hands_out_tickets_per_group(
    program, size, local, threads
):
    groups = _groups(size, local)
    ticket = np.full(size, -5, np.int32)
    count = np.zeros(2 * len(groups), np.int32)
    program.kernel("group_tickets")(
        ticket,
        count,
        mux.LocalBuffer(4),
        global_size=size,
        local_size=local,
        threads=threads,
    )
    for g, items in enumerate(groups):
        np.testing.assert_array_equal(np.sort(ticket[items]), np.arange(len(items)))
        assert list(count[2 * g : 2 * g + 2]) == [len(items), len(items) - 1]


@THREADS
@shapes
def test_compare_exchange_stores_or_reports_what_it_found(
    program, size, local, threads
):
    rng = np.random.default_rng(size + 1)
    start = rng.integers(-3, 3, size) * 2**33
    expected = np.where(rng.random(size) < 0.5, start, start + 1)
    desired = rng.integers(-(2**62), 2**62, size)
    obj, exp, ok = start.copy(), expected.copy(), np.full(size, 7, np.int32)
    program.kernel("exchange_once")(
        obj, exp, desired, ok, global_size=size, local_size=local, threads=threads
    )
    equal = start == expected
    np.testing.assert_array_equal(ok, equal.astype(np.int32))
    np.testing.assert_array_equal(obj, np.where(equal, desired, start))
    np.testing.assert_array_equal(exp, start)  # unchanged where equal, found where not

    start32 = start.astype(np.int32) + np.arange(size, dtype=np.int32) % 2
    guess = np.arange(size, dtype=np.int32) % 3 - 1 + start32 - start32 % 2
    obj32, exp32 = start32.copy(), guess.copy()
    ok[:] = 7
    program.kernel("exchange_private")(
        obj32,
        exp32,
        np.full(size, 1234, np.int32),
        ok,
        global_size=size,
        local_size=local,
        threads=threads,
    )
    equal32 = start32 == guess
    np.testing.assert_array_equal(ok, equal32.astype(np.int32))
    np.testing.assert_array_equal(obj32, np.where(equal32, 1234, start32))
    np.testing.assert_array_equal(exp32, start32)


@THREADS
@shapes
def test_compare_exchange_loops_compute_a_maximum_and_a_sum(
    program, size, local, threads
):
    data = np.random.default_rng(size + 2).integers(-100, 100, size, dtype=np.int32)
    top = np.full(1, np.iinfo(np.int32).min, np.int32)
    total = np.full(1, 0.5, np.float32)
    program.kernel("cas_loops")(
        top, total, data, global_size=size, local_size=local, threads=threads
    )
    assert top[0] == data.max()
    assert total[0] == 0.5 + data.sum()  # small integers: every order is exact

    groups = _groups(size, local)
    tops = np.zeros(len(groups), np.int32)
    program.kernel("local_cas")(
        data, tops, global_size=size, local_size=local, threads=threads
    )
    np.testing.assert_array_equal(tops, [data[items].max() for items in groups])


@THREADS
@shapes
def test_atomic_flags_have_one_winner_and_guard_a_spin_lock(
    program, size, local, threads
):
    flag = np.array([0, 0, 1, 0], np.int32)  # slot 2 starts set
    was_set = np.full(size, 5, np.int32)
    lock, guarded = np.zeros(1, np.int32), np.zeros(1, np.int32)
    program.kernel("flags")(
        flag,
        was_set,
        lock,
        guarded,
        global_size=size,
        local_size=local,
        threads=threads,
    )
    assert set(np.unique(was_set)) <= {0, 1}
    winners = [int((was_set[s::SLOTS] == 0).sum()) for s in range(SLOTS)]
    assert winners == [1, 1, 0, 1]
    assert guarded[0] == size
    assert lock[0] == 0
    assert all(flag != 0)
    program.kernel("clear_flags")(flag, global_size=SLOTS, local_size=1)
    np.testing.assert_array_equal(flag, 0)


@THREADS
@shapes
def test_exchange_hands_back_every_value_once(program, size, local, threads):
    slot = np.array([-1, -2, -3, -4], np.int32)
    wide = np.array([-1.25, -2.25, -3.25, -4.25])
    old, wold = np.zeros(size, np.int32), np.zeros(size)
    program.kernel("exchanges")(
        slot, old, wide, wold, global_size=size, local_size=local, threads=threads
    )
    ids = np.arange(size)
    for s in range(SLOTS):
        mine = ids[s::SLOTS]
        handed = np.sort(np.append(old[s::SLOTS], slot[s]))
        np.testing.assert_array_equal(handed, np.sort(np.append(mine, -1 - s)))
        handed_wide = np.sort(np.append(wold[s::SLOTS], wide[s]))
        np.testing.assert_array_equal(
            handed_wide, np.sort(np.append(mine + 0.5, -1.25 - s))
        )


@THREADS
@shapes
def test_stores_and_loads_with_orders_and_scopes_publish_values(
    program, size, local, threads
):
    data = np.random.default_rng(size + 3).standard_normal(size).astype(np.float32)
    out = np.zeros(size, np.float32)
    shared, seen = np.zeros(size, np.uint32), np.zeros(size, np.uint32)
    program.kernel("publish")(
        data,
        out,
        mux.LocalBuffer(4 * local),
        shared,
        seen,
        global_size=size,
        local_size=local,
        threads=threads,
    )
    neighbour = np.concatenate(
        [
            np.roll(np.arange(items.start, items.stop), -1)
            for items in _groups(size, local)
        ]
    )
    np.testing.assert_array_equal(out, data[neighbour] * 2)
    np.testing.assert_array_equal(shared, np.arange(size) * 3)
    np.testing.assert_array_equal(seen, neighbour * 3)


@THREADS
@shapes
def test_clangs_atomic_instructions_run(program, size, local, threads):
    """clang's `__opencl_atomic_*` builtins are LLVM's atomic instructions
    (atomicrmw add and fmax, load atomic, a weak cmpxchg loop, fence, store atomic)
    rather than calls: the importer's atomics."""
    counter, ticket = np.zeros(1, np.int32), np.zeros(size, np.int32)
    top, most, done = (
        np.full(1, -1, np.int64),
        np.zeros(1, np.float32),
        np.zeros(1, np.int32),
    )
    program.kernel("clang_builtins")(
        counter,
        ticket,
        top,
        most,
        done,
        global_size=size,
        local_size=local,
        threads=threads,
    )
    np.testing.assert_array_equal(np.sort(ticket), np.arange(size))
    assert (counter[0], top[0], most[0], done[0]) == (size, size - 1, size - 1, 1)


def test_volatile_loads_stay_two_loads(program):
    kernel = program.kernel("volatile_twice")
    values = np.arange(-50, 950, dtype=np.int32)
    out = np.zeros_like(values)
    kernel(values, out, global_size=values.size, local_size=8)
    np.testing.assert_array_equal(out, values * 2)
    assert kernel.llvm_ir.count("load volatile i32") == 2


@pytest.mark.parametrize(
    ("name", "fence", "increments"),
    [("fences", "acq_rel", 2), ("fence_all", "seq_cst", 1)],
)
def test_fences_of_every_flag_and_scope_are_fences(program, name, fence, increments):
    kernel = program.kernel(name)
    a = np.arange(100, dtype=np.int32)
    b = np.zeros_like(a)
    kernel(a, b, global_size=100, local_size=10)
    np.testing.assert_array_equal(a, np.arange(100) + increments)
    np.testing.assert_array_equal(b, (np.arange(100) + 1) * 2)
    # mem_fence is acq_rel, the all-devices fence seq_cst; a work-item fence orders
    # nothing another work-item sees, and goes.
    fences = [
        line.split()[1]
        for line in kernel.llvm_ir.splitlines()
        if " fence " in f" {line} "
    ]
    assert fences == [fence]
