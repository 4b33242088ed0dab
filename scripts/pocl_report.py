"""The report of `scripts/conformance.py --vs-pocl` (scripts/conformance_pocl.py):
the table by group, each disagreement and each failure of ours with its
diagnosis (`DIAGNOSES`), PoCL's failures by reason, and docs/conformance.md's
section that holds them."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import conformance

OUTCOMES = ("agree", "differ", "no output", "mux failed", "PoCL failed")

_POCL_ALIGN = (
    "PoCL's: it does not honour the struct's alignment of {} bytes; mux gives "
    "the manifest's expected values"
)
_DERIVED_UB = (
    "the derived launch is undefined: {}; UnitCL runs it with other sizes "
    "(a manifest would)"
)
DIAGNOSES: dict[str, str] = {
    "barrier.11_barrier_with_align": "PoCL's: it does not honour the private "
    "struct's alignment of 1024 bytes (element 2 is the address's low bits); "
    "mux gives the manifest's expected values",
    "dma.15_wait_event_is_execution_barrier": "PoCL's: its wait_group_events is no "
    "execution barrier, so D misses other work-items' values; mux's D is the "
    "kernel's (checked in numpy on the same inputs)",
    "printf.05_side_effects": "undefined: OpenCL C has no %lc; PoCL prints a "
    "format error, mux the character",
    "printf.10_print_nan": "both allowed: a negative NaN prints nan or -nan "
    "(UnitCL's reference accepts both)",
    "printf.11_print_inf": "PoCL's: '% +A' of +inf is '+INF' (C: '+' overrides "
    "the space), as mux and UnitCL's reference have it",
    "printf.13_concurrent_printf": "the order of work-groups, theirs to choose: "
    "the kernel prints no newline, so its whole output is one line, compared "
    "whole; the same numbers in another order",
    "regression.98_store_uniform_pointer": _DERIVED_UB.format(
        "its scalar zero is not 0, so every work-item stores another value to "
        "out[3], a race"
    ),
    "printf.14_print_vector": "PoCL's: '%v4hi' of an int4 prints each lane "
    "converted to short (UnitCL's reference, and mux); PoCL reads the int4's "
    "bytes as shorts",
    **{
        f"regression.31_local_struct_alignment{n}": _POCL_ALIGN.format(256)
        for n in ("", "2", "3")
    },
    "regression.38_attribute_align": _POCL_ALIGN.format(128),
    "regression.57_attribute_aligned": _POCL_ALIGN.format(1024),
    "regression.89_multiple_local_memory_kernels": _DERIVED_UB.format(
        "a local size of 16 writes past its localBuff[LOCAL_X = 1]"
    ),
    "regression.85_scan_fact": _DERIVED_UB.format(
        "a local size of 16 writes past its temp[8]"
    ),
    "vloadvstore.03_half_private": _DERIVED_UB.format(
        "iterations up to 16 store past its private_array[4]"
    ),
    **{
        f"regression.75_partial_linearization{n}": _DERIVED_UB.format(
            "its loops run on random data and do not end (PoCL hangs too)"
        )
        for n in ("10", "11")
    },
}
"""Kernel file stem -> why mux and PoCL differ there, or why mux failed, as far
as it is understood (docs/conformance.md, "Against PoCL", lists them)."""

# ---------------------------------------------------------------------------
# The report


def pocl_table(results: dict[Path, dict]) -> str:
    """The markdown of a `--vs-pocl` run: outcomes by group, each disagreement
    (with its diagnosis, `DIAGNOSES`), then the failures of each side by
    reason."""
    listed: dict[str, list[str]] = {"differ": [], "mux failed": []}
    pocl_failed: Counter = Counter()
    example: dict[str, str] = {}
    for path, record in sorted(results.items()):
        outcome = record["outcome"]
        if outcome in listed:
            reason = " ".join(record["reason"].split())
            if reason.startswith("refused: "):
                reason = _gist(reason)
            refused = "refused by name, as the compile table above says"
            note = DIAGNOSES.get(
                path.stem, refused if "refused" in reason else "not diagnosed yet"
            )
            inputs = f" ({record['inputs']})" if record.get("inputs") else ""
            listed[outcome].append(f"- `{path.stem}`{inputs}: {reason}. *{note}*")
        elif outcome == "PoCL failed":
            gist = _gist(record["reason"])
            pocl_failed[gist] += 1
            example.setdefault(gist, path.stem)
    lines, total = conformance.group_table(results, OUTCOMES)
    both = total["agree"] + total["differ"]
    derived = sum(
        r["outcome"] == "agree" and r.get("inputs") == "derived"
        for r in results.values()
    )
    lines += [
        "",
        f"Agree: {total['agree']} of the {both} files both ran and compared "
        f"({derived} of them on derived inputs, having no manifest).",
    ]
    for outcome, heading in (
        ("differ", "Differ (the first differing element), and why:"),
        ("mux failed", "mux failed (our refusals and crashes), and why:"),
    ):
        if listed[outcome]:
            lines += ["", heading, "", *listed[outcome]]
    if pocl_failed:
        lines += ["", "| PoCL failed because | files | for example |"]
        lines += ["| --- | ---: | --- |"]
        lines += [
            f"| {gist} | {n} | `{example[gist]}` |"
            for gist, n in pocl_failed.most_common()
        ]
    return "\n".join(lines) + "\n"


def _gist(reason: str) -> str:
    """A failure's reason without its file's particulars, to count alike ones."""
    reason = " ".join(reason.split())
    if reason.startswith("refused: "):
        return "refused: " + conformance.refusal_reason(reason[len("refused: ") :])
    reason = reason.split(" (PoCL failed too")[0]
    return re.sub(r"'[^']*'|\d+", "_", reason)[:100].replace("|", "/")


POCL_HEADING = conformance.POCL_HEADING
POCL_SECTION = (
    POCL_HEADING
    + """

The second oracle: every kernel file run by mux and by PoCL 3.0 (the
`pocl-binary-distribution` wheel, LLVM 14, its pthread CPU device) on the same
inputs, every global buffer compared after each launch and what the launches
print too, by

    python scripts/conformance.py --vs-pocl --jobs 1 --markdown docs/conformance.md

The inputs are the manifest's where the file has one (*manifest*), else derived
from the kernel's parameters (*derived*: deterministic random buffers of 4096
elements, small integer scalars, a 64-item NDRange; `scripts/pocl_cases.py`
says how). Integers must be equal, floats within 16 eps relative above 1 and
absolute below it (NaN equal to NaN), the padding lane of a 3-element vector is
not compared, printed lines are compared in any order. *no output*: nothing to
compare (no buffer argument, nothing printed). A disagreement is not by itself
a bug of ours: the list says which are understood (a result that depends on the
order of atomics, on the sub-group size, on inputs a derived launch makes
meaningless).

{table}"""
)
"""docs/conformance.md's section of the `--vs-pocl` run, after the others."""


def write_section(page_path: Path, table: str) -> None:
    """Puts the section of `table` in the page: in place of its old one (up to
    the next `## ` heading), else at its end."""
    page = page_path.read_text(encoding="utf-8") if page_path.exists() else ""
    section = POCL_SECTION.format(table=table)
    if POCL_HEADING in page:
        before, after = page.split(POCL_HEADING, 1)
        rest = after.find("\n## ")
        after = after[rest + 1 :] if rest >= 0 else ""
        page = f"{before}{section}" + (f"\n{after}" if after else "")
    else:
        page = f"{page.rstrip()}\n\n{section}" if page else section
    page_path.write_text(page, encoding="utf-8")
