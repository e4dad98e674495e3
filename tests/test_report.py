"""Reports: the results model (runs, shards and version sets merged), the dashboard's numbers, its HTML,
Markdown and JUnit outputs, ``pytest --conformance-results`` under xdist, and the dashboard in headless
Chromium where one is installed (``apt-get install chromium``; the test skips without one)."""

import base64
import html.parser
import json
import os
import random
import select
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conformance.program.ops import OPS
from conformance.report import write_report
from conformance.report.figures import (
    GROUP_OF,
    GROUPS,
    Column,
    build_matrix,
    failure_groups,
    latency,
    read_triage,
    row_label,
    trends,
)
from conformance.report.results import ReportError, load_results, read_run
from conformance.run.records import OUTCOMES, ResultRecord

FAMILIES = list(dict.fromkeys(op.family for op in OPS.values()))
OP_OF = {family: next(name for name, op in OPS.items() if op.family == family) for family in FAMILIES}


def rec(case, path="eager", outcome="pass", *, framework="torch", version="2.13.0", constructs=(), ops=("neg",),
        run_s=0.001, convert_s=0.01, device="cpu", message="", index=None):
    """A results record as the runner writes it (schema 1), with only what the report reads filled in."""
    return {"schema": 1, "case_id": case, "program_id": "p" + case, "seed": 0, "index": index,
            "framework": framework, "path": path, "device": device, "outcome": outcome, "max_abs_err": None,
            "max_rel_err": None, "detail": {"message": message},
            "timings": {"prepare_s": 0.01, "convert_s": convert_s, "run_s": run_s, "compare_s": 0.0001},
            "versions": {"conformance": "0.1.0", "python": "3.11.7", framework: version},
            "constructs": list(constructs), "ops": list(ops), "case": {"program": {}, "inputs": []}}


def typed(records) -> list[ResultRecord]:
    return [ResultRecord.from_json(r) for r in records]


