"""Every kernel in examples/ parses, verifies and round-trips through `mux-opt`:
custom -> custom is stable, and custom -> generic -> custom gives the same text."""

from pathlib import Path

import pytest

from mux.opt import main as mux_opt

EXAMPLES = sorted((Path(__file__).parent.parent / "examples").glob("*.mlir"))


def test_there_are_examples():
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_example_round_trips(example: Path, tmp_path: Path, capsys):
    mux_opt([str(example)])
    custom = capsys.readouterr().out
    assert "mux." in custom

    again = tmp_path / "custom.mlir"
    again.write_text(custom)
    mux_opt([str(again)])
    assert capsys.readouterr().out == custom

    mux_opt([str(example), "--print-op-generic"])
    generic = capsys.readouterr().out
    assert '"mux.' in generic
    generic_file = tmp_path / "generic.mlir"
    generic_file.write_text(generic)
    mux_opt([str(generic_file)])
    assert capsys.readouterr().out == custom


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_host_pipeline_lowers_example_to_llvm_ir(example: Path):
    import llvmlite.binding as llvm
    from xdsl.dialects.builtin import ModuleOp

    from lowering.pipelines import HostPipeline
    from mux.backend.llvm_ir import translate
    from mux.compiler import context, parse

    module = parse(example.read_text())
    HostPipeline().apply(context(), module)
    module.verify()
    dialects = {op.name.split(".")[0] for op in module.walk() if op is not module}
    assert dialects <= {"llvm", "llvmx"}, dialects
    assert isinstance(module, ModuleOp)
    llvm.parse_assembly(translate(module)).verify()
