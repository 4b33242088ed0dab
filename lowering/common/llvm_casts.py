"""The `llvm` op each `arith` cast is: `convert-to-llvm` converts the casts to them,
and `run-vecz` casts vectors with them (xDSL 0.74's `arith` casts take scalars
only)."""

from __future__ import annotations

from xdsl.dialects import arith, llvm

from dialects import llvmx

CASTS = {
    arith.ExtSIOp: llvm.SExtOp,
    arith.ExtUIOp: llvm.ZExtOp,
    arith.TruncIOp: llvm.TruncOp,
    arith.ExtFOp: llvm.FPExtOp,
    arith.TruncFOp: llvm.FPTruncOp,
    arith.SIToFPOp: llvm.SIToFPOp,
    arith.UIToFPOp: llvmx.UIToFPOp,
    arith.FPToSIOp: llvmx.FPToSIOp,
    arith.FPToUIOp: llvmx.FPToUIOp,
    arith.BitcastOp: llvm.BitcastOp,
}
