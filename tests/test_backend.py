"""The LLVM backend: llvm-dialect modules translated, JIT-compiled and run.

Each test writes a small module in the `llvm` (and `llvmx`) dialect, translates it
with `mux.backend.llvm_ir.translate`, compiles it with `mux.backend.jit.compile_ir`
and calls it through ctypes on numpy buffers.
"""

from __future__ import annotations

import ctypes
import re
import threading

import numpy as np
import pytest
from xdsl.context import Context
from xdsl.dialects import get_all_dialects, llvm
from xdsl.dialects.builtin import IntegerAttr, IntegerType, ModuleOp
from xdsl.parser import Parser
from xdsl.utils.exceptions import DiagnosticException

from dialects import ALL_DIALECTS
from lowering.common.errors import PassError
from mux.backend.address_spaces import flatten_address_spaces
from mux.backend.jit import JITError, JITModule, compile_ir
from mux.backend.linking import check_linkable
from mux.backend.llvm_ir import TranslationError, translate

c_ptr = ctypes.c_void_p
i32, i64, f32, f64 = ctypes.c_int32, ctypes.c_int64, ctypes.c_float, ctypes.c_double


def parse(text: str) -> ModuleOp:
    ctx = Context()
    for name, factory in {**get_all_dialects(), **ALL_DIALECTS}.items():
        ctx.register_dialect(name, factory)
    module = Parser(ctx, text).parse_module()
    module.verify()
    return module


def jit(text: str) -> JITModule:
    return compile_ir(translate(parse(text)))


def ptr(array: np.ndarray) -> int:
    return array.ctypes.data


# --------------------------------------------------------------------------------------
# Functions, control flow, memory.
# --------------------------------------------------------------------------------------


def test_scalar_add():
    module = jit(
        """
        llvm.func @add(%a: i32, %b: i32) -> i32 {
          %s = llvm.add %a, %b : i32
          llvm.return %s : i32
        }
        """
    )
    add = module.ctypes_function("add", i32, [i32, i32])
    assert add(2, 3) == 5
    assert add(-7, 3) == -4


# y[i] = x[i] * 2 + 1 for i < n: a loop with cf branches, block arguments, GEP,
# load and store. The pointer type is a parameter, for the address-space test.
AXPB = """
llvm.func @axpb(%x: {ptr}, %y: {ptr}, %n: i64) {{
  %zero = llvm.mlir.constant(0 : i64) : i64
  %one = llvm.mlir.constant(1 : i64) : i64
  %two = llvm.mlir.constant(2.0 : f32) : f32
  %onef = llvm.mlir.constant(1.0 : f32) : f32
  llvm.br ^header(%zero : i64)
^header(%i: i64):
  %more = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %more, ^body, ^exit
^body:
  %px = llvm.getelementptr inbounds %x[%i] : ({ptr}, i64) -> {ptr}, f32
  %v = llvm.load %px : {ptr} -> f32
  %m = llvm.fmul %v, %two : f32
  %r = llvm.fadd %m, %onef : f32
  %py = llvm.getelementptr inbounds %y[%i] : ({ptr}, i64) -> {ptr}, f32
  llvm.store %r, %py : f32, {ptr}
  %next = llvm.add %i, %one : i64
  llvm.br ^header(%next : i64)
^exit:
  llvm.return
}}
"""


@pytest.mark.parametrize("pointer", ["!llvm.ptr", "!llvm.ptr<1>"])
def test_loop_over_an_array(pointer):
    module = jit(AXPB.format(ptr=pointer))
    axpb = module.ctypes_function("axpb", None, [c_ptr, c_ptr, i64])
    x = np.arange(37, dtype=np.float32) - 5.5
    y = np.zeros_like(x)
    axpb(ptr(x), ptr(y), len(x) - 2)
    np.testing.assert_array_equal(y[:-2], x[:-2] * 2 + 1)
    assert (y[-2:] == 0).all()


