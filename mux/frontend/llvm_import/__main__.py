"""`python -m mux.frontend.llvm_import FILE.ll`: prints the imported module (or
the diagnostic, exit status 1)."""

from __future__ import annotations

import sys

from mux.errors import CompileError, file_error
from mux.frontend.llvm_import import import_llvm


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m mux.frontend.llvm_import FILE.ll", file=sys.stderr)
        return 2
    try:
        with open(argv[0]) as file:
            text = file.read()
        module = import_llvm(text, argv[0])
        module.verify()
    except OSError as error:
        print(file_error("read", error), file=sys.stderr)
        return 1
    except CompileError as error:
        print(error, file=sys.stderr)
        return 1
    print(module)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
