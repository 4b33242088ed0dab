"""The vector data functions of the builtin library (`link-builtins`,
`vectors`): `vload<n>`/`vstore<n>` at element offsets `offset * n` (3 included,
unaligned), `vload_half`/`vstore_half` with every rounding mode, the aligned
`vloada_half`/`vstorea_half`, and `shuffle`/`shuffle2` with masks beyond the
lanes (only their low bits count)."""

from __future__ import annotations

import numpy as np
import pytest

import mux

VLOAD_KERNEL = """
__kernel void k(__global const TYPE *in, __global TYPE *out, __constant TYPE *c,
                __local TYPE *scratch) {
    size_t i = get_global_id(0);
    TYPEN v = vloadN(i, in + 1);             /* unaligned: one element in */
    vstoreN(v, i, out + 1);
    TYPEN w = vloadN(0, c);                   /* from __constant */
    vstoreN(w, i, scratch);
    vstoreN(vloadN(i, scratch), i, out + 1 + 64 * N);
}
"""


@pytest.mark.parametrize("type_", ["char", "ushort", "int", "float", "long", "double"])
@pytest.mark.parametrize("lanes", [2, 3, 4, 8, 16])
def test_vload_and_vstore_move_n_elements_at_offset_times_n(type_: str, lanes: int):
    dtype = {
        "char": np.int8,
        "ushort": np.uint16,
        "int": np.int32,
        "float": np.float32,
        "long": np.int64,
        "double": np.float64,
    }[type_]
    source = VLOAD_KERNEL.replace("TYPEN", f"{type_}{lanes}").replace("TYPE", type_)
    source = source.replace("vloadN", f"vload{lanes}").replace(
        "vstoreN", f"vstore{lanes}"
    )
    source = source.replace("* N)", f"* {lanes})")
    items = 5
    data = np.arange(1, 1 + items * lanes + 1).astype(dtype)
    constant = (np.arange(lanes) * 3).astype(dtype)
    out = np.zeros(1 + 64 * lanes + items * lanes, dtype)
    program = mux.compile(source, language="opencl")
    program.kernel("k")(
        data,
        out,
        constant,
        mux.LocalBuffer(items * lanes * data.itemsize),
        global_size=(items,),
        local_size=(items,),
    )
    np.testing.assert_array_equal(
        out[1 : 1 + items * lanes], data[1 : 1 + items * lanes]
    )
    assert out[0] == 0 and not out[1 + items * lanes : 1 + 64 * lanes].any()
    np.testing.assert_array_equal(out[1 + 64 * lanes :], np.tile(constant, items))


HALF_KERNEL = """
__kernel void k(__global const float *x, __global const half *h, __global float *loaded,
                __global float *loaded4, __global float *aligned3,
                __global half *rte, __global half *rtz, __global half *rtp,
                __global half *rtn, __global half *plain, __global half *stored4,
                __global half *stored3a) {
    size_t i = get_global_id(0);
    loaded[i] = vload_half(i, h);
    vstore4(vload_half4(i, h), i, loaded4);
    vstore3(vloada_half3(i, h), i, aligned3);
    vstore_half_rte(x[i], i, rte);
    vstore_half_rtz(x[i], i, rtz);
    vstore_half_rtp(x[i], i, rtp);
    vstore_half_rtn(x[i], i, rtn);
    vstore_half(x[i], i, plain);
    vstore_half4(vload4(i, x), i, stored4);
    vstorea_half3(vload3(i, x), i, stored3a);
}
"""


def _directed(x: np.ndarray, mode: str) -> np.ndarray:
    """`x` (float32) rounded to half by `mode`: the nearest half, moved one half
    further where it went the wrong way."""
    with np.errstate(over="ignore"):
        nearest = x.astype(np.float16)
    if mode == "rte":
        return nearest
    back = nearest.astype(np.float32)
    with np.errstate(invalid="ignore", over="ignore"):
        if mode == "rtp":
            step, target = back < x, np.inf
        elif mode == "rtn":
            step, target = back > x, -np.inf
        else:
            step, target = np.abs(back) > np.abs(x), 0.0
        return np.where(step, np.nextafter(nearest, np.float16(target)), nearest)