def test_address_spaces_are_flat_in_llvm_ir_only():
    module = parse(AXPB.format(ptr="!llvm.ptr<1>"))
    text = translate(module)
    assert "addrspace" not in text
    assert "define void @axpb(ptr %x, ptr %y, i64 %n)" in text.replace('"', "")
    # The input module keeps the spec's address spaces.
    assert "!llvm.ptr<1>" in str(module)


def test_blocks_translated_in_dominance_order():
    # ^use comes before ^def in the region, but ^def dominates it.
    module = jit(
        """
        llvm.func @f(%a: i32) -> i32 {
          llvm.br ^def
        ^use:
          %r = llvm.mul %d, %d : i32
          llvm.return %r : i32
        ^def:
          %d = llvm.add %a, %a : i32
          llvm.br ^use
        }
        """
    )
    assert module.ctypes_function("f", i32, [i32])(3) == 36


def test_two_edges_to_one_block_with_different_arguments():
    # LLVM's phis cannot tell the two edges of this cond_br apart: one goes through
    # a block of its own.
    module = jit(
        """
        llvm.func @pick(%c: i1, %a: i32, %b: i32) -> i32 {
          llvm.cond_br %c, ^join(%a : i32), ^join(%b : i32)
        ^join(%r: i32):
          llvm.return %r : i32
        }
        """
    )
    pick = module.ctypes_function("pick", i32, [ctypes.c_bool, i32, i32])
    assert (pick(True, 1, 2), pick(False, 1, 2)) == (1, 2)


def test_global_in_address_space_3_with_initialiser():
    module = jit(
        """
        llvm.mlir.global internal constant
            @lut(dense<[5, -7, 11, 13]> : tensor<4xi32>)
            {addr_space = 3 : i32} : !llvm.array<4 x i32>
        llvm.mlir.global internal
            @grid(dense<[[1.5, 2.5], [3.5, 4.5]]> : tensor<2x2xf32>)
            {addr_space = 3 : i32, alignment = 16 : i64}
            : !llvm.array<2 x !llvm.array<2 x f32>>
        llvm.mlir.global external @counter(41 : i64) : i64
        llvm.mlir.global external @scratch() : i64
        llvm.func @lookup(%i: i64) -> i32 {
          %base = llvm.mlir.addressof @lut : !llvm.ptr<3>
          %p = llvm.getelementptr %base[0, %i]
              : (!llvm.ptr<3>, i64) -> !llvm.ptr<3>, !llvm.array<4 x i32>
          %v = llvm.load %p : !llvm.ptr<3> -> i32
          llvm.return %v : i32
        }
        llvm.func @cell(%i: i64, %j: i64) -> f32 {
          %base = llvm.mlir.addressof @grid : !llvm.ptr<3>
          %p = llvm.getelementptr %base[0, %i, %j]
              : (!llvm.ptr<3>, i64, i64) -> !llvm.ptr<3>,
                !llvm.array<2 x !llvm.array<2 x f32>>
          %v = llvm.load %p : !llvm.ptr<3> -> f32
          llvm.return %v : f32
        }
        llvm.func @bump() -> i64 {
          %p = llvm.mlir.addressof @counter : !llvm.ptr
          %v = llvm.load %p : !llvm.ptr -> i64
          %one = llvm.mlir.constant(1 : i64) : i64
          %w = llvm.add %v, %one : i64
          llvm.store %w, %p : i64, !llvm.ptr
          llvm.return %w : i64
        }
        """
    )
    lookup = module.ctypes_function("lookup", i32, [i64])
    assert [lookup(i) for i in range(4)] == [5, -7, 11, 13]
    cell = module.ctypes_function("cell", f32, [i64, i64])
    assert [cell(i, j) for i in range(2) for j in range(2)] == [1.5, 2.5, 3.5, 4.5]
    assert module.ctypes_function("bump", i64, [])() == 42
    assert module.ctypes_function("bump", i64, [])() == 43


