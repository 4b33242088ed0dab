"""Generates `docs/dialect.md`, the reference of the `mux` dialect, and
`docs/atomic.md`, the reference of the `atomic` dialect.

    python scripts/gen_dialect_docs.py           # writes both pages
    python scripts/gen_dialect_docs.py --check   # exits 1 if a page is stale

Everything on the pages comes from the definitions: `dialects/mux.py` (the ops, their
docstrings, `RULES` and assembly formats, the attributes and types),
`dialects/attributes.py` (the `mux.` function and module attributes) and
`dialects/atomic.py` (the same for the atomic ops, whose orderings and operations
are attributes of `dialects/llvmx.py`). To change a page, change the definitions and
run this script; never edit a page by hand. `tests/test_docs.py` fails when a
committed page differs from `render()` (mux) or `render_atomic()`.

The output is deterministic: no dates, no absolute paths, definitions in their
declaration order.
"""

from __future__ import annotations

import inspect
import io
import itertools
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from docgen import assignment_docs, own_doc, table, write_or_check
from xdsl.dialects.builtin import (
    IndexType,
    IntAttr,
    IntegerAttr,
    MemRefType,
    UnitAttr,
    VectorType,
    i1,
    i8,
    i32,
)
from xdsl.dialects.llvm import LLVMPointerType
from xdsl.dialects.utils.bit_enum_attribute import BitEnumAttribute
from xdsl.ir import Attribute, Block, Dialect, TypeAttribute
from xdsl.irdl import (
    AnyAttr,
    AnyOf,
    BaseAttr,
    EqAttrConstraint,
    IRDLOperation,
    OperandDef,
    OptionalDef,
    ParamAttrConstraint,
    RangeLengthConstraint,
    RangeOf,
    ResultDef,
    VarConstraint,
    VariadicDef,
    VerificationContext,
)
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from dialects import atomic, attributes, llvmx, mux

REPO = Path(__file__).resolve().parent.parent
DOC_PATH = REPO / "docs" / "dialect.md"
ATOMIC_DOC_PATH = REPO / "docs" / "atomic.md"
REGENERATE = "python scripts/gen_dialect_docs.py"

SECTIONS: tuple[tuple[str, Sequence[type[IRDLOperation]]], ...] = (
    ("Work-item queries", mux.QUERY_OPS),
    ("Work-item setters", mux.SETTER_OPS),
    ("Barriers", mux.BARRIER_OPS),
    ("Group collectives", mux.GROUP_OPS),
    ("DMA", mux.DMA_OPS),
)

# The examples are built, verified and printed by xDSL, so they always follow the
# assembly format. Each operand and result gets the first of these types its
# constraint accepts such that the whole op verifies; each property gets its sample.
SAMPLE_TYPES: tuple[Attribute, ...] = (
    VectorType(i32, [4]),
    i32,
    VectorType(i1, [4]),
    i1,
    IndexType(),
    MemRefType(i8, [64], memory_space=IntegerAttr(mux.ADDRESS_SPACE_LOCAL, 64)),
    MemRefType(i8, [64], memory_space=IntegerAttr(mux.ADDRESS_SPACE_GLOBAL, 64)),
    mux.DmaEventType(),
)
SAMPLE_PROPERTIES: dict[type[Attribute], Attribute] = {
    mux.MemScopeAttr: mux.MemScopeAttr(mux.MemScope.WORK_GROUP),
    mux.MemSemanticsAttr: mux.MemSemanticsAttr(
        {mux.MemSemantics.ACQ_REL, mux.MemSemantics.WORK_GROUP_MEMORY}
    ),
    mux.GroupOperationAttr: mux.GroupOperationAttr(mux.GroupOperation.ADD),
    mux.BarrierScheduleAttr: mux.BarrierScheduleAttr(mux.BarrierSchedule.LINEAR),
    IntegerAttr: IntegerAttr(0, i32),
}


class Page(NamedTuple):
    """What a dialect's page is made of: the module defining the ops and their
    `RULE_*` constants, the attributes documented with it, and the samples its
    examples are built from (a property sample may be a tuple of candidates, tried
    in order until the op verifies)."""

    module: ModuleType
    dialect: Dialect
    attributes: Sequence[type[Attribute]]
    sample_types: Sequence[Attribute]
    sample_properties: dict[type[Attribute], Attribute | tuple[Attribute, ...]]


MUX_PAGE = Page(
    mux, mux.Mux, tuple(mux.Mux.attributes), SAMPLE_TYPES, SAMPLE_PROPERTIES
)

