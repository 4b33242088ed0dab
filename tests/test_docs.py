"""The generated references `docs/dialect.md`, `docs/atomic.md`, `docs/passes.md`
and what they are generated from.

(a) the committed pages are what `scripts/gen_dialect_docs.py` and
    `scripts/gen_pass_docs.py` generate;
(b) every op (mux and atomic) documents itself: its own docstring, its `RULES`; a
    mux op's name follows the spec's builtin;
(c) every verifier rule has a negative lit test that checks its message.
"""

import difflib
import inspect
import re
from pathlib import Path

import pytest
from script_modules import load_script

from dialects import atomic, mux
from lowering import ALL_PASSES, PASSES

REPO = Path(__file__).resolve().parent.parent
FILECHECK = REPO / "tests" / "filecheck"


gen_dialect_docs = load_script("gen_dialect_docs")
gen_pass_docs = load_script("gen_pass_docs")

OPS = sorted(mux.Mux.operations, key=lambda op: op.name)
ATOMIC_OPS = sorted(atomic.Atomic.operations, key=lambda op: op.name)
RULES = {
    f"{module.__name__}.{name}": value
    for module in (mux, atomic)
    for name, value in vars(module).items()
    if name.startswith("RULE_")
}


# --------------------------------------------------------------------------------------
# (a) The committed page is up to date.
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("page", "render"),
    [
        ("dialect", gen_dialect_docs.render),
        ("atomic", gen_dialect_docs.render_atomic),
        ("passes", gen_pass_docs.render),
    ],
    ids=["dialect.md", "atomic.md", "passes.md"],
)
def test_committed_docs_are_generated(page, render):
    expected = render()
    path = REPO / "docs" / f"{page}.md"
    committed = path.read_text(encoding="utf-8") if path.exists() else ""
    if committed != expected:
        diff = difflib.unified_diff(
            committed.splitlines(),
            expected.splitlines(),
            f"docs/{page}.md (committed)",
            f"docs/{page}.md (generated)",
            lineterm="",
        )
        first_lines = "\n".join(list(diff)[:30])
        pytest.fail(
            f"docs/{page}.md is stale: run python scripts/gen_*_docs.py\n" + first_lines
        )


# --------------------------------------------------------------------------------------
# (b) Every op documents itself.
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize("op", OPS + ATOMIC_OPS, ids=lambda op: op.name)
def test_op_has_its_own_docstring(op):
    doc = vars(op).get("__doc__")
    assert doc and doc.strip(), f"{op.__name__} has no docstring of its own"
    for base in op.__mro__[1:]:
        assert vars(base).get("__doc__") != doc, (
            f"{op.__name__} repeats the docstring of {base.__name__}"
        )


@pytest.mark.parametrize("op", OPS + ATOMIC_OPS, ids=lambda op: op.name)
def test_op_lists_its_rules(op):
    assert isinstance(getattr(op, "RULES", None), tuple), f"{op.__name__}.RULES"
    unknown = [rule for rule in op.RULES if rule not in RULES.values()]
    assert not unknown, f"{op.__name__}.RULES has rules that are not RULE_*: {unknown}"


@pytest.mark.parametrize("op", OPS, ids=lambda op: op.name)
def test_op_name_is_the_builtin_name(op):
    """The builtin name without `__mux_`, lower-case (loosely checked)."""
    assert op.name.startswith("mux."), op.name
    assert op.name == op.name.lower(), op.name
    assert "__mux_" in (vars(op).get("__doc__") or ""), (
        f"the docstring of {op.__name__} names no __mux_ builtin"
    )


# --------------------------------------------------------------------------------------
# (c) Every rule has a negative lit test.
# --------------------------------------------------------------------------------------

RULE_PREFIX_LENGTH = 40
CHECK_LINE = re.compile(r"\bCHECK(-NEXT|-SAME|-DAG|-LABEL)?:")


def _invalid_test_check_lines() -> list[str]:
    """The CHECK lines of the lit tests whose file name contains `invalid`."""
    lines = []
    for path in sorted(FILECHECK.rglob("*.mlir")):
        if "invalid" not in path.name or "Output" in path.parts:
            continue
        text = path.read_text(encoding="utf-8")
        lines += [line for line in text.splitlines() if CHECK_LINE.search(line)]
    return lines


@pytest.mark.parametrize("name", sorted(RULES))
def test_rule_has_a_negative_lit_test(name):
    prefix = RULES[name][:RULE_PREFIX_LENGTH]
    lines = _invalid_test_check_lines()
    assert any(prefix in line for line in lines), (
        f"{name} has no negative lit test: no CHECK line of a tests/filecheck/"
        f"**/*invalid*.mlir file contains {prefix!r}"
    )


# --------------------------------------------------------------------------------------
# Every pass documents itself as the pass rules ask.
# --------------------------------------------------------------------------------------

SPEC_PASSES = [name for name in ALL_PASSES if name not in ("host", "convert-to-llvm")]


@pytest.mark.parametrize("name", SPEC_PASSES)
def test_pass_docstring_names_spec_and_conditions(name):
    module = inspect.getmodule(ALL_PASSES[name]())
    doc = module.__doc__ or ""
    assert doc.startswith(f"`{name}"), "the docstring starts with the pass's name"
    assert re.search(r"\.(rst|txt)", doc), "it names the spec file it implements"
    assert "Before:" in doc and "After:" in doc, "it says what runs before and after"


@pytest.mark.parametrize("info", PASSES, ids=lambda info: info.name)
def test_registry_names_the_spec_class_the_pass_documents(info):
    """`lowering.PASSES` is the index of docs/passes.md: its spec class name must be
    the one the pass's own docstring gives, and its module and class must be
    where the pass is."""
    pass_class = info.load()
    assert pass_class.name == info.name
    assert pass_class.__module__.startswith(f"lowering.{info.module}")
    if not info.spec.startswith("(none"):
        doc = inspect.getmodule(pass_class).__doc__ or ""
        assert info.spec in doc.split("\n\n")[0], "the docstring's first paragraph"


def test_code_points_to_headings_of_the_performance_page():
    """Figures live in docs/performance.md and the code points there by heading
    (`docs/performance.md, "<heading>"`): every such pointer names a heading the
    page has, so renaming a heading cannot leave a pointer dangling."""
    headings = {
        line.lstrip("#").strip()
        for line in (REPO / "docs" / "performance.md").read_text().splitlines()
        if line.startswith("#")
    }
    pointers = []
    for package in ("dialects", "lowering", "mux", "scripts"):
        for path in sorted((REPO / package).rglob("*.py")):
            text = re.sub(r"\n\s*(#\s*)?", " ", path.read_text())
            for heading in re.findall(r'docs/performance\.md, "([^"]+)"', text):
                pointers.append((path.relative_to(REPO).as_posix(), heading))
    assert len(pointers) >= 6, "the pointers are found"
    assert [p for p in pointers if p[1] not in headings] == []
