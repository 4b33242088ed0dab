"""`mux-explore`: the lowering explorer's page of a kernel file.

    mux-explore examples/reduce.mlir -o reduce.html
    mux-explore examples/sgemm_tiled.cl --local-size 16,16 -o sgemm.html

`--kernel` picks the kernel (by default the file's only one, or all of them);
`--local-size` specialises it for a local size, as a launch of that size does.
`--fast`, `--software-wgc`, `--sub-group-size`, `--vecz-width` and `--build-options`
are `mux.compile`'s. A kernel that does not compile still gives a page, with the
stages up to the pass that failed and the diagnostic; the diagnostic is also printed
to stderr and the exit status is 1. A file that cannot be read or written, or a bad
option, is one line on stderr and exit status 1.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from lowering.common.compile_options import OptionError
from mux.errors import CompileError, file_error
from mux.explorer import explore
from mux.run import add_compile_arguments, kernel_file_parser, sizes


def _parser() -> argparse.ArgumentParser:
    parser = kernel_file_parser(
        "mux-explore", "One HTML page showing a kernel go through every pass.", __doc__
    )
    parser.add_argument("-o", "--output", required=True, help="the page to write")
    parser.add_argument("--kernel", default="", help="the kernel to follow")
    parser.add_argument(
        "--local-size", type=sizes, default=(), help="specialise it for X[,Y[,Z]]"
    )
    add_compile_arguments(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        page = explore(
            args.file,
            kernel=args.kernel,
            local_size=args.local_size,
            build_options=args.build_options,
            fast=args.fast,
            software_wgc=args.software_wgc,
            sub_group_size=args.sub_group_size,
            vecz_width=args.vecz_width,
            checked=args.checked,
            output=args.output,
        )
    except OSError as error:
        verb = "read" if error.filename == args.file else "write"
        print(f"mux-explore: {file_error(verb, error)}", file=sys.stderr)
        return 1
    except (CompileError, OptionError) as error:
        print(f"mux-explore: {error}", file=sys.stderr)
        return 1
    if page.error:
        print(page.error, file=sys.stderr)
        print(f"mux-explore: wrote {args.output}, up to the error", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
