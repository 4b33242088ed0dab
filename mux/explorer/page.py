"""The explorer's page: one HTML file, its style and script inline, nothing fetched.

Left, the pass list: each stage with a bar of its ops by dialect (the chart: the
same scale for every stage, so the lowering's shape shows at a glance), the search
box and the buttons that expand or collapse every section. Right, the sections:
the source, the module as read, each pass (its name, the first sentence of its
module's docstring, the spec section, its ops by dialect, the diff against the
stage before or "no change", the IR after it), then LLVM's part: the LLVM IR
before and after LLVM's optimisation and the host assembly.
"""

from __future__ import annotations

import html
import re
import shlex
from pathlib import Path

from mux.explorer import chart
from mux.explorer.diff import diff
from mux.explorer.highlight import highlight_lines
from mux.explorer.stages import Exploration, Stage

_HERE = Path(__file__).parent

_e = html.escape


def render(found: Exploration) -> str:
    """The page of `found`."""
    colors = chart.colors(found.stages)
    scale = max((sum(s.op_counts.values()) for s in found.stages), default=1)
    sections = [_source(found)]
    highlighted: list[list[str]] = []
    for stage in found.stages:  # a pass that changed nothing: the lines before
        same = highlighted and not stage.changed
        highlighted.append(highlighted[-1] if same else highlight_lines(stage.ir))
    sections += [
        _stage(found, index, highlighted, colors) for index in range(len(found.stages))
    ]
    if found.error:
        sections.append(_error(found))
    sections += _llvm(found)
    title = f"{Path(found.name).name}: {found.kernel or 'every kernel'}"
    style = (_HERE / "page.css").read_text(encoding="utf-8")
    script = (_HERE / "page.js").read_text(encoding="utf-8")
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            f"<title>{_e(title)} — mux-explore</title>",
            f"<style>\n{style}</style></head><body>",
            _nav(found, colors, scale),
            "<main>",
            _header(found, title),
            *sections,
            "</main>",
            f"<script>\n{script}</script>",
            "</body></html>\n",
        ]
    )


def _header(found: Exploration, title: str) -> str:
    command = f"mux-opt {shlex.quote(found.name)}"
    if found.build_options:
        command += f" --build-options {shlex.quote(found.build_options)}"
    command += f" -p {shlex.quote(found.pipeline or 'host')}"
    return (
        f"<header><h1>{_e(title)}</h1>"
        f"<p>The {_e(found.language)} source through the host pipeline, one pass at "
        "a time, then through LLVM. Each stage shows what its pass changed; the same "
        f"IR, stage by stage, comes from <code>{_e(command)}</code> (stop earlier "
        "with <code>-p pass1,pass2,...</code>). Keys: <kbd>j</kbd>/<kbd>k</kbd> "
        "next/previous stage, <kbd>/</kbd> search.</p></header>"
    )


def _stage_id(index: int) -> str:
    return f"stage-{index}"


def _nav(found: Exploration, colors: dict[str, str], scale: int) -> str:
    items = []
    for index, stage in enumerate(found.stages):
        cls = "" if stage.changed else ' class="same"'
        bar = chart.bar(stage.op_counts, colors, scale)
        items.append(
            f'<li{cls}><a href="#{_stage_id(index)}"><span class="idx">{index}</span>'
            f'<span class="name">{_e(stage.title)}</span>{bar}</a></li>'
        )
    if found.failed_pass:
        items.append(
            f'<li class="failed"><a href="#error"><span class="idx">!</span>'
            f'<span class="name">{_e(found.failed_pass)}</span></a></li>'
        )
    llvm = [
        (key, label)
        for key, label, text in _llvm_parts(found)
        if text  # only what LLVM produced
    ]
    items += [f'<li><a href="#{key}">{_e(label)}</a></li>' for key, label in llvm]
    return (
        '<nav id="passes"><div class="tools">'
        '<input id="search" type="search" placeholder="search the page (/)">'
        '<span id="hits"></span>'
        '<button id="expand">expand all</button>'
        '<button id="collapse">collapse all</button></div>'
        f'<a href="#source">source</a>{chart.legend(colors)}'
        f'<ol id="stages">{"".join(items)}</ol></nav>'
    )


def _code(lines: list[str]) -> str:
    return f'<pre class="code">{chr(10).join(lines)}</pre>'


def _details(summary: str, body: str, is_open: bool = False, cls: str = "") -> str:
    opened = " open" if is_open else ""
    return (
        f'<details class="{cls}"{opened}><summary>{summary}</summary>{body}</details>'
    )


def _source(found: Exploration) -> str:
    lines = highlight_lines(found.source, found.language)
    summary = f"{_e(found.name)} ({len(lines)} lines of {_e(found.language)})"
    return (
        '<section id="source"><h2>Source</h2>'
        f"{_details(summary, _code(lines), is_open=True, cls='ir')}</section>"
    )


