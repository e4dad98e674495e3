"""What a campaign found, sorted for its reader: the summary ``conformance fuzz`` prints and writes to ``summary.md``.

The records of a run fall apart into

* **new findings**: mismatches and errors no record names (each with the command that replays it): what to look at;
* **known bugs**: findings a known-bug record of the path names (``detail.known_issue``), counted per bug;
* **documented refusals**: ``unsupported`` records, counted per reason;
* **harness errors**: exceptions raised in this project's own code (``harness_error``): never a framework's
  finding, always this project's bug;
* configuration errors (the installed runtime cannot load what an exporter wrote), never findings;
* and, across those, the tasks that crashed a worker which had run others, and gave their outcome when run again
  alone (``detail.crashed_before``): a framework whose state, left by earlier conversions, breaks a later one.

The terminal gets a compact table (paths as rows, modes as columns); ``summary.md`` the full one, every
finding, and the share of the worker time each task took (:func:`conformance.run.schedule.shares`).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Optional

from conformance.paths.records import MODES
from conformance.run.records import FINDINGS, OUTCOMES, ResultRecord

#: What a record with ``detail.crashed_before`` means.
CRASHED_BEFORE = ("each task crashed a worker process that had run other tasks, and was run again alone in a fresh "
                  "one, which gave its outcome: state left by earlier conversions (a framework's bug, not the "
                  "case's).")


@dataclass
class Verdicts:
    """The records of a run by what they mean to the reader (see the module docstring)."""

    new: list = field(default_factory=list)
    known: list = field(default_factory=list)
    refused: list = field(default_factory=list)
    harness: list = field(default_factory=list)
    configuration: list = field(default_factory=list)
    crashed_before: list = field(default_factory=list)

    @classmethod
    def of(cls, records: list[ResultRecord]) -> "Verdicts":
        v = cls()
        for r in records:
            if r.detail.extra.get("crashed_before"):
                v.crashed_before.append(r)
            if r.detail.configuration:
                v.configuration.append(r)
            elif r.outcome == "harness_error":
                v.harness.append(r)
            elif r.outcome in FINDINGS:
                (v.known if r.detail.known_issue else v.new).append(r)
            elif r.outcome == "unsupported":
                v.refused.append(r)
        return v


def replay_command(record: ResultRecord, results_file) -> str:
    """The command that reruns ``record``'s case along its path, in its mode."""
    return (f"conformance replay {results_file} --case-id {record.case_id} --frameworks {record.framework} "
            f"--paths {record.path_id}" + (f" --mode {record.mode}" if record.mode != "infer" else "")
            + (f" --device {record.device}" if record.device != "cpu" else ""))


def first_line(text: Optional[str], n: int = 160) -> str:
    lines = (text or "").strip().splitlines()
    return lines[0][:n] if lines else ""


def by_reason(records: list[ResultRecord], reason) -> list[tuple[str, int, list[str]]]:
    """``(reason, records, paths)`` per distinct ``reason(record)``, the most frequent first."""
    counts: Counter = Counter()
    paths: dict = defaultdict(set)
    for r in records:
        key = reason(r)
        counts[key] += 1
        paths[key].add(r.path_id + (f"@{r.mode}" if r.mode != "infer" else ""))
    return [(key, n, sorted(paths[key])) for key, n in counts.most_common()]


def known_reason(r: ResultRecord) -> str:
    return first_line(r.detail.known_issue, 200)


def refusal_reason(r: ResultRecord) -> str:
    return first_line(r.detail.limitation, 200) or first_line(r.detail.message, 200)


def compact_rows(records: list[ResultRecord]) -> tuple[list[str], list[list[str]]]:
    """Paths as rows, modes as columns; a cell: ``passed/cases`` and the new findings, known bugs, refusals and
    harness errors among them (other outcomes: expected divergences, cases the branch-flip guard discarded)."""
    cells: dict = defaultdict(lambda: defaultdict(Counter))
    for r in records:
        c = cells[(r.path_id, r.device)][r.mode]
        c["cases"] += 1
        c[r.outcome] += 1
        if r.detail.configuration:
            c["configuration"] += 1
        elif r.outcome in FINDINGS:
            c["known" if r.detail.known_issue else "new"] += 1
    modes = [m for m in MODES if any(m in by_mode for by_mode in cells.values())]
    header = ["path"] + modes
    rows = []
    for (pid, device), by_mode in cells.items():
        row = [pid + (f" [{device}]" if device != "cpu" else "")]
        for m in modes:
            c = by_mode.get(m)
            if not c:
                row.append("")
                continue
            tags = [f"{c[k]} {label}" for k, label in (("new", "new"), ("known", "known"), ("unsupported", "refused"),
                                                        ("harness_error", "harness"), ("configuration", "config"))
                    if c[k]]
            row.append(f"{c['pass']}/{c['cases']}" + (" · " + ", ".join(tags) if tags else ""))
        rows.append(row)
    return header, rows


