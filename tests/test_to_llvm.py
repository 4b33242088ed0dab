"""`convert-to-llvm` on whole kernels: what is left is only `llvm`/`llvmx` ops, the
backend's LLVM IR parses and verifies, and the JIT-compiled code computes what the
input says (checked against numpy and Python). The kernels are the examples' kind
without `mux` ops: the global id is an extra `index` argument, or the kernel loops
over the range itself. The op-by-op output is checked by the lit tests in
`tests/filecheck/to_llvm/`."""

from __future__ import annotations

import ctypes
import math

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects import get_all_dialects
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.utils.exceptions import PassFailedException

from dialects import ALL_DIALECTS
from lowering import ALL_PASSES
from lowering.to_llvm import ConvertToLLVMPass
from mux.backend.jit import JITModule, compile_ir
from mux.backend.llvm_ir import translate

VADD = """
func.func @vadd(%a: memref<?xf32, 1>, %b: memref<?xf32, 1> {llvm.noalias},
                %c: memref<?xf32, 1>, %gid: index)
    attributes {mux.kernel = "entry-point"} {
  %lhs = memref.load %a[%gid] : memref<?xf32, 1>
  %rhs = memref.load %b[%gid] : memref<?xf32, 1>
  %sum = arith.addf %lhs, %rhs : f32
  memref.store %sum, %c[%gid] : memref<?xf32, 1>
  func.return
}
"""

SAXPY_LOOP = """
func.func @saxpy(%alpha: f32, %x: memref<?xf32, 1>, %y: memref<?xf32, 1>, %n: index)
    attributes {mux.kernel = "entry-point"} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %xi = memref.load %x[%i] : memref<?xf32, 1>
    %yi = memref.load %y[%i] : memref<?xf32, 1>
    %ax = arith.mulf %alpha, %xi : f32
    %r = arith.addf %ax, %yi : f32
    memref.store %r, %y[%i] : memref<?xf32, 1>
  }
  func.return
}
"""

# A private array: each row of 8 is copied into it and written back reversed.
PRIVATE_ARRAY = """
func.func @reverse_rows(%data: memref<?x8xi32, 1>, %rows: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c8 = arith.constant 8 : index
  scf.for %r = %c0 to %rows step %c1 {
    %private = memref.alloca() : memref<8xi32>
    scf.for %i = %c0 to %c8 step %c1 {
      %v = memref.load %data[%r, %i] : memref<?x8xi32, 1>
      memref.store %v, %private[%i] : memref<8xi32>
    }
    scf.for %i = %c0 to %c8 step %c1 {
      %j = arith.subi %c7, %i : index
      %v = memref.load %private[%j] : memref<8xi32>
      memref.store %v, %data[%r, %i] : memref<?x8xi32, 1>
    }
  }
  func.return
}
"""

# A vector loop: sum and maximum of an array, 4 lanes at a time.
VECTOR_LOOP = """
func.func @sum_max(%x: memref<?xf32, 1>, %n: index, %out: memref<2xf32, 1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.0e38 : f32
  %zeros = vector.broadcast %zero : f32 to vector<4xf32>
  %lows = vector.broadcast %lowest : f32 to vector<4xf32>
  %sums, %maxs = scf.for %i = %c0 to %n step %c4
      iter_args(%s = %zeros, %m = %lows) -> (vector<4xf32>, vector<4xf32>) {
    %v = vector.load %x[%i] : memref<?xf32, 1>, vector<4xf32>
    %s2 = arith.addf %s, %v : vector<4xf32>
    %m2 = arith.maxnumf %m, %v : vector<4xf32>
    scf.yield %s2, %m2 : vector<4xf32>, vector<4xf32>
  }
  %sum = vector.reduction <add>, %sums : vector<4xf32> into f32
  %max = vector.reduction <maxnumf>, %maxs : vector<4xf32> into f32
  memref.store %sum, %out[%c0] : memref<2xf32, 1>
  memref.store %max, %out[%c1] : memref<2xf32, 1>
  func.return
}
"""

