"""`TranslationError`, what the translation to LLVM IR raises, and `diagnostics`, which
turns the exceptions of xDSL's backend and llvmlite into it.

xDSL's `xdsl.backend.llvm` and llvmlite fail on input they do not support with
whatever exception the failing line raises (NotImplementedError, KeyError,
AssertionError, ...). The translation runs each of its steps inside
`diagnostics(what, op)`, so that every failure is a `TranslationError` naming what
was being translated.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from xdsl.ir import Operation
from xdsl.utils.exceptions import LLVMTranslationException


class TranslationError(LLVMTranslationException):
    """The module cannot be translated to LLVM IR; the message names the op or
    type. A `DiagnosticException`, like every compile error of the project."""


@contextmanager
def diagnostics(what: str, op: Operation | None = None) -> Iterator[None]:
    """Turns the exceptions xDSL's backend and llvmlite raise on input they do not
    support (NotImplementedError, KeyError, ...) into a `TranslationError` naming
    `what` (and showing `op`)."""
    try:
        yield
    except TranslationError:
        raise
    except (LLVMTranslationException, NotImplementedError) as error:
        raise _error(what, op, str(error)) from error
    except KeyError as error:
        detail = "it uses a value or block that was not translated"
        raise _error(what, op, detail) from error
    except (AssertionError, TypeError, ValueError, AttributeError) as error:
        raise _error(what, op, f"{type(error).__name__}: {error}") from error


def _error(what: str, op: Operation | None, detail: str) -> TranslationError:
    where = f" in:\n{op}" if op is not None else ""
    return TranslationError(f"cannot translate {what} to LLVM IR: {detail}{where}")