def test_global_initialiser_region_and_declarations():
    text = translate(
        parse(
            """
            llvm.mlir.global external @value(7 : i32) : i32
            llvm.mlir.global external @imported() : i32
            llvm.mlir.global internal @local() {addr_space = 3 : i32}
                : !llvm.array<8 x f32>
            llvm.mlir.global internal @to_value() : !llvm.ptr {
              %0 = llvm.mlir.addressof @value : !llvm.ptr
              llvm.return %0 : !llvm.ptr
            }
            """
        )
    ).replace('"', "")
    assert "@value = global i32 7" in text  # a definition: no `external` keyword
    assert "@imported = external global i32" in text
    assert "@local = internal global [8 x float] undef" in text
    assert "@to_value = internal global ptr @value" in text


# --------------------------------------------------------------------------------------
# Linkage and function attributes.
# --------------------------------------------------------------------------------------


LINKAGE = """
llvm.func internal @helper(%a: i32) -> i32
    attributes {passthrough = ["alwaysinline", "nounwind"]} {
  %s = llvm.mul %a, %a : i32
  llvm.return %s : i32
}
llvm.func @square(%a: i32) -> i32 attributes {passthrough = ["nounwind"]} {
  %s = llvm.call @helper(%a) : (i32) -> i32
  llvm.return %s : i32
}
"""


def test_internal_functions_are_internal():
    text = translate(parse(LINKAGE)).replace('"', "")
    assert "define internal i32 @helper(i32 %a) alwaysinline nounwind" in text
    assert "define i32 @square(i32 %a) nounwind" in text
    module = compile_ir(translate(parse(LINKAGE)))
    assert module.ctypes_function("square", i32, [i32])(-9) == 81
    assert "@helper" not in module.llvm_ir  # inlined, then deleted
    with pytest.raises(JITError, match="no exported function @helper"):
        module.address("helper")


def test_unknown_function_attribute():
    with pytest.raises(TranslationError, match="unsupported function attribute"):
        translate(parse('llvm.func @f() attributes {passthrough = ["fast_please"]}'))


def test_noalias_argument():
    text = translate(
        parse("llvm.func @f(%p: !llvm.ptr<1> {llvm.noalias}, %q: !llvm.ptr)")
    )
    assert "declare void @f(ptr noalias %.1, ptr %.2)" in text.replace('"', "")


# --------------------------------------------------------------------------------------
# llvmx ops.
# --------------------------------------------------------------------------------------


def test_float_integer_casts_on_edge_values():
    module = jit(
        """
        llvm.func @to_i32(%x: f64) -> i32 {
          %r = llvmx.fptosi %x : f64 to i32
          llvm.return %r : i32
        }
        llvm.func @to_u32(%x: f32) -> i32 {
          %r = llvmx.fptoui %x : f32 to i32
          llvm.return %r : i32
        }
        llvm.func @from_u64(%x: i64) -> f64 {
          %r = llvmx.uitofp %x : i64 to f64
          llvm.return %r : f64
        }
        llvm.func @from_u32(%x: i32) -> f32 {
          %r = llvmx.uitofp %x : i32 to f32
          llvm.return %r : f32
        }
        """
    )
    to_i32 = module.ctypes_function("to_i32", i32, [f64])
    assert [to_i32(v) for v in (2.7, -2.7, -0.0, 2147483647.0, -2147483648.0)] == [
        2,
        -2,
        0,
        2**31 - 1,
        -(2**31),
    ]
    to_u32 = module.ctypes_function("to_u32", ctypes.c_uint32, [f32])
    assert to_u32(3.9e9) == 3_900_000_000
    assert to_u32(0.99) == 0
    from_u64 = module.ctypes_function("from_u64", f64, [ctypes.c_uint64])
    assert from_u64(2**64 - 1) == 2.0**64
    assert from_u64(2**63) == 2.0**63
    from_u32 = module.ctypes_function("from_u32", f32, [ctypes.c_uint32])
    assert from_u32(0xFFFFFFFF) == np.float32(4294967295.0)


