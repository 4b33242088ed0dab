"""Runs the commands and Python snippets of a documentation page, checks their output.

A command is a line `$ ...` in a ```sh block; the code block right after it lists
lines its output must contain, in order (each matched as a substring of one output
line, after stripping; `...` lines are skipped; `{{.*}}` matches anything). A
```python block is run as a script by the same Python; if the block right after it
is a ```text block, that lists the lines its output must contain, in the same way.
Everything runs from the repository root and must exit with status 0. Prints one
line per step and a summary; exits 1 on the first step that fails or whose output
does not match.

    python scripts/check_docs.py docs/tutorial.md [docs/kernels.md ...]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


@dataclass(frozen=True)
class Step:
    """One thing to run: a shell command, or a Python script given on stdin."""

    command: str
    script: str | None
    wanted: list[str]

    @property
    def title(self) -> str:
        if self.script is None:
            return self.command
        return f"python: {self.script.strip().splitlines()[0]} ..."


def _wanted(body: str) -> list[str]:
    return [w.strip() for w in body.splitlines() if w.strip() and w.strip() != "..."]


def steps(text: str) -> list[Step]:
    """The steps of a page, in order."""
    blocks = [(m.group(1), m.group(2)) for m in FENCE.finditer(text)]
    result = []
    for (lang, body), (next_lang, expected) in zip(
        blocks, [*blocks[1:], ("", "")], strict=True
    ):
        if lang == "sh":
            for line in body.splitlines():
                if line.startswith("$ "):
                    result.append(Step(line[2:], None, _wanted(expected)))
        elif lang == "python":
            wanted = _wanted(expected) if next_lang == "text" else []
            result.append(Step(f'"{sys.executable}" -', body, wanted))
    return result


def matches(pattern: str, line: str) -> bool:
    parts = [re.escape(p) for p in pattern.split("{{.*}}")]
    return re.search(".*".join(parts), line) is not None


def check(step: Step) -> str | None:
    """None if the step succeeds with the lines wanted, else what is wrong."""
    run = subprocess.run(
        step.command,
        shell=True,
        cwd=REPO,
        input=step.script,
        capture_output=True,
        text=True,
        check=False,
    )
    if run.returncode != 0:
        return f"exit status {run.returncode}:\n{run.stderr}"
    lines = iter(run.stdout.splitlines())
    for pattern in step.wanted:
        if not any(matches(pattern, line) for line in lines):
            return f"no output line (in order) matches:\n  {pattern}"
    return None


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "pages", nargs="*", type=Path, help="pages to check (docs/tutorial.md)"
    )
    pages = parser.parse_args(argv).pages or [REPO / "docs" / "tutorial.md"]
    for page in pages:
        if not page.is_file():
            print(f"check_docs: no such page: {page}")
            return 1
        page_steps = steps(page.read_text(encoding="utf-8"))
        if not page_steps:
            print(f"no command found in {page}")
            return 1
        for step in page_steps:
            problem = check(step)
            if problem is not None:
                print(f"FAIL: {step.title}\n{problem}")
                return 1
            print(f"ok: {step.title}")
        print(f"{page.name}: {len(page_steps)} steps checked")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
