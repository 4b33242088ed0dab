"""The lowering explorer (`mux.explorer`, `mux-explore`): its page for reduce,
parsed back, against what the pipeline does when its passes are run here by hand."""

from __future__ import annotations

import html
import re
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path

import pytest

import mux
from lowering.pipelines import HostPipeline
from mux.compiler import context, parse
from mux.explorer import cli

REPO = Path(__file__).resolve().parent.parent
REDUCE = REPO / "examples/reduce.mlir"


class PageParser(HTMLParser):
    """What a test reads of a page: per section, its pass, the text of its code
    blocks (by class), the lines its diff removes and adds, its ops by dialect;
    every attribute that could fetch something."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.sections: dict[str, dict] = {}
        self.order: list[str] = []
        self.nav: list[str] = []
        self.fetching: list[str] = []
        self._section: dict | None = None
        self._pre: str | None = None
        self._line: list[str] | None = None
        self._in_nav_name = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for name in ("src", "href", "srcset", "action", "data", "poster"):
            if name in a and not (name == "href" and a[name].startswith("#")):
                self.fetching.append(f"{tag} {name}={a[name]}")
        if "style" in a and "url(" in a["style"]:
            self.fetching.append(a["style"])
        if tag == "section":
            self._section = {"pass": a.get("data-pass"), "pre": {}, "diff": {}}
            self._section["counts"] = {}
            self.sections[a["id"]] = self._section
            self.order.append(a["id"])
        elif tag == "pre" and self._section is not None:
            self._pre = a.get("class", "")
            self._section["pre"][self._pre] = ""
        elif tag in ("del", "ins") and self._pre is not None:
            self._line = []
            self._section["diff"].setdefault(tag, []).append(self._line)
        elif tag == "li" and "data-dialect" in a:
            self._section["counts"][a["data-dialect"]] = int(a["data-count"])
        elif tag == "span" and a.get("class") == "name":
            self._in_nav_name = True

    def handle_endtag(self, tag):
        if tag == "pre":
            self._pre = None
        elif tag in ("del", "ins"):
            self._line = None
        elif tag == "section":
            self._section = None
        elif tag == "span":
            self._in_nav_name = False

    def handle_data(self, data):
        if self._pre is not None:
            self._section["pre"][self._pre] += data
        if self._line is not None:
            self._line.append(data)
        if self._in_nav_name:
            self.nav.append(data)


def parsed(html: str) -> PageParser:
    parser = PageParser()
    parser.feed(html)
    parser.close()
    return parser


@pytest.fixture(scope="module")
def reduce_page() -> mux.explorer.Page:
    return mux.explore(REDUCE)


@pytest.fixture(scope="module")
def page(reduce_page) -> PageParser:
    return parsed(reduce_page.html)


@pytest.fixture(scope="module")
def by_hand() -> list[tuple[str, str, Counter]]:
    """Each stage of reduce as the pipeline's passes, applied here one at a time,
    leave it: (pass, printed module, ops by dialect counted by a walk)."""
    module = parse(REDUCE.read_text(), str(REDUCE))

    def ops(module) -> Counter:
        return Counter(
            op.name.split(".")[0] for op in module.walk() if op is not module
        )

    stages = [("input", str(module), ops(module))]
    for p in HostPipeline(kernel="reduce").passes():
        p.apply(context(), module)
        stages.append((p.name, str(module), ops(module)))
    return stages


def stage_sections(page: PageParser) -> list[dict]:
    return [page.sections[i] for i in page.order if i.startswith("stage-")]


def test_every_pass_in_order(page):
    passes = [p.name for p in HostPipeline(kernel="reduce").passes()]
    assert [s["pass"] for s in stage_sections(page)] == ["input", *passes]
    assert page.nav == ["input", *passes]  # the pass list
    assert {"source", "llvm-ir", "llvm-optimized", "assembly"} <= set(page.order)


def test_the_ir_after_each_pass(page, by_hand):
    """Each stage shows the IR the pass left, or says it changed nothing."""
    sections = stage_sections(page)
    for index, (name, text, _) in enumerate(by_hand):
        shown = sections[index]["pre"].get("code")
        if index and text == by_hand[index - 1][1]:
            assert shown is None, name  # "no change" instead
        else:
            assert shown == text, name


def diff_lines(section: dict) -> tuple[list[str], list[str]]:
    removed = ["".join(line) for line in section["diff"].get("del", [])]
    added = ["".join(line) for line in section["diff"].get("ins", [])]
    assert all(line.startswith("-") for line in removed)
    assert all(line.startswith("+") for line in added)
    return [line[1:] for line in removed], [line[1:] for line in added]


@pytest.mark.parametrize("name", ["encode-kernel-metadata", "add-sched-params"])
def test_diff_is_the_lines_that_changed(page, by_hand, name):
    """These passes change lines in place: the lines only before the pass are the
    ones removed, the lines only after it the ones added."""
    index = next(i for i, stage in enumerate(by_hand) if stage[0] == name)
    before = by_hand[index - 1][1].split("\n")
    after = by_hand[index][1].split("\n")
    removed, added = diff_lines(stage_sections(page)[index])
    assert Counter(removed) == Counter(before) - Counter(after)
    assert Counter(added) == Counter(after) - Counter(before)
    assert removed and added


def apply_hunks(before: list[str], diff: str) -> list[str]:
    """`before` with the unified diff `diff` applied."""
    out: list[str] = []
    at = 0
    for line in diff.split("\n"):
        header = re.match(r"@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@$", line)
        if header:
            start, count = int(header[1]), int(header[2] or 1)
            stop = start if count == 0 else start - 1
            out += before[at:stop]
            at = stop
        elif line.startswith(("-", " ")):
            assert before[at] == line[1:]
            at += 1
            if line[0] == " ":
                out.append(line[1:])
        else:
            assert line.startswith("+")
            out.append(line[1:])
    return out + before[at:]


def test_every_diff_applies(page, by_hand):
    """Each diff turns the IR before its pass into the IR after it."""
    sections = stage_sections(page)
    for index in range(1, len(by_hand)):
        diff = sections[index]["pre"].get("code diff")
        before, after = by_hand[index - 1][1], by_hand[index][1]
        assert (diff is None) == (before == after)
        if diff is not None:
            result = apply_hunks(before.split("\n"), diff)
            assert result == after.split("\n"), by_hand[index][0]


def test_no_change_says_so(reduce_page):
    section = reduce_page.html.split('data-pass="prepare-barriers"')[1]
    assert "No change" in section.split("</section>")[0]


@pytest.mark.parametrize("name", ["input", "work-item-loops", "convert-to-llvm"])
def test_op_counts(page, by_hand, name):
    index = next(i for i, stage in enumerate(by_hand) if stage[0] == name)
    assert stage_sections(page)[index]["counts"] == dict(by_hand[index][2])


def test_nothing_from_the_network(reduce_page, page):
    assert page.fetching == []
    assert not re.search(
        r"https?:|url\(|@import|//[a-z0-9.-]+\.[a-z]{2,}/", reduce_page.html
    )


def test_llvm_ir_and_assembly(page):
    assert "define " in page.sections["llvm-ir"]["pre"]["code"]
    assert "define " in page.sections["llvm-optimized"]["pre"]["code"]
    assert "reduce.host-entry-hook" in page.sections["assembly"]["pre"]["code"]


def test_links_to_the_functions_of_the_assembly(reduce_page):
    """Each function of the assembly is a link to its first line."""
    section = reduce_page.html.split('<section id="assembly"')[1]
    links = dict(re.findall(r'<a href="#(assembly-\d+)">([^<]+)</a>', section))
    assert "reduce.host-entry-hook" in links.values()
    for anchor, name in links.items():
        line = section.split(f'<span id="{anchor}"></span>')[1].split("\n")[0]
        text = html.unescape(re.sub("<[^>]+>", "", line))
        assert text.strip('"').startswith(f"{name}"), text


FAILS_IN_A_PASS = """
func.func @k(%out: memref<?xi32, 1>)
    attributes {mux.kernel = "entry-point", mux.reqd_sub_group_size = 3 : i32} {
  %gid = mux.get_global_linear_id
  %s = mux.get_sub_group_size
  memref.store %s, %out[%gid] : memref<?xi32, 1>
  func.return
}
"""


def run_cli(tmp_path, source: str, *args: str, suffix: str = ".mlir"):
    path = tmp_path / f"k{suffix}"
    path.write_text(source)
    out = tmp_path / "page.html"
    return cli.main([str(path), "-o", str(out), *args]), out


def test_a_pass_that_fails(tmp_path, capsys):
    """The page shows the stages up to the pass that failed, then the diagnostic;
    the diagnostic is printed too, exit status 1, no traceback."""
    status, out = run_cli(tmp_path, FAILS_IN_A_PASS)
    err = capsys.readouterr().err
    assert status == 1 and "requires sub-group size 3" in err
    assert "Traceback" not in err
    page = parsed(out.read_text())
    passes = [s["pass"] for s in stage_sections(page)]
    assert passes == [
        "input",
        "lower-printf",
        "lower-to-mux-builtins",
        "link-builtins",
        "encode-kernel-metadata",
    ]
    assert page.nav[-1] == "verify-reqd-sub-group-legal"  # marked as failed
    assert "requires sub-group size 3" in page.sections["error"]["pre"]["diagnostic"]
    assert "llvm-ir" not in page.sections


@pytest.mark.parametrize(
    ("source", "args", "message"),
    [
        ("func.func @k( {", (), "error"),  # does not parse: a page with the diagnostic
        (
            REDUCE.read_text(),
            ("--kernel", "nope"),
            "no kernel 'nope' (kernels: reduce)",
        ),
    ],
)
def test_bad_source(tmp_path, capsys, source, args, message):
    status, out = run_cli(tmp_path, source, *args)
    err = capsys.readouterr().err
    assert status == 1 and message in err and "Traceback" not in err
    assert message in parsed(out.read_text()).sections["error"]["pre"]["diagnostic"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("missing.mlir",), "cannot read missing.mlir: No such file"),
        ((str(REDUCE), "--sub-group-size", "3"), "sub_group_size"),
        (("k.txt",), "no language has the suffix '.txt'"),
        (
            (str(REDUCE), "-o", "/nonexistent/p.html"),
            "cannot write /nonexistent/p.html",
        ),
    ],
)
def test_bad_command_line(tmp_path, capsys, monkeypatch, args, message):
    """One line on stderr, exit status 1."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.txt").write_text("")
    assert cli.main(["-o", "p.html", *args]) == 1
    err = capsys.readouterr().err
    assert err.startswith("mux-explore: ") and err.count("\n") == 1, err
    assert message in err