ATOMIC_SECTIONS: tuple[tuple[str, Sequence[type[IRDLOperation]]], ...] = (
    ("Read-modify-write", (atomic.RMWOp, atomic.CmpXchgOp)),
    ("Loads and stores", (atomic.LoadOp, atomic.StoreOp)),
    ("Fences", (atomic.FenceOp,)),
)
ATOMIC_PAGE = Page(
    atomic,
    atomic.Atomic,
    (llvmx.AtomicOrderingAttr, llvmx.AtomicBinOpAttr),
    (
        MemRefType(i32, [16, 16], memory_space=IntegerAttr(1, 64)),
        LLVMPointerType(IntAttr(1)),
        IndexType(),
        i32,
        i1,
    ),
    {
        llvmx.AtomicOrderingAttr: (
            llvmx.AtomicOrderingAttr(llvmx.AtomicOrdering.MONOTONIC),
            llvmx.AtomicOrderingAttr(llvmx.AtomicOrdering.ACQ_REL),
        ),
        llvmx.AtomicBinOpAttr: llvmx.AtomicBinOpAttr(llvmx.AtomicBinOp.ADD),
        UnitAttr: UnitAttr(),
    },
)


# --------------------------------------------------------------------------------------
# Small helpers.
# --------------------------------------------------------------------------------------


def anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def link(heading: str) -> str:
    return f"[{heading}](#{anchor(heading)})"


def rule_names(page: Page = MUX_PAGE) -> dict[str, str]:
    """Rule text -> the name of its `RULE_*` constant in the page's module."""
    return {
        value: name
        for name, value in vars(page.module).items()
        if name.startswith("RULE_")
    }


# --------------------------------------------------------------------------------------
# Attributes and types of the dialect: their names as written in IR.
# --------------------------------------------------------------------------------------


def ir_name(attr_class: type[Attribute]) -> str:
    """`index`, `memref`, `!llvm.ptr`, `!mux.dma_event`, `#mux.scope`."""
    name = attr_class.name
    if "." not in name:  # builtin types have no dialect prefix
        return name
    return ("!" if issubclass(attr_class, TypeAttribute) else "#") + name


def attr_heading(attr_class: type[Attribute]) -> str:
    return f"`{ir_name(attr_class)}`: {attr_class.__name__}"


def attr_reference(attr_class: type[Attribute], page: Page = MUX_PAGE) -> str:
    """The attribute's IR name, linked to its section when it is on the page."""
    if attr_class in page.attributes:
        return f"[`{ir_name(attr_class)}`](#{anchor(attr_heading(attr_class))})"
    return f"`{ir_name(attr_class)}`"


def describe(constraint: object, page: Page = MUX_PAGE) -> str:
    """A constraint of an operand, result or property, in words."""
    if isinstance(constraint, RangeLengthConstraint):  # exactly one value
        return describe(constraint.constraint, page)
    if isinstance(constraint, RangeOf):
        return describe(constraint.constr, page)
    if isinstance(constraint, EqAttrConstraint):
        return f"`{constraint.attr}`"
    if isinstance(constraint, BaseAttr):
        return attr_reference(constraint.attr, page)
    if isinstance(constraint, AnyOf):
        return " or ".join(describe(c, page) for c in constraint.attr_constrs)
    if isinstance(constraint, VarConstraint):
        return f"{describe(constraint.constraint, page)} ({constraint.name})"
    if isinstance(constraint, AnyAttr):
        return "any type"
    is_param = isinstance(constraint, ParamAttrConstraint)
    if is_param and constraint.base_attr is IntegerAttr:  # IntegerAttr[I32]
        value_type = constraint.param_constrs[-1]  # the params are (value, type)
        return f"{describe(value_type, page)} integer attribute"
    return f"`{constraint}`"


def describe_value(value_def: OperandDef | ResultDef, page: Page = MUX_PAGE) -> str:
    """An operand's or result's constraint, with how many values it takes."""
    text = describe(value_def.constr, page)
    if isinstance(value_def, OptionalDef):
        return f"optional: {text}"
    if isinstance(value_def, VariadicDef):
        return f"variadic: any number of {text}"
    return text


# --------------------------------------------------------------------------------------
# Examples.
# --------------------------------------------------------------------------------------


