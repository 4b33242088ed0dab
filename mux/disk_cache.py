"""The disk cache of compiled kernels: a kernel compiled once is loaded, not
compiled, by later processes.

An entry is the optimised LLVM IR of one kernel variant (source text, kernel, local
sizes, options), its machine code as an object file, the name of its entry hook,
and in checked mode the kernel's check sites (what a fault's message says).
Loading it parses the IR and maps the object (`mux.backend.jit.load_compiled`): the
`host` pipeline, the translation and LLVM's optimisation and code generation are
skipped.

The key is the SHA-256 of the variant and of everything that could change the code:
the source of this project's compiler (the modules of the `dialects`, `lowering` and
`mux` packages, wherever they were imported from), the xDSL and llvmlite versions,
and the host CPU's name and features. So a changed compiler
or another machine never reads a stale entry; it writes its own.

Besides compiled kernels, it marks the kernels `mux.compile` has checked
(`mux.compiler.check_kernel`: an empty file), so that later processes skip the
check.

Where: `$MUX_CACHE_DIR` if set (empty: no disk cache), else
`$XDG_CACHE_HOME/computemux-xdsl`, else `~/.cache/computemux-xdsl`. Entries are
written whole or not at all (a temporary file renamed into place), and each records
the SHA-256 of its IR and object: an entry that is unreadable, truncated or altered is
ignored (and rewritten by the next compilation), never loaded. The cache is never
pruned: delete the directory to empty it.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path

from mux.backend.jit import _host_cpu

ENVIRONMENT_VARIABLE = "MUX_CACHE_DIR"
PACKAGES = ("dialects", "lowering", "mux")
"""This project's packages: their source is the compiler's."""


@dataclass(frozen=True)
class Entry:
    """One compiled kernel variant."""

    llvm_ir: str
    object_code: bytes
    hook_name: str
    sites: tuple[str, ...] = ()
    """The check sites of a kernel compiled in checked mode (`mux.checked`)."""


def cache_dir() -> Path | None:
    """The cache directory, or None when the disk cache is off."""
    configured = os.environ.get(ENVIRONMENT_VARIABLE)
    if configured is not None:
        return Path(configured) if configured else None
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "computemux-xdsl"


@cache
def compiler_fingerprint() -> str:
    """The SHA-256 of the compiler's source files, the versions of xDSL and
    llvmlite, and the host CPU."""
    digest = hashlib.sha256(sources_digest(package_directories()).encode())
    for distribution in ("xdsl", "llvmlite"):
        digest.update(f"{distribution}={metadata.version(distribution)}".encode())
    for part in _host_cpu():
        digest.update(part.encode())
    return digest.hexdigest()


def package_directories() -> list[Path]:
    """The directories of `PACKAGES`, as imported."""
    return [
        Path(str(importlib.import_module(name).__file__)).resolve().parent
        for name in PACKAGES
    ]


def sources_digest(packages: Iterable[Path]) -> str:
    """The SHA-256 of the modules of the packages in `packages` (directories): each
    module's path in its package and its text. Nothing else counts: not what lies
    beside the packages (installed without `-e`, other distributions' packages in
    site-packages), nor files in a package that are not its modules."""
    digest = hashlib.sha256()
    for package in packages:
        for path in sorted(_modules(package)):
            digest.update(str(path.relative_to(package.parent)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _modules(directory: Path) -> Iterator[Path]:
    """The `*.py` files of the package in `directory` and of its subpackages (the
    subdirectories an import can reach: named as Python identifiers)."""
    for path in directory.iterdir():
        if path.is_dir() and path.name.isidentifier():
            yield from _modules(path)
        elif path.is_file() and path.suffix == ".py":
            yield path


def key(variant: object) -> str:
    """The entry name of a kernel variant (`mux.compiler.KernelVariant`: its source
    hash, kernel name, local sizes, options; a frozen record whose repr says all of
    it), for this compiler and machine."""
    digest = hashlib.sha256(compiler_fingerprint().encode())
    digest.update(repr(variant).encode())
    return digest.hexdigest()


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def load(name: str) -> Entry | None:
    """The entry `name`, or None if there is none, or none intact."""
    directory = cache_dir()
    if directory is None:
        return None
    try:
        record = json.loads((directory / f"{name}.json").read_text())
        llvm_ir = (directory / f"{name}.ll").read_bytes()
        object_code = (directory / f"{name}.o").read_bytes()
        if (
            record["ir_sha256"] != _sha256(llvm_ir)
            or record["object_sha256"] != _sha256(object_code)
            or not isinstance(record["hook"], str)
        ):
            return None
        sites = tuple(str(site) for site in record.get("sites", ()))
        return Entry(llvm_ir.decode(), object_code, record["hook"], sites)
    except (OSError, ValueError, KeyError, TypeError, UnicodeDecodeError):
        return None


def store(name: str, entry: Entry) -> None:
    """Writes entry `name` (best effort: a directory that cannot be written is no
    error, the kernel is just compiled again next time)."""
    directory = cache_dir()
    if directory is None or not entry.object_code:
        return
    llvm_ir = entry.llvm_ir.encode()
    record = {
        "hook": entry.hook_name,
        "ir_sha256": _sha256(llvm_ir),
        "object_sha256": _sha256(entry.object_code),
        "sites": list(entry.sites),
    }
    try:
        directory.mkdir(parents=True, exist_ok=True)
        # the record last: a reader finds it only once the files it checks exist
        _write(directory / f"{name}.ll", llvm_ir)
        _write(directory / f"{name}.o", entry.object_code)
        _write(directory / f"{name}.json", json.dumps(record).encode())
    except OSError:
        return


def checked(name: str) -> bool:
    """Whether the check `name` was marked passed (`mark_checked`)."""
    directory = cache_dir()
    return directory is not None and (directory / f"{name}.checked").is_file()


def mark_checked(name: str) -> None:
    """Marks the check `name` passed (best effort, as `store`)."""
    directory = cache_dir()
    if directory is None:
        return
    try:
        directory.mkdir(parents=True, exist_ok=True)
        _write(directory / f"{name}.checked", b"")
    except OSError:
        return


def _write(path: Path, data: bytes) -> None:
    """`data` into `path` whole: a temporary file beside it, renamed."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
