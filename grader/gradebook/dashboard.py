"""The class dashboard, summary.html: one self-contained page (inline SVG and CSS, no script,
no external file) drawn from the batch's own files, so it can be redrawn at any time.

    write_dashboard(out) reads out/summary.json, out/timings.csv and, when present,
    out/pairs.csv (`python -m grader similarity SUBMISSIONS --out out/pairs.csv`, which
    redraws the page), and writes out/summary.html.

Sections: the score histogram, mean and full-marks rate per part, the statuses of every case
(a case nobody passes is highlighted), CPU time per graded function (from timings.csv: the
one section that changes from run to run), and the similar pairs. Parts, cases and functions
are listed in the rubric's order (summary.json's `order`), as summary.md lists them.
Everything else is the same bytes for the same summary.
"""
from __future__ import annotations

import csv
import html
import json
import statistics
from pathlib import Path

from kanon.files import atomic_write_text


STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5em auto;max-width:80em;color:#222;padding:0 1em}
.wide{overflow-x:auto}table.cases{font-size:.85em}table.cases th{writing-mode:vertical-rl;
transform:rotate(180deg);vertical-align:bottom;text-align:left;padding:.5em .2em}
table.cases th:first-child{writing-mode:horizontal-tb;transform:none;vertical-align:bottom}
h1{margin-bottom:.2em}h2{margin-top:1.6em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.6em 0}td,th{border:1px solid #ccc;padding:.25em .6em}
th{background:#f3f3f3;text-align:left}td.n{text-align:right}
tr.allfail td{background:#ffe0e0;font-weight:600}.note{color:#555;font-size:.9em}
.bar{fill:#4a7bd0}.full{fill:#3a9d5d}.axis{stroke:#444}.grid{stroke:#ddd}
svg text{font-size:12px;fill:#222}.caveat{background:#fff8e1;padding:.5em;
border-left:4px solid #f0b400}
"""
GOOD = {"passed"}


def _e(text: object) -> str:
    return html.escape(str(text))


def _histogram(buckets: dict[str, int]) -> str:
    """Vertical bars: submissions per range of percent scores."""
    w, h, left, bottom = 640, 260, 50, 40
    top = max(list(buckets.values()) + [1])
    step = (w - left - 10) / max(len(buckets), 1)
    plot_h = h - bottom - 20
    parts = [f'<svg width="{w}" height="{h}" role="img" aria-label="score histogram">']
    step_n = max(1, -(-top // 5))  # at most 6 whole-number ticks
    top = -(-top // step_n) * step_n
    ticks = list(range(0, top + 1, step_n))
    for t in ticks:
        y = 20 + plot_h - plot_h * t / top
        parts.append(f'<line class="grid" x1="{left}" x2="{w - 10}" y1="{y:.1f}" y2="{y:.1f}"/>'
                     f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{t}</text>')
    for i, (label, n) in enumerate(buckets.items()):
        x = left + i * step
        bar_h = plot_h * n / top
        parts.append(f'<rect class="bar" x="{x + 3:.1f}" y="{20 + plot_h - bar_h:.1f}" '
                     f'width="{step - 6:.1f}" height="{bar_h:.1f}"><title>{_e(label)}%: {n}'
                     f'</title></rect>')
        if n:
            parts.append(f'<text x="{x + step / 2:.1f}" y="{20 + plot_h - bar_h - 4:.1f}" '
                         f'text-anchor="middle">{n}</text>')
        parts.append(f'<text x="{x + step / 2:.1f}" y="{h - bottom + 16}" '
                     f'text-anchor="middle">{_e(label)}</text>')
    parts.append(f'<line class="axis" x1="{left}" x2="{w - 10}" y1="{20 + plot_h}" '
                 f'y2="{20 + plot_h}"/>')
    parts.append(f'<text x="{(w + left) / 2}" y="{h - 4}" text-anchor="middle">score '
                 f'(percent of the maximum)</text>')
    parts.append(f'<text transform="rotate(-90)" x="{-(20 + plot_h / 2)}" y="14" '
                 f'text-anchor="middle">submissions</text></svg>')
    return "".join(parts)


def _parts_table(parts: dict, students: int) -> str:
    rows = ["<table><tr><th>Part</th><th>Mean points</th><th>Max</th><th>Mean (% of max)"
            "</th><th>Full marks</th></tr>"]
    for key, p in parts.items():
        share = p["mean"] / p["max"] if p["max"] else 0.0
        full = p["full"] / students if students else 0.0
        bar = (f'<svg width="160" height="12"><rect x="0" y="1" width="160" height="10" '
               f'fill="#eee"/><rect class="bar" x="0" y="1" width="{160 * share:.1f}" '
               f'height="10"/></svg>')
        rows.append(f'<tr><td>{_e(key)}</td><td class="n">{p["mean"]:.2f}</td>'
                    f'<td class="n">{p["max"]:g}</td><td>{bar} {share:.0%}</td>'
                    f'<td class="n">{p["full"]} ({full:.0%})</td></tr>')
    return "".join(rows) + "</table>"


def _cases_table(cases: dict[str, dict[str, int]]) -> tuple[str, int]:
    """The case-by-status table and how many cases nobody passes."""
    statuses = sorted({s for st in cases.values() for s in st},
                      key=lambda s: (s not in GOOD, s != "partial", s))
    rows = ['<div class="wide"><table class="cases"><tr><th>Case</th>'
            + "".join(f"<th>{_e(s)}</th>" for s in statuses)
            + "</tr>"]
    all_fail = 0
    for cid, st in cases.items():
        failing = sum(st.values()) > 0 and not any(st.get(s, 0) for s in GOOD)
        all_fail += failing
        rows.append(f'<tr{" class=allfail" if failing else ""}><td>{_e(cid)}'
                    + (" (nobody passes)" if failing else "") + "</td>"
                    + "".join(f'<td class="n">{st.get(s, 0) or ""}</td>' for s in statuses)
                    + "</tr>")
    return "".join(rows) + "</table></div>", all_fail


def _times_table(timings: list[dict[str, str]], order: list[str]) -> str:
    """CPU seconds of each graded function's calls, over every student and case, the
    functions in `order` (the rubric's parts)."""
    per_part: dict[str, list[float]] = {}
    for row in timings:
        if "/" not in row["what"]:
            continue
        value = row.get("cpu_seconds") or row.get("seconds")
        if value:
            per_part.setdefault(row["what"].split("/")[0], []).append(float(value))
    if not per_part:
        return "<p>No call was timed.</p>"
    per_part = in_rubric_order(per_part, order)
    def deciles(values: list[float]) -> list[float]:
        return (statistics.quantiles(values, n=10, method="inclusive") if len(values) > 1
                else [values[0]] * 9)

    # the scale ends at the largest 90th percentile, so one timed-out call does not squash
    # every bar (the Max column gives the outliers)
    longest = max(deciles(sorted(v))[8] for v in per_part.values()) or 1.0
    rows = ["<table><tr><th>Function</th><th>Calls</th><th>Median (s)</th><th>90th "
            "percentile (s)</th><th>Max (s)</th><th>Spread, 0 to "
            f"{longest:.2f} s (bar: 10th to 90th percentile; tick: median)</th></tr>"]
    for part, values in per_part.items():
        values.sort()
        q = deciles(values)
        med = statistics.median(values)

        def x(v: float) -> float:
            return 200 * min(v, longest) / longest

        svg = (f'<svg width="204" height="14"><line class="grid" x1="0" x2="200" y1="7" '
               f'y2="7"/><rect class="bar" x="{x(q[0]):.1f}" y="3" width="'
               f'{max(x(q[8]) - x(q[0]), 1):.1f}" height="8"/><line stroke="#000" '
               f'stroke-width="2" x1="{x(med):.1f}" x2="{x(med):.1f}" y1="0" y2="14"/></svg>')
        rows.append(f'<tr><td>{_e(part)}</td><td class="n">{len(values)}</td>'
                    f'<td class="n">{med:.2f}</td><td class="n">{q[8]:.2f}</td>'
                    f'<td class="n">{values[-1]:.2f}</td><td>{svg}</td></tr>')
    return "".join(rows) + "</table>"


def _pairs_table(pairs: list[dict[str, str]] | None) -> str:
    if pairs is None:
        return ("<p>Not run. <code>python -m grader similarity SUBMISSIONS --out "
                "&lt;this folder&gt;/pairs.csv</code> lists similar pairs here (and in "
                "pairs.html, side by side).</p>")
    note = ('<p class="caveat">A pointer for a human, not a verdict: read both files in '
            "pairs.html before concluding anything.</p>")
    if not pairs:
        return note + "<p>No pair at or above the threshold.</p>"
    rows = ["<table><tr><th>Student a</th><th>Student b</th><th>Score</th></tr>"]
    rows += [f'<tr><td>{_e(p["student_a"])}</td><td>{_e(p["student_b"])}</td>'
             f'<td class="n">{float(p["similarity"]):.2f}</td></tr>' for p in pairs]
    return note + "".join(rows) + "</table>"


def in_rubric_order(table: dict, order: list[str] | None) -> dict:
    """`table` (keyed by part or case, as summary.json's sorted keys left it) in the rubric's
    `order` (summary.json's `order`); keys it does not list keep their place after it."""
    listed = [k for k in order or [] if k in table]
    return {k: table[k] for k in listed + [k for k in table if k not in listed]}


def render(summary: dict, timings: list[dict[str, str]],
           pairs: list[dict[str, str]] | None) -> str:
    """The page for a batch's summary.json data, timings.csv rows and pairs.csv rows."""
    stats = summary["stats"]
    order = summary.get("order") or {}
    parts = in_rubric_order(summary["parts"], order.get("parts"))
    cases, all_fail = _cases_table(in_rubric_order(summary["cases"], order.get("cases")))
    status = ", ".join(f"{_e(s)} {n}" for s, n in summary["status_counts"].items())
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           "<title>Grading summary</title>", f"<style>{STYLE}</style></head><body>",
           "<h1>Grading summary</h1>",
           f"<p>{stats['students']} submissions. Percent scores: mean {stats['mean']:.1f}, "
           f"median {stats['median']:.1f}, min {stats['min']:.1f}, max {stats['max']:.1f}. "
           f"Submission statuses: {status or 'none'}.</p>",
           "<h2>Score distribution</h2>", _histogram(summary["distribution"]),
           "<h2>Parts</h2>", _parts_table(parts, stats["students"]),
           "<h2>Cases</h2>",
           f"<p>Submissions per case and status; {all_fail} case(s) nobody passes "
           "(highlighted): worth a look at the case and the handout.</p>", cases,
           "<h2>Run time per function</h2>",
           '<p class="note">CPU seconds of each graded call (timings.csv); these vary from '
           "run to run, the rest of this page does not.</p>", _times_table(timings, list(parts)),
           "<h2>Similar pairs</h2>", _pairs_table(pairs), "</body></html>"]
    if summary.get("term"):  # only then: the default term's page is as it always was
        out.insert(5, f"<p>Term: {_e(summary['term'])} (hidden cases drawn for this term).</p>")
    return "\n".join(out) + "\n"


def _csv_rows(path: Path) -> list[dict[str, str]] | None:
    if not path.is_file():
        return None
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def write_dashboard(out: Path) -> Path:
    """(Re)write out/summary.html from the batch files in `out`; returns its path."""
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    page = render(summary, _csv_rows(out / "timings.csv") or [], _csv_rows(out / "pairs.csv"))
    atomic_write_text(out / "summary.html", page)
    return out / "summary.html"