def accepts(constraint: object, type_: Attribute) -> bool:
    if isinstance(constraint, RangeLengthConstraint):
        constraint = constraint.constraint
    if isinstance(constraint, RangeOf):
        constraint = constraint.constr
    try:
        constraint.verify(type_, VerificationContext())  # type: ignore[attr-defined]
    except VerifyException:
        return False
    return True


def sample_property(
    constraint: object, page: Page = MUX_PAGE
) -> tuple[Attribute, ...] | None:
    """The candidate samples of a property (None: no sample)."""
    sample = None
    if isinstance(constraint, BaseAttr):
        sample = page.sample_properties.get(constraint.attr)
    if isinstance(constraint, ParamAttrConstraint):
        sample = page.sample_properties.get(constraint.base_attr)
    if sample is None or isinstance(sample, tuple):
        return sample
    return (sample,)


def example(op_class: type[IRDLOperation], page: Page = MUX_PAGE) -> str | None:
    """The op printed in its custom form, with sample operands and properties.

    An optional operand is given once, a variadic one twice; optional properties are
    given too, to show their syntax. None when no sample verifies.
    """
    op_def = op_class.get_irdl_definition()
    property_choices: dict[str, tuple[Attribute, ...]] = {}
    for name, prop in op_def.properties.items():
        values = sample_property(prop.constr, page)
        if values is None:
            return None
        property_choices[name] = values

    # One (name, constraint) slot per SSA value the example has.
    operand_slots = []
    for name, operand in op_def.operands:
        # A variadic operand gets two values; an optional one (a VariadicDef too) one.
        many = isinstance(operand, VariadicDef) and not isinstance(operand, OptionalDef)
        operand_slots += [(name, operand.constr)] * (2 if many else 1)
    result_slots = [(name, result.constr) for name, result in op_def.results]

    choices = [
        [t for t in page.sample_types if accepts(constraint, t)]
        for _, constraint in operand_slots + result_slots
    ]
    for values, types in itertools.product(
        itertools.product(*property_choices.values()), itertools.product(*choices)
    ):
        properties = dict(zip(property_choices, values, strict=True))
        operand_types = types[: len(operand_slots)]
        result_types = types[len(operand_slots) :]
        block = Block(arg_types=operand_types)
        for arg, (name, _) in zip(block.args, operand_slots, strict=True):
            arg.name_hint = name
        op = op_class.create(
            operands=block.args, result_types=result_types, properties=properties
        )
        for result, (name, _) in zip(op.results, result_slots, strict=True):
            result.name_hint = name
        try:
            op.verify()
        except VerifyException:
            continue
        out = io.StringIO()
        Printer(stream=out).print_op(op)
        return out.getvalue()
    return None


# --------------------------------------------------------------------------------------
# The page.
# --------------------------------------------------------------------------------------


def render_op(op_class: type[IRDLOperation], page: Page = MUX_PAGE) -> list[str]:
    op_def = op_class.get_irdl_definition()
    if op_def.regions or op_def.successors:
        raise ValueError(f"{op_def.name}: regions and successors are not documented")
    names = rule_names(page)
    lines = [f"### `{op_def.name}`", "", own_doc(op_class), ""]

    # A hand-written parser documents its grammar in SYNTAX.
    syntax = (
        op_def.assembly_format
        or getattr(op_class, "SYNTAX", None)
        or "(generic form only)"
    )
    lines += [
        "Syntax:",
        "",
        "```",
        f"operation ::= `{op_def.name}` {syntax}",
        "```",
        "",
    ]
    sample = example(op_class, page)
    if sample is not None:
        lines += ["Example:", "", "```mlir", sample, "```", ""]

    if op_def.operands:
        rows = [(f"`{n}`", describe_value(d, page)) for n, d in op_def.operands]
        lines += [*table(("operand", "type"), rows), ""]
    if op_def.results:
        rows = [(f"`{n}`", describe_value(d, page)) for n, d in op_def.results]
        lines += [*table(("result", "type"), rows), ""]
    for kind, defs in (
        ("property", op_def.properties),
        ("attribute", op_def.attributes),
    ):
        if defs:
            rows = [
                (
                    f"`{name}`",
                    describe(d.constr, page),
                    "optional" if isinstance(d, OptionalDef) else "required",
                )
                for name, d in defs.items()
            ]
            lines += [*table((kind, "attribute type", "presence"), rows), ""]

    lines += ["Verifier rules:", ""]
    if op_class.RULES:
        lines += [f"- {rule} (`{names[rule]}`)" for rule in op_class.RULES]
    else:
        lines.append("- none beyond the types")
    lines.append("")
    return lines


