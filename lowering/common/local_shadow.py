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
then one word per *cell* of the block: `2**shift` bytes, `shift` chosen per
kernel by `check-local-races` (`mux.local_cell`) so that every local access of
the kernel covers whole cells (it starts at a multiple of the cell size in the
block and its size is one), which makes a word per cell exactly as precise as
a word per byte. The header:

- `EPOCH`: the number of barriers of the group passed so far. The barrier
  wrapper of `work-item-loops` starts the next epoch after each barrier,
  before the work-item loops of the region after it
  (`@__mux_check_local_epoch`): every work-item of the group has reached the
  barrier then, and none has gone past it. Every word carries the epoch it
  was written in (its low `TAG_BITS` bits, the *tag*): a word of another tag
  counts as empty, so a new epoch costs no clearing. The words are zeroed
  when the tag comes back to 0 (every `2**TAG_BITS` epochs), and at the start
  of the work-group (epoch 0). So a word of the current tag was written in
  this very barrier interval;
- `BASE`: the block's address; `BYTES`: its size; `CELLS`: its cells (the
  words after the header); `SCRATCH`: a word the inline check of an access
  outside the block reads and writes instead of a cell (its result ignored).

**A cell's word** says how the cell was accessed in the epoch of its tag (0:
not at all): bits 0-1 the strongest access, `ATOMIC` < `READ` < `WRITE`;
bit 2 `SHARED`, set when a second work-item accessed it compatibly (both read,
or both atomically); the local linear id of the first work-item (bits 3-12)
and of the second (13-22); the tag (bits 24-31); the check site of the first's
access (bits 32-47) and of the second's (48-63), `UNKNOWN_SITE` for a site
past the field. An access is the word it would leave in a cell nobody
accessed: its kind, its work-item, its site, the tag of its epoch.
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
"""The function starting the shadow's next epoch (after a barrier)."""

EPOCH = 0
BASE = 1
BYTES = 2
CELLS = 3
SCRATCH = 4
HEADER_WORDS = 5

ATOMIC = 1
READ = 2
WRITE = 3
KIND_MASK = 3
SHARED = 4
ID_BITS = 10
"""The device's work-groups have at most 1024 work-items (`device.HOST`),
local linear ids 0-1023: the runtime refuses larger groups."""
FIRST_ID = 3
SECOND_ID = 13
ID_MASK = (1 << ID_BITS) - 1
UNIFORM = 1 << 23
"""In an access word: a write of the value the memory holds already (a
"uniform write": several work-items storing one value), which is no race."""
TAG_BITS = 8
TAG_SHIFT = 24
TAG_MASK = ((1 << TAG_BITS) - 1) << TAG_SHIFT
SITE_BITS = 16
FIRST_SITE = 32
SECOND_SITE = 48
SITE_MASK = (1 << SITE_BITS) - 1
UNKNOWN_SITE = SITE_MASK
"""The site field of an access whose site number does not fit: the message
then says the site is unknown rather than name a wrong one."""
MAX_ITEMS = 1 << ID_BITS

KIND_WORDS = {ATOMIC: "atomic access", READ: "read", WRITE: "write"}


def access_word(kind: int, item: int, site: int) -> int:
    """The word of an access (a constant part, without the work-item: `item` 0)."""
    return kind | item << FIRST_ID | min(site, UNKNOWN_SITE) << FIRST_SITE


def block_offsets(sizes: list[int]) -> list[int]:
    """The offsets in the block of local buffers of `sizes` bytes, in order."""
    offsets, end = [], 0
    for size in sizes:
        end = -(-end // BLOCK_ALIGNMENT) * BLOCK_ALIGNMENT
        offsets.append(end)
        end += size
    return offsets
