"""Buffers checked against what a launch accesses (`mux.access_bounds`): every
example refuses a buffer one element too small for its launch, with a LaunchError
naming it and nothing written, and runs with one of exactly the right size; the
analysis itself on small kernels (guards, loops, signedness, overflow)."""

import re
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import func

import mux
from mux.access_bounds import KernelBounds, Launch
from mux.arguments import kernel_params
from mux.compiler import parse

EXAMPLES = Path(__file__).parent.parent / "examples"

f32 = np.float32


def _kernel(name: str) -> mux.Kernel:
    return mux.load(EXAMPLES / f"{name}.mlir").kernel(name)


def _sizes(args):
    return [a.size if isinstance(a, np.ndarray) else a for a in args]


def _shrunk(args, index):
    """`args` with argument `index` one element smaller."""
    out = list(args)
    value = args[index]
    if isinstance(value, mux.LocalBuffer):
        out[index] = mux.LocalBuffer(value.nbytes - 1)
    else:
        out[index] = np.zeros(value.size - 1, value.dtype)
    return out


# (kernel, arguments of exactly the right size, launch, buffers to shrink)
def _matrix(n):
    return np.arange(n * n, dtype=f32) / 7


CASES = {
    "vadd (non-uniform groups)": (
        "vadd",
        lambda: [np.ones(1000, f32), np.ones(1000, f32), np.zeros(1000, f32)],
        {"global_size": 1000, "local_size": 64},
        [0, 1, 2],
    ),
    "saxpy with an offset": (
        "saxpy",
        lambda: [f32(2), np.ones(1005, f32), np.ones(1005, f32)],
        {"global_size": 1000, "local_size": 50, "global_offset": 5},
        [1, 2],
    ),
    "reduce: partial per group, local scratch": (
        "reduce",
        lambda: [np.ones(1000, f32), np.zeros(16, f32), mux.LocalBuffer(64 * 4)],
        {"global_size": 1000, "local_size": 64},
        [0, 1, 2],
    ),
    "scan": (
        "scan",
        lambda: [np.ones(1000, np.int32), np.zeros(1000, np.int32)],
        {"global_size": 1000, "local_size": 128},
        [0, 1],
    ),
    "histogram: data": (
        "histogram",
        lambda: [np.arange(1000).astype(np.uint8), np.zeros(256, np.int32)],
        {"global_size": 1000, "local_size": 100},
        [0, 1],
    ),
    "ids3d": (
        "ids3d",
        lambda: [np.zeros(10 * 6 * 4, np.int32)],
        {"global_size": (10, 6, 4), "local_size": (4, 3, 2)},
        [0],
    ),
    "scale2d (non-uniform groups)": (
        "scale2d",
        lambda: [np.ones(50 * 30, f32), np.zeros(50 * 30, f32), 50, f32(3)],
        {"global_size": (50, 30), "local_size": (16, 16)},
        [0, 1],
    ),
    "sgemm_naive (range rounded up)": (
        "sgemm_naive",
        lambda: [_matrix(20), _matrix(20), np.zeros(400, f32), 20],
        {"global_size": (32, 32), "local_size": (16, 16)},
        [0, 1, 2],
    ),
    "sgemm_tiled (non-uniform groups)": (
        "sgemm_tiled",
        lambda: [_matrix(20), _matrix(20), np.zeros(400, f32), 20],
        {"global_size": (20, 20), "local_size": (16, 16)},
        [0, 1, 2],
    ),
    "stencil2d (range rounded up)": (
        "stencil2d",
        lambda: [np.ones(21 * 13, f32), np.zeros(21 * 13, f32), 21, 13],
        {"global_size": (32, 16), "local_size": (16, 16)},
        [0, 1],
    ),
    "transpose": (
        "transpose",
        lambda: [np.ones(48 * 32, f32), np.zeros(48 * 32, f32), 48, 32],
        {"global_size": (48, 32), "local_size": (16, 16)},
        [0, 1],
    ),
    "dma_tile (non-uniform groups): buffers reached through DMA": (
        "dma_tile",
        lambda: [np.ones(50 * 30, f32), np.zeros(50 * 30, f32), 50],
        {"global_size": (50, 30), "local_size": (16, 16)},
        [0, 1],
    ),
    "scale_rows: static inner dimensions": (
        "scale_rows",
        lambda: [np.ones(80, f32), np.ones(8, f32), f32(2), 10, np.zeros(80, f32)],
        {"global_size": (8, 12), "local_size": (4, 4)},
        [0, 1, 4],
    ),
    "transpose (non-uniform groups)": (
        "transpose",
        lambda: [np.ones(50 * 40, f32), np.zeros(50 * 40, f32), 50, 40],
        {"global_size": (50, 40), "local_size": (16, 16)},
        [0, 1],
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_exact_buffers_run(case):
    name, make, launch, _ = CASES[case]
    kernel = _kernel(name)
    args = make()
    kernel(*args, **launch)


@pytest.mark.parametrize(
    ("case", "index"),
    [(case, i) for case, (_, _, _, shrink) in CASES.items() for i in shrink],
)
def test_one_element_short_is_refused(case, index):
    name, make, launch, _ = CASES[case]
    kernel = _kernel(name)
    args = _shrunk(make(), index)
    param = kernel.params[index].name
    arrays = [a for a in args if isinstance(a, np.ndarray)]
    before = [a.copy() for a in arrays]
    with pytest.raises(mux.LaunchError, match=f"argument '{param}'") as error:
        kernel(*args, **launch)
    for old, new in zip(before, arrays, strict=True):
        np.testing.assert_array_equal(old, new)
    # the message says how many elements there are and how many the launch needs
    has = args[index]
    if isinstance(has, mux.LocalBuffer):
        assert f"a local buffer of {has.nbytes} bytes" in str(error.value)
    else:
        assert f"has {has.size} elements" in str(error.value)
        if kernel.params[index].type.get_shape()[0] == -1:  # dynamic: ours
            assert re.search(rf"needs (at least )?{has.size + 1}\b", str(error.value))


def test_local_buffer_message():
    kernel = _kernel("reduce")
    with pytest.raises(
        mux.LaunchError,
        match=re.escape(
            "argument 'scratch': a local buffer of 1024 bytes (256 elements of f32), "
            "the launch needs 4092 bytes (1023 elements)"
        ),
    ):
        kernel(
            np.ones(1023, f32),
            np.zeros(1, f32),
            mux.LocalBuffer(256 * 4),
            global_size=1023,
            local_size=1023,
        )


def test_bound_not_reached_is_not_refused():
    """transpose with a smaller last work-group: the intervals say the output
    may need 3208 elements; the work-items the launch has reach 2000 only, so an
    array of 2000 runs and the message of a shorter one says 'at least'."""
    kernel = _kernel("transpose")
    bounds = KernelBounds(kernel.function, kernel.params)
    launch = Launch.of((50, 40), (16, 16), (0, 0), {2: 50, 3: 40})
    assert bounds.analyse(launch)[1] == (0, 3207)
    assert bounds.witness(launch)[1] == (0, 1999)
    with pytest.raises(mux.LaunchError, match="needs at least 2000"):
        kernel(
            np.ones(2000, f32),
            np.zeros(1999, f32),
            50,
            40,
            global_size=(50, 40),
            local_size=(16, 16),
        )


def test_histogram_bins_come_from_the_data():
    """histogram's bin index is loaded from memory: zero-extended from i8 it is
    within 0..255, which the static shape of `bins` covers."""
    kernel = _kernel("histogram")
    bounds = KernelBounds(kernel.function, kernel.params)
    may = bounds.analyse(Launch.of((1000,), (100,), (0,)))
    assert may == {0: (0, 999), 1: (0, 255)}
    data = np.full(1000, 255, np.uint8)
    bins = np.zeros(256, np.int32)
    kernel(data, bins, global_size=1000, local_size=100)
    assert bins[255] == 1000


GATHER = """
func.func @gather(%idx: memref<?xi32, 1>, %src: memref<?xf32, 1>,
                  %out: memref<?xf32, 1>)
    attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %i = mux.get_global_id %d
  %j32 = memref.load %idx[%i] : memref<?xi32, 1>
  %j = arith.index_cast %j32 : i32 to index
  %v = memref.load %src[%j] : memref<?xf32, 1>
  memref.store %v, %out[%i] : memref<?xf32, 1>
  func.return
}
"""


def test_index_loaded_from_memory_is_unknown_and_accepted():
    kernel = mux.compile(GATHER).kernel("gather")
    bounds = KernelBounds(kernel.function, kernel.params)
    may = bounds.analyse(Launch.of((16,), (16,), (0,)))
    assert may == {0: (0, 15), 1: None, 2: (0, 15)}
    idx = np.arange(16, dtype=np.int32) % 4
    src = np.arange(4, dtype=f32)  # 4 elements: the analysis cannot tell
    out = np.zeros(16, f32)
    kernel(idx, src, out, global_size=16, local_size=16)
    np.testing.assert_array_equal(out, src[idx])
    with pytest.raises(mux.LaunchError, match="argument 'out'"):
        kernel(idx, src, np.zeros(15, f32), global_size=16, local_size=16)


GUARDED_BY_DATA = """
func.func @guarded(%flags: memref<?xi32, 1>, %out: memref<?xi32, 1>)
    attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %c0 = arith.constant 0 : i32
  %i = mux.get_global_id %d
  %f = memref.load %flags[%i] : memref<?xi32, 1>
  %set = arith.cmpi ne, %f, %c0 : i32
  scf.if %set {
    memref.store %f, %out[%i] : memref<?xi32, 1>
  }
  func.return
}
"""


def test_access_under_a_loaded_condition_is_not_refused():
    """out[i] is written only where flags[i] != 0, which the analysis cannot know:
    a short `out` is accepted (here no flag is set past its end)."""
    kernel = mux.compile(GUARDED_BY_DATA).kernel("guarded")
    flags = np.zeros(32, np.int32)
    flags[:8] = 1
    out = np.zeros(8, np.int32)
    kernel(flags, out, global_size=32, local_size=8)
    np.testing.assert_array_equal(out, np.ones(8, np.int32))


# -- the analysis on small kernels -------------------------------------------------


def _may(body: str, params: str, launch: Launch, extra: str = ""):
    source = f"""
{extra}
func.func @k({params}) attributes {{mux.kernel = "entry-point"}} {{
  %d0 = arith.constant 0 : i32
  %d1 = arith.constant 1 : i32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %gid = mux.get_global_id %d0
  %lid = mux.get_local_id %d0
{body}
  func.return
}}
"""
    # The analysis alone: parsed and verified, not lowered (some of these kernels,
    # e.g. with an scf.execute_region, have no lowering).
    (function,) = (
        op
        for op in parse(source).ops
        if isinstance(op, func.FuncOp) and op.sym_name.data == "k"
    )
    bounds = KernelBounds(function, kernel_params(function))
    return bounds.analyse(launch), bounds.witness(launch)


OUT = "%out: memref<?xf32, 1>, %n: index"
STORE = "memref.store %z, %out[{}] : memref<?xf32, 1>"
ZERO = "%z = arith.constant 0.0 : f32\n"


def _launch(g=100, size=10, offset=0, n=40):
    return Launch.of((g,), (size,), (offset,), {1: n})


@pytest.mark.parametrize(
    ("pred", "expected"),
    [
        ("ult", (0, 39)),
        ("slt", (-5, 39)),
        ("ule", (0, 40)),
        ("sle", (-5, 40)),
        ("eq", (40, 40)),
    ],
)
def test_guard_narrows_signed_and_unsigned(pred, expected):
    """x = gid - 5 under `x <pred> n`: an unsigned comparison also gives x >= 0."""
    body = f"""
  %c5 = arith.constant 5 : index
  %x = arith.subi %gid, %c5 : index
  %ok = arith.cmpi {pred}, %x, %n : index
  scf.if %ok {{
    {ZERO}    {STORE.format("%x")}
  }}"""
    may, _ = _may(body, OUT, _launch())
    assert may[0] == expected


def test_negated_and_combined_guards():
    """`!(x >= n) && x != 0` keeps x in 1..n-1 (else branch of an or)."""
    body = f"""
  %big = arith.cmpi uge, %gid, %n : index
  %zero = arith.cmpi eq, %gid, %c0 : index
  %skip = arith.ori %big, %zero : i1
  scf.if %skip {{
  }} else {{
    {ZERO}    {STORE.format("%gid")}
  }}"""
    may, _ = _may(body, OUT, _launch())
    assert may[0] == (1, 39)


def test_cond_br_guard():
    source = f"""
func.func @k(%out: memref<?xf32, 1>, %n: index)
    attributes {{mux.kernel = "entry-point"}} {{
  %d0 = arith.constant 0 : i32
  %gid = mux.get_global_id %d0
  %in = arith.cmpi ult, %gid, %n : index
  cf.cond_br %in, ^store, ^done
^store:
  {ZERO}  {STORE.format("%gid")}
  cf.br ^done
^done:
  func.return
}}
"""
    kernel = mux.compile(source).kernel("k")
    bounds = KernelBounds(kernel.function, kernel.params)
    assert bounds.analyse(_launch())[0] == (0, 39)


def test_offsets_and_local_ids():
    body = f"""
  {ZERO}  {STORE.format("%gid")}
  %n2 = arith.addi %n, %lid : index
  {STORE.format("%n2")}"""
    may, must = _may(body, OUT, _launch(g=95, size=10, offset=7))
    assert may[0] == (7, 101)  # gid 7..101, n + lid 40..49
    assert must[0] == (7, 101)


def test_for_loop_induction_variable():
    body = f"""
  {ZERO}  %c2 = arith.constant 2 : index
  scf.for %k = %c1 to %n step %c2 {{
    %i = arith.muli %k, %c2 : index
    {STORE.format("%i")}
  }}"""
    may, must = _may(body, OUT, _launch())
    assert may[0] == (2, 78)
    assert must[0] == (2, 78)  # k = 1, 3, ..., 39


def test_loop_carried_value_that_settles():
    """j = min(j + 1, n - 1) stays below n; j = j + 3 does not settle: unknown."""
    body = f"""
  {ZERO}  %last = arith.subi %n, %c1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%j = %c0) -> (index) {{
    {STORE.format("%j")}
    %j1 = arith.addi %j, %c1 : index
    %j2 = arith.minsi %j1, %last : index
    scf.yield %j2 : index
  }}
  %r2 = scf.for %k = %c0 to %n step %c1 iter_args(%j = %c0) -> (index) {{
    %j1 = arith.addi %j, %c3 : index
    scf.yield %j1 : index
  }}
  %big = arith.addi %r2, %gid : index
  memref.store %z, %out[%big] : memref<?xf32, 1>"""
    may, _ = _may(body, OUT, _launch())
    assert may[0] is None


def test_loop_carried_value_bounded():
    body = f"""
  {ZERO}  %last = arith.subi %n, %c1 : index
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%j = %c0) -> (index) {{
    {STORE.format("%j")}
    %j1 = arith.addi %j, %c1 : index
    %j2 = arith.minsi %j1, %last : index
    scf.yield %j2 : index
  }}"""
    may, _ = _may(body, OUT, _launch())
    assert may[0] == (0, 39)


def test_while_loop_condition_bounds_the_body():
    """reduce's loop: stride doubles while stride < lsize; lid + stride guarded."""
    body = f"""
  {ZERO}  %lsize = mux.get_local_size %d0
  %c2 = arith.constant 2 : index
  %last = scf.while (%s = %c1) : (index) -> index {{
    %more = arith.cmpi ult, %s, %lsize : index
    scf.condition(%more) %s : index
  }} do {{
  ^bb0(%t: index):
    %other = arith.addi %lid, %t : index
    %inside = arith.cmpi ult, %other, %lsize : index
    scf.if %inside {{
      {STORE.format("%other")}
    }}
    %next = arith.muli %t, %c2 : index
    scf.yield %next : index
  }}"""
    may, must = _may(body, OUT, _launch(g=100, size=32))
    assert may[0] == (1, 31)
    # work-item 0 reaches 16 (t = 16 in a full group); 30 + 1, the largest, is
    # reached by a work-item the concrete runs do not try
    assert must[0] == (1, 16)


@pytest.mark.parametrize(
    "index",
    [
        # 8 work-items times 2^61: 7 * 2^61 < 2^63, but 2^62 overflows index
        "%big = arith.constant 4611686018427387904 : index\n"
        "  %i = arith.muli %gid, %big : index",
        # i32 arithmetic: 7 * 2^30 wraps in i32
        "%g32 = arith.index_cast %gid : index to i32\n"
        "  %m = arith.constant 1073741824 : i32\n"
        "  %p = arith.muli %g32, %m : i32\n"
        "  %i = arith.index_cast %p : i32 to index",
        # unsigned division of a value that may be negative
        "%c3 = arith.constant 3 : index\n"
        "  %x = arith.subi %gid, %c3 : index\n"
        "  %i = arith.divui %x, %c3 : index",
    ],
)
def test_may_wrap_is_unknown(index):
    body = f"""
  {ZERO}  {index}
  {STORE.format("%i")}"""
    may, _ = _may(body, OUT, _launch(g=8, size=8))
    assert may[0] is None


def test_no_wrap_is_known():
    body = f"""
  {ZERO}  %g32 = arith.index_cast %gid : index to i32
  %m = arith.constant 1000 : i32
  %p = arith.muli %g32, %m : i32
  %q = arith.remui %p, %m : i32
  %s = arith.divsi %p, %m : i32
  %i = arith.index_cast %s : i32 to index
  {STORE.format("%i")}"""
    may, _ = _may(body, OUT, _launch(g=8, size=8))
    assert may[0] == (0, 7)


def test_vector_lanes_and_static_dimensions():
    params = "%v: memref<?xf32, 1>, %m: memref<?x8xf32, 1>, %n: index"
    body = """
  %c4 = arith.constant 4 : index
  %i = arith.muli %gid, %c4 : index
  %x = vector.load %v[%i] : memref<?xf32, 1>, vector<4xf32>
  vector.store %x, %v[%i] : memref<?xf32, 1>, vector<4xf32>
  %e = vector.extract %x[0] : f32 from vector<4xf32>
  %c3 = arith.constant 3 : index
  memref.store %e, %m[%gid, %c3] : memref<?x8xf32, 1>"""
    may, must = _may(body, params, Launch.of((16,), (16,), (0,), {2: 0}))
    assert may == {0: (0, 63), 1: (3, 123)}
    assert must == may


def test_a_buffer_passed_on_is_unknown():
    helper = """
func.func private @fill(%b: memref<?xf32, 1>) {
  func.return
}
"""
    body = f"""
  {ZERO}  {STORE.format("%gid")}
  func.call @fill(%out) : (memref<?xf32, 1>) -> ()"""
    may, must = _may(body, OUT, _launch(), extra=helper)
    assert may[0] is None
    assert must[0] == (0, 99)  # what the kernel itself surely does is still seen


def test_group_start_is_exact():
    """gid - lid and group * enqueued size + lid are the ids' own ranges, not the
    sums of intervals (which would reach below 0 and past the last work-item)."""
    body = f"""
  {ZERO}  %start = arith.subi %gid, %lid : index
  {STORE.format("%start")}
  %grp = mux.get_group_id %d0
  %els = mux.get_enqueued_local_size %d0
  %s2 = arith.muli %grp, %els : index
  %x = arith.addi %s2, %lid : index
  {STORE.format("%x")}"""
    may, _ = _may(body, OUT, _launch(g=95, size=10, offset=3))
    assert may[0] == (0, 94)


def test_relation_with_the_ids_is_rederived_in_loops():
    """gid + j, j carried by the loop: 0 in the first round (gid + 0 is the global
    id itself), 0..n-1 in the end; the relation of the first round must not
    stick."""
    body = f"""
  {ZERO}  %last = arith.subi %n, %c1 : index
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%j = %c0) -> (index) {{
    %x = arith.addi %gid, %j : index
    %y = arith.addi %x, %c1 : index
    {STORE.format("%y")}
    %j1 = arith.addi %j, %c1 : index
    %j2 = arith.minsi %j1, %last : index
    scf.yield %j2 : index
  }}"""
    may, must = _may(body, OUT, _launch())
    assert may[0] == (1, 100 + 39)
    assert must[0] == (1, 100 + 39)


SELECTED = """
func.func @selected(%flags: memref<?xi32, 1>, %out: memref<?xi32, 1>)
    attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %c0 = arith.constant 0 : index
  %z = arith.constant 0 : i32
  %i = mux.get_global_id %d
  %f = memref.load %flags[%i] : memref<?xi32, 1>
  %set = arith.cmpi ne, %f, %z : i32
  %j = arith.select %set, %i, %c0 : index
  memref.store %f, %out[%j] : memref<?xi32, 1>
  func.return
}
"""


def test_concrete_runs_record_only_exact_indices():
    """out[flag ? i : 0]: a concrete run does not know the flag, so the index is
    0..i, not an index the work-item surely accesses; the launch is not refused
    (no flag is set: only out[0] is written)."""
    kernel = mux.compile(SELECTED).kernel("selected")
    bounds = KernelBounds(kernel.function, kernel.params)
    launch = Launch.of((16,), (16,), (0,))
    assert bounds.analyse(launch) == {0: (0, 15), 1: (0, 15)}
    assert bounds.witness(launch) == {0: (0, 15), 1: (0, 0)}  # work-item 0
    out = np.full(4, 7, np.int32)
    kernel(np.zeros(16, np.int32), out, global_size=16, local_size=16)
    np.testing.assert_array_equal(out, [0, 7, 7, 7])


def test_an_index_whose_byte_address_wraps_is_still_exact():
    """Element indices are exact integers: one past 2^63 bytes (whose address
    wraps in 64 bits) is outside any array, and a concrete run says so."""
    params = "%m: memref<?x1099511627776xf32, 1>, %n: index"
    body = f"""
  {ZERO}  memref.store %z, %m[%gid, %c0] : memref<?x1099511627776xf32, 1>"""
    may, must = _may(body, params, Launch.of((1 << 23,), (1,), (0,), {1: 0}))
    assert may[0] == must[0] == (0, ((1 << 23) - 1) << 40)
    may, _ = _may(body, params, Launch.of((1 << 20,), (1,), (0,), {1: 0}))
    assert may[0] == (0, ((1 << 20) - 1) << 40)


def test_cfg_loop():
    """A loop of blocks: i = 0; while (i < n) { out[i]; i += 1 }."""
    source = f"""
func.func @k(%out: memref<?xf32, 1>, %n: index)
    attributes {{mux.kernel = "entry-point"}} {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  {ZERO}  cf.br ^head(%c0 : index)
^head(%i: index):
  %more = arith.cmpi slt, %i, %n : index
  cf.cond_br %more, ^body, ^done
^body:
  {STORE.format("%i")}
  %next = arith.addi %i, %c1 : index
  cf.br ^head(%next : index)
^done:
  func.return
}}
"""
    kernel = mux.compile(source).kernel("k")
    bounds = KernelBounds(kernel.function, kernel.params)
    assert bounds.analyse(_launch()) == {0: (0, 39)}
    assert bounds.witness(_launch()) == {0: (0, 39)}
    with pytest.raises(mux.LaunchError, match="the array has 39 elements, the "):
        kernel(np.zeros(39, f32), 40, global_size=4, local_size=4)
    kernel(np.zeros(40, f32), 40, global_size=4, local_size=4)


def test_unknown_region_op_makes_every_buffer_unknown():
    body = f"""
  {ZERO}  {STORE.format("%gid")}
  scf.execute_region {{
    {STORE.format("%n")}
    scf.yield
  }}"""
    may, must = _may(body, OUT, _launch())
    assert may == {0: None}
    assert must == {0: (0, 99)}


# -- variables, DMA and huge offsets ------------------------------------------------


def _refused(kernel, args, match, **launch):
    """Asserts the launch is refused with a message matching `match` and that
    no array changed."""
    arrays = [a for a in args if isinstance(a, np.ndarray)]
    before = [a.copy() for a in arrays]
    with pytest.raises(mux.LaunchError, match=match) as error:
        kernel(*args, **launch)
    for old, new in zip(before, arrays, strict=True):
        np.testing.assert_array_equal(old, new)
    return str(error.value)


def test_local_variable_indexed_past_its_dimension():
    """transpose's tile is memref<16x17xf32, 3> indexed [ly, lx]: a work-group
    32 wide indexes column 31 of 17 (linearly still inside the tile)."""
    kernel = _kernel("transpose")
    args = [np.ones(64 * 4, f32), np.zeros(64 * 4, f32), 64, 4]
    message = _refused(
        kernel,
        args,
        re.escape("local variable 'tile' (memref<16x17xf32, 3>): work-item ("),
        global_size=(64, 4),
        local_size=(32, 4),
    )
    assert "uses index 31 in its dimension 1, which has 17" in message
    kernel(*args, global_size=(64, 4), local_size=(16, 4))


def test_local_variable_past_its_elements_through_dma():
    """dma_tile's DMA fills local_size(1) rows of 64 bytes of its 16 x 16 tile:
    32 rows are 2048 bytes of 1024."""
    kernel = _kernel("dma_tile")
    args = [np.ones(4 * 64, f32), np.zeros(4 * 64, f32), 4]
    _refused(
        kernel,
        args,
        r"local variable 'tile' \(memref<16x16xf32, 3>\): work-item \(\d+, \d+\) "
        r"\(local id \(\d+, \d+\)\) (accesses element|uses index)",
        global_size=(4, 64),
        local_size=(4, 32),
    )
    kernel(*args, global_size=(4, 64), local_size=(4, 16))


PRIVATE = """
func.func @private(%out: memref<?xi32, 1>)
    attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %gid = mux.get_global_id %d
  %lid = mux.get_local_id %d
  %priv = memref.alloca() : memref<4xi32>
  memref.store %d, %priv[%lid] : memref<4xi32>
  %v = memref.load %priv[%lid] : memref<4xi32>
  memref.store %v, %out[%gid] : memref<?xi32, 1>
  func.return
}
"""


def test_private_array_indexed_past_its_shape():
    kernel = mux.compile(PRIVATE).kernel("private")
    out = np.ones(16, np.int32)
    message = _refused(
        kernel,
        [out],
        re.escape("private array 'priv' (memref<4xi32>): work-item ("),
        global_size=16,
        local_size=8,
    )
    assert "(local id (7)) uses index 7 in its dimension 0, which has 4" in message
    kernel(out, global_size=16, local_size=4)
    np.testing.assert_array_equal(out, np.zeros(16, np.int32))


def test_static_dimension_of_a_parameter():
    """scale_rows' w is memref<8xf32, 2> indexed by the column: a range 9 wide
    indexes w[8] (and m[r, 8], the next row's first element) for the rows inside;
    with no row inside nothing is accessed and the launch runs."""
    kernel = _kernel("scale_rows")
    m, w, out = np.ones(88, f32), np.ones(8, f32), np.zeros(88, f32)
    _refused(
        kernel,
        [m, w, f32(2), 10, out],
        r"argument '(m|w|out)'.*: work-item \(8, \d\) (accesses element 8$|uses "
        r"index 8 in its dimension [01], which has 8)",
        global_size=(9, 10),
        local_size=(1, 1),
    )
    kernel(m, w, f32(2), 0, out, global_size=(9, 10), local_size=(1, 1))
    assert not out.any()


def test_dma_pointer_of_a_buffer_is_followed():
    """dma_tile reaches its buffers as `llvm.getelementptr` of their bare
    pointers: the analysis follows them to the elements the DMA covers."""
    kernel = _kernel("dma_tile")
    bounds = KernelBounds(kernel.function, kernel.params)
    launch = Launch.of((50, 30), (16, 16), (0, 0), {2: 50})
    must = bounds.witness(launch)
    assert must == {0: (0, 1499), 1: (0, 1499)}
    # far too short: refused, not a crash
    _refused(
        kernel,
        [np.zeros(0, f32), np.zeros(0, f32), 1671772],
        "argument 'input': the array has 0 elements, the launch needs",
        global_size=(1671772, 5),
        local_size=(1, 5),
    )


def test_offsets_near_2_63():
    """reduce with a global offset of 2^63 - 2^40: its input index is exact,
    past 2^61 elements (its byte address wraps); transpose with offsets of 2^62:
    y * width + x wraps to -2^63, an element before the first."""
    reduce = _kernel("reduce")
    message = _refused(
        reduce,
        [np.ones(1, f32), np.zeros(16980, f32), mux.LocalBuffer(32)],
        "argument 'input': the array has 1 elements, the launch needs",
        global_size=135833,
        local_size=8,
        global_offset=2**63 - 2**40,
    )
    assert f"needs {2**63 - 2**40 + 135833}:" in message
    transpose = _kernel("transpose")
    _refused(
        transpose,
        [np.ones(1, f32), np.ones(1, f32), 1, 30],
        re.escape(f"accesses its element {-(2**63)}, before the first"),
        global_size=(1, 30),
        local_size=(1, 1),
        global_offset=(2**62, 2**62),
    )


def test_concrete_arithmetic_wraps_as_the_op_does():
    """One value (a constant, a concrete run's id) is computed as arith does it,
    wrapping in its type; an interval that may wrap stays unknown."""
    body = f"""
  {ZERO}  %big = arith.constant 4611686018427387904 : index
  %x = arith.muli %big, %n : index
  %i = arith.addi %x, %gid : index
  {STORE.format("%i")}"""
    may, must = _may(body, OUT, _launch(g=8, size=8, n=4))
    assert may[0] == must[0] == (0, 7)  # 2^62 * 4 wraps to 0