def test_vector_cast_extractelement_and_freeze():
    module = jit(
        """
        llvm.func @pick(%p: !llvm.ptr, %i: i32) -> i32 {
          %v = llvm.load %p : !llvm.ptr -> vector<4xf32>
          %n = llvmx.fptosi %v : vector<4xf32> to vector<4xi32>
          %e = llvmx.extractelement %n[%i : i32] : vector<4xi32>
          %f = llvmx.freeze %e : i32
          llvm.return %f : i32
        }
        """
    )
    pick = module.ctypes_function("pick", i32, [c_ptr, i32])
    data = np.array([1.9, -3.5, 1e6, -0.25], dtype=np.float32)
    assert [pick(ptr(data), i) for i in range(4)] == [1, -3, 1_000_000, 0]


def test_switch_with_several_cases():
    module = jit(
        """
        llvm.func @classify(%x: i32, %y: i64) -> i64 {
          %ten = llvm.mlir.constant(10 : i64) : i64
          llvmx.switch %x : i32, ^join(%y : i64) [
            0: ^zero,
            5: ^join(%ten : i64),
            -1: ^negate(%y, %ten : i64, i64)
          ]
        ^zero:
          %c = llvm.mlir.constant(1000 : i64) : i64
          llvm.br ^join(%c : i64)
        ^negate(%a: i64, %b: i64):
          %d = llvm.sub %b, %a : i64
          llvm.br ^join(%d : i64)
        ^join(%r: i64):
          llvm.return %r : i64
        }
        """
    )
    classify = module.ctypes_function("classify", i64, [i32, i64])
    assert [classify(x, 3) for x in (0, 5, -1, 7, 1)] == [1000, 10, 7, 3, 3]


ATOMICS = """
llvm.func @fetch_add(%p: !llvm.ptr<1>, %v: i32) -> i32 {
  %old = llvmx.atomicrmw add %p, %v seq_cst : !llvm.ptr<1>, i32
  llvm.return %old : i32
}
llvm.func @fetch_max(%p: !llvm.ptr, %v: i32) -> i32 {
  %old = llvmx.atomicrmw max %p, %v acq_rel align 4 : !llvm.ptr, i32
  llvm.return %old : i32
}
llvm.func @fetch_fadd(%p: !llvm.ptr, %v: f32) -> f32 {
  %old = llvmx.atomicrmw fadd %p, %v monotonic : !llvm.ptr, f32
  llvm.return %old : f32
}
llvm.func @cas(%p: !llvm.ptr<1>, %expected: i64, %new: i64, %ok: !llvm.ptr) -> i64 {
  %r = llvmx.cmpxchg %p, %expected, %new acq_rel acquire : !llvm.ptr<1>, i64
  %old = llvm.extractvalue %r[0] : !llvm.struct<(i64, i1)>
  %success = llvm.extractvalue %r[1] : !llvm.struct<(i64, i1)>
  %flag = llvm.zext %success : i1 to i8
  llvm.store %flag, %ok : i8, !llvm.ptr
  llvmx.fence release
  llvm.return %old : i64
}
llvm.func @weak_cas(%p: !llvm.ptr, %expected: i32, %new: i32) -> i32 {
  %r = llvmx.cmpxchg weak %p, %expected, %new seq_cst seq_cst align 4 : !llvm.ptr, i32
  %old = llvm.extractvalue %r[0] : !llvm.struct<(i32, i1)>
  llvmx.fence seq_cst
  llvm.return %old : i32
}
llvm.func @add_many(%p: !llvm.ptr, %n: i64) {
  %zero = llvm.mlir.constant(0 : i64) : i64
  %one = llvm.mlir.constant(1 : i64) : i64
  %onei = llvm.mlir.constant(1 : i32) : i32
  llvm.br ^loop(%zero : i64)
^loop(%i: i64):
  %old = llvmx.atomicrmw add %p, %onei monotonic : !llvm.ptr, i32
  %next = llvm.add %i, %one : i64
  %more = llvm.icmp "slt" %next, %n : i64
  llvm.cond_br %more, ^loop(%next : i64), ^done
^done:
  llvm.return
}
"""


