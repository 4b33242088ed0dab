"""The library as another compiler uses it (docs/library.md): modules built in
Python compiled without text, the host pipeline run, cut, extended and observed, and
the worked example (examples/stencil_dsl.py)."""

import importlib.util
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from xdsl.builder import ImplicitBuilder
from xdsl.context import Context
from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    f32,
)
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

import mux
from dialects import attributes
from dialects import mux as mux_ops
from lowering.pipelines import HostPipeline
from mux.compiler import context

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def vadd_module() -> ModuleOp:
    """vadd(a, b, c): c[i] = a[i] + b[i], built with xDSL's builders."""
    buffer = MemRefType(f32, [DYNAMIC_INDEX], memory_space=IntegerAttr(1, 64))
    kernel = func.FuncOp("vadd", ([buffer] * 3, []))
    attributes.set_is_kernel_entry_point(kernel)
    a, b, c = kernel.body.block.args
    with ImplicitBuilder(kernel.body.block):
        i = mux_ops.GetGlobalIdOp(arith.ConstantOp.from_int_and_width(0, 32))
        total = arith.AddfOp(memref.LoadOp.get(a, [i]), memref.LoadOp.get(b, [i]))
        memref.StoreOp.get(total, c, [i])
        func.ReturnOp()
    return ModuleOp([kernel])


def run_vadd(program: mux.Program) -> None:
    a, b = np.arange(100, dtype=np.float32), np.full(100, 0.5, np.float32)
    c = np.zeros(100, np.float32)
    program.kernel("vadd")(a, b, c, global_size=100, local_size=10)
    np.testing.assert_array_equal(c, a + b)


def test_a_module_built_in_python_compiles_and_runs_unchanged():
    module = vadd_module()
    printed = str(module)
    program = mux.compile(module)
    run_vadd(program)
    assert str(module) == printed  # the caller's module is never changed
    assert program.module is not module  # a copy: theirs may change afterwards


def test_a_module_that_does_not_verify_is_a_compile_error():
    module = vadd_module()
    kernel = next(iter(module.ops))
    assert isinstance(kernel, func.FuncOp)
    ret = kernel.body.block.last_op
    assert ret is not None
    ret.detach()
    kernel.body.block.add_op(func.ReturnOp(kernel.args[0]))  # the type says none
    with pytest.raises(mux.CompileError, match=r"func\.return: Expected arguments"):
        mux.compile(module)


@dataclass(frozen=True)
class CountOps(ModulePass):
    """A caller's pass: records the number of ops it sees, and marks the module."""

    name = "count-ops"

    seen: list[int]

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        self.seen.append(sum(1 for _ in op.walk()))
        op.attributes["test.counted"] = StringAttr("yes")


def test_a_pass_of_the_callers_runs_inside_a_compile():
    seen: list[int] = []
    pipeline = HostPipeline().with_pass(CountOps(seen), after="run-vecz")
    run_vadd(mux.compile(vadd_module(), pipeline=pipeline))
    # run twice: by `mux.compile`'s check (any local size), then for the launch's
    assert len(seen) == 2 and min(seen) > 0


def test_the_pipeline_is_cut_extended_and_observed():
    seen: list[int] = []
    pipeline = HostPipeline(kernel="vadd", start="link-builtins", stop="run-vecz")
    pipeline = pipeline.with_pass(CountOps(seen), before="run-vecz")
    names = [p.name for p in pipeline.passes()]
    assert names[0] == "link-builtins" and names[-2:] == ["count-ops", "run-vecz"]
    module = vadd_module()
    ran: list[str] = []
    pipeline.lower(context(), module, after=lambda p, _: ran.append(p.name))
    assert ran == names
    assert module.attributes["test.counted"] == StringAttr("yes")


def test_a_pipeline_name_that_is_no_pass_is_an_error():
    with pytest.raises(PassFailedException, match="no pass 'run-vec'"):
        HostPipeline().with_pass(CountOps([]), after="run-vec").passes()
    with pytest.raises(ValueError, match="one of after= or before="):
        HostPipeline().with_pass(CountOps([]))


def test_options_go_once_with_a_pipeline():
    pipeline = HostPipeline(vecz_width=1)
    assert mux.compile(vadd_module(), pipeline=pipeline).options.vecz_width == 1
    with pytest.raises(mux.CompileError, match="disagree"):
        mux.compile(vadd_module(), pipeline=pipeline, vecz_width=4)


def test_the_stencil_dsl_example_matches_numpy():
    spec = importlib.util.spec_from_file_location(
        "stencil_dsl", EXAMPLES / "stencil_dsl.py"
    )
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    example.main()
