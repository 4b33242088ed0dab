"""The layout docs/architecture.md, "The map of the code", draws: imports go down the
layers, lowering's top level holds only the registry, the pipelines and the passes,
and no module or function outgrows what a reader can hold."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from lowering import PASSES

REPO = Path(__file__).resolve().parent.parent
PACKAGES = ("dialects", "lowering", "mux")
MAX_MODULE_LINES = 650
"""'About 600 lines' (issue 14); dialect definitions, a list of op classes, are
exempt."""
MAX_FUNCTION_LINES = 80

LAYERS = (
    ("mux", ()),
    ("lowering.pipelines", ("mux",)),
    ("lowering.<pass>", ("mux", "lowering.pipelines", "lowering.to_llvm")),
    (
        "lowering.scheduling",
        ("mux", "lowering.pipelines", "lowering.<pass>", "lowering.to_llvm"),
    ),
    (
        "lowering.to_llvm",
        ("mux", "lowering.pipelines", "lowering.<pass>", "lowering.scheduling"),
    ),
    (
        "lowering.common",
        (
            "mux",
            "lowering.pipelines",
            "lowering.<pass>",
            "lowering.scheduling",
            "lowering.to_llvm",
        ),
    ),
    ("dialects", ("mux", "lowering")),
)
"""Each layer and the layers it must not import from."""


def modules() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (REPO / package).rglob("*.py"))


def dotted(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer(module: str) -> str:
    """The layer of a dotted module name (a pass package's modules are the pass)."""
    for prefix in (
        "lowering.common",
        "lowering.scheduling",
        "lowering.to_llvm",
        "lowering.pipelines",
    ):
        if module == prefix or module.startswith(prefix + "."):
            return prefix
    if module == "lowering":
        return "lowering.pipelines"  # the registry: it names every pass
    if module.startswith("lowering."):
        return "lowering.<pass>"
    return module.split(".")[0]


def imported(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text())
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
    return [(line, name) for line, name in found if name.split(".")[0] in PACKAGES]


def test_imports_go_down_the_layers():
    forbidden = dict(LAYERS)
    wrong = []
    for path in modules():
        own = layer(dotted(path))
        for line, name in imported(path):
            target = layer(name)
            if any(target == f or target.startswith(f + ".") for f in forbidden[own]):
                wrong.append(f"{path.relative_to(REPO)}:{line} imports {name}")
    assert wrong == []


def test_the_layer_rule_sees_a_wrong_import():
    forbidden = dict(LAYERS)
    assert "lowering.to_llvm" in forbidden[layer("lowering.replace_wgc")]
    assert "lowering.<pass>" in forbidden[layer("lowering.common.cfg")]
    assert "mux" in forbidden[layer("lowering.scheduling.regions")]


def test_lowering_top_level_is_registry_pipelines_and_passes():
    passes = {info.module for info in PASSES}
    extra = [
        p.name
        for p in (REPO / "lowering").iterdir()
        if not p.name.startswith((".", "__pycache__"))
        and p.stem not in passes | {"__init__", "pipelines", "common", "scheduling"}
    ]
    assert extra == []


@pytest.mark.parametrize(
    "path", modules(), ids=lambda p: p.relative_to(REPO).as_posix()
)
def test_module_and_function_sizes(path):
    text = path.read_text()
    if path.parent.name != "dialects":
        assert len(text.splitlines()) <= MAX_MODULE_LINES
    long = [
        f"{node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for node in ast.walk(ast.parse(text))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    ]
    assert long == []
