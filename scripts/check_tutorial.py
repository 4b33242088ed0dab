"""Runs every command of docs/tutorial.md and checks its output.

A command is a line `$ ...` in a ```sh block; the code block right after it lists
lines its output must contain, in order (each matched as a substring of one output
line, after stripping; `...` lines are skipped; `{{.*}}` matches anything).
Commands run from the repository root. Prints one line per command and a summary;
exits 1 on the first command that fails or whose output does not match.

    python scripts/check_tutorial.py [docs/tutorial.md]
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


def steps(text: str) -> list[tuple[str, list[str]]]:
    """(command, expected lines) for each command of the page."""
    blocks = [(m.group(1), m.group(2)) for m in FENCE.finditer(text)]
    result = []
    for (lang, body), (_, expected) in zip(
        blocks, [*blocks[1:], ("", "")], strict=True
    ):
        if lang == "sh":
            for line in body.splitlines():
                if line.startswith("$ "):
                    wanted = [
                        w.strip()
                        for w in expected.splitlines()
                        if w.strip() and w.strip() != "..."
                    ]
                    result.append((line[2:], wanted))
    return result


def matches(pattern: str, line: str) -> bool:
    parts = [re.escape(p) for p in pattern.split("{{.*}}")]
    return re.search(".*".join(parts), line) is not None


def check(command: str, wanted: list[str]) -> str | None:
    """None if the command succeeds with the lines wanted, else what is wrong."""
    run = subprocess.run(
        command, shell=True, cwd=REPO, capture_output=True, text=True, check=False
    )
    if run.returncode != 0:
        return f"exit status {run.returncode}:\n{run.stderr}"
    lines = iter(run.stdout.splitlines())
    for pattern in wanted:
        if not any(matches(pattern, line) for line in lines):
            return f"no output line (in order) matches:\n  {pattern}"
    return None


def main(argv: list[str]) -> int:
    page = Path(argv[0]) if argv else REPO / "docs" / "tutorial.md"
    commands = steps(page.read_text(encoding="utf-8"))
    for command, wanted in commands:
        problem = check(command, wanted)
        if problem is not None:
            print(f"FAIL: {command}\n{problem}")
            return 1
        print(f"ok: {command}")
    if not commands:
        print(f"no command found in {page}")
        return 1
    print(f"tutorial: {len(commands)} commands checked")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