def full_rows(records: list[ResultRecord]) -> tuple[list[str], list[list]]:
    """Per (path, mode, device): the number of cases and of each outcome (``summary.md``'s table)."""
    counts: dict[tuple, Counter] = defaultdict(Counter)
    for r in records:
        counts[(r.path_id, r.mode, r.device)][r.outcome] += 1
    header = ["path", "mode", "device", "cases"] + list(OUTCOMES)
    return header, [[pid, mode, device, sum(c.values())] + [c.get(o, 0) for o in OUTCOMES]
                    for (pid, mode, device), c in counts.items()]


def coverage(records: list[ResultRecord]) -> dict:
    """How many distinct programs exercise data-dependent control flow, nested inputs or kwargs."""
    programs = {r.program_id: set(r.constructs) for r in records}
    interesting = {"if_tensor", "while_tensor", "nested_input", "kwargs"}
    data_dependent = sum(1 for c in programs.values() if c & {"if_tensor", "while_tensor"})
    return {"programs": len(programs), "interesting": sum(1 for c in programs.values() if c & interesting),
            "data_dependent": data_dependent}


def _md_table(header: list, rows: list) -> list[str]:
    return (["| " + " | ".join(str(h) for h in header) + " |", "|" + "---|" * len(header)]
            + ["| " + " | ".join(str(x).replace("|", "\\|") for x in row) + " |" for row in rows])


def markdown_summary(records: list[ResultRecord], results_file="results.jsonl", tasks: Optional[dict] = None,
                     nodes: Optional[dict] = None) -> str:
    """``summary.md``: new findings first (with replay commands), known bugs, refusals, harness errors,
    configuration errors, the full table, with ``tasks`` (:func:`conformance.run.schedule.shares`) where
    the worker time went, and with ``nodes`` (:func:`conformance.run.cluster.node_shares`) where it ran."""
    v = Verdicts.of(records)
    lines = ["# Campaign summary", "",
             f"{len(v.new)} new finding(s), {len(v.known)} known bug record(s), {len(v.refused)} documented "
             f"refusal(s), {len(v.harness)} harness error(s).", ""]
    if v.new:
        lines += ["## New findings", "", "Named by no known-bug record: each is worth a look (`conformance triage` "
                  "reduces them).", ""]
        lines += [f"- `{r.path_id}` ({r.mode}) {r.outcome} on case `{r.case_id}` (index {r.index})"
                  + (f" [blamed on {_blame_label(r)}]" if _blame_label(r) else "")
                  + f": {first_line(r.detail.message, 300)}\n  `{replay_command(r, results_file)}`" for r in v.new]
        lines.append("")
    if v.known:
        lines += ["## Known bugs", ""]
        lines += [f"- {n} × {reason} ({', '.join(paths)})" for reason, n, paths in by_reason(v.known, known_reason)]
        lines.append("")
    if v.refused:
        lines += ["## Documented refusals", ""]
        lines += [f"- {n} × {reason} ({', '.join(paths)})" for reason, n, paths in by_reason(v.refused,
                                                                                            refusal_reason)]
        lines.append("")
    if v.harness:
        lines += ["## Harness errors", "", "Exceptions raised in this project's own code: its bugs, not the "
                  "frameworks'.", ""]
        lines += [f"- `{r.path_id}` ({r.mode}) on case `{r.case_id}`: {first_line(r.detail.message, 300)}\n"
                  f"  `{replay_command(r, results_file)}`" for r in v.harness]
        lines.append("")
    if v.crashed_before:
        lines += ["## Crashes that did not happen alone", "", CRASHED_BEFORE, ""]
        lines += [f"- `{r.path_id}` ({r.mode}) on case `{r.case_id}`: {r.outcome} alone; first "
                  f"{r.detail.extra['crashed_before']}" for r in v.crashed_before]
        lines.append("")
    configuration = Counter(r.detail.message for r in v.configuration)
    if configuration:
        lines += ["## Configuration errors", "",
                  "Not findings: the installed runtime cannot load what the exporter wrote (choose another "
                  "`--onnx-opset`).", ""]
        lines += [f"- {message} ({n} record(s))" for message, n in configuration.items()] + [""]
    lines += ["## Outcomes per path", ""] + _md_table(*full_rows(records))
    pairs = pair_lines(records, results_file)
    if pairs:
        lines += ["", "## Pairwise coverage", "", "Per path, the share of the reachable attribute pairs of the ops "
                  "drawn that judged programs held (per op: `conformance ops --results`).", ""]
        lines += [f"- {line}" for line in pairs]
    if tasks:
        lines += ["", "## Where the worker time went", "",
                  "Each task judged one case in `every` at the end (its rate: conformance.run.schedule); `prepare` "
                  "is rendering and the eager "
                  "reference, once per case and framework.", ""]
        lines += _md_table(["task", "every", "cases", "s/program", "share"],
                           [[k, t.get("every", ""), t["cases"], t["s_per_program"], f"{t['share']:.1%}"]
                            for k, t in tasks.items()])
    if nodes:
        lines += ["", "## Where the tasks ran", "", "The nodes of the Ray cluster, and the worker time each spent.",
                  ""]
        lines += _md_table(["node", "GPU", "tasks", "worker s", "share"],
                           [[n, "yes" if e["gpu"] else "no", e["tasks"], e["seconds"], f"{e['share']:.1%}"]
                            for n, e in nodes.items()])
    return "\n".join(lines) + "\n"


