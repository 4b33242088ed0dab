"""Where each imported instruction came from, for diagnostics.

With debug information (clang's `-gline-tables-only`, which the OpenCL C driver
passes), an instruction's `!dbg !N` names a `DILocation(line:, column:, scope:)`
whose scope (a `DISubprogram` or a lexical block) names the `DIFile`: the place in
the OpenCL C source, of the function it was inlined from, in the user's file (by
the name the importer was given) or a header it includes. Without it (LLVM IR
written by hand), the place is the instruction's line in the .ll text.

Every op the importer makes gets a `FileLineColLoc` (`locate`): its instruction's
place, or, for what no instruction stands for (a function, a parameter's cast, a
constant made at entry), the place of its function, or the place of the instruction
before it. MLIR's `--import-llvm` does the same with `FileLineColLoc`s.
"""

from __future__ import annotations

import os
import re
from typing import NamedTuple

from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr

_NODE = re.compile(r"^!(\d+) = (?:distinct )?!(\w+)\((.*)\)\s*$", re.M)
_FIELD = re.compile(r'(\w+): (?:"((?:[^"\\]|\\.)*)"|!(\d+)|(\d+))')


class Place(NamedTuple):
    """A file, a line and a column (1-based)."""

    file: str
    line: int
    column: int = 1

    def location(self) -> FileLineColLoc:
        return FileLineColLoc(
            StringAttr(self.file), IntAttr(self.line), IntAttr(self.column)
        )


class DebugInfo:
    """The places of a module's debug metadata: `DILocation` and `DISubprogram`
    node ids -> `Place`."""

    def __init__(self, module_text: str, main_file: str):
        """`main_file`: the name the importer's input goes by; a `DIFile` of the
        same file (clang may write it relative to its working directory) is
        named so too."""
        nodes: dict[int, tuple[str, dict[str, str]]] = {}
        for match in _NODE.finditer(module_text):
            fields = {}
            for field in _FIELD.finditer(match.group(3)):
                name, text, ref, number = field.groups()
                fields[name] = (
                    text if text is not None else f"!{ref}" if ref else number
                )
            nodes[int(match.group(1))] = (match.group(2), fields)
        self._nodes = nodes
        self._main = main_file
        self._main_path = os.path.normpath(os.path.abspath(main_file))
        self.places: dict[int, Place] = {}
        for number, (kind, fields) in nodes.items():
            if kind in ("DILocation", "DISubprogram") and "line" in fields:
                file = self._file_of(fields)
                if file is not None:
                    column = int(fields.get("column", "0")) or 1
                    self.places[number] = Place(file, int(fields["line"]), column)

    def _file_of(self, fields: dict[str, str]) -> str | None:
        """The file name of a node with a `file:` or a `scope:`, following scopes."""
        for _ in range(64):  # scopes nest; a cycle would be malformed metadata
            reference = fields.get("file") or fields.get("scope")
            if reference is None or not reference.startswith("!"):
                return None
            kind, fields = self._nodes.get(int(reference[1:]), ("", {}))
            if kind == "DIFile":
                main = _path(fields) == self._main_path
                return self._main if main else fields.get("filename")
        return None

    def place_of(self, instruction_text: str) -> Place | None:
        """The place of a printed instruction or function's `!dbg !N`."""
        match = re.search(r"!dbg !(\d+)", instruction_text)
        return self.places.get(int(match.group(1))) if match else None

    def __bool__(self) -> bool:
        return bool(self.places)


def _path(di_file: dict[str, str]) -> str:
    """A `DIFile`'s path: its filename in its directory (clang writes the same
    file both ways, absolute and relative to the directory)."""
    directory, name = di_file.get("directory", ""), di_file.get("filename", "")
    return os.path.normpath(os.path.join(directory, name))


def locate(module: ModuleOp, fallback: FileLineColLoc) -> None:
    """Gives every op of `module` without a `FileLineColLoc` one: the location of
    the op before it in its block, else of the op holding it, else `fallback`."""
    for op in module.walk():
        if isinstance(op.location, FileLineColLoc):
            continue
        previous = op.prev_op
        while previous is not None and not isinstance(
            previous.location, FileLineColLoc
        ):
            previous = previous.prev_op
        holder = op.parent_op()
        if previous is not None:
            op.location = previous.location
        elif holder is not None and isinstance(holder.location, FileLineColLoc):
            op.location = holder.location
        else:
            op.location = fallback
