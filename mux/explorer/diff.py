"""The diff of one stage's IR against the stage before, in unified form.

Hunks of changed lines with three lines of context, each opened by its header
(`@@ -start,count +start,count @@`, as `diff -u` writes it), the lines kept, removed
(`<del>`) and added (`<ins>`), each highlighted as in the stage's IR.
"""

from __future__ import annotations

import difflib
import html
from dataclasses import dataclass


@dataclass(frozen=True)
class Diff:
    html: str
    """The hunks, for a `<pre>`; "" when nothing changed."""
    removed: int
    added: int


def _range(start: int, stop: int) -> str:
    """A hunk header's range, as `diff -u` writes it (1-based; an empty range
    names the line before it)."""
    count = stop - start
    if count == 0:
        return f"{start},0"
    return f"{start + 1}" if count == 1 else f"{start + 1},{count}"


def diff(
    before: list[str], after: list[str], before_html: list[str], after_html: list[str]
) -> Diff:
    """The diff of the lines `before` to `after`; `*_html` are the same lines
    highlighted (`highlight.highlight_lines`)."""
    matcher = difflib.SequenceMatcher(None, before, after)
    out: list[str] = []
    removed = added = 0
    for group in matcher.get_grouped_opcodes(3):
        first, last = group[0], group[-1]
        header = f"@@ -{_range(first[1], last[2])} +{_range(first[3], last[4])} @@"
        out.append(f'<span class="hunk">{html.escape(header)}</span>')
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                out += [f" {line}" for line in before_html[i1:i2]]
                continue
            out += [f"<del>-{line}</del>" for line in before_html[i1:i2]]
            out += [f"<ins>+{line}</ins>" for line in after_html[j1:j2]]
            removed += i2 - i1
            added += j2 - j1
    return Diff("\n".join(out), removed, added)
