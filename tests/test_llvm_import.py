"""The LLVM IR importer (issue 15, point 3): clang's IR for small OpenCL C kernels
(tests/filecheck/import/Inputs, made by the ziglang clang command of issue 15)
imports to a module that verifies, round-trips through the printer and parser,
and, for kernels without builtin calls, runs through the host pipeline to
numpy's answers; what it does not take is a CompileError naming the instruction
and its line; the text helpers each read their fact."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from llvmlite import binding
from xdsl.dialects.builtin import IntegerType, StringAttr, VectorType, f32
from xdsl.dialects.llvm import LLVMArrayType

import mux
from mux.compiler import context
from mux.errors import CompileError
from mux.frontend.llvm_import import facts, import_llvm, instruction_lines
from mux.frontend.llvm_import.kernels import element_type
from mux.frontend.llvm_import.text import hex_float, parse_type, pointer
from mux.source import parse_module

INPUTS = Path(__file__).parent / "filecheck" / "import" / "Inputs"


@pytest.mark.parametrize("path", sorted(INPUTS.glob("*.ll")), ids=lambda p: p.stem)
def test_clang_output_imports_verifies_and_round_trips(path):
    module = import_llvm(path.read_text(), path.name)
    module.verify()
    printed = str(module)
    assert str(parse_module(context(), printed)) == printed


def _run(name: str, kernel: str, *args) -> None:
    text = str(import_llvm((INPUTS / f"{name}.ll").read_text(), f"{name}.ll"))
    mux.compile(text).kernel(kernel)(*args, global_size=1, local_size=1)


def test_a_loop_with_phis_runs_as_numpy_computes():
    x = np.arange(-50, 53, dtype=np.int32)
    out = np.zeros(1, np.int32)
    _run("loop_sum", "loop_sum", x, out, np.int32(x.size))
    assert out[0] == (x * (np.arange(x.size) & 3)).sum()


def test_a_switch_runs_as_numpy_computes():
    x = np.arange(-20, 21, dtype=np.int32)
    out = np.zeros(x.size, np.float32)
    _run("switch", "classify", x, out, np.int32(x.size))
    cases = {0: 1.5, 1: -2.0, 3: None, 5: 0.1}
    expected = []
    for i, v in enumerate(x):
        case = cases.get(int(v) & 7, 0.0)
        if int(v) & 7 == 3:
            case = float(v)
        elif int(v) & 7 == 5:
            case = np.float32(0.1) * np.float32(i)
        expected.append(case)
    assert np.array_equal(out, np.array(expected, np.float32))


REFUSED = """\
define spir_kernel void @k(ptr addrspace(1) %p) {
  %v = atomicrmw nand ptr addrspace(1) %p, i32 1 seq_cst
  ret void
}
"""


def test_a_refusal_names_the_instruction_and_its_line():
    with pytest.raises(CompileError) as error:
        import_llvm(REFUSED, "k.ll")
    message = str(error.value)
    assert message.startswith("k.ll:2:1: error: cannot import `%v = atomicrmw nand")
    assert "atomicrmw nand (not an operation of atomic.rmw)" in message


def test_a_variadic_function_defined_in_the_module_is_refused():
    """A call of a declared variadic function is an llvm.call (printf); one
    defined in the module is refused by name (OpenCL C has none)."""
    text = "define i32 @sum(i32 %n, ...) {\n  ret i32 %n\n}\n"
    with pytest.raises(CompileError, match="variadic function sum"):
        import_llvm(text, "v.ll")


def test_a_refusal_gives_the_debug_place_when_there_is_one():
    """The DILocation's line and column, in the file its scope names."""
    text = REFUSED.replace("seq_cst", "seq_cst, !dbg !7").replace(
        "%p) {", "%p) !dbg !8 {"
    ) + (
        "!llvm.dbg.cu = !{!9}\n!llvm.module.flags = !{!11}\n"
        '!11 = !{i32 2, !"Debug Info Version", i32 3}\n'
        "!7 = !DILocation(line: 42, column: 3, scope: !8)\n"
        '!8 = distinct !DISubprogram(name: "k", file: !10, unit: !9,'
        " spFlags: DISPFlagDefinition)\n"
        "!9 = distinct !DICompileUnit(language: DW_LANG_OpenCL, file: !10)\n"
        '!10 = !DIFile(filename: "k.cl", directory: "/")\n'
    )
    with pytest.raises(CompileError, match=r"^k\.cl:42:3: error: cannot import"):
        import_llvm(text, "k.ll")


def test_an_exception_of_the_importer_itself_is_a_bug_not_a_diagnostic(monkeypatch):
    """A translator failing (as alloca's once did on xDSL's read-only result type)
    is the importer's fault: not a CompileError blaming the kernel, but an
    ImporterBug naming the instruction and its line, the exception as its cause."""
    from mux.frontend.llvm_import import instructions
    from mux.frontend.llvm_import.values import ImporterBug

    def broken(values, instruction):
        raise AttributeError("no setter")

    monkeypatch.setitem(instructions.TRANSLATORS, "add", broken)
    text = "define i32 @f(i32 %x) {\n  %y = add i32 %x, 1\n  ret i32 %y\n}\n"
    with pytest.raises(ImporterBug) as error:
        import_llvm(text, "f.ll")
    assert not isinstance(error.value, CompileError)
    assert "f.ll:2: importing `%y = add i32 %x, 1`: AttributeError" in str(error.value)
    assert "a bug, not a fault of the kernel" in str(error.value)
    assert isinstance(error.value.__cause__, AttributeError)