def test_halves_load_as_floats_and_store_rounded_by_the_mode():
    rng = np.random.default_rng(11)
    special = [
        0.0,
        -0.0,
        np.inf,
        -np.inf,
        np.nan,
        65504.0,
        65520.0,
        70000.0,
        -70000.0,
        1e-8,
        -1e-8,
        6e-8,
        2.0**-25,
        1 / 3,
        -1 / 3,
        1.0009765625,
        2049.0,
    ]
    x = np.concatenate([special, rng.standard_normal(47) * 100]).astype(np.float32)
    items = len(x) // 4
    h = rng.standard_normal(len(x)).astype(np.float16)
    outputs = [np.zeros(len(x), np.float32) for _ in range(3)]
    outputs += [np.zeros(len(x), np.float16) for _ in range(7)]
    program = mux.compile(HALF_KERNEL, language="opencl")
    program.kernel("k")(x, h, *outputs, global_size=(items,), local_size=(1,))
    loaded, loaded4, aligned3, rte, rtz, rtp, rtn, plain, stored4, stored3a = outputs
    np.testing.assert_array_equal(loaded[:items], h[:items].astype(np.float32))
    np.testing.assert_array_equal(
        loaded4[: items * 4], h[: items * 4].astype(np.float32)
    )
    # vloada_half3 reads 3 halves every 4
    expected3 = h[: items * 4].reshape(items, 4)[:, :3].reshape(-1).astype(np.float32)
    np.testing.assert_array_equal(aligned3[: items * 3], expected3)
    first = x[:items]
    for got, mode in ((rte, "rte"), (rtz, "rtz"), (rtp, "rtp"), (rtn, "rtn")):
        np.testing.assert_array_equal(got[:items], _directed(first, mode), err_msg=mode)
    np.testing.assert_array_equal(plain[:items], _directed(first, "rte"))
    np.testing.assert_array_equal(
        stored4[: items * 4], _directed(x[: items * 4], "rte")
    )
    written = stored3a[: items * 4].reshape(items, 4)
    expected = _directed(x[: items * 3], "rte")
    np.testing.assert_array_equal(written[:, :3].reshape(-1), expected)


SHUFFLE_KERNEL = """
__kernel void k(__global const int *x, __global const int *y, __global const uint *m,
                __global int *one, __global int *two) {
    size_t i = get_global_id(0);
    int4 a = vload4(i, x), b = vload4(i, y);
    uint8 mask = vload8(i, m);
    vstore8(shuffle(a, mask), i, one);
    vstore8(shuffle2(a, b, mask), i, two);
}
"""


def test_shuffles_pick_the_lanes_their_mask_names_modulo_the_lanes():
    rng = np.random.default_rng(2)
    items = 6
    x = rng.integers(-100, 100, items * 4, dtype=np.int32)
    y = rng.integers(-100, 100, items * 4, dtype=np.int32)
    m = rng.integers(0, 2**32, items * 8, dtype=np.uint32)  # high bits ignored
    one, two = np.zeros(items * 8, np.int32), np.zeros(items * 8, np.int32)
    program = mux.compile(SHUFFLE_KERNEL, language="opencl")
    program.kernel("k")(x, y, m, one, two, global_size=(items,), local_size=(1,))
    for i in range(items):
        a, b, mask = x[4 * i : 4 * i + 4], y[4 * i : 4 * i + 4], m[8 * i : 8 * i + 8]
        np.testing.assert_array_equal(one[8 * i : 8 * i + 8], a[mask % 4])
        np.testing.assert_array_equal(
            two[8 * i : 8 * i + 8], np.concatenate([a, b])[mask % 8]
        )
