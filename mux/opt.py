"""`mux-opt`: xDSL's `xdsl-opt` with the ComputeMux dialects and passes.

It takes the same flags as `xdsl-opt` (`-p`, `--split-input-file`,
`--verify-diagnostics`, `--print-op-generic`, `-t`, ...). Besides the ops' own
verifiers, every module it reads has its `mux.*` function and module attributes
checked (`dialects.attributes.verify_mux_attributes`).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import IO

from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException, ParseError
from xdsl.xdsl_opt_main import xDSLOptMain

from dialects import ALL_DIALECTS
from lowering import ALL_PASSES
from mux.backend import ALL_TARGETS
from mux.source import parse_module, verify_module


class MuxOptMain(xDSLOptMain):
    version_format = "mux-opt (ComputeMux on xDSL {xdsl_version})"

    def __init__(self, args: Sequence[str] | None = None):
        super().__init__(description="ComputeMux modular optimizer driver", args=args)

    def register_all_dialects(self):
        super().register_all_dialects()
        for name, factory in ALL_DIALECTS.items():
            if name not in self.ctx.registered_dialect_names:
                self.ctx.register_dialect(name, factory)

    def register_all_targets(self):
        super().register_all_targets()
        self.available_targets.update(ALL_TARGETS)  # ours replace xDSL's `llvm`

    def register_all_passes(self):
        super().register_all_passes()
        for name, factory in ALL_PASSES.items():
            self.register_pass(name, factory)

    def register_all_frontends(self):
        super().register_all_frontends()

        def parse_mlir(chunk: IO[bytes]) -> ModuleOp:
            text = chunk.read()
            implicit = not self.args.no_implicit_module
            return parse_module(self.ctx, text, self.get_input_name(), implicit)

        self.available_frontends["mlir"] = parse_mlir

    def parse_chunk(
        self, chunk: IO[bytes], file_extension: str, start_offset: int = 0
    ) -> ModuleOp | None:
        module = super().parse_chunk(chunk, file_extension, start_offset)
        if module is not None and not self.args.disable_verify:
            verify_module(module)
        return module


def main(args: Sequence[str] | None = None) -> int:
    """Runs mux-opt. A diagnostic (parse error, verifier error, failed pass) is
    printed to stderr, with the IR it is about, and the exit status is 1."""
    try:
        MuxOptMain(args=args).run()
    except (DiagnosticException, ParseError) as error:
        print(error, file=sys.stderr)
        for note in getattr(error, "__notes__", ()):
            print(note, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
