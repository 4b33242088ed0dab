"""The scripts under scripts/ as modules, for their tests: scripts/ is not a
package, so each is loaded from its file."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def load_script(name: str) -> ModuleType:
    """scripts/<name>.py as the module `name` (registered in sys.modules, where
    dataclasses look their module up)."""
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


conformance = load_script("conformance")
UNITCL = conformance.DEFAULT_SUITE
"""The UnitCL suite (test data beside the repository: `../shared/suites/unitcl`)."""

needs_unitcl = pytest.mark.skipif(
    not (UNITCL / "kernels").is_dir() and not os.environ.get("CI"),
    reason=f"no UnitCL suite at {UNITCL}: these tests run its kernels (outside CI, "
    "a checkout without ../shared has none; in CI they run, and fail if it is gone)",
)

conformance_pocl = load_script("conformance_pocl")
POCL_MISSING = conformance_pocl.pocl_missing()

needs_pocl = pytest.mark.skipif(
    POCL_MISSING is not None and not os.environ.get("CI"),
    reason=f"{POCL_MISSING}: these tests run kernels on PoCL (outside CI, a venv "
    "set up before the test extra had PoCL has none; in CI they run, and fail if "
    "it is gone)",
)
