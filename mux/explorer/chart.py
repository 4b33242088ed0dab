"""The ops of each stage by dialect, drawn: a stacked bar per stage, inline SVG.

Every stage's bar has the same scale (the largest stage fills it), so the list of
bars shows how the lowering grows the module and which dialects it trades for
which. Each dialect keeps its colour on the whole page (`colors`).
"""

from __future__ import annotations

import html

from mux.explorer.stages import Stage

PALETTE = (
    "#4e79a7",
    "#f28e2b",
    "#e15759",
    "#76b7b2",
    "#59a14f",
    "#edc948",
    "#b07aa1",
    "#ff9da7",
    "#9c755f",
    "#bab0ac",
    "#1f77b4",
    "#d62728",
)
"""Distinct colours (Tableau's ten, then two more); dialects beyond them repeat."""

BAR_WIDTH = 110
BAR_HEIGHT = 10


def colors(stages: list[Stage]) -> dict[str, str]:
    """A colour for each dialect of `stages`, in the order they first appear."""
    seen: dict[str, str] = {}
    for stage in stages:
        for dialect in stage.op_counts:
            if dialect not in seen:
                seen[dialect] = PALETTE[len(seen) % len(PALETTE)]
    return seen


def bar(counts: dict[str, int], palette: dict[str, str], scale: int) -> str:
    """One stage's stacked bar: a segment per dialect, `scale` ops the full width."""
    x = 0.0
    rects = []
    for dialect, n in counts.items():
        width = BAR_WIDTH * n / max(scale, 1)
        rects.append(
            f'<rect x="{x:.1f}" width="{width:.1f}" height="{BAR_HEIGHT}" '
            f'fill="{palette[dialect]}"><title>{html.escape(dialect)}: {n}</title>'
            "</rect>"
        )
        x += width
    total = sum(counts.values())
    return (
        f'<svg class="bar" width="{BAR_WIDTH + 40}" height="{BAR_HEIGHT}" '
        f'role="img" aria-label="{total} ops">{"".join(rects)}'
        f'<text x="{x + 3:.1f}" y="{BAR_HEIGHT - 1}">{total}</text></svg>'
    )


def legend(palette: dict[str, str]) -> str:
    items = "".join(
        f'<li><span class="swatch" style="background:{color}"></span>'
        f"{html.escape(dialect)}</li>"
        for dialect, color in palette.items()
    )
    return f'<ul class="legend" title="ops by dialect">{items}</ul>'


def counts(counts: dict[str, int], palette: dict[str, str]) -> str:
    """A stage's counts as a list, each dialect with its colour and number."""
    items = "".join(
        f'<li data-dialect="{html.escape(d)}" data-count="{n}">'
        f'<span class="swatch" style="background:{palette[d]}"></span>'
        f"{html.escape(d)} {n}</li>"
        for d, n in counts.items()
    )
    total = sum(counts.values())
    return f'<ul class="counts" data-total="{total}">{items}<li>= {total} ops</li></ul>'