# A tree sum in a local-memory global, with a while loop over the strides.
TREE_SUM = """
"memref.global"() <{sym_name = "scratch", sym_visibility = "private",
                    type = memref<64xf32, 3>, initial_value}> : () -> ()
func.func @tree_sum(%input: memref<?xf32, 1>, %n: index, %out: memref<f32, 1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %scratch = memref.get_global @scratch : memref<64xf32, 3>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %input[%i] : memref<?xf32, 1>
    memref.store %v, %scratch[%i] : memref<64xf32, 3>
  }
  %last = scf.while (%stride = %c1) : (index) -> index {
    %more = arith.cmpi ult, %stride, %n : index
    scf.condition(%more) %stride : index
  } do {
  ^bb0(%s: index):
    %step = arith.muli %s, %c2 : index
    scf.for %i = %c0 to %n step %step {
      %other = arith.addi %i, %s : index
      %inside = arith.cmpi ult, %other, %n : index
      scf.if %inside {
        %mine = memref.load %scratch[%i] : memref<64xf32, 3>
        %theirs = memref.load %scratch[%other] : memref<64xf32, 3>
        %sum = arith.addf %mine, %theirs : f32
        memref.store %sum, %scratch[%i] : memref<64xf32, 3>
      }
    }
    scf.yield %step : index
  }
  %total = memref.load %scratch[%c0] : memref<64xf32, 3>
  memref.store %total, %out[] : memref<f32, 1>
  func.return
}
"""

DIVISIONS = """
func.func @divisions(%a: memref<?xi32, 1>, %b: memref<?xi32, 1>,
                     %floor: memref<?xi32, 1>, %ceil: memref<?xi32, 1>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xi32, 1>
    %y = memref.load %b[%i] : memref<?xi32, 1>
    %f = arith.floordivsi %x, %y : i32
    %c = arith.ceildivsi %x, %y : i32
    memref.store %f, %floor[%i] : memref<?xi32, 1>
    memref.store %c, %ceil[%i] : memref<?xi32, 1>
  }
  func.return
}
"""

MATH = """
func.func @maths(%x: memref<?xf32, 1>, %out: memref<?x4xf32, 1>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf32, 1>
    %tan = math.tan %v : f32
    %rsqrt = math.rsqrt %v : f32
    %sqrt = math.sqrt %v : f32
    %round = math.round %v : f32
    memref.store %tan, %out[%i, %c0] : memref<?x4xf32, 1>
    memref.store %rsqrt, %out[%i, %c1] : memref<?x4xf32, 1>
    memref.store %sqrt, %out[%i, %c2] : memref<?x4xf32, 1>
    memref.store %round, %out[%i, %c3] : memref<?x4xf32, 1>
  }
  func.return
}
"""

# cf.switch on an i8 flag (200 is -56 as an i8), and cf.assert.
SWITCH = """
func.func @classify(%flag: i8) -> i32 {
  %true = arith.constant true
  cf.assert %true, "always"
  cf.switch %flag : i8, [
    default: ^other,
    -1: ^minus_one,
    200: ^two_hundred
  ]
^minus_one:
  %a = arith.constant 1 : i32
  func.return %a : i32
^two_hundred:
  %b = arith.constant 2 : i32
  func.return %b : i32
^other:
  %c = arith.constant 3 : i32
  func.return %c : i32
}
"""

# The index dialect, which xDSL 0.74 does not define (unregistered ops).
INDEX = """
func.func @index_ops(%a: index, %b: index) -> index {
  %five = "index.constant"() <{value = 5 : index}> : () -> index
  %sum = "index.add"(%a, %five) : (index, index) -> index
  %floor = "index.floordivs"(%sum, %b) : (index, index) -> index
  %less = "index.cmp"(%floor, %b) <{pred = #index<cmp_predicate slt>}>
      : (index, index) -> i1
  %r = arith.select %less, %floor, %b : index
  func.return %r : index
}
"""