def test_atomics_on_a_buffer():
    module = jit(ATOMICS)
    buffer = np.array([40, 7], dtype=np.int32)
    fetch_add = module.ctypes_function("fetch_add", i32, [c_ptr, i32])
    assert fetch_add(ptr(buffer), 2) == 40
    assert buffer[0] == 42
    fetch_max = module.ctypes_function("fetch_max", i32, [c_ptr, i32])
    assert fetch_max(ptr(buffer[1:]), -3) == 7
    assert fetch_max(ptr(buffer[1:]), 9) == 7
    assert buffer[1] == 9

    floats = np.array([1.25], dtype=np.float32)
    fetch_fadd = module.ctypes_function("fetch_fadd", f32, [c_ptr, f32])
    assert fetch_fadd(ptr(floats), 0.5) == 1.25
    assert floats[0] == 1.75

    words = np.array([5], dtype=np.int64)
    ok = np.zeros(1, dtype=np.int8)
    cas = module.ctypes_function("cas", i64, [c_ptr, i64, i64, c_ptr])
    assert cas(ptr(words), 4, 100, ptr(ok)) == 5
    assert words[0] == 5 and ok[0] == 0
    assert cas(ptr(words), 5, 100, ptr(ok)) == 5
    assert words[0] == 100 and ok[0] == 1

    weak_cas = module.ctypes_function("weak_cas", i32, [c_ptr, i32, i32])
    # A weak cmpxchg may fail spuriously: retry until it succeeds.
    while weak_cas(ptr(buffer), 42, -1) != 42:
        pass
    assert buffer[0] == -1


