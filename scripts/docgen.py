"""What the documentation generators share: docstrings (including the ones Python does
not keep, after an assignment), Markdown tables, and the write-or-check main."""

from __future__ import annotations

import argparse
import ast
import inspect
import itertools
import sys
import textwrap
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def own_doc(obj: object) -> str:
    """The docstring `obj` defines itself (not one of a base class), cleaned up."""
    doc = vars(obj).get("__doc__") if isinstance(obj, type) else obj.__doc__
    return inspect.cleandoc(doc) if doc else ""


def assignment_docs(obj: object) -> dict[str, str]:
    """Name -> docstring of the assignments in the body of a module or class.

    A string right after an assignment documents it, but Python keeps no such
    docstring at run time: it is read from the source.
    """
    tree = ast.parse(textwrap.dedent(inspect.getsource(obj)))
    body = tree.body[0].body if isinstance(obj, type) else tree.body  # type: ignore[attr-defined]
    docs = {}
    for node, after in itertools.pairwise(body):
        if not (
            isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            if isinstance(target, ast.Name):
                docs[target.id] = inspect.cleandoc(after.value.value)
    return docs


def table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    for row in rows:
        cells = [cell.replace("|", "\\|").replace("\n", " ") for cell in row]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def write_or_check(
    relative_path: str,
    render: Callable[[], str],
    script: str,
    argv: Sequence[str] | None = None,
) -> int:
    """The generators' main: writes the page, or with --check exits 1 if stale."""
    parser = argparse.ArgumentParser(description=f"generates {relative_path}")
    parser.add_argument(
        "--check",
        action="store_true",
        help=f"exit 1 if {relative_path} differs from what would be generated",
    )
    args = parser.parse_args(argv)
    path = REPO / relative_path
    text = render()
    if args.check:
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            print(f"{relative_path} is stale: run python {script}", file=sys.stderr)
            return 1
        print(f"{relative_path} is up to date")
        return 0
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    print(f"wrote {relative_path}")
    return 0
