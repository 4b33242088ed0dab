"""The shadow memory of checked mode's local-memory race check (issue 17): its
layout, shared by the pass that checks the accesses (`check-local-races`), the
wrapper that allocates it (`add-kernel-wrapper`) and the runtime that explains
a race (`mux`).

**One block per work-group.** In a kernel with a shadow (`mux.local_shadow`),
the wrapper allocates all of the work-group's local memory as one block: the
local buffers passed by size, in parameter order, each at the next multiple of
`BLOCK_ALIGNMENT`, then the module-scope local variables
(`replace-module-scope-vars`' buffer) at the next multiple of theirs. A local
address is then a byte offset in the block, `address - base`, which indexes
the shadow: no access has to be traced back to the buffer it is in.

**The shadow**, a `memref<?xi64>` in private memory, is `HEADER_WORDS` words
then one word per byte of the block, all zero at the start of the work-group:

- `EPOCH`: the number of barriers the shadow's accesses are after. Each
  work-item counts the barriers it passes (a private variable, which
  `work-item-loops` keeps per work-item across barriers); the first work-item
  past barrier `e` finds `EPOCH` != `e`, zeroes the words of the block and sets
  `EPOCH` to `e`. The work-item loops run every work-item of the group to the
  barrier before any goes on, so the shadow then holds the accesses since the
  last barrier only: a race is only ever reported between two accesses of one
  barrier interval;
- `BASE`: the block's address; `BYTES`: its size.

**A byte's word** says how the byte was accessed since the last barrier
(0: not at all): bits 0-1 the strongest access, `ATOMIC` < `READ` < `WRITE`;
bit 2 `SHARED`, set when a second work-item accessed it compatibly (both read,
or both atomically); the local linear id of the first work-item (bits 3-15)
and of the second (16-28); the check site of the first's access (bits 32-47)
and of the second's (48-63). An access is the word it would leave in a byte
nobody accessed: its kind, its work-item, its site.
"""

from __future__ import annotations

from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType, i64

BLOCK_ALIGNMENT = 128
"""Bytes: where each local buffer starts in the block (enough for any vector
type of OpenCL C, a double16, as `add-kernel-wrapper` aligns a buffer alone)."""

SHADOW_TYPE = MemRefType(i64, [DYNAMIC_INDEX])
"""The shadow parameter's type: i64 words in private memory."""

ACCESS = "__mux_check_local_access"
"""The function checking an access (`check-local-races` defines both)."""
NEXT_EPOCH = "__mux_check_local_epoch"
"""The function clearing the shadow when a work-item enters a new epoch."""

EPOCH = 0
BASE = 1
BYTES = 2
HEADER_WORDS = 4

ATOMIC = 1
READ = 2
WRITE = 3
KIND_MASK = 3
SHARED = 4
ID_BITS = 13
FIRST_ID = 3
SECOND_ID = 16
ID_MASK = (1 << ID_BITS) - 1
SITE_BITS = 16
FIRST_SITE = 32
SECOND_SITE = 48
SITE_MASK = (1 << SITE_BITS) - 1
UNIFORM = 1 << 29
"""In an access word: a write of the value the memory holds already (a
"uniform write": several work-items storing one value), which is no race."""
MAX_ITEMS = 1 << ID_BITS
"""Work-items a work-group may have for the check (device's maximum: 1024)."""

KIND_WORDS = {ATOMIC: "atomic access", READ: "read", WRITE: "write"}


def access_word(kind: int, item: int, site: int) -> int:
    """The word of an access (a constant part, without the work-item: `item` 0)."""
    return kind | item << FIRST_ID | min(site, SITE_MASK) << FIRST_SITE


def block_offsets(sizes: list[int]) -> list[int]:
    """The offsets in the block of local buffers of `sizes` bytes, in order."""
    offsets, end = [], 0
    for size in sizes:
        end = -(-end // BLOCK_ALIGNMENT) * BLOCK_ALIGNMENT
        offsets.append(end)
        end += size
    return offsets
