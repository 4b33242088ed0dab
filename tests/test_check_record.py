"""The check record of checked mode (lowering/common/check_record.py): the
parameter, the sites, and the IR `report` emits, lowered by the host pipeline."""

from xdsl.builder import Builder
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp, i32
from xdsl.rewriter import InsertPoint

from dialects import attributes as mux_attrs
from dialects import mux
from lowering.common import check_record as cr
from lowering.common.builders import const
from lowering.pipelines import HostPipeline
from mux.compiler import context
from mux.source import parse_module

KERNEL = """
func.func @k(%out: memref<?xi32, 1>) attributes {mux.kernel = "entry-point"} {
  func.return
}
"""


def _kernel() -> tuple[ModuleOp, func.FuncOp]:
    module = parse_module(context(), KERNEL)
    fn = next(op for op in module.ops if isinstance(op, func.FuncOp))
    return module, fn


def test_record_param_is_appended_once() -> None:
    _, fn = _kernel()
    record = cr.record_param(fn)
    assert record.type == cr.RECORD_TYPE
    assert mux_attrs.CHECK_RECORD.get(fn) == 1
    assert cr.record_param(fn) is record
    assert len(fn.function_type.inputs.data) == 2


def test_sites_are_numbered_and_reused_in_one_table_per_module() -> None:
    module, fn = _kernel()
    assert cr.add_site(fn, "load from parameter 'out'") == 0
    assert cr.add_site(fn, "store to parameter 'out'") == 1
    assert cr.add_site(fn, "load from parameter 'out'") == 0
    assert cr.sites(fn) == ("load from parameter 'out'", "store to parameter 'out'")
    assert cr.sites(module) == cr.sites(fn)
    assert "mux.check_sites" in module.attributes


def test_layout_words_do_not_overlap() -> None:
    assert cr.SCRATCH >= cr.LOCAL_ID2 + 3
    assert cr.HEADER_WORDS == cr.SCRATCH + cr.DETAIL_WORDS
    assert cr.param_word(0, cr.PARAM_BASE) == cr.HEADER_WORDS
    assert cr.param_word(2, cr.PARAM_SIZE) == cr.HEADER_WORDS + 5
    assert cr.record_words(3) == cr.HEADER_WORDS + 6


def test_report_emits_a_swap_a_count_and_lowers_to_llvm() -> None:
    module, fn = _kernel()
    record = cr.record_param(fn)
    site = cr.add_site(fn, "store to parameter 'out'")
    ret = fn.body.block.last_op
    assert ret is not None
    b = Builder(InsertPoint.before(ret))
    ids = [b.insert(mux.GetGlobalIdOp(const(b, d, i32))).result for d in range(3)]
    local = [b.insert(mux.GetLocalIdOp(const(b, d, i32))).result for d in range(2)]
    cr.report(
        b,
        record,
        cr.Fault.OUT_OF_BOUNDS,
        site,
        global_id=ids,
        local_id=local,
        a=const(b, 7),
        b=const(b, 28),
    )
    module.verify()
    text = str(module)
    assert "atomic.cmpxchg monotonic monotonic" in text
    assert "atomic.rmw add monotonic" in text
    assert text.count("memref.store") == 3 + 3 + 2  # site, a, b, 3 + 2 ids
    HostPipeline().apply(context(), module)
    module.verify()
