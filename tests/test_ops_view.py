"""The dashboard's per-op table: per op and path, the programs that used the op and their outcomes there, every op
record listed (those no program used as not drawn), ops of older results that the records do not know kept."""

import html

from conformance.program.ops import OPS
from conformance.report.dashboard import render_html
from conformance.report.figures import build_dashboard
from conformance.report.ops_view import op_table
from conformance.report.results import load_results
from conformance.run.records import ResultRecord

from .test_report import rec, write_run

RECORDS = [rec("a", "eager", ops=("neg", "exp")), rec("a", "script", "mismatch", ops=("neg", "exp")),
           rec("b", "eager", ops=("neg",)), rec("b", "script", ops=("neg",)),
           rec("c", "eager", ops=("gone_op",)), rec("c", "script", "conversion_error", ops=("gone_op",))]


def test_counts_programs_and_outcomes_per_op_and_path():
    table = op_table(ResultRecord.from_json(r) for r in RECORDS)
    rows = {row.op: row for row in table.rows}
    assert table.paths == ["torch.eager", "torch.script"]
    assert [row.op for row in table.rows][:len(OPS)] == list(OPS) and table.rows[-1].op == "gone_op"
    assert (rows["neg"].programs, rows["exp"].programs, rows["gone_op"].programs) == (2, 1, 1)
    assert rows["neg"].cell("torch.script").counts == {"pass": 1, "mismatch": 1}
    assert rows["exp"].cell("torch.script").status == "mismatch"
    assert rows["gone_op"].cell("torch.script").status == "error" and rows["gone_op"].family == "other"
    assert rows["sin"].cell("torch.eager").total == 0
    assert set(table.not_drawn) == set(OPS) - {"neg", "exp"}


def test_the_dashboard_shows_the_table(tmp_path):
    results = load_results([write_run(tmp_path / "run", RECORDS)])
    page = html.unescape(render_html(build_dashboard(results), tmp_path, "t"))
    section = page[page.index('<section id="ops">'):page.index('<section id="failures">')]
    assert f"{len(OPS) + 1} ops; {len(OPS) - 2} not drawn" in section
    assert 'title="neg × torch.script: 2 cases: 1 pass, 1 mismatch' in section
    assert '<th scope="row">gone_op</th><td>other</td><td class="n">1</td>' in section
