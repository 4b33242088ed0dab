"""The `llvm` op each `arith` cast is: `convert-to-llvm` converts the casts to them,
and `run-vecz` casts vectors with them (xDSL 0.74's `arith` casts take scalars
only); and the `llvm` op (or intrinsic) each `arith` integer or float arithmetic
op is, which
`convert-to-llvm` converts them to and `lift-llvm-ops` lifts back."""

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

INTEGER_BINARY = {
    arith.AddiOp: llvm.AddOp,
    arith.SubiOp: llvm.SubOp,
    arith.MuliOp: llvm.MulOp,
    arith.DivSIOp: llvm.SDivOp,
    arith.DivUIOp: llvm.UDivOp,
    arith.RemSIOp: llvm.SRemOp,
    arith.RemUIOp: llvm.URemOp,
    arith.AndIOp: llvm.AndOp,
    arith.OrIOp: llvm.OrOp,
    arith.XOrIOp: llvm.XOrOp,
    arith.ShLIOp: llvm.ShlOp,
    arith.ShRSIOp: llvm.AShrOp,
    arith.ShRUIOp: llvm.LShrOp,
}

FLOAT_ARITHMETIC = {
    arith.AddfOp: llvm.FAddOp,
    arith.SubfOp: llvm.FSubOp,
    arith.MulfOp: llvm.FMulOp,
    arith.DivfOp: llvm.FDivOp,
}

INTEGER_MIN_MAX = {
    arith.MinSIOp: "llvm.smin",
    arith.MaxSIOp: "llvm.smax",
    arith.MinUIOp: "llvm.umin",
    arith.MaxUIOp: "llvm.umax",
}
"""The intrinsic each `arith` integer min/max op calls."""
