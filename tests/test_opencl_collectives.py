"""OpenCL C's work-group functions (2.0) and cl_khr_subgroups' sub-group functions,
through clang, the importer and lower-to-mux-builtins, against numpy: every
work-item's result is its group's (or sub-group's) reduction, scan or broadcast,
over 1-D and 2-D ranges, partial work-groups, local size 1 and several sub-group
sizes (the last sub-group of a work-group may be smaller)."""

from __future__ import annotations

import numpy as np
import pytest

import mux

SOURCE = """\
__kernel void group(__global const int *x, __global int *out) {
  size_t n = get_global_size(0) * get_global_size(1);
  size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
  int v = x[i];
  out[i] = work_group_reduce_add(v);
  out[n + i] = work_group_reduce_min(v);
  out[2 * n + i] = work_group_reduce_max(v);
  out[3 * n + i] = work_group_scan_inclusive_add(v);
  out[4 * n + i] = work_group_scan_exclusive_max(v);
  out[5 * n + i] = work_group_broadcast(v, get_local_size(0) - 1, 0);
  out[6 * n + i] = work_group_any(v < -40);
  out[7 * n + i] = work_group_all(v > -45);
}

__kernel void sub_group(__global const int *x, __global int *out) {
  size_t n = get_global_size(0) * get_global_size(1);
  size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
  int v = x[i];
  out[i] = sub_group_reduce_add(v);
  out[n + i] = sub_group_scan_inclusive_min(v);
  out[2 * n + i] = sub_group_scan_exclusive_add(v);
  out[3 * n + i] = sub_group_broadcast(v, 0);
  out[4 * n + i] = sub_group_any(v > 40);
  out[5 * n + i] = get_sub_group_id() * 1000 + get_sub_group_local_id() * 10
                   + get_sub_group_size();
}
"""

SHAPES = [  # global, local
    ((37,), (8,)),
    ((16,), (16,)),
    ((5,), (1,)),
    ((12, 6), (4, 3)),
    ((10, 5), (4, 2)),
]


def _groups(global_size, local_size):
    """Each work-group's global linear ids (row-major over x, y), in local linear
    order: the last group in each dimension may be partial."""
    gx = global_size[0]
    gy = global_size[1] if len(global_size) > 1 else 1
    lx = local_size[0]
    ly = local_size[1] if len(local_size) > 1 else 1
    for y0 in range(0, gy, ly):
        for x0 in range(0, gx, lx):
            ys = range(y0, min(y0 + ly, gy))
            xs = range(x0, min(x0 + lx, gx))
            yield [y * gx + x for y in ys for x in xs], len(xs)


def _exclusive(values, op, identity):
    result, acc = [], identity
    for v in values:
        result.append(acc)
        acc = op(acc, v)
    return result


def _group_reference(x, global_size, local_size):
    n = x.size
    out = np.zeros(8 * n, np.int64)
    for ids, width in _groups(global_size, local_size):
        v = x[ids].astype(np.int64)
        out[ids] = v.sum()
        out[n + np.array(ids)] = v.min()
        out[2 * n + np.array(ids)] = v.max()
        out[3 * n + np.array(ids)] = np.cumsum(v)
        out[4 * n + np.array(ids)] = _exclusive(v, max, np.iinfo(np.int32).min)
        out[5 * n + np.array(ids)] = v[width - 1]  # (local_size(0) - 1, 0)
        out[6 * n + np.array(ids)] = int((v < -40).any())
        out[7 * n + np.array(ids)] = int((v > -45).all())
    return out


def _sub_group_reference(x, global_size, local_size, size):
    n = x.size
    out = np.zeros(6 * n, np.int64)
    for ids, _ in _groups(global_size, local_size):
        for sg, start in enumerate(range(0, len(ids), size)):
            members = np.array(ids[start : start + size])
            v = x[members].astype(np.int64)
            out[members] = v.sum()
            out[n + members] = np.minimum.accumulate(v)
            out[2 * n + members] = _exclusive(v, lambda a, b: a + b, 0)
            out[3 * n + members] = v[0]
            out[4 * n + members] = int((v > 40).any())
            out[5 * n + members] = [
                sg * 1000 + lane * 10 + len(members) for lane in range(len(members))
            ]
    return out


def _inputs(global_size):
    count = int(np.prod(global_size))
    return np.random.default_rng(count).integers(-50, 50, count).astype(np.int32)


@pytest.mark.parametrize(("global_size", "local_size"), SHAPES)
def test_work_group_functions(global_size, local_size):
    program = mux.compile(SOURCE, language="opencl", build_options="-cl-std=CL2.0")
    x = _inputs(global_size)
    out = np.zeros(8 * x.size, np.int32)
    program.kernel("group")(x, out, global_size=global_size, local_size=local_size)
    np.testing.assert_array_equal(out, _group_reference(x, global_size, local_size))


@pytest.mark.parametrize("size", [1, 4, 8])
@pytest.mark.parametrize(("global_size", "local_size"), SHAPES)
def test_sub_group_functions(global_size, local_size, size):
    program = mux.compile(
        SOURCE, language="opencl", build_options="-cl-std=CL2.0", sub_group_size=size
    )
    x = _inputs(global_size)
    out = np.zeros(6 * x.size, np.int32)
    program.kernel("sub_group")(x, out, global_size=global_size, local_size=local_size)
    expected = _sub_group_reference(x, global_size, local_size, size)
    np.testing.assert_array_equal(out, expected)
