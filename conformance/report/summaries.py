"""The report for CI logs and CI systems: ``summary.md`` (Markdown) and ``junit.xml`` (JUnit XML)."""

from __future__ import annotations

import re
from collections import Counter, defaultdict

from conformance.report.dashboard import fmt
from conformance.report.figures import GROUP_OF, GROUPS, Column, Dashboard, describe_versions, row_key, row_label


def markdown(dashboard: Dashboard) -> str:
    """The Markdown summary: per path outcome groups and latency, failure buckets, the trend."""
    results = dashboard.results
    lines = ["# Conformance report", "",
             f"{len(results.records)} records from {len(results.runs)} run(s)"
             + (f" ({results.duplicates} repeated records counted once)" if results.duplicates else "") + ". "
             + "Latest versions: " + "; ".join(describe_versions(s[-1], fw) for fw, s in results.version_sets.items()),
             "", "| path | device | cases | " + " | ".join(GROUPS) + " | pass rate | run vs eager | convert (median) |",
             "|---|---|" + "---:|" * (len(GROUPS) + 4)]
    for row in dashboard.matrix.rows:
        tally = dashboard.matrix.cell(row, Column("all", "all"))
        lat = dashboard.latency.get(row)
        vs = f"{fmt(lat.vs_eager)}×" if lat and lat.vs_eager is not None else "–"
        conv = f"{fmt(lat.convert_s)} s" if lat and lat.convert_s is not None else "–"
        rate = f"{tally.pass_rate:.0%}" if tally.pass_rate is not None else "–"
        lines.append(f"| {row_label(row)} | {row[2]} | {tally.total} | "
                     + " | ".join(str(tally.counts[g]) for g in GROUPS) + f" | {rate} | {vs} | {conv} |")
    if dashboard.configuration_errors:
        lines += ["", "## Configuration errors", "",
                  "Not findings: the installed runtime cannot load what the exporter wrote (choose another "
                  "`--onnx-opset`).", ""]
        lines += [f"- {e.message} ({e.records} record(s): {', '.join(e.paths)})"
                  for e in dashboard.configuration_errors]
    groups = [g for gs in dashboard.failure_groups.values() for g in gs]
    if groups:
        lines += ["", f"## Findings: {len(groups)} bucket(s)", ""]
        for g in groups:
            where = f" — triage: {g.triage.directory}" if g.triage else ""
            blamed = f" (blamed on {g.blame})" if g.blame else ""
            lines.append(f"- `{row_label(g.row)}` [{g.row[2]}] {g.outcome}{blamed} × {len(g.records)}: "
                         f"{_md_code(g.title)}{where} (e.g. case `{g.records[0].case_id}`)")
    for trend in dashboard.trends:
        if len(trend.labels) < 2:
            continue
        lines += ["", f"## Trend: {trend.framework}", "", "| path | " + " | ".join(trend.labels) + " |",
                  "|---|" + "---:|" * len(trend.labels)]
        for row, tallies in trend.paths.items():
            lines.append(f"| {row_label(row)} [{row[2]}] | " + " | ".join(
                "–" if x is None or x.pass_rate is None else f"{x.pass_rate:.0%} ({x.counts['pass']}/{x.judged})"
                for x in tallies) + " |")
    return "\n".join(lines) + "\n"


def _md_code(text: str) -> str:
    return "`" + text.replace("`", "'").replace("|", "\\|") + "`"


