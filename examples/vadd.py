"""Compile examples/vadd.mlir, run it on a million floats, compare with numpy.

python examples/vadd.py
"""

from pathlib import Path

import numpy as np

import mux

kernel = mux.load(Path(__file__).with_name("vadd.mlir")).kernel("vadd")
n = 1_000_003  # a prime: the last work-group is smaller than the others
rng = np.random.default_rng(0)
a = rng.random(n, dtype=np.float32)
b = rng.random(n, dtype=np.float32)
c = np.zeros(n, dtype=np.float32)
kernel(a, b, c, global_size=n, local_size=256)
assert np.array_equal(c, a + b), "vadd does not match numpy"
print(f"vadd: {n} elements in work-groups of 256, result matches numpy")
