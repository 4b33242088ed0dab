"""Errors early and short: what does not depend on a launch's sizes is a
CompileError of `mux.compile` itself, and a diagnostic is one message naming the op,
at its place in the source (`file:line:col`), not a dump of the module; the full IR
with MUX_DIAGNOSTIC_IR=1."""

import numpy as np
import pytest

import mux
from lowering.pipelines import HostPipeline
from mux.diagnostics import ENVIRONMENT_VARIABLE

HEADER = 'func.func @k(%a: memref<?xf32, 1>) attributes {mux.kernel = "entry-point"} {'

DYNAMIC_DIM = f"""{HEADER}
  %c0 = arith.constant 0 : index
  %n = memref.dim %a, %c0 : memref<?xf32, 1>
  %d = arith.constant 0 : i32
  %gid = mux.get_global_id %d
  %f = arith.index_cast %n : index to i32
  %v = arith.sitofp %f : i32 to f32
  memref.store %v, %a[%gid] : memref<?xf32, 1>
  func.return
}}
"""

FPOWI = f"""{HEADER}
  %d = arith.constant 0 : i32
  %gid = mux.get_global_id %d
  %x = memref.load %a[%gid] : memref<?xf32, 1>
  %three = arith.constant 3 : i32
  %y = math.fpowi %x, %three : f32, i32
  memref.store %y, %a[%gid] : memref<?xf32, 1>
  func.return
}}
"""

RETURNS = """func.func @k(%a: memref<?xf32, 1>) -> i32
    attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
    func.return %d : i32
}
"""

LOWERING_FAILURES = [
    pytest.param(DYNAMIC_DIM, "memref.dim", 3, 3, id="memref.dim"),
    pytest.param(FPOWI, "math.fpowi", 6, 3, id="math.fpowi"),
    pytest.param(RETURNS, "func.return", 4, 5, id="returns-a-value"),
]


@pytest.mark.parametrize(("source", "op", "line", "column"), LOWERING_FAILURES)
def test_lowering_failure_is_a_short_compile_error_at_the_op(
    source, op, line, column, monkeypatch
):
    monkeypatch.delenv(ENVIRONMENT_VARIABLE, raising=False)
    with pytest.raises(mux.CompileError) as caught:
        mux.compile(source, name="kernel.mlir")  # not at the launch: at compile
    message = str(caught.value)
    assert message.startswith(f"kernel.mlir:{line}:{column}: error: "), message
    assert op in message.splitlines()[0]
    assert source.splitlines()[line - 1] in message  # the line of source
    assert len(message) < 1024, message
    assert "func.func @k" not in message  # no IR: the line of source only


@pytest.mark.parametrize(("source", "op", "line", "column"), LOWERING_FAILURES)
def test_full_ir_on_request(source, op, line, column, monkeypatch):
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, "1")
    with pytest.raises(mux.CompileError) as caught:
        mux.compile(source, name="kernel.mlir")
    message = str(caught.value)
    assert message.startswith(f"kernel.mlir:{line}:{column}: error: ")
    ir = message.split("\n", 3)[3]  # after the message, its line of source, caret
    assert "func.func" in ir and "^^^^" in ir  # the IR, the op marked


def test_verifier_error_has_a_location_not_the_module(monkeypatch):
    monkeypatch.delenv(ENVIRONMENT_VARIABLE, raising=False)
    source = """func.func @k(%x: i32) {
  %r = mux.sub_group_reduce fadd %x : i32
  func.return
}
"""
    with pytest.raises(mux.CompileError) as caught:
        mux.compile(source, name="v.mlir")
    message = str(caught.value)
    assert message.startswith("v.mlir:2:3: error: "), message
    assert "mux.sub_group_reduce" in message.splitlines()[0]
    assert "'fadd' on i32" in message
    assert "func.func @k" not in message and len(message) < 1024


