"""Highlighting of MLIR, LLVM IR and assembly as HTML, one line at a time.

Written here rather than taken from Pygments: Pygments has lexers for LLVM IR and
GNU assembly but none for MLIR, and the three share one lexical shape (`%values`,
`@symbols`, types, numbers, strings, a line comment), so one regular expression
with a comment marker per language covers them all, in one pass over the text (the
explorer highlights every stage of a pipeline: it must be fast). What is
highlighted is what a reader scans for: values, symbols, op names and keywords,
types, constants, comments. Anything else is plain text.

`highlight_lines(text, language)` gives the HTML of each line of `text`, so that a
diff can show the highlighted lines it keeps, removes and adds. The classes
(`c`, `s`, ...) are styled by the page's stylesheet (`page.css`).
"""

from __future__ import annotations

import html
import re

_COMMENT = {
    "mlir": r"//[^\n]*",
    "llvm": r";[^\n]*",
    "asm": r"#[^\n]*",
    "opencl": r"//[^\n]*",  # its strings, numbers and types are enough for a source
}
"""The line comment of each language."""

_TYPES = (
    r"(?:[iu]\d+|f16|bf16|f32|f64|f80|index|memref|vector|tensor|none|void|ptr|"
    r"float|double|half|label|metadata)"
)

_TOKENS = {
    "s": r'"(?:[^"\\\n]|\\.)*"',  # a string
    "v": r"%[\w.$#-]+",  # an SSA value, or a register in assembly
    "g": r'@(?:[\w.$-]+|"(?:[^"\\\n]|\\.)*")',  # a symbol
    "b": r"\^[\w.$-]+",  # an MLIR block
    "a": r"[#!][\w.$-]+",  # an attribute or type alias, LLVM metadata
    "o": r"\b[a-z_][\w$]*(?:\.[\w$]+)+\b",  # a dialect's op (or attribute) name
    "d": r"(?:(?:\b\d+|\?)x)+(?=[\w?])",  # a shape's dimensions, before its type
    "t": rf"(?:\b|(?<=[\d?]x)){_TYPES}\b",
    "n": r"-?\b(?:0x[0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\b",
    "k": r"\b[a-zA-Z_][\w]*\b",
}
"""Each class and what it marks, in the order they are tried."""

_PLAIN_WORDS = {"mlir": True, "llvm": False, "asm": True, "opencl": True}
"""Languages whose bare words stay plain: MLIR's are attribute keywords
(`attributes`, `ult`); LLVM IR's are its instructions and keywords."""


def _pattern(language: str) -> re.Pattern[str]:
    groups = [f"(?P<c>{_COMMENT[language]})"]
    groups += [f"(?P<{name}>{regex})" for name, regex in _TOKENS.items()]
    return re.compile("|".join(groups))


_PATTERNS = {language: _pattern(language) for language in _COMMENT}


def highlight_lines(text: str, language: str = "mlir") -> list[str]:
    """The HTML of each line of `text` (in `language`: mlir, llvm, asm or opencl),
    its tokens in `<span class=...>`s; every other character escaped. No token
    spans a line (none of the patterns crosses a newline), so the whole text is
    highlighted at once, then split."""
    pattern = _PATTERNS[language]
    plain_words = _PLAIN_WORDS[language]
    escape = html.escape
    out: list[str] = []
    end = 0
    for match in pattern.finditer(text):
        kind = match.lastgroup
        start = match.start()
        if start > end:
            out.append(escape(text[end:start], quote=False))
        token = escape(match[0], quote=False)
        plain = kind == "d" or (kind == "k" and plain_words)
        out.append(token if plain else f'<span class="{kind}">{token}</span>')
        end = match.end()
    out.append(escape(text[end:], quote=False))
    return "".join(out).split("\n")