def write_run(folder: Path, records, started=None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    if started:
        (folder / "manifest.json").write_text(json.dumps({"seed": 0, "shard": "0/1", "started": started}))
    return folder


def test_every_outcome_has_one_group_and_only_pass_passes():
    assert set(GROUP_OF) == set(OUTCOMES)
    assert sum(len(v) for v in GROUPS.values()) == len(OUTCOMES)
    assert GROUPS["pass"] == ("pass",)


def test_matrix_rows_and_columns_come_from_the_records():
    records = [rec("a", "eager", constructs=["if_tensor"], ops=[OP_OF["elementwise"], OP_OF["activation"]]),
               rec("b", "eager", constructs=["while_tensor", "kwargs"], ops=[OP_OF["reduction"], "no_such_op"]),
               rec("a", "trace", "expected_divergence", constructs=["if_tensor"], ops=[OP_OF["elementwise"]]),
               rec("b", "trace", constructs=["while_tensor", "kwargs"], ops=[OP_OF["reduction"]]),
               rec("a", "export", "unsupported", constructs=["if_tensor"]),
               rec("b", "export", "discarded", constructs=["while_tensor"]),
               rec("a", "script", "mismatch", constructs=["if_tensor"]),
               rec("b", "script", "runtime_error", constructs=["while_tensor"])]
    m = build_matrix(typed(records))
    assert [r[1] for r in m.rows] == ["eager", "trace", "export", "script"]
    assert [c.heading for c in m.columns] == (["all cases", "if_tensor", "kwargs", "while_tensor"]
                                              + [f"ops: {f}" for f in FAMILIES] + ["ops: other"])
    trace_if = m.cell(("torch", "trace", "cpu", "infer"), Column("construct", "if_tensor"))
    assert trace_if.total == 1 and trace_if.counts["expected"] == 1 and trace_if.pass_rate == 0.0
    export = m.cell(("torch", "export", "cpu", "infer"), Column("all", "all"))
    assert (export.total, export.judged, export.counts["pass"]) == (2, 1, 0)  # discarded is not judged, no pass
    assert export.status == "unsupported"
    assert m.cell(("torch", "script", "cpu", "infer"), Column("all", "all")).status == "mismatch"
    assert m.cell(("torch", "trace", "cpu", "infer"), Column("construct", "while_tensor")).status == "pass"
    assert m.cell(("torch", "eager", "cpu", "infer"), Column("family", "other")).total == 1
    assert m.cell(("torch", "eager", "cpu", "infer"), Column("family", "linalg")).status == "empty"


def test_latency_is_the_median_of_per_case_ratios_to_eager():
    records = [rec("a", "eager", run_s=0.001), rec("b", "eager", run_s=0.002), rec("c", "eager", run_s=0.004),
               rec("a", "script", run_s=0.003, convert_s=0.1), rec("b", "script", run_s=0.002, convert_s=0.3),
               rec("c", "script", "mismatch", run_s=0.040, convert_s=0.2),
               rec("d", "script", "conversion_error", run_s=None, convert_s=9.0)]
    lat = latency(typed(records))[("torch", "script", "cpu", "infer")]
    assert lat.vs_eager == pytest.approx(3.0)  # ratios 3, 1, 10; the ratio of medians would be 1.5
    assert lat.cases == 3 and lat.convert_s == pytest.approx(0.2)  # the failed conversion is not timed
    assert latency(typed(records))[("torch", "eager", "cpu", "infer")].vs_eager == pytest.approx(1.0)


def test_shards_merge_and_two_versions_make_a_trend_of_two_points(tmp_path):
    old = write_run(tmp_path / "old", [rec("a", "eager", version="2.12.0"), rec("a", "trace", "mismatch",
                                                                               version="2.12.0")],
                    started="2026-01-01T00:00:00Z")
    shard0 = write_run(tmp_path / "s0", [rec("a", "eager"), rec("a", "trace")], started="2026-02-01T00:00:00Z")
    shard1 = write_run(tmp_path / "s1", [rec("b", "eager"), rec("b", "trace"), rec("a", "trace")],
                       started="2026-02-01T00:05:00Z")
    results = load_results([shard1, old, shard0])  # given out of order: manifests order them
    assert [r.source for r in results.runs] == [old, shard0, shard1]
    assert results.duplicates == 1 and len(results.records) == 6
    assert [v["torch"] for v in results.version_sets["torch"]] == ["2.12.0", "2.13.0"]
    assert {r.versions["torch"] for r in results.latest()} == {"2.13.0"} and len(results.latest()) == 4
    (trend,) = trends(results)
    assert trend.labels == ["torch 2.12.0", "torch 2.13.0"]
    assert [t.pass_rate for t in trend.paths[("torch", "trace", "cpu", "infer")]] == [0.0, 1.0]


def test_a_record_without_its_framework_version_takes_its_runs(tmp_path):
    broken = rec("b", "script", "runtime_error", message="eager reference failed")
    del broken["versions"]["torch"]
    run = read_run(write_run(tmp_path / "r", [rec("a", "eager"), broken]))
    assert run.records[1].versions["torch"] == "2.13.0"


@pytest.mark.parametrize("change, error", [({"schema": 2}, "newer than this conformance reads"),
                                           ({"outcome": "fine"}, "unknown outcome"),
                                           ({"schema": None}, "no schema")])
def test_unreadable_records_are_named(tmp_path, change, error):
    file = tmp_path / "results.jsonl"
    file.write_text(json.dumps(rec("a")) + "\n" + json.dumps({**rec("b"), **change}) + "\n")
    with pytest.raises(ReportError, match=f"results.jsonl: record 2: .*{error}"):
        load_results([file])


def test_failures_group_into_buckets_and_link_to_triage(tmp_path):
    records = [rec("a", "trace", "mismatch", message="values inputs: 3 of 8 values differ; worst at (1, 2)"),
               rec("b", "trace", "mismatch", message="values inputs: 5 of 8 values differ; worst at (0, 7)"),
               rec("c", "trace", "conversion_error", message="RuntimeError: boom 0x7f3a"),
               rec("d", "trace", "unsupported", message="documented")]
    triage = tmp_path / "triage"
    (triage / "bucket-1").mkdir(parents=True)
    (triage / "bucket-1" / "bucket.json").write_text(json.dumps({"case_ids": ["c"], "title": "boom in trace"}))
    (triage / "bucket-1" / "repro.py").write_text("print('repro')\n")
    found = failure_groups(typed(records), read_triage(triage))[("torch", "trace", "cpu", "infer")]
    assert [(b.outcome, len(b.records)) for b in found] == [("mismatch", 2), ("conversion_error", 1)]
    assert found[0].title == "<n> of <n> values differ; worst at (<n>, <n>)"  # triage's failure key
    assert found[1].triage is not None and found[1].triage.files == ["repro.py"]
    out = tmp_path / "dash"
    write_report(load_results([write_run(tmp_path / "run", records)]), out, triage=[triage])
    page = (out / "index.html").read_text()
    assert 'href="../triage/bucket-1/repro.py"' in page and "boom in trace" in page
    results = tmp_path / "run" / "results.jsonl"
    assert f"conformance replay {results} --case-id a --frameworks torch --paths torch.trace" in page
    with pytest.raises(ReportError, match="case_ids"):
        (triage / "bucket-1" / "bucket.json").write_text("{}")
        read_triage(triage)


def test_messages_from_frameworks_are_escaped(tmp_path):
    evil = "<script>alert(1)</script> & <img src=x>"
    out = tmp_path / "dash"
    write_report(load_results([write_run(tmp_path / "run", [rec("a", "trace", "runtime_error", message=evil)])]), out)
    page = (out / "index.html").read_text()
    assert "<script" not in page and "<img" not in page and "&lt;script&gt;" in page
    junit = ET.parse(out / "junit.xml").getroot()
    assert junit.find(".//error").text == evil


class _Tables(html.parser.HTMLParser):
    """Counts rows and columns of the parity matrix, and what the page would fetch."""

    def __init__(self):
        super().__init__()
        self.stack, self.rows, self.columns, self.fetches, self.scripts = [], 0, 0, [], 0
        self.in_matrix = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self.in_matrix = a.get("id") == "parity-matrix"
        if self.in_matrix and tag == "tr" and self.stack[-1:] == ["tbody"]:
            self.rows += 1
        if self.in_matrix and tag == "th" and "col" in (a.get("class") or "").split():
            self.columns += 1
        if tag == "script":
            self.scripts += 1
        for key in ("src", "srcset", "data", "poster"):
            if key in a:
                self.fetches.append(a[key])
        if tag == "link" and a.get("href") != "data:,":
            self.fetches.append(a.get("href"))
        self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag == "table":
            self.in_matrix = False
        while self.stack and self.stack.pop() != tag:
            pass


def synthetic_results(folder: Path, cases: int, seed: int = 0) -> list[Path]:
    """Two torch versions and a paddle run, with every outcome and assorted messages: what a long
    campaign over several frameworks leaves (``cases`` cases per run and framework)."""
    rng = random.Random(seed)
    paths = {"torch": ["eager", "script", "trace", "compile", "export", "onnx_dynamo", "onnx_torchscript"],
             "paddle": ["eager", "to_static", "jit_save"]}
    constructs = ["if_tensor", "while_tensor", "for_kwarg", "break", "continue", "list_input", "dict_input",
                  "nested_input", "kwargs", "dynamic_dim"]
    outcomes = ["pass"] * 12 + [o for o in OUTCOMES if o != "pass"]
    runs = []
    for n, (framework, version, started) in enumerate([("torch", "2.12.0", "2026-01-01T00:00:00Z"),
                                                       ("torch", "2.13.0", "2026-02-01T00:00:00Z"),
                                                       ("paddle", "3.3.1", "2026-02-01T01:00:00Z")]):
        records = []
        for i in range(cases):
            kw = dict(framework=framework, version=version, index=i,
                      constructs=rng.sample(constructs, rng.randint(0, 4)), ops=rng.sample(list(OPS), 3))
            for path in paths[framework]:
                outcome = "pass" if path == "eager" else rng.choice(outcomes)
                message = "" if outcome == "pass" else f"{rng.choice(['TypeError', 'RuntimeError'])}: failure " \
                                                       f"{rng.randint(0, 5)} at step {rng.randint(0, 99)}"
                records.append(rec(f"{n}-{i}", path, outcome, run_s=rng.uniform(1e-4, 1e-2), message=message, **kw))
        runs.append(write_run(folder / f"run{n}", records, started))
    return runs


def test_report_command_writes_a_dashboard_summary_and_junit(tmp_path):
    runs = synthetic_results(tmp_path, cases=30)
    out = tmp_path / "dash"
    proc = subprocess.run([sys.executable, "-m", "conformance", "report", *map(str, runs), "--out", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "510 records from 3 run(s)" in proc.stdout
    results = load_results(runs)
    latest = results.latest()
    matrix = build_matrix(latest)
    page = _Tables()
    page.feed((out / "index.html").read_text())
    assert (page.rows, page.columns) == (7 + 3, len(matrix.columns))
    assert page.fetches == [] and page.scripts == 0
    text = (out / "index.html").read_text()
    assert text.count('class="trend"') == 1 and 'data-points="2"' in text  # torch: two version sets; paddle: one
    assert "One version set (paddle 3.3.1" in text
    junit = ET.parse(out / "junit.xml").getroot()
    groups = [GROUP_OF[r.outcome] for r in latest]
    assert int(junit.get("tests")) == len(latest) == 300
    assert int(junit.get("failures")) == groups.count("mismatch")
    assert int(junit.get("errors")) == groups.count("error") + groups.count("harness error")
    judged = groups.count("pass") + groups.count("mismatch") + groups.count("error") + groups.count("harness error")
    assert int(junit.get("skipped")) == len(latest) - judged
    summary = (out / "summary.md").read_text()
    assert "| paddle.to_static | cpu | 30 |" in summary and "## Trend: torch" in summary
    assert "| torch 2.12.0 | torch 2.13.0 |" in summary


def test_report_does_not_import_frameworks(tmp_path):
    run = write_run(tmp_path / "run", [rec("a"), rec("a", "trace", "mismatch", message="x")])
    code = ("import sys; from conformance.report import load_results, write_report; "
            f"write_report(load_results([{str(run)!r}]), {str(tmp_path / 'dash')!r}); "
            "print(sorted(m for m in ('torch', 'paddle', 'tensorflow', 'onnxruntime') if m in sys.modules))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_a_large_run_stays_under_5_mb(tmp_path):
    runs = synthetic_results(tmp_path, cases=1250)  # 21,250 records: 8,750 per torch version, 3,750 paddle
    results = load_results(runs)
    files = write_report(results, tmp_path / "dash")
    assert len(results.latest()) == 8750 + 3750
    assert files["html"].stat().st_size < 5 * 2**20


# ------------------------------------------------------------------ pytest --conformance-results


def test_pytest_under_xdist_writes_the_records_of_its_tests(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("xdist")
    (tmp_path / "test_two.py").write_text("""
import pytest
from conformance.run.stream import generate_cases
from conformance.paths.records import PATHS, load_framework
from conformance.run.runner import check

CASE = next(generate_cases(0))  # the same case in every worker

@pytest.mark.parametrize("path", ["torch.eager", "torch.script"])
def test_path(path):
    load_framework("torch")
    check(CASE, PATHS[path])

def test_no_check():
    pass
""")
    out = tmp_path / "ci" / "results.jsonl"
    proc = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "-p", "no:cacheprovider", "-q",
                           f"--conformance-results={out}", "test_two.py"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "conformance: 2 records in" in proc.stdout
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted((r["test"], r["path"]) for r in records) == [("test_two.py::test_path[torch.eager]", "eager"),
                                                               ("test_two.py::test_path[torch.script]", "script")]
    assert {r["schema"] for r in records} == {1} and all(r["versions"]["torch"] for r in records)
    assert len(load_results([out]).latest()) == 2


# ------------------------------------------------------------------ in a browser


def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome-headless-shell"):
        if shutil.which(name):
            return shutil.which(name)
    return None


class DevTools:
    """Headless Chromium driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``:
    commands on its fd 3, replies on its fd 4, each a JSON message ended by a NUL byte), so the standard
    library is enough: no driver package, no browser download."""

    def __init__(self, binary: str, profile: Path):
        cmd_r, self.cmd_w = os.pipe()
        self.reply_r, reply_w = os.pipe()
        # a small Python wrapper puts the pipe ends on fds 3 and 4 before it becomes Chromium
        wrapper = ("import os, sys; os.dup2(int(sys.argv[1]), 3); os.dup2(int(sys.argv[2]), 4); "
                   "os.execv(sys.argv[3], sys.argv[3:])")
        self.proc = subprocess.Popen(
            [sys.executable, "-c", wrapper, str(cmd_r), str(reply_w), binary, "--headless", "--no-sandbox",
             "--disable-gpu", "--remote-debugging-pipe", f"--user-data-dir={profile}", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--window-size=1400,1000", "about:blank"],
            pass_fds=(cmd_r, reply_w), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(cmd_r)
        os.close(reply_w)
        self.buffer, self.next_id, self.events = b"", 0, []

    def _receive(self, deadline: float) -> dict:
        while b"\0" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.reply_r], [], [], left)[0]:
                raise TimeoutError("no answer from Chromium")
            chunk = os.read(self.reply_r, 1 << 16)
            if not chunk:
                raise EOFError("Chromium closed the pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method: str, params=None, session=None, timeout: float = 60) -> dict:
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.cmd_w, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._receive(deadline)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]
            self.events.append(reply)

    def wait_for(self, method: str, timeout: float = 60) -> dict:
        deadline = time.monotonic() + timeout
        while True:
            found = next((e for e in self.events if e.get("method") == method), None)
            if found:
                return found
            self.events.append(self._receive(deadline))

    def close(self):
        try:
            self.send("Browser.close", timeout=10)
        except (OSError, EOFError, TimeoutError, RuntimeError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self.cmd_w)
        os.close(self.reply_r)


def test_dashboard_in_headless_chromium(tmp_path):
    """A 10,000-record dashboard over two frameworks opens with no console error and no network request,
    and its matrix has a row per path and a column per construct and op family."""
    binary = _chromium()
    if binary is None:
        pytest.skip("no Chromium here (apt-get install chromium) to open the dashboard in")
    runs = synthetic_results(tmp_path, cases=1250)
    out = tmp_path / "dash"
    files = write_report(load_results(runs), out)
    url = files["html"].resolve().as_uri()
    browser = DevTools(binary, tmp_path / "profile")
    try:
        target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            browser.send(f"{domain}.enable", session=session)
        browser.send("Page.navigate", {"url": url}, session=session)
        browser.wait_for("Page.loadEventFired")
        shape = browser.send("Runtime.evaluate", {"returnByValue": True, "expression": """JSON.stringify({
            rows: document.querySelectorAll('#parity-matrix tbody tr').length,
            columns: document.querySelectorAll('#parity-matrix thead th.col').length,
            cells: document.querySelectorAll('#parity-matrix tbody td').length,
            trends: Array.from(document.querySelectorAll('svg.trend')).map(s => s.dataset.points),
            load_ms: performance.getEntriesByType('navigation')[0].loadEventEnd})"""}, session=session)
        shot = browser.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True},
                            session=session)
    finally:
        browser.close()
    shape = json.loads(shape["result"]["value"])
    columns = len(build_matrix(load_results(runs).latest()).columns)
    assert (shape["rows"], shape["columns"], shape["cells"]) == (10, columns, 10 * columns)
    assert shape["trends"] == ["2"]  # torch's two version sets (paddle has one: no chart)
    errors = [e for e in browser.events
              if e.get("method") in ("Runtime.exceptionThrown", "Log.entryAdded", "Runtime.consoleAPICalled")
              and (e["method"] == "Runtime.exceptionThrown" or e["params"].get("entry", e["params"]).get(
                  "level", e["params"].get("type")) in ("error", "assert"))]
    assert errors == []
    requests = [e["params"]["request"]["url"] for e in browser.events if e.get("method") == "Network.requestWillBeSent"]
    assert requests == [url]  # the page itself and nothing else
    png = base64.b64decode(shot["data"])
    (tmp_path / "dashboard.png").write_bytes(png)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(png[16:20], "big") >= 1000  # width in pixels
    print(f"dashboard of {len(load_results(runs).records)} records: {files['html'].stat().st_size / 2**20:.2f} MiB, "
          f"loaded in {shape['load_ms']:.0f} ms; screenshot {tmp_path / 'dashboard.png'}")


def test_grad_and_train_records_are_rows_of_their_own():
    """A campaign's --mode grad records of the same case and path do not collapse onto its infer ones."""
    infer = rec("a", "script")
    grad = dict(rec("a", "script", "mismatch"), mode="grad")
    m = build_matrix(typed([infer, grad]))
    assert m.rows == [("torch", "script", "cpu", "infer"), ("torch", "script", "cpu", "grad")]
    assert [row_label(r) for r in m.rows] == ["torch.script", "torch.script (grad)"]
    assert m.cell(("torch", "script", "cpu", "grad"), Column("all", "all")).status == "mismatch"