def test_cli_writes_the_page(tmp_path):
    source = (REPO / "examples/vadd.mlir").read_text()
    status, out = run_cli(tmp_path, source, "--local-size", "4")
    assert status == 0
    page = parsed(out.read_text())
    assert stage_sections(page)[-1]["pass"] == "reconcile-unrealized-casts"
    assert "local_sizes=4}" in out.read_text()  # the command shown


def test_pipeline_calls_back_after_each_pass():
    """`HostPipeline.lower(after=...)`: once per pass, in order, on the module."""
    module = parse(REDUCE.read_text(), str(REDUCE))
    pipeline = HostPipeline(kernel="reduce", to_llvm=False)
    seen = []
    level = pipeline.lower(context(), module, lambda p, op: seen.append((p, op)))
    assert [p for p, _ in seen] == pipeline.passes()
    assert all(op is module for _, op in seen)
    assert level == 3  # barrier regions: as without the callback


def test_opencl_c_source(tmp_path):
    """OpenCL C goes through clang and the importer first: the page shows the C
    source, and `lower-to-mux-builtins` turning the builtin calls into mux ops."""
    page = mux.explore(REPO / "examples/vadd.cl", output=tmp_path / "vadd.html")
    assert page.error == ""
    shown = parsed(page.html)
    assert "__kernel void vadd" in shown.sections["source"]["pre"]["code"]
    lowered = next(
        s for s in stage_sections(shown) if s["pass"] == "lower-to-mux-builtins"
    )
    removed, added = diff_lines(lowered)
    assert any("_Z13get_global_idj" in line for line in removed)
    assert any("mux.get_global_id" in line for line in added)


def test_a_bug_in_a_pass_is_shown_not_raised(monkeypatch):
    """An exception no diagnostic was made for (a bug) still gives a page."""
    from lowering.prepare_barriers import PrepareBarriersPass

    def broken(self, ctx, op):
        raise ValueError("broken on purpose")

    monkeypatch.setattr(PrepareBarriersPass, "apply", broken)
    page = mux.explore(REDUCE)
    assert page.exploration.failed_pass == "prepare-barriers"
    assert "internal error" in page.error and "broken on purpose" in page.error
    assert stage_sections(parsed(page.html))[-1]["pass"] == "define-mux-dma"