KERNELS = {
    "vadd": VADD,
    "saxpy_loop": SAXPY_LOOP,
    "private_array": PRIVATE_ARRAY,
    "vector_loop": VECTOR_LOOP,
    "tree_sum": TREE_SUM,
    "divisions": DIVISIONS,
    "math": MATH,
    "switch": SWITCH,
    "index": INDEX,
}


def parse(text: str) -> ModuleOp:
    ctx = Context(allow_unregistered=True)
    for name, factory in {**get_all_dialects(), **ALL_DIALECTS}.items():
        if name not in ctx.registered_dialect_names:
            ctx.register_dialect(name, factory)
    module = Parser(ctx, text).parse_module()
    module.verify()
    return module


def lower(text: str) -> ModuleOp:
    module = parse(text)
    ConvertToLLVMPass().apply(Context(), module)
    module.verify()
    return module


def jit(text: str) -> JITModule:
    return compile_ir(translate(lower(text)))


def pointer(array: np.ndarray) -> ctypes.c_void_p:
    return ctypes.c_void_p(array.ctypes.data)


P, I64 = ctypes.c_void_p, ctypes.c_int64


def test_registered():
    assert ALL_PASSES["convert-to-llvm"]() is ConvertToLLVMPass


@pytest.mark.parametrize("name", KERNELS)
def test_only_llvm_ops_remain(name: str):
    module = lower(KERNELS[name])
    names = {op.name for op in module.walk() if op is not module}
    assert names
    assert all(n.split(".")[0] in ("llvm", "llvmx") for n in names), names


@pytest.mark.parametrize("name", KERNELS)
def test_llvm_ir_parses_and_verifies(name: str):
    from llvmlite import binding

    text = translate(lower(KERNELS[name]))
    binding.parse_assembly(text).verify()


@pytest.mark.parametrize("name", KERNELS)
def test_idempotent(name: str):
    """The output has nothing left to convert."""
    once = lower(KERNELS[name])
    again = once.clone()
    ConvertToLLVMPass().apply(Context(), again)
    assert str(again) == str(once)


def test_signature_and_attributes():
    (function,) = lower(VADD).ops
    assert str(function.function_type) == (
        "!llvm.func<void (!llvm.ptr<1>, !llvm.ptr<1>, !llvm.ptr<1>, i64)>"
    )
    assert str(function.attributes["mux.kernel"]) == '"entry-point"'
    assert "llvm.noalias" in function.arg_attrs.data[1].data
    assert function.linkage.linkage.data == "external"


def test_vadd_runs():
    module = jit(VADD)
    vadd = module.ctypes_function("vadd", None, [P, P, P, I64])
    a = np.arange(16, dtype=np.float32)
    b = np.full(16, 0.5, dtype=np.float32)
    c = np.zeros(16, dtype=np.float32)
    for gid in range(16):
        vadd(pointer(a), pointer(b), pointer(c), gid)
    np.testing.assert_array_equal(c, a + b)


def test_saxpy_loop_runs():
    saxpy = jit(SAXPY_LOOP).ctypes_function("saxpy", None, [ctypes.c_float, P, P, I64])
    x = np.linspace(-1, 1, 37, dtype=np.float32)
    y = np.ones(37, dtype=np.float32)
    expected = np.float32(3) * x + y
    saxpy(3.0, pointer(x), pointer(y), 37)
    np.testing.assert_allclose(y, expected, rtol=1e-6)


def test_private_array_runs():
    reverse = jit(PRIVATE_ARRAY).ctypes_function("reverse_rows", None, [P, I64])
    data = np.arange(5 * 8, dtype=np.int32).reshape(5, 8)
    expected = data[:, ::-1].copy()
    reverse(pointer(data), 5)
    np.testing.assert_array_equal(data, expected)


def test_vector_loop_runs():
    sum_max = jit(VECTOR_LOOP).ctypes_function("sum_max", None, [P, I64, P])
    x = np.random.default_rng(0).standard_normal(64).astype(np.float32)
    out = np.zeros(2, dtype=np.float32)
    sum_max(pointer(x), 64, pointer(out))
    assert out[0] == pytest.approx(float(x.sum(dtype=np.float64)), abs=1e-4)
    assert out[1] == x.max()