def render_attribute(attr_class: type[Attribute]) -> list[str]:
    lines = [f"### {attr_heading(attr_class)}", ""]
    enum = getattr(attr_class, "enum_type", None)
    doc = own_doc(attr_class) or (own_doc(enum) if enum else "")
    if doc:
        lines += [doc, ""]
    if enum is None:
        lines += [f"Written `{attr_class()}`.", ""]
        return lines

    is_bit_enum = issubclass(attr_class, BitEnumAttribute)
    first = next(iter(enum))
    sample = attr_class(frozenset({first}) if is_bit_enum else first)
    lines += [
        f"Written `{sample}` on its own, `{first.value}` inside an op."
        + (" Flags combine with `|`." if is_bit_enum else ""),
        "",
    ]
    if hasattr(enum, "code"):
        rows = [
            (f"`{m.value}`", f"`{m.code:#x}`" if is_bit_enum else f"`{m.code}`")
            for m in enum
        ]
        lines += table(("value", "spec code"), rows)
    else:
        lines.append("Values: " + ", ".join(f"`{m.value}`" for m in enum) + ".")
    lines.append("")
    return lines


def rst_tables_to_markdown(text: str) -> str:
    """Turns the reST "simple tables" of a docstring into Markdown tables.

    A simple table is framed by lines of `===` runs (rule, header, rule, rows, rule);
    the runs give the columns. A row with an empty first cell continues the row above.
    """
    out: list[str] = []
    rows: list[list[str]] = []
    starts: list[int] = []  # where each column starts, from the rule lines
    rules_seen = 0
    for line in text.splitlines():
        if re.fullmatch(r"=+( +=+)+", line):
            starts = [run.start() for run in re.finditer("=+", line)]
            rules_seen += 1
            if rules_seen == 3:  # end of the table
                out += table(rows[0], rows[1:])
                rows, rules_seen = [], 0
        elif rules_seen:
            ends = [*starts[1:], len(line)]
            cells = [line[a:b].strip() for a, b in zip(starts, ends, strict=True)]
            if rows and not cells[0]:
                above = rows[-1]
                rows[-1] = [
                    f"{a} {c}".strip() for a, c in zip(above, cells, strict=True)
                ]
            else:
                rows.append(cells)
        else:
            out.append(line)
    return "\n".join(out)


def public_functions() -> list:
    return [
        f
        for name, f in vars(attributes).items()
        if inspect.isfunction(f)
        and f.__module__ == attributes.__name__
        and not name.startswith("_")
    ]


def render_function(f, indent: str = "") -> str:
    """A list item: the function's signature and docstring."""
    signature = str(inspect.signature(f)).replace("'", "")  # annotations are strings
    doc = own_doc(f).replace("\n", "\n" + indent + "  ")  # stay inside the item
    return f"{indent}- `{f.__name__}{signature}`: {doc}"


def render_mux_attributes() -> list[str]:
    lines = [rst_tables_to_markdown(own_doc(attributes)), ""]
    kernel_functions = [f for f in public_functions() if "kernel" in f.__name__]
    lines += [
        f"### `{attributes.KERNEL}`",
        "",
        "- on: a function",
        f"- rule: `{attributes.KERNEL}` {attributes.KERNEL_RULE}",
        "- accessors:",
        "",
        *[render_function(f, indent="  ") for f in kernel_functions],
        "",
    ]

    docs = assignment_docs(attributes)
    accessor_names = {
        id(value): name
        for name, value in vars(attributes).items()
        if isinstance(value, attributes.MuxAttribute)
    }
    for attr in attributes.FUNCTION_ATTRIBUTES + attributes.MODULE_ATTRIBUTES:
        accessor = accessor_names[id(attr)]
        lines += [
            f"### `{attr.name}`",
            "",
            "- on: " + ("the module" if attr.on_module else "a function"),
            f"- rule: `{attr.name}` {attr.rule}",
            f"- accessor: `{accessor}` (`get`, `set`, `drop`, `take`, `check`)",
            "",
        ]
        if accessor in docs:
            lines += [docs[accessor], ""]

    others = [f for f in public_functions() if f not in kernel_functions]
    lines += ["### Other utilities", "", *map(render_function, others), ""]
    return lines