def test_atomic_add_from_two_threads():
    module = jit(ATOMICS)
    add_many = module.ctypes_function("add_many", None, [c_ptr, i64])
    counter = np.zeros(1, dtype=np.int32)
    threads = [
        threading.Thread(target=add_many, args=(ptr(counter), 200_000))
        for _ in range(2)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert counter[0] == 400_000


def test_atomics_in_llvm_ir():
    text = translate(parse(ATOMICS))
    assert "atomicrmw max ptr %" in text
    assert "acq_rel, align 4" in text
    assert "cmpxchg weak ptr" in text
    assert "fence release" in text


def test_atomic_load_and_store_keep_their_ordering():
    text = translate(
        parse(
            """
            llvm.func @f(%p: !llvm.ptr) -> i32 {
              %v = llvm.load %p atomic acquire : !llvm.ptr -> i32
              "llvm.store"(%v, %p) <{ordering = 5 : i64}> : (i32, !llvm.ptr) -> ()
              llvm.store volatile %v, %p {alignment = 4 : i64} : i32, !llvm.ptr
              llvm.return %v : i32
            }
            """
        )
    )
    assert "load atomic i32, ptr %" in text and "acquire, align 4" in text
    assert "store atomic i32 %" in text and "release, align 4" in text
    assert "store volatile i32 %" in text


def test_store_a_field_through_the_address_of_a_struct():
    # llvmlite types @info as a pointer to the struct; LLVM accepts storing the
    # first field through it.
    module = jit(
        """
        llvm.mlir.global internal @info() : !llvm.struct<(i64, i32)>
        llvm.func @roundtrip(%v: i64) -> i64 {
          %p = llvm.mlir.addressof @info : !llvm.ptr
          llvm.store %v, %p : i64, !llvm.ptr
          %frame = llvm.alloca %v x !llvm.struct<(i32, f32)> : (i64) -> !llvm.ptr
          %w = llvm.trunc %v : i64 to i32
          llvm.store %w, %frame : i32, !llvm.ptr
          %r = llvm.load %p : !llvm.ptr -> i64
          llvm.return %r : i64
        }
        """
    )
    assert module.ctypes_function("roundtrip", i64, [i64])(12) == 12


# --------------------------------------------------------------------------------------
# Optimisation, cache, diagnostics.
# --------------------------------------------------------------------------------------

VECTOR_ADD = """
llvm.func @vadd(%a: !llvm.ptr<1> {llvm.noalias}, %b: !llvm.ptr<1> {llvm.noalias},
                %c: !llvm.ptr<1> {llvm.noalias}, %n: i64) {
  %zero = llvm.mlir.constant(0 : i64) : i64
  %one = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^header(%zero : i64)
^header(%i: i64):
  %more = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %more, ^body, ^exit
^body:
  %pa = llvm.getelementptr inbounds %a[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %pb = llvm.getelementptr inbounds %b[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %pc = llvm.getelementptr inbounds %c[%i] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
  %va = llvm.load %pa : !llvm.ptr<1> -> f32
  %vb = llvm.load %pb : !llvm.ptr<1> -> f32
  %s = llvm.fadd %va, %vb : f32
  llvm.store %s, %pc : f32, !llvm.ptr<1>
  %next = llvm.add %i, %one : i64
  llvm.br ^header(%next : i64)
^exit:
  llvm.return
}
"""


def test_o3_vectorises_a_simple_loop():
    module = jit(VECTOR_ADD)
    assert "<8 x float>" in module.llvm_ir or "<4 x float>" in module.llvm_ir
    # AVX2 (ymm) or AVX-512 (zmm) registers, whichever the host has.
    assert re.search(r"vaddps\s.*%[yz]mm", module.assembly)
    vadd = module.ctypes_function("vadd", None, [c_ptr, c_ptr, c_ptr, i64])
    a = np.random.default_rng(0).random(1003, dtype=np.float32)
    b = np.random.default_rng(1).random(1003, dtype=np.float32)
    c = np.empty_like(a)
    vadd(ptr(a), ptr(b), ptr(c), len(a))
    np.testing.assert_array_equal(c, a + b)


def test_cache_returns_the_same_module():
    text = translate(parse(VECTOR_ADD))
    first = compile_ir(text)
    assert compile_ir(text) is first
    assert compile_ir(text, opt_level=1) is not first


def test_bad_ir_raises_a_diagnostic_with_llvms_message():
    with pytest.raises(JITError, match="invalid LLVM IR") as parse_error:
        compile_ir("define i32 @f() {\n  ret i64 0\n}\n")
    assert isinstance(parse_error.value, DiagnosticException)
    assert "i64" in str(parse_error.value)
    # Parses, but the verifier rejects it.
    with pytest.raises(JITError, match="Instruction does not dominate all uses"):
        compile_ir(
            "define i32 @g() {\nentry:\n  %x = add i32 %y, 1\n"
            "  %y = add i32 %x, 1\n  ret i32 %y\n}\n"
        )


def test_a_call_of_a_function_defined_nowhere_is_refused_before_it_runs():
    """MCJIT resolves a missing symbol to address 0: the call would crash the
    process (an OpenCL C builtin the library lacks did, `convert_float4`)."""
    with pytest.raises(PassError, match="@defined_nowhere is declared but defined"):
        check_linkable(
            parse(
                """
                llvm.func @defined_nowhere(i32) -> i32
                llvm.func @f(%x: i32) -> i32 {
                  %y = llvm.call @defined_nowhere(%x) : (i32) -> i32
                  llvm.return %y : i32
                }
                """
            )
        )
    with pytest.raises(PassError, match=r"builtin 'pow\(double, double\)'"):
        check_linkable(
            parse(
                """
                llvm.func @_Z3powdd(f64, f64) -> f64
                llvm.func @f(%x: f64) -> f64 {
                  %y = llvm.call @_Z3powdd(%x, %x) : (f64, f64) -> f64
                  llvm.return %y : f64
                }
                """
            )
        )
    # A C library function and an intrinsic are found.
    check_linkable(
        parse(
            """
            llvm.func @sinf(f32) -> f32
            llvm.func @llvm.smax.i32(i32, i32) -> i32
            llvm.func @g(%x: f32, %n: i32) -> f32 {
              %s = llvm.call @sinf(%x) : (f32) -> f32
              %m = llvm.call @llvm.smax.i32(%n, %n) : (i32, i32) -> i32
              llvm.return %s : f32
            }
            """
        )
    )


def test_an_integer_zero_after_a_false_stays_a_number():
    """Flattening address spaces memoised attributes by equality, and `IntAttr(0)
    == IntAttr(False)` in Python: an `i64 0` met after an `i1 false` took its
    `IntAttr(False)`, and LLVM IR spelled it `i64 false`, which LLVM rejects."""
    false = llvm.ConstantOp(IntegerAttr(False, IntegerType(1)), IntegerType(1))
    zero = llvm.ConstantOp(IntegerAttr(0, IntegerType(64)), IntegerType(64))
    flatten_address_spaces(ModuleOp([false, zero]))
    assert type(zero.value.value.data) is int


def test_untranslatable_ops_are_named():
    with pytest.raises(TranslationError, match=r"cannot translate func\.func"):
        translate(parse("func.func @f() {\n  func.return\n}"))
    with pytest.raises(TranslationError, match=r"llvm\.intr\.stacksave") as error:
        translate(
            parse(
                """
                llvm.func @f() {
                  %s = llvm.intr.stacksave : !llvm.ptr
                  llvm.return
                }
                """
            )
        )
    assert isinstance(error.value, DiagnosticException)


def test_dropping_compiled_modules_leaves_the_next_compilation_working():
    """An MCJIT engine deletes its target machine when it is freed: every engine
    must have its own, or compiling after a dropped module uses freed memory (this
    crashed the process). In a subprocess, so that a crash fails this test alone."""
    import subprocess
    import sys

    script = """
import ctypes
import gc
from mux.backend import jit
text = '''
define i32 @answer() {
  ret i32 42
}
'''
for round_ in range(3):
    module = jit.compile_ir(text + f"; round {round_}")
    assert module.ctypes_function("answer", ctypes.c_int32, [])() == 42
    del module
    jit.clear_cache()
    gc.collect()
print("ok")
"""
    completed = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=False
    )
    assert completed.returncode == 0, completed.stderr[-2000:]
    assert completed.stdout.strip() == "ok"


def test_a_double_to_half_conversion_calls_the_runtime_library():
    """x86 has no instruction for it: LLVM's code calls libgcc's `__truncdfhf2`,
    which the JIT loads (`linking.runtime_library`); without it the call jumped to
    address 0. Rounded once, as numpy does, not through float (the second value
    would round to 1.0 then)."""
    source = """
    func.func @k(%d: memref<?xf64, 1>, %h: memref<?xf16, 1>)
        attributes {mux.kernel = "entry-point"} {
      %c0 = arith.constant 0 : i32
      %i = mux.get_global_id %c0
      %x = memref.load %d[%i] : memref<?xf64, 1>
      %y = arith.truncf %x : f64 to f16
      memref.store %y, %h[%i] : memref<?xf16, 1>
      func.return
    }
    """
    d = np.array([0.1, 1 + 2**-11 + 2**-40, 65520.0, -3.0e-8, 1e300], np.float64)
    h = np.zeros(d.size, np.float16)
    import mux  # the whole compiler: this module tests the backend alone otherwise

    mux.compile(source).kernel("k")(d, h, global_size=d.size)
    with np.errstate(over="ignore"):
        expected = d.astype(np.float16)
    np.testing.assert_array_equal(h, expected)
