"""Every MLIR example in examples/ has an OpenCL C twin, examples/<name>.cl: the same
kernel name, as many parameters, the same stated preconditions; and the twin compiles
for spir64 with the build options its header states, calling the OpenCL C builtins
that match the MLIR's mux ops (clang is a test dependency: the `ziglang` wheel).

A new MLIR example without its OpenCL C twin fails here."""

import re
from pathlib import Path

import pytest
from kernels import build_options

from mux.frontend.clang import compile_opencl

EXAMPLES = Path(__file__).parent.parent / "examples"
MLIR = sorted(EXAMPLES.glob("*.mlir"))

# mux op (or atomic op) in the MLIR -> the OpenCL C builtin its twin must call.
BUILTIN_OF = {
    "mux.work_group_barrier": "barrier",
    "mux.dma_read_1d": "async_work_group_copy",
    "mux.dma_read_2d": "async_work_group_copy",
    "mux.dma_write_1d": "async_work_group_copy",
    "mux.dma_write_2d": "async_work_group_copy",
    "mux.dma_wait": "wait_group_events",
    "atomic.rmw": "atomic_",
}


def mlir_kernel(text: str) -> tuple[str, int]:
    """The MLIR example's kernel name and its number of parameters."""
    signature = re.search(r"func\.func @(\w+)\(([^)]*)\)", text)
    assert signature, "no func.func"
    return signature[1], len(re.findall(r"%\w+\s*:", signature[2]))


def address_spaces(text: str) -> list[str]:
    """The address space of each parameter of the MLIR example's kernel, as OpenCL C's
    kernel_arg_addr_space numbers them: a memref's own, 0 for a scalar."""
    signature = re.search(r"func\.func @\w+\(([^)]*)\)", text)
    assert signature
    types = re.findall(r"%\w+\s*:\s*(memref<[^>]*>|\w+)", signature[1])
    return [
        (re.search(r", (\d+)>$", t) or ["", "0"])[1] if t.startswith("memref") else "0"
        for t in types
    ]


def cl_kernel(text: str) -> tuple[str, int]:
    """The OpenCL C kernel's name and its number of parameters."""
    signature = re.search(r"(?:__)?kernel\s+void\s+(\w+)\s*\(([^)]*)\)", text)
    assert signature, "no __kernel void function"
    params = signature[2].strip()
    return signature[1], 0 if params in ("", "void") else params.count(",") + 1


def preconditions(text: str) -> list[str]:
    """The `// Preconditions` block of a header comment, line by line (the format
    scripts/fuzz_launch.py reads)."""
    lines = text.splitlines()
    start = next(
        i for i, line in enumerate(lines) if line.startswith("// Preconditions")
    )
    block = [lines[start]]
    for line in lines[start + 1 :]:
        if not line.startswith("//   "):
            break
        block.append(line)
    return block


def test_there_are_examples():
    assert len(MLIR) >= 13


@pytest.mark.parametrize("example", MLIR, ids=lambda p: p.stem)
def test_every_mlir_example_has_an_opencl_c_twin(example: Path):
    twin = example.with_suffix(".cl")
    assert twin.exists(), f"examples/{twin.name} is missing"
    mlir, cl = example.read_text(), twin.read_text()
    assert cl_kernel(cl) == mlir_kernel(mlir)
    assert preconditions(cl) == preconditions(mlir)


def test_no_opencl_c_example_without_an_mlir_one():
    assert {p.stem for p in EXAMPLES.glob("*.cl")} == {p.stem for p in MLIR}


def expected_builtins(mlir: str) -> set[str]:
    """The OpenCL C builtins the twin of this MLIR must call: the work-item queries
    by their own names, the rest by BUILTIN_OF."""
    ops = set(re.findall(r"\b((?:mux|atomic)\.\w+)", mlir))
    return {
        op.removeprefix("mux.") if op.startswith("mux.get_") else BUILTIN_OF[op]
        for op in ops
        if op.startswith("mux.get_") or op in BUILTIN_OF
    }


@pytest.mark.parametrize("example", MLIR, ids=lambda p: p.stem)
def test_opencl_c_twin_compiles_and_calls_the_builtins(example: Path):
    twin = example.with_suffix(".cl")
    options = " ".join([*build_options(twin.read_text()), "-Werror"])
    ir = compile_opencl(twin.read_text(), twin.name, options).llvm_ir
    name, _ = mlir_kernel(example.read_text())
    kernel = re.search(rf"^define [^@]*spir_kernel void @{name}\(.*$", ir, re.MULTILINE)
    assert kernel, f"no spir_kernel @{name}"
    spaces = re.search(r"!kernel_arg_addr_space (!\d+)", kernel[0])
    assert spaces
    listed = re.search(rf"^{spaces[1]} = !{{(.*)}}$", ir, re.MULTILINE)
    assert listed
    assert re.findall(r"i32 (\d+)", listed[1]) == address_spaces(example.read_text())
    called = called_builtins(ir)
    for builtin in expected_builtins(example.read_text()):
        assert any(c.startswith(builtin) for c in called), (builtin, called)


def called_builtins(ir: str) -> set[str]:
    """The names of the OpenCL C builtins the IR calls: clang mangles them the
    Itanium way, `@_Z<length of the name><name><parameter types>`."""
    names = set()
    for length, rest in re.findall(r"call spir_func [^@]*@_Z(\d+)(\w+)", ir):
        names.add(rest[: int(length)])
    return names
