"""Manifests of the `c11atomics` group (UnitCL's C11Atomics.cpp): OpenCL C 3.0's
`atomic_init`, fences, `atomic_load/store/exchange`, `atomic_flag`, the
`atomic_fetch_<op>` family on global and local memory (the value each work-item
gets back, and the result of all of them), their truth tables on {0, 1}, and
`atomic_compare_exchange_strong` where every other work-item's expected value
matches. Results that depend on the order of the work-items (which one's
`fetch` saw which value) are not checked, as the test does not."""

from __future__ import annotations

from functools import reduce as fold

import numpy as np

from . import In, InOut, Launch, Local, Out, kts

INTS = {"int": np.int32, "long": np.int64, "uint": np.uint32, "ulong": np.uint64}
ALL = {**INTS, "float": np.float32, "double": np.float64}
STD = "-cl-std=CL3.0"
N, LN = kts.N, kts.localN
OPS = {
    "add": np.add,
    "sub": np.subtract,
    "or": np.bitwise_or,
    "xor": np.bitwise_xor,
    "and": np.bitwise_and,
    "min": np.minimum,
    "max": np.maximum,
}


def _random(dtype, count: int = N, seed: int = 0, clamp: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if np.issubdtype(dtype, np.floating):
        return (rng.standard_normal(count) * 1000).astype(dtype)
    info = np.iinfo(dtype)
    low, high = int(info.min) // clamp, int(info.max) // clamp
    return rng.integers(low, high, count, dtype=dtype, endpoint=True)


def _launch(args, local: bool) -> list[Launch]:
    if local:
        return [Launch((*args, Local(LN, args[0].data.dtype)), N, LN, options=STD)]
    return [Launch(args, N, options=STD)]


def _copy_through(dtype, local: bool) -> list[Launch]:
    """Init, load and store: the input comes back unchanged."""
    data = _random(dtype)
    return _launch((In(data), Out(data.copy())), local)


def _exchange(dtype, local: bool) -> list[Launch]:
    initial, desired = _random(dtype, seed=1), _random(dtype, seed=2)
    return _launch(
        (InOut(initial, desired.copy()), In(desired), Out(initial.copy())), local
    )


def _fetch_all(op: str, dtype, local: bool) -> list[Launch]:
    """Every work-item applies its input to one atomic (per work-group in local
    memory): the atomic ends as the fold of the inputs over its start."""
    clamp = N if op in ("add", "sub") else 1
    data = _random(dtype, seed=3, clamp=clamp)
    ufunc = OPS[op]

    def folded(values: np.ndarray) -> np.ndarray:
        if op in ("add", "sub"):
            return values.sum(dtype=dtype)
        return fold(ufunc, values[1:], values[0])

    if not local:
        start = {"add": 0, "sub": folded(data)}.get(op, data[0])
        end = 0 if op == "sub" else folded(data)
        args = (InOut(np.array([start], dtype), np.array([end], dtype)), In(data))
        return [Launch(args, N, options=STD)]
    groups = data.reshape(-1, LN)
    per_group = np.array([folded(g) for g in groups], dtype)
    if op == "sub":
        args = (In(data), Out(np.zeros(N // LN, dtype)), In(per_group))
    else:
        args = (In(data), Out(per_group))
    return [Launch((*args, Local(LN, dtype)), N, LN, options=STD)]


def _truth_table(op: str, dtype, local: bool) -> list[Launch]:
    launches = []
    for a in (0, 1):
        for b in (0, 1):
            result = np.array([int(OPS[op](a, b))], dtype)
            label = f"{a} {op} {b}"
            if local:
                args = (In(np.array([a, b], dtype)), Out(result), Local(2, dtype))
                launches.append(Launch(args, 2, 2, options=STD, label=label))
            else:
                args = (InOut(np.array([a], dtype), result), In(np.array([b], dtype)))
                launches.append(Launch(args, 1, options=STD, label=label))
    return launches


def _strong(dtype, locals_: int) -> list[Launch]:
    """Odd work-items expect the atomic's value and store the desired one; even
    ones expect something else and get the atomic's value back."""
    atomics, desired = _random(dtype, seed=4), _random(dtype, seed=5)
    odd = np.arange(N) % 2 == 1
    expected_in = np.where(odd, atomics, (atomics == 0).astype(dtype)).astype(dtype)
    args = (
        InOut(atomics, np.where(odd, desired, atomics).astype(dtype)),
        InOut(expected_in, atomics.copy()),
        In(desired),
        Out(odd.astype(np.int32)),
        *[Local(LN, dtype)] * locals_,
    )
    return [Launch(args, N, LN if locals_ else None, options=STD)]


def _identity_pair(local: bool) -> list[Launch]:
    """The fences: the input comes back through a flag the writer releases."""
    if local:
        args = (In(kts.identity()), Out(kts.identity()), Local(LN, np.int32))
        return [Launch(args, N, LN, options=STD)]
    args = (In(kts.identity()), In(np.zeros(N, np.int32)), Out(kts.identity()))
    return [Launch(args, N, options=STD)]


_P = "c11atomics"
_FETCH = ("add", "sub", "or", "xor", "and", "min", "max")
_COMPARE = {
    "55": ("global_global", 0),
    "56": ("global_local", 1),
    "57": ("global_private", 0),
    "58": ("local_global", 1),
    "59": ("local_local", 2),
    "60": ("local_private", 1),
}
_FLAGS_FALSE, _FLAGS_TRUE = np.zeros(N, np.int32), np.ones(N, np.int32)

MANIFESTS: dict[str, list[Launch]] = {
    **{
        f"{_P}.{n}_{what}_{space}_{name}": fn(dtype, space == "local")
        for n, what, space, fn in (
            ("01", "init", "global", _copy_through),
            ("02", "init", "local", _copy_through),
            ("09", "store", "local", _copy_through),
            ("10", "store", "global", _copy_through),
            ("11", "load", "local", _copy_through),
            ("12", "load", "global", _copy_through),
            ("13", "exchange", "local", _exchange),
            ("14", "exchange", "global", _exchange),
        )
        for name, dtype in ALL.items()
    },
    **{
        f"{_P}.0{n}_fence_{what}": _identity_pair(what == "local")
        for n, what in (
            (3, "acquire_release"),
            (4, "acquire"),
            (5, "release"),
            (6, "relaxed"),
            (7, "global"),
            (8, "local"),
        )
    },
    f"{_P}.17_flag_local_clear_set": [
        Launch((Out(_FLAGS_FALSE), Local(LN, np.int32)), N, LN, options=STD)
    ],
    f"{_P}.18_flag_local_set_twice": [
        Launch((Out(_FLAGS_TRUE), Local(LN, np.int32)), N, LN, options=STD)
    ],
    f"{_P}.19_flag_global_clear": [
        Launch((InOut(_FLAGS_TRUE, _FLAGS_FALSE),), N, options=STD)
    ],
    f"{_P}.20_flag_global_set_once": [
        Launch((InOut(_FLAGS_FALSE, _FLAGS_TRUE), Out(_FLAGS_FALSE)), N, options=STD)
    ],
    **{
        f"{_P}.{21 + i + 7 * local}_fetch_{space}_{op}_check_return_{name}": (
            _copy_through(dtype, bool(local))
        )
        for local, space in ((0, "global"), (1, "local"))
        for i, op in enumerate(_FETCH)
        for name, dtype in INTS.items()
    },
    **{
        f"{_P}.{35 + 2 * i + local}_fetch_{space}_{op}_{name}": _fetch_all(
            op, dtype, bool(local)
        )
        for local, space in ((0, "global"), (1, "local"))
        for i, op in enumerate(_FETCH)
        for name, dtype in INTS.items()
    },
    **{
        f"{_P}.{49 + i + 3 * local}_fetch_{space}_{op}_truth_table_{name}": (
            _truth_table(op, dtype, bool(local))
        )
        for local, space in ((0, "global"), (1, "local"))
        for i, op in enumerate(("or", "xor", "and"))
        for name, dtype in INTS.items()
    },
    **{
        f"{_P}.{n}_compare_exchange_strong_{spaces}_{name}": _strong(dtype, locals_)
        for n, (spaces, locals_) in _COMPARE.items()
        for name, dtype in INTS.items()
    },
}


def _unique(dtype, count: int, seed: int) -> np.ndarray:
    """`count` distinct values of `dtype` in random order."""
    rng = np.random.default_rng(seed)
    return (rng.permutation(count) * 7919 + 3).astype(dtype)


def _one_of(allowed: list[np.ndarray], what: str):
    """A check that each element is one of the `allowed` arrays' at its index."""

    def check(got: np.ndarray) -> str | None:
        ok = np.zeros(got.shape, bool)
        for values in allowed:
            ok |= got == values
        bad = np.flatnonzero(~ok)
        if not bad.size:
            return None
        i = int(bad[0])
        options = " or ".join(repr(a[i].item()) for a in allowed)
        return f"element {i}: expected {what} {options}, got {got[i].item()!r}"

    return check


def _weak(dtype, locals_: int) -> list[Launch]:
    """As `_strong`, but a weak exchange may fail when the values are equal: an
    odd work-item either stored the desired value and returned true, or left the
    atomic and returned false."""
    both = _unique(dtype, 2 * N, seed=6)
    atomics, desired = both[:N], both[N:]
    odd = np.arange(N) % 2 == 1
    expected_in = np.where(odd, atomics, (atomics == 0).astype(dtype)).astype(dtype)

    def results(got: np.ndarray) -> str | None:
        return _one_of([np.where(odd, desired, atomics).astype(dtype), atomics], "")(
            got
        )

    args = (
        InOut(atomics, results),
        InOut(expected_in, atomics.copy()),
        In(desired),
        Out(_one_of([odd.astype(np.int32), np.zeros(N, np.int32)], ""), np.int32, N),
        *[Local(LN, dtype)] * locals_,
    )
    return [Launch(args, N, LN if locals_ else None, options=STD)]


def _single(dtype, per_group: bool, locals_: int, weak: bool) -> list[Launch]:
    """One atomic (one per work-group when `per_group`) holds the expected value of
    one work-item: only that one succeeds and stores its desired value; the others
    get back the atomic's value before or after. A weak exchange may also fail."""
    both = _unique(dtype, 2 * N, seed=7)
    expected, desired = both[:N], both[N:]
    rng = np.random.default_rng(8)
    if per_group:
        winners = rng.integers(0, LN, N // LN) + np.arange(0, N, LN)
    else:
        winners = rng.integers(0, N, 1)
    owner = np.repeat(winners, N // winners.size)
    atomic_after = [desired[winners]] + ([expected[winners]] if weak else [])
    won = (np.arange(N) == owner).astype(np.int32)
    args = (
        InOut(expected[winners], _one_of(atomic_after, "")),
        InOut(
            expected.copy(),
            _one_of(
                [np.where(won == 1, expected, expected[owner]), desired[owner]], ""
            ),
        ),
        In(desired),
        Out(
            _one_of([won] + ([np.zeros(N, np.int32)] if weak else []), ""), np.int32, N
        ),
        *([Local(1, dtype)] if per_group else []),
        *[Local(LN, dtype)] * locals_,
    )
    local = LN if per_group or locals_ else None
    return [Launch(args, N, local, options=STD)]


_SINGLE = {
    "61": ("global_global", False, 0),
    "62": ("global_local", False, 1),
    "63": ("global_private", False, 0),
    "64": ("local_global", True, 0),
    "65": ("local_local", True, 1),
    "66": ("local_private", True, 0),
}
MANIFESTS.update(
    {
        f"{_P}.{int(n) + 12}_compare_exchange_weak_{spaces}_{name}": _weak(
            dtype, locals_
        )
        for n, (spaces, locals_) in _COMPARE.items()
        for name, dtype in INTS.items()
    }
)
MANIFESTS.update(
    {
        f"{_P}.{int(n) + 12 * weak}_compare_exchange_{kind}_{spaces}_single_{name}": (
            _single(dtype, per_group, locals_, weak)
        )
        for n, (spaces, per_group, locals_) in _SINGLE.items()
        for weak, kind in ((0, "strong"), (1, "weak"))
        for name, dtype in INTS.items()
    }
)