def test_invalid_llvm_ir_is_a_compile_error():
    with pytest.raises(CompileError, match="invalid LLVM IR"):
        import_llvm("define void @f( {", "bad.ll")


def test_constant_expressions_are_built_as_instructions():
    text = """\
@g = internal addrspace(3) global [8 x i32] undef, align 4
define void @f(i32 %x) {
  store i32 %x, ptr addrspace(3) getelementptr inbounds (i8, ptr addrspace(3) @g,
      i64 8), align 4
  store i32 %x, ptr addrspace(4) addrspacecast (ptr addrspace(3) @g to
      ptr addrspace(4)), align 4
  ret void
}
"""
    printed = str(import_llvm(text))
    assert "[8] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8" in printed
    assert "llvmx.addrspacecast" in printed


# ------------------------------------------------------------ the text helpers


def test_types_are_read_from_their_text():
    assert parse_type("<4 x float>") == VectorType(f32, [4])
    assert parse_type("ptr addrspace(3)") == pointer(3)
    assert parse_type("[2 x [3 x i8]]") == LLVMArrayType(
        2, LLVMArrayType(3, IntegerType(8))
    )


def test_hex_floats_are_a_doubles_bits_or_a_halfs():
    assert hex_float("0x3FB99999A0000000", f32) == np.float64(np.float32(0.1))
    assert hex_float("0xH3C00", f32) == 1.0


def test_instruction_facts():
    assert facts.predicate("  %4 = icmp sgt i32 %2, 0") == "sgt"
    assert facts.predicate("  %4 = fcmp fast olt float %2, %3") == "olt"
    assert facts.words_after_opcode("  %5 = add nuw nsw i32 %6, 1") == ["nuw", "nsw"]
    assert facts.alignment("  store float %9, ptr %10, align 4, !tbaa !12") == 4
    mask = (
        "  %16 = shufflevector <4 x float> %a, <4 x float> %b, "
        "<4 x i32> <i32 7, i32 poison, i32 2, i32 3>"
    )
    assert facts.shuffle_mask(mask) == [7, -1, 2, 3]
    assert facts.aggregate_indices(
        "  %r = extractvalue { i32, [2 x i8] } %s, 1, 0"
    ) == [1, 0]


def test_fast_math_flags_survive_the_printer():
    """LLVM's `fast` is all seven flags: it was kept as the string "fast", which
    xDSL prints as no flag (`#llvm.fastmath<>`), so a module printed and parsed
    again lost it, and xDSL's translation reads only enum members."""
    text = (
        "define float @f(float %a, float %b) {\n"
        "  %c = fadd fast float %a, %b\n"
        "  %d = fmul nnan ninf float %c, %b\n"
        "  %e = call fast float @llvm.sqrt.f32(float %d)\n"
        "  %i = fptosi float %e to i32\n"
        "  %j = add nuw nsw i32 %i, 1\n"
        "  %k = sitofp i32 %j to float\n"
        "  ret float %k\n"
        "}\n"
        "declare float @llvm.sqrt.f32(float)\n"
    )
    printed = str(import_llvm(text, "fast.ll"))
    assert printed.count("#llvm.fastmath<fast>") == 2  # the fadd and the sqrt
    assert "#llvm.fastmath<nnan,ninf>" in printed
    assert "overflow<nsw,nuw>" in printed
    assert str(parse_module(context(), printed, "fast.mlir")) == printed


def test_kernel_arg_base_types_name_the_buffer_element():
    assert element_type("float4*") == VectorType(f32, [4])
    assert element_type("float __attribute__((ext_vector_type(4)))*") == VectorType(
        f32, [4]
    )
    assert element_type("uint*") == IntegerType(32)
    assert element_type("_Atomic(unsigned long)*") == IntegerType(64)
    assert element_type("struct S*") == IntegerType(8)


def test_instruction_lines_skip_labels_and_switch_cases():
    text = (INPUTS / "switch.ll").read_text()
    lines = instruction_lines(text)["classify"]
    module = binding.parse_assembly(text)
    blocks = module.get_function("classify").blocks
    assert len(lines) == sum(len(list(b.instructions)) for b in blocks)
    numbered = text.splitlines()
    assert numbered[lines[7] - 1].strip().startswith("switch i32")
    assert numbered[lines[8] - 1].strip() == "br label %18"


HELPER_CL = """void put(__local float *t, size_t i, float v)
{
    t[i] = v;
}

__kernel void helper(__global float *out)
{
    __local float tile[64];
    size_t lid = get_local_id(0);
    put(tile, lid + 1, 1.0f);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[lid];
}
"""


def test_each_instruction_has_its_own_debug_place_in_every_function():
    """An instruction's `!dbg !N` is read from the module's printout, whose
    metadata numbers are the debug places' (an instruction printed alone numbers
    its metadata afresh: in a function after the first, another node's). The
    store `put` was inlined into `helper` is at line 3, helper's load at 12, its
    store at 12 too, not at the places of the instructions before them."""
    from mux.frontend.clang import compile_opencl

    module = import_llvm(compile_opencl(HELPER_CL, "h.cl").llvm_ir, "h.cl")
    kernel = next(
        op for op in module.ops if getattr(op, "sym_name", None) == StringAttr("helper")
    )
    places = [
        (op.name, op.location.line.data, op.location.column.data)
        for op in kernel.walk()
        if op.name in ("llvm.load", "llvm.store")
    ]
    assert places == [
        ("llvm.store", 3, 10),
        ("llvm.load", 12, 29),
        ("llvm.store", 12, 27),
    ]