def check_sections(
    sections: Sequence[tuple[str, Sequence[type[IRDLOperation]]]] = SECTIONS,
    page: Page = MUX_PAGE,
) -> None:
    """Every op of the dialect is in exactly one section."""
    listed = sorted(op.name for _, ops in sections for op in ops)
    dialect = sorted(op.name for op in page.dialect.operations)
    if listed != dialect:
        raise ValueError(
            "SECTIONS of scripts/gen_dialect_docs.py do not hold each op of the "
            f"dialect once: listed {listed}, in the dialect {dialect}"
        )


def render() -> str:
    """The text of docs/dialect.md."""
    check_sections()
    attrs_title = "Attributes and types"
    mux_attrs_title = "Function and module attributes"
    rules_title = "Verifier rules"

    lines = [
        "# The `mux` dialect",
        "",
        "> Generated by `scripts/gen_dialect_docs.py` from `dialects/mux.py` and",
        f"> `dialects/attributes.py`; do not edit, run `{REGENERATE}`.",
        "",
        own_doc(mux),
        "",
        "## Contents",
        "",
    ]
    for title, ops in SECTIONS:
        lines.append(f"- {link(title)}")
        lines += [f"  - {link(f'`{op.name}`')}" for op in ops]
    lines.append(f"- {link(attrs_title)}")
    lines += [f"  - {link(attr_heading(a))}" for a in mux.Mux.attributes]
    lines.append(f"- {link(mux_attrs_title)}")
    lines.append(f"- {link(rules_title)}")
    lines.append("")

    for title, ops in SECTIONS:
        lines += [f"## {title}", ""]
        for op in ops:
            lines += render_op(op)

    lines += [f"## {attrs_title}", ""]
    for attr_class in mux.Mux.attributes:
        lines += render_attribute(attr_class)

    lines += [f"## {mux_attrs_title}", "", *render_mux_attributes()]

    lines += [
        f"## {rules_title}",
        "",
        "A verifier message is `<rule>: <what was found>`; the rules are the `RULE_*`",
        "constants of `dialects/mux.py`.",
        "",
    ]
    all_ops = [op for _, ops in SECTIONS for op in ops]
    rows = [
        (
            f"`{name}`",
            rule,
            ", ".join(f"`{op.name}`" for op in all_ops if rule in op.RULES) or "none",
        )
        for rule, name in rule_names().items()
    ]
    lines += [*table(("constant", "rule", "ops"), rows), ""]

    text = "\n".join(line.rstrip() for line in "\n".join(lines).splitlines())
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n") + "\n"


def render_atomic() -> str:
    """The text of docs/atomic.md."""
    page = ATOMIC_PAGE
    check_sections(ATOMIC_SECTIONS, page)
    attrs_title = "Attributes (of the llvmx dialect)"
    rules_title = "Verifier rules"

    lines = [
        "# The `atomic` dialect",
        "",
        "> Generated by `scripts/gen_dialect_docs.py` from `dialects/atomic.py` and",
        f"> `dialects/llvmx.py`; do not edit, run `{REGENERATE}`.",
        "",
        own_doc(atomic),
        "",
        "## Contents",
        "",
    ]
    for title, ops in ATOMIC_SECTIONS:
        lines.append(f"- {link(title)}")
        lines += [f"  - {link(f'`{op.name}`')}" for op in ops]
    lines.append(f"- {link(attrs_title)}")
    lines += [f"  - {link(attr_heading(a))}" for a in page.attributes]
    lines.append(f"- {link(rules_title)}")
    lines.append("")

    for title, ops in ATOMIC_SECTIONS:
        lines += [f"## {title}", ""]
        for op in ops:
            lines += render_op(op, page)

    lines += [f"## {attrs_title}", ""]
    for attr_class in page.attributes:
        lines += render_attribute(attr_class)

    lines += [
        f"## {rules_title}",
        "",
        "A verifier message is `<rule>: <what was found>`; the rules are the `RULE_*`",
        "constants of `dialects/atomic.py`.",
        "",
    ]
    all_ops = [op for _, ops in ATOMIC_SECTIONS for op in ops]
    rows = [
        (
            f"`{name}`",
            rule,
            ", ".join(f"`{op.name}`" for op in all_ops if rule in op.RULES) or "none",
        )
        for rule, name in rule_names(page).items()
    ]
    lines += [*table(("constant", "rule", "ops"), rows), ""]

    text = "\n".join(line.rstrip() for line in "\n".join(lines).splitlines())
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n") + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    script = "scripts/gen_dialect_docs.py"
    return write_or_check("docs/dialect.md", render, script, argv) | write_or_check(
        "docs/atomic.md", render_atomic, script, argv
    )


if __name__ == "__main__":
    sys.exit(main())