def test_constraint_error_while_parsing_has_a_location():
    source = """func.func @k(%a: memref<?xi32, 1>)
    attributes {mux.kernel = "entry-point"} {
  %d = arith.constant 0 : i32
  %gid = mux.get_global_id %d
  %x = memref.load %a[%gid] : memref<?xi32, 1>
  %y = arith.addf %x, %x : i32
  memref.store %y, %a[%gid] : memref<?xi32, 1>
  func.return
}
"""
    with pytest.raises(mux.CompileError) as caught:
        mux.compile(source, name="addf.mlir")
    message = str(caught.value)
    assert message.startswith("addf.mlir:6:3: error: "), message
    assert "arith.addf" in message.splitlines()[0]
    assert "Unexpected attribute i32" in message


def test_mux_attribute_error_has_a_location():
    source = """func.func @k() attributes {mux.bogus = 1 : i32} {
  func.return
}
"""
    with pytest.raises(mux.CompileError) as caught:
        mux.compile(source, name="attr.mlir")
    message = str(caught.value)
    assert message.startswith("attr.mlir:1:1: error: "), message
    assert "unknown mux attribute 'mux.bogus'" in message
    assert "func.return" not in message and len(message) < 1024


def test_a_good_kernel_runs_from_the_checked_lowering(monkeypatch):
    runs = []
    lower = HostPipeline.lower

    def counting_lower(self, ctx, op):
        runs.append(self.local_sizes)
        return lower(self, ctx, op)

    monkeypatch.setattr(HostPipeline, "lower", counting_lower)
    source = f"""{HEADER}
  %d = arith.constant 0 : i32
  %gid = mux.get_global_id %d
  %x = memref.load %a[%gid] : memref<?xf32, 1>
  %y = arith.addf %x, %x : f32
  memref.store %y, %a[%gid] : memref<?xf32, 1>
  func.return
}}
"""
    kernel = mux.compile(source, vecz_width=2).kernel("k")  # a source of its own
    assert runs == [()]  # checked: lowered unspecialised
    a = np.arange(10, dtype=np.float32)
    kernel(a, global_size=10, local_size=4)  # not uniform: the unspecialised one
    np.testing.assert_array_equal(a, 2 * np.arange(10, dtype=np.float32))
    assert runs == [()]  # compiled from the checked module: no second lowering
    mux.compile(source, vecz_width=2)
    assert runs == [()]  # the same source again: not checked again


def test_an_op_with_a_location_of_its_own_keeps_it():
    # MLIR generated from another language places its ops there: the diagnostic
    # gives that place, and the op (not a line of this text)
    source = FPOWI.replace(
        "%y = math.fpowi %x, %three : f32, i32",
        '%y = math.fpowi %x, %three : f32, i32 loc("kernel.cl":12:9)',
    )
    with pytest.raises(mux.CompileError) as caught:
        mux.compile(source, name="kernel.mlir")
    head, shown = str(caught.value).splitlines()[:2]
    assert head.startswith("kernel.cl:12:9: error: "), head
    assert "math.fpowi" in shown


UNDEFINED = f"""func.func private @frobnicate(f32) -> f32
{HEADER}
  %d = arith.constant 0 : i32
  %gid = mux.get_global_id %d
  %x = memref.load %a[%gid] : memref<?xf32, 1>
  %y = func.call @frobnicate(%x) : (f32) -> f32
  memref.store %y, %a[%gid] : memref<?xf32, 1>
  func.return
}}
"""


def test_a_call_of_a_function_defined_nowhere_is_refused_at_the_call():
    """Found on the `llvm` level (mux/backend/linking.py), after the conversion,
    whose ops keep the location of the op they convert: the call's line."""
    with pytest.raises(mux.CompileError) as caught:
        mux.compile(UNDEFINED, name="k.mlir")
    assert str(caught.value).splitlines() == [
        "k.mlir:6:3: error: llvm.call: @frobnicate is declared but defined nowhere: "
        "not in the module, and not a symbol of this process the JIT could link to",
        "    %y = func.call @frobnicate(%x) : (f32) -> f32",
        "    ^",
    ]


def test_a_libm_function_links():
    """A declared function the process has (libm's `expf`) is linked, not refused."""
    source = UNDEFINED.replace("frobnicate", "expf")
    a = np.array([0.0, 1.0, -2.0], dtype=np.float32)
    mux.compile(source).kernel("k")(a, global_size=3)
    np.testing.assert_allclose(a, np.exp([0.0, 1.0, -2.0]), rtol=1e-6)