def test_tree_sum_runs():
    tree_sum = jit(TREE_SUM).ctypes_function("tree_sum", None, [P, I64, P])
    for n in (1, 7, 64):
        x = np.arange(1, n + 1, dtype=np.float32)
        out = np.zeros(1, dtype=np.float32)
        tree_sum(pointer(x), n, pointer(out))
        assert out[0] == n * (n + 1) / 2


def test_rounding_divisions_run():
    divisions = jit(DIVISIONS).ctypes_function("divisions", None, [P, P, P, P, I64])
    pairs = [(a, b) for a in (-7, -6, -1, 0, 1, 6, 7) for b in (-3, -2, 2, 3)]
    a = np.array([p[0] for p in pairs], dtype=np.int32)
    b = np.array([p[1] for p in pairs], dtype=np.int32)
    floor = np.zeros_like(a)
    ceil = np.zeros_like(a)
    divisions(pointer(a), pointer(b), pointer(floor), pointer(ceil), len(pairs))
    assert floor.tolist() == [x // y for x, y in pairs]
    assert ceil.tolist() == [-(-x // y) for x, y in pairs]


def test_maths_run():
    maths = jit(MATH).ctypes_function("maths", None, [P, P, I64])
    x = np.array([0.25, 1.0, 2.5, 4.0], dtype=np.float32)
    out = np.zeros((4, 4), dtype=np.float32)
    maths(pointer(x), pointer(out), 4)
    np.testing.assert_allclose(out[:, 0], np.tan(x), rtol=1e-6)
    np.testing.assert_allclose(out[:, 1], 1 / np.sqrt(x), rtol=1e-6)
    np.testing.assert_allclose(out[:, 2], np.sqrt(x), rtol=1e-6)
    # math.round rounds half away from zero (2.5 -> 3), unlike numpy's round.
    assert out[:, 3].tolist() == [math.floor(v + 0.5) for v in x.tolist()]


def test_switch_runs():
    classify = jit(SWITCH).ctypes_function("classify", ctypes.c_int32, [ctypes.c_int8])
    assert [classify(v) for v in (-1, -56, 0, 1, 127)] == [1, 2, 3, 3, 3]


def test_index_ops_run():
    index_ops = jit(INDEX).ctypes_function("index_ops", I64, [I64, I64])
    for a, b in [(1, 4), (-20, 3), (30, 2)]:
        floor = (a + 5) // b
        assert index_ops(a, b) == (floor if floor < b else b)


def test_diagnostic_leaves_the_module_unchanged():
    module = parse(
        VADD
        + """
func.func @bad(%m: memref<?x?xf32>) {
  func.return
}
"""
    )
    before = str(module)
    with pytest.raises(PassFailedException, match=r"only the leading dimension"):
        ConvertToLLVMPass().apply(Context(), module)
    assert str(module) == before


def test_mux_ops_are_rejected():
    module = parse(
        """
func.func @k(%a: memref<?xf32, 1>) {
  %x = arith.constant 0 : i32
  %i = mux.get_global_id %x
  func.return
}
"""
    )
    with pytest.raises(PassFailedException, match=r"run define-mux-builtins"):
        ConvertToLLVMPass().apply(Context(), module)


def test_one_intrinsic_on_two_types_translates():
    """One intrinsic on f32, f64 and a vector: three mangled declarations."""
    module = lower(
        """
func.func @mix(%x: f32, %d: f64, %v: vector<8xf32>) -> f64 {
  %a = math.sqrt %x : f32
  %b = math.sqrt %d : f64
  %c = math.sqrt %v : vector<8xf32>
  func.return %b : f64
}
"""
    )
    from llvmlite import binding

    ir_text = translate(module)
    for mangled in ('llvm.sqrt.f32"', 'llvm.sqrt.f64"', 'llvm.sqrt.v8f32"'):
        assert mangled in ir_text
    binding.parse_assembly(ir_text).verify()