def pair_lines(records: list[ResultRecord], results_file=None) -> list[str]:
    """Per path, pairwise coverage of the ops drawn (:mod:`conformance.program.coverage`), one line each; the ops
    a known bug stopped the path judging (the ``plan.jsonl`` beside ``results_file``) listed apart."""
    from conformance.program.coverage import summary_lines
    from conformance.report.ops_view import pair_coverage, stopped_ops

    return summary_lines(pair_coverage(records), stopped_ops(results_file) if results_file else None)


def _blame_label(record: ResultRecord):
    from conformance.judge.blame import label_of

    return label_of(record.detail.blame)


def print_summary(out, records: list[ResultRecord], results_file="results.jsonl", show: int = 15) -> None:
    """The terminal summary: the compact table, then new findings (at most ``show``, each with its replay
    command), known bugs, refusals and harness errors apart, each counted."""
    from rich.markup import escape
    from rich.table import Table

    header, rows = compact_rows(records)
    table = Table(title="passed/cases per path and mode", title_justify="left")
    for h in header:
        table.add_column(h, justify="left" if h == "path" else "right")
    for row in rows:
        table.add_row(*[escape(x) for x in row])
    out.print(table)
    v = Verdicts.of(records)
    out.print(f"[bold]{len(v.new)} new finding(s)[/]" + (":" if v.new else ""), style="red" if v.new else "green")
    for r in v.new[:show]:
        out.print(escape(f"  {r.path_id} ({r.mode}) {r.outcome}: {first_line(r.detail.message, 140)}"))
        out.print(escape(f"    {replay_command(r, results_file)}"), style="dim")
    if len(v.new) > show:
        out.print(f"  ... {len(v.new) - show} more in summary.md")
    for title, group, reason in (("known bug record(s)", v.known, known_reason),
                                 ("documented refusal(s)", v.refused, refusal_reason)):
        reasons = by_reason(group, reason)
        out.print(f"{len(group)} {title}" + (f", {len(reasons)} distinct" if group else ""))
        for text, n, paths in reasons[:5]:
            out.print(escape(f"  {n} × {text[:110]} ({', '.join(paths[:3])}{', ...' if len(paths) > 3 else ''})"),
                      style="dim")
        if len(reasons) > 5:
            out.print(f"  ... {len(reasons) - 5} more in summary.md", style="dim")
    out.print(f"{len(v.harness)} harness error(s)" + (": this project's bugs, not the frameworks'" if v.harness
                                                       else ""), style="red" if v.harness else None)
    for r in v.harness[:show]:
        out.print(escape(f"  {r.path_id} ({r.mode}): {first_line(r.detail.message, 160)}"))
        out.print(escape(f"    {replay_command(r, results_file)}"), style="dim")
    if v.crashed_before:
        out.print(f"{len(v.crashed_before)} crash(es) that did not happen alone (in summary.md): {CRASHED_BEFORE}",
                  style="yellow")
    for message, n in Counter(r.detail.message for r in v.configuration).items():
        out.print(escape(f"{message} ({n} record(s), not findings)"), style="red")
    for line in pair_lines(records, results_file):
        out.print(escape(f"pairwise coverage: {line}"))
    cov = coverage(records)
    if cov["programs"]:
        out.print(f"{cov['programs']} programs; {cov['interesting']} ({cov['interesting'] / cov['programs']:.0%}) "
                  f"with data-dependent control flow, nested inputs or kwargs; "
                  f"{cov['data_dependent']} with data-dependent control flow")