def _stage(
    found: Exploration,
    index: int,
    highlighted: list[list[str]],
    colors: dict[str, str],
) -> str:
    stage = found.stages[index]
    parts = [
        f'<section class="stage" id="{_stage_id(index)}" data-pass="{_e(stage.title)}">'
    ]
    parts.append(f'<h2><span class="idx">{index}</span> {_e(stage.title)}</h2>')
    parts += _about(stage)
    parts.append(chart.counts(stage.op_counts, colors))
    lines = stage.ir.split("\n")
    if not stage.changed:
        parts.append('<p class="same">No change: the IR is the same as before.</p>')
    elif index > 0:
        before = found.stages[index - 1]
        d = diff(
            before.ir.split("\n"), lines, highlighted[index - 1], highlighted[index]
        )
        summary = f"diff against {_e(before.title)}: -{d.removed} +{d.added} lines"
        body = f'<pre class="code diff">{d.html}</pre>'
        parts.append(_details(summary, body, is_open=True, cls="diff"))
    if stage.changed:
        summary = f"IR after {_e(stage.title)} ({len(lines)} lines)"
        parts.append(_details(summary, _code(highlighted[index]), cls="ir"))
    parts.append(_stepper(index, len(found.stages)))
    parts.append("</section>")
    return "\n".join(parts)


def _about(stage: Stage) -> list[str]:
    doc = stage.pass_doc
    if doc is None:
        return [
            '<p class="summary">The module as read: parsed, verified and printed '
            "again (comments are gone, names are xDSL's).</p>"
        ]
    return [
        f'<p class="summary">{_e(doc.summary)}</p>',
        f'<p class="spec">Spec: {_e(doc.spec)}</p>',
        _details(
            "the pass's documentation",
            f'<pre class="doc">{_e(doc.doc)}</pre>',
            cls="doc",
        ),
    ]


def _stepper(index: int, count: int) -> str:
    previous = f'<a href="#{_stage_id(index - 1)}">← previous</a>' if index else ""
    after = f'<a href="#{_stage_id(index + 1)}">next →</a>' if index + 1 < count else ""
    return f'<p class="stepper">{previous} {after}</p>'


def _error(found: Exploration) -> str:
    where = f"in {found.failed_pass}" if found.failed_pass else ""
    return (
        f'<section id="error" class="error"><h2>Compilation stopped {_e(where)}</h2>'
        f'<pre class="diagnostic">{_e(found.error)}</pre></section>'
    )


def _llvm_parts(found: Exploration) -> list[tuple[str, str, str]]:
    level = f"O{found.opt_level}"
    return [
        ("llvm-ir", "LLVM IR", found.llvm_ir),
        ("llvm-optimized", f"LLVM IR after LLVM's {level}", found.optimized_ir),
        ("assembly", "host assembly", found.assembly),
    ]


_FUNCTION = {
    "llvm": re.compile(r'^define\b[^@]*@"?([^"(]+)'),
    "asm": re.compile(r'^"?([^\s".#][^"\s:]*)"?:'),
}
"""Where a function starts, and its name: LLVM IR's `define`, assembly's label that
is not a local one (`.LBB0_1`)."""


def _with_functions(key: str, text: str, lines: list[str], language: str) -> str:
    """Links to the functions of `text`, an anchor at each in `lines` (changed)."""
    links = []
    for number, line in enumerate(text.split("\n")):
        found = _FUNCTION[language].match(line)
        if found:
            anchor = f"{key}-{len(links)}"
            lines[number] = f'<span id="{anchor}"></span>{lines[number]}'
            links.append(f'<a href="#{anchor}">{_e(found[1])}</a>')
    return f'<p class="functions">functions: {", ".join(links)}</p>' if links else ""


def _llvm(found: Exploration) -> list[str]:
    about = {
        "llvm-ir": "The lowered module translated to LLVM IR (mux.backend.llvm_ir).",
        "llvm-optimized": "After LLVM's optimisation for the host CPU "
        "(mux.backend.jit.optimize): O3 for a kernel with barrier regions, O2 "
        "without (HostPipeline.lower).",
        "assembly": "The host assembly of the optimised module: the entry hook "
        "runs the work-group loops, calling the work-item loops (the wrappers, "
        "unless LLVM inlined them).",
    }
    sections = []
    for key, label, text in _llvm_parts(found):
        if not text:
            continue
        language = "asm" if key == "assembly" else "llvm"
        lines = highlight_lines(text, language)
        functions = _with_functions(key, text, lines, language)
        summary = f"{_e(label)} ({len(lines)} lines)"
        sections.append(
            f'<section id="{key}" class="llvm"><h2>{_e(label)}</h2>'
            f'<p class="summary">{_e(about[key])}</p>{functions}'
            f"{_details(summary, _code(lines), cls='ir')}</section>"
        )
    return sections
