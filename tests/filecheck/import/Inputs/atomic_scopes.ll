; Written by hand: what clang does not emit for spir64 but LLVM IR may hold. Sync
; scopes (dropped: no scope is the widest), volatile atomics (volatility dropped),
; a strong cmpxchg, a seq_cst fence of one scope, unordered and seq_cst loads and
; stores, and names that spell an ordering.
target triple = "spir64"

define spir_func i32 @scoped(ptr addrspace(3) %acquire, ptr addrspace(4) %p, float %f) {
  %seq_cst = atomicrmw volatile xchg ptr addrspace(3) %acquire, i32 7 syncscope("workgroup") acq_rel, align 4
  %pair = cmpxchg volatile ptr addrspace(4) %p, i32 %seq_cst, i32 0 syncscope("device") seq_cst acquire, align 4
  %old = extractvalue { i32, i1 } %pair, 0
  fence syncscope("singlethread") seq_cst
  %u = load atomic i32, ptr addrspace(3) %acquire unordered, align 4
  %v = load atomic volatile float, ptr addrspace(4) %p syncscope("workgroup") seq_cst, align 4
  store atomic i32 %u, ptr addrspace(4) %p unordered, align 4
  store atomic volatile float %v, ptr addrspace(3) %acquire seq_cst, align 4
  %s = atomicrmw fsub ptr addrspace(4) %p, float %f monotonic, align 4
  %w = load volatile i64, ptr addrspace(3) %acquire
  ret i32 %old
}
