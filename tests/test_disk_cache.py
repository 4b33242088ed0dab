"""The disk cache of compiled kernels (mux/disk_cache.py): a later process loads a
kernel instead of compiling it; a damaged entry is never loaded; options and local
sizes have entries of their own; MUX_CACHE_DIR="" turns it off; `mux.compile`'s
check of a kernel (the host pipeline run unspecialised) is marked done there; the
key hashes the modules of our packages, as imported, and nothing beside them.

Each scenario that compiles runs in fresh Python processes (the in-memory caches of
this one would hide the disk)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import dialects
import lowering
import mux
from mux import disk_cache

REPO = Path(__file__).resolve().parent.parent

# Runs vadd on 1000 floats and prints whether the result is right, how many times
# the host pipeline compiled it for the launch's local size and how many times
# `mux.compile` checked it (the pipeline run unspecialised): the pipeline is wrapped
# to count its runs.
SCRIPT = """
import sys
import numpy as np
import mux
from lowering import pipelines

runs = []
lower = pipelines.HostPipeline.lower
def counting_lower(self, ctx, op):
    runs.append(self.local_sizes)
    return lower(self, ctx, op)
pipelines.HostPipeline.lower = counting_lower

local = int(sys.argv[1])
kernel = mux.load("examples/vadd.mlir").kernel("vadd")
a = np.arange(1000, dtype=np.float32)
b = np.full(1000, 0.5, dtype=np.float32)
c = np.zeros(1000, dtype=np.float32)
kernel(a, b, c, global_size=1000, local_size=local)
checks = runs.count(())
print("right" if np.array_equal(c, a + b) else "wrong", len(runs) - checks, checks)
"""


def run(cache: str, local: int = 100, **variables: str) -> tuple[str, int, int]:
    environment = {**os.environ, "MUX_CACHE_DIR": cache, **variables}
    completed = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(local)],
        cwd=REPO,
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    result, compiles, checks = completed.stdout.split()
    return result, int(compiles), int(checks)


def entries(directory: Path) -> list[Path]:
    return sorted(directory.glob("*.json"))


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    return tmp_path / "cache"


def test_a_later_process_loads_instead_of_compiling(cache: Path):
    assert run(str(cache)) == ("right", 1, 1)
    assert len(entries(cache)) == 1
    assert run(str(cache)) == ("right", 0, 0)  # loaded, checked: no pipeline run


def test_each_local_size_has_its_own_entry(cache: Path):
    assert run(str(cache), local=100) == ("right", 1, 1)
    assert run(str(cache), local=50) == ("right", 1, 0)  # checked already
    assert len(entries(cache)) == 2
    assert run(str(cache), local=50) == ("right", 0, 0)


@pytest.mark.parametrize("damage", ["object", "ir", "record", "missing"])
def test_a_damaged_entry_is_compiled_again(cache: Path, damage: str):
    assert run(str(cache)) == ("right", 1, 1)
    (record,) = entries(cache)
    stem = record.with_suffix("")
    if damage == "object":
        code = bytearray(stem.with_suffix(".o").read_bytes())
        code[len(code) // 2] ^= 0xFF
        stem.with_suffix(".o").write_bytes(bytes(code))
    elif damage == "ir":
        text = stem.with_suffix(".ll").read_text()
        stem.with_suffix(".ll").write_text(text[: len(text) // 2])
    elif damage == "record":
        record.write_text("{not json")
    else:
        stem.with_suffix(".o").unlink()
    assert run(str(cache)) == ("right", 1, 0)  # compiled again, not loaded
    assert json.loads(record.read_text())["hook"]  # and the entry rewritten
    assert run(str(cache)) == ("right", 0, 0)


def test_an_empty_setting_turns_the_cache_off(tmp_path: Path):
    home = {"XDG_CACHE_HOME": str(tmp_path), "HOME": str(tmp_path)}
    assert run("", **home) == ("right", 1, 1)
    assert run("", **home) == ("right", 1, 1)
    assert list(tmp_path.iterdir()) == []  # not in the default place either


def test_the_default_place(tmp_path: Path):
    environment = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    del environment["MUX_CACHE_DIR"]
    completed = subprocess.run(
        [
            sys.executable,
            "-c",
            "from mux import disk_cache; print(disk_cache.cache_dir())",
        ],
        cwd=REPO,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    assert completed.stdout.strip() == str(tmp_path / "computemux-xdsl")


def test_an_unwritable_directory_is_no_error(tmp_path: Path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    assert run(str(blocker / "cache")) == ("right", 1, 1)


def test_the_key_hashes_our_packages_modules_only(tmp_path: Path):
    site = tmp_path / "site-packages"  # as installed without -e
    packages = [site / name for name in disk_cache.PACKAGES]
    for package in packages:
        (package / "sub").mkdir(parents=True)
        (package / "__init__.py").write_text("")
        (package / "sub" / "module.py").write_text("x = 1\n")
    digest = disk_cache.sources_digest(packages)
    (site / "foreign").mkdir()  # another distribution's package beside ours
    (site / "foreign" / "module.py").write_text("")
    (site / "foreign.py").write_text("")
    (packages[0] / ".hidden").mkdir()  # not importable: not one of its modules
    (packages[0] / ".hidden" / "module.py").write_text("")
    (packages[0] / "notes.txt").write_text("")
    assert disk_cache.sources_digest(packages) == digest
    (packages[1] / "sub" / "module.py").write_text("x = 2\n")
    assert disk_cache.sources_digest(packages) != digest


def test_the_packages_hashed_are_the_imported_ones():
    imported = [
        Path(str(p.__file__)).resolve().parent for p in (dialects, lowering, mux)
    ]
    assert disk_cache.package_directories() == imported


def test_checked_mode_has_its_own_entries_with_their_sites(cache: Path):
    """MUX_CHECKED=1 compiles checked: other entries, which keep the check
    sites a fault's message names (`mux.checked`)."""
    assert run(str(cache)) == ("right", 1, 1)
    assert run(str(cache), MUX_CHECKED="1") == ("right", 1, 1)
    records = [json.loads(p.read_text()) for p in entries(cache)]
    sites = sorted(len(r.get("sites", ())) for r in records)
    assert sites == [0, 6]  # unchecked; vadd's 3 accesses, scalar and vectorised
    assert run(str(cache), MUX_CHECKED="1") == ("right", 0, 0)