_XML_INVALID = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def junit_xml(dashboard: Dashboard) -> str:
    """JUnit XML: a test suite per path, a test case per (case, path) of the latest version sets.

    ``mismatch`` is a failure; conversion and runtime errors, timeouts, crashes and harness errors are errors;
    ``unsupported``, ``expected_divergence`` and ``discarded`` are skipped with the outcome named.
    """
    import xml.etree.ElementTree as ET

    clean = lambda s: _XML_INVALID.sub("?", str(s))  # noqa: E731
    by_row: dict[tuple, list] = defaultdict(list)
    for r in dashboard.latest:
        by_row[row_key(r)].append(r)
    root = ET.Element("testsuites", name="conformance")
    totals = Counter()
    for row, records in by_row.items():
        suite = ET.SubElement(root, "testsuite", name=f"{row_label(row)}[{row[2]}]")
        counts = Counter()
        for r in records:
            seconds = sum(t or 0.0 for t in (r.timings.convert_s, r.timings.run_s, r.timings.compare_s))
            name = (f"case {r.index} " if r.index is not None else "") + r.case_id
            case = ET.SubElement(suite, "testcase", classname=f"conformance.{row_label(row)}", name=clean(name),
                                 time=f"{seconds:.6f}")
            message = clean(r.detail.message)
            group = GROUP_OF[r.outcome]
            if group == "mismatch":
                tag = "failure"
            elif group in ("error", "harness error"):
                tag = "error"
            elif group != "pass":
                tag = "skipped"
            else:
                continue
            counts[tag] += 1
            first_line = message.splitlines()[0] if message else ""
            element = ET.SubElement(case, tag, type=r.outcome, message=f"{r.outcome}: {first_line}"[:500])
            if tag != "skipped":
                element.text = message
        suite.set("tests", str(len(records)))
        for tag, attr in (("failure", "failures"), ("error", "errors"), ("skipped", "skipped")):
            suite.set(attr, str(counts[tag]))
        totals.update(counts)
        totals["tests"] += len(records)
    for tag, attr in (("tests", "tests"), ("failure", "failures"), ("error", "errors"), ("skipped", "skipped")):
        root.set(attr, str(totals[tag]))
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def plan_lines(plan: dict, where) -> list[str]:
    """What a campaign's plan (:meth:`conformance.run.plan.Planner.summary`) left out, in a few lines for the
    terminal: the programs steered away from known bugs, the cases a framework could not run, the tasks that judged
    a share of the cases, and those that judged fewer than their floor (refused, or short of time)."""
    lines = []
    if plan.get("steered_programs"):
        lines.append(f"{plan['steered_programs']} program(s) steered away from {plan['known_bugs']} known bug(s) "
                     f"(each still judged by the other paths; which: {where})")
    for fw, reasons in plan.get("unrendered", {}).items():
        lines.append(f"{sum(reasons.values())} case(s) drawn for the other frameworks only, not run on {fw} (not a "
                     f"failure; e.g. {max(reasons, key=reasons.get)})")
    shared = [k for k, r in plan.get("rates", {}).items() if r < 1]
    if shared:
        lines.append(f"{len(shared)} task(s) judged a share of the cases by cost (which, their programs and their "
                     f"shares of the worker time: {where})")
    floors = plan.get("floors", {})
    if floors.get("starved"):
        need = (f" (about {floors['budget_s']} s would give each its 10 and each core path 100, at the costs measured "
                f"here)" if "budget_s" in floors else "")
        lines.append(f"{len(floors['starved'])} task(s) judged fewer than 10 programs for want of time: the budget "
                     f"is too small for every task's floor{need}; which: {where}")
    if floors.get("core_short"):
        need = f"; about {floors['budget_s']} s would give each 100 at the costs measured here" \
            if "budget_s" in floors else ""
        lines.append(f"{len(floors['core_short'])} core task(s) judged fewer than 100 programs (refused ones not "
                     f"counted{need}); which: {where}")
    if floors.get("refused"):
        lines.append(f"{len(floors['refused'])} task(s) judged fewer than 10 programs because they refused (or the "
                     f"oracle discarded) most of those offered, not for want of time; which: {where}")
    return lines


def plan_markdown(plan: dict) -> str:
    """The ``summary.md`` sections of a campaign's plan: the programs steered away from each known bug, per task;
    the cases a framework could not run; the tasks short of their floor."""
    lines = []
    if plan.get("steered_programs"):
        lines += ["", f"## Steered away from known bugs: {plan['steered_programs']} program(s), {plan['known_bugs']} "
                      f"bug(s)", "", "After a known bug had fired on a path, that path skipped the programs that meet "
                      "its selector (the other paths judged them).", "", "| task | programs | known bug |",
                  "|---|---:|---|"]
        for key, bugs in plan["steered"].items():
            lines += [f"| {key} | {n} | {_md_code(text[:200])} |"
                      for text, n in sorted(bugs.items(), key=lambda x: -x[1])]
    unrendered = [(fw, why, n) for fw, reasons in plan.get("unrendered", {}).items() for why, n in reasons.items()]
    if unrendered:
        lines += ["", "## Cases drawn for some frameworks only", "", "A share of the programs is drawn for the "
                  "frameworks that have a construct the others lack; the others skip those cases (not a failure).",
                  "", "| framework | cases skipped | why |", "|---|---:|---|"]
        lines += [f"| {fw} | {n} | {_md_code(why[:200])} |" for fw, why, n in unrendered]
    floors = plan.get("floors", {})
    if floors.get("core_short"):
        lines += ["", "## Core paths under 100 programs judged", "", "| task | judged |", "|---|---:|"]
        lines += [f"| {k} | {n} |" for k, n in floors["core_short"].items()]
    if floors.get("starved") or floors.get("refused") or floors.get("steered"):
        lines += ["", "## Tasks under 10 programs judged", ""]
        if "budget_s" in floors:
            lines += [f"Every task's floor of 10 programs and each core path's 100 need a budget of about "
                      f"{floors['budget_s']} s on these workers, at the costs measured in this run.", ""]
        lines += ["| task | judged | why |", "|---|---:|---|"]
        lines += [f"| {k} | {n} | short of time |" for k, n in floors.get("starved", {}).items()]
        lines += [f"| {k} | {n} | known bugs steered the rest away |" for k, n in floors.get("steered", {}).items()]
        lines += [f"| {k} | {total - refused} | refused or discarded {refused} of the {total} programs offered |"
                  for k, (refused, total) in floors.get("refused", {}).items()]
    return "\n".join(lines) + "\n" if lines else ""
