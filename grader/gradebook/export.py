"""Writing the results of a batch: gradebook, feedback, Gradescope JSON, summary.

Files under DIR (all written atomically, deterministic bytes: sorted, no timestamps):
  grades.csv                     student, one column per part, total, max, percent, status,
                                 notes (a manual part's column is empty until `merge`)
  feedback/<student>.md          what each case did, the first failing property or row
  results/<student>/results.json Gradescope's format (tests with name, score, max_score, ...)
  summary.md, summary.json       counts per status, score distribution, per-case pass rates
  summary.html                   the class dashboard (grader/gradebook/dashboard.py)
  timings.csv                    seconds per import and call (varies run to run; kept apart)
  manual-template.csv            with manual parts: the scores.csv `merge --manual` reads,
                                 every student listed, to fill in
"""
from __future__ import annotations

import csv
import io
import statistics
from pathlib import Path

from kanon.files import atomic_write_text, dump_json

from ..grading.fingerprint import fingerprint as course_fingerprint, summary_line
from ..grading.intake import lms_identity
from ..grading.record import CaseRecord, StudentRecord, as_record, as_records
from ..grading.scores_text import fmt
from ..grading.statuses import SUBMISSION_ORDER
from ..grading.term_view import apply_term
from ..catalogs import translator
from ..rubric import Rubric
from .case_text import (HIDDEN_FEEDBACK, case_title, fence, from_data, in_language, shown,
                        time_text)
from .shares import shares as _shares, test_score as _test_score
from ..grading.judges import render_ref
from . import counterexample
from .notes_text import notes_text

TEMPLATE = "manual-template.csv"


GRADES_ID_COLUMNS = ["student", "lms", "lms_id", "lms_name", "source"]


def grades_csv(records: list[dict] | list[StudentRecord], rubric: Rubric) -> str:
    """The gradebook: the grader's student id, the learning management system's own identity
    when the entry's name carries one (`lms` moodle/canvas, `lms_id` the Moodle participant
    number or Canvas user id, `lms_name`), the entry's name, points per part (a manual part's
    empty until merged), total, max, percent, status (the problem that cost the most points),
    and notes (an import that failed but was graded one statement at a time, or a manual
    part's missing, non-PDF or too long file)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(GRADES_ID_COLUMNS + [p.key for p in rubric.parts] +
                    ["total", "max", "percent", "status", "notes"])
    for r in sorted(as_records(records), key=lambda r: r.student):
        who = lms_identity(r.source)
        ids = [who.system, who.user_id, who.name] if who else ["", "", ""]
        writer.writerow([r.student, *ids, r.source]
                        + [_part_cell(r, p) for p in rubric.parts]
                        + [fmt(r.score), fmt(r.max), fmt(r.percent), r.status,
                           "; ".join(r.remarks)])
    return buffer.getvalue()


def _part_cell(record: StudentRecord, part) -> str:
    """A part's points in grades.csv: a manual part's is empty until merged."""
    if part.manual:
        score = record.manual_score(part.key)
        return "" if score is None else fmt(score)
    return fmt(record.part_points(part.key))


def feedback_md(record: dict | StudentRecord, rubric: Rubric) -> str:
    """One student's feedback, in the course's language: score, notes, every case."""
    record = as_record(record)
    _ = translator(rubric.language)
    lines = [_("# Feedback for {student}").format(student=record.student), "",
             _("**Score: {score} / {max}** ({percent}%). Status: `{status}`.").format(
                 score=fmt(record.score), max=fmt(record.max),
                 percent=fmt(record.percent), status=record.status)
             + _pending(record, rubric, _), "",
             _("Submission: `{source}`").format(source=record.source) + (
                 _("; graded file: `{solution}`.").format(solution=record.solution)
                 if record.solution else "."), ""]
    if record.notes:
        lines += [_("## Notes"), ""] + [f"- {n}" for n in notes_text(record, _)] + [""]
    imported = record.import_info
    if imported is not None and imported.output:
        lines += [_("Printed while your file was imported:"), "", fence(imported.output)]
    lines += [_("## Parts"), "", _("| Part | Points | Max |"), "|---|---:|---:|"]
    for part in rubric.parts:
        lines.append(f"| {part.key} | {_part_cell(record, part) or _('not yet graded')} | "
                     f"{fmt(part.points)} |")
    lines.append("")
    scored = [p for p in rubric.manual_parts if record.manual_score(p.key) is not None]
    for part in rubric.manual_parts:  # the one staff comment: under the last scored part
        lines += _manual_section(record, part, _, commented=bool(scored) and part is scored[-1])
    for part in rubric.auto_parts:
        lines += [f"## {part.key}: {fmt(record.part_points(part.key))} / {fmt(part.points)}",
                  ""]
        for case in record.cases_of(part.key):
            label = {"passed": _("PASS"), "partial": _("PARTIAL")}.get(case.status, _("FAIL"))
            title = _("**{label}** {title}").format(label=label, title=case_title(case, _))
            lines.append(f"- {title} — {fmt(case.points)} / "
                         f"{fmt(case.max_points)} — `{case.status}`"
                         + (f" — {time_text(case, _)}" if time_text(case) else ""))
            head, rest, printed = shown(case)
            lines.append(f"  {case_head(case, head, rubric.language, _)}")
            if case.privacy:
                lines.append("  " + _("Privacy of your output (no points): {privacy}.")
                             .format(privacy=in_language(case.privacy, case.privacy_ref, _)))
            if rest:
                lines += ["", "  " + _("Traceback (your code):"), ""] + [
                    "  " + line for line in fence(rest).splitlines()] + [""]
            if printed:
                lines += ["", "  " + _("Printed:"), ""] + ["  " + line for line in
                                                           fence(printed).splitlines()] + [""]
        lines += [""] + counterexample.part_lines(record, part, _)
    lines += [_(HIDDEN_FEEDBACK), ""]
    return "\n".join(lines)


def case_head(case: CaseRecord, head: str, language: str, _=str) -> str:
    """A case's message in the course's language, from its message as data: a kcheck judge's
    (grader.grading.judges.render_ref) or a kcheck.text Message (its `id`); a record without
    data is translated from its English (the pattern layer)."""
    ref = case.message_ref
    if ref and "id" not in ref and head == case.message.split("\n")[0]:
        return render_ref(ref, language, case.hidden)
    return in_language(head, ref, _)


def _pending(record: StudentRecord, rubric: Rubric, _=str) -> str:
    """The score line's caveat while some manual part has no merged score."""
    waiting = [p for p in rubric.manual_parts if record.manual_score(p.key) is None]
    if not waiting:
        return ""
    names = _(", ").join(_("{part} ({points} points)").format(part=p.key, points=fmt(p.points))
                      for p in waiting)
    return _(" Graded by the course staff, not yet included: {names}; the score counts the "
             "autograded parts only so far.").format(names=names)


def _manual_section(record: StudentRecord, part, _=str, commented: bool = False) -> list[str]:
    """A manual part's heading, the grader's check of its file and, when `commented`, the
    staff's one comment of the student (scores.csv's `comment`: one per student, not per
    part)."""
    entry = record.manual_check(part.key)
    score = record.manual_score(part.key)
    lines = [_("## {part}: {score} / {points} (graded by course staff)").format(
        part=part.key, score=_("not yet graded") if score is None else fmt(score),
        points=fmt(part.points)), ""]
    if entry.check:
        lines.append(f"- {from_data(entry.check, entry.check_ref, _)}")
    if commented and record.manual_comment:
        lines.append("- " + _("Comment: {comment}").format(comment=record.manual_comment))
    return lines + [""]


def gradescope_json(record: dict | StudentRecord, rubric: Rubric) -> str:
    """Gradescope's results.json for one student."""
    record = as_record(record)
    tests, _ = [], translator(rubric.language)
    shares = _shares([(c.part, c.max_points) for c in record.cases], rubric)
    for n, case in enumerate(record.cases, start=1):
        part_index = next(i for i, p in enumerate(rubric.parts, start=1) if p.key == case.part)
        head, trace, printed = shown(case)
        output = case_head(case, head, rubric.language, _) + (
            f"\n\n{_('Traceback (your code):')}\n\n{fence(trace)}" if trace else "")
        output += "\n\n" + _("Time: {time}.").format(time=time_text(case, _)) \
            if time_text(case) else ""
        output += "\n\n" + _("Privacy of your output (no points): {privacy}.").format(
            privacy=in_language(case.privacy, case.privacy_ref, _)) if case.privacy else ""
        if printed:
            output += f"\n\n{_('Printed:')}\n\n" + fence(printed)
        output += counterexample.case_text(record, rubric, case)
        tests.append({"name": f"{case.part}: {case_title(case, _)}",
                      "number": f"{part_index}.{sum(1 for c in record.cases[:n] if c.part == case.part)}",
                      "score": _test_score(case, shares[n - 1]),
                      "max_score": shares[n - 1],
                      "status": "passed" if case.status == "passed" else "failed",
                      "output": output, "visibility": case.visibility})
    for n, part in enumerate(rubric.parts, start=1):
        if part.manual:  # Gradescope grades it itself: a 0-point line saying what was found
            check = record.manual_check(part.key)
            tests.append({"name": _("{part}: graded by course staff on Gradescope").format(
                              part=part.key),
                          "number": f"{n}.1", "score": 0.0, "max_score": 0.0,
                          "status": "failed" if check.problem else "passed",
                          "output": from_data(check.check or "", check.check_ref, _),
                          "visibility": "visible"})
    notes = "\n".join(f"- {n}" for n in notes_text(record, _))
    # Messages use Markdown (`code`, fenced output): Gradescope renders them with "md".
    status = _("Status: {status}").format(status=record.status)
    return dump_json({"score": record.autograded, "output": f"{status}\n\n{notes}",
                      "output_format": "md", "visibility": "visible",
                      "stdout_visibility": "hidden", "tests": tests})


def summary(records: list[dict] | list[StudentRecord], rubric: Rubric) -> tuple[str, dict]:
    """(Markdown, JSON-ready dict): counts per status, distribution, per-part and per-case;
    the dict's `order` keeps the rubric's order of parts and cases (its keys get sorted)."""
    records = as_records(records)
    percents = [r.percent for r in records]
    counts = {s: sum(r.status == s for r in records) for s in map(str, SUBMISSION_ORDER)}
    counts = {s: n for s, n in counts.items() if n}
    buckets = {f"{lo}-{lo + 9}" if lo < 90 else "90-100": 0 for lo in range(0, 100, 10)}
    for p in percents:
        lo = min(int(p // 10) * 10, 90)
        buckets[f"{lo}-{lo + 9}" if lo < 90 else "90-100"] += 1
    parts = {}
    for part in rubric.parts:
        scores = [r.manual_score(part.key) if part.manual else r.part_points(part.key)
                  for r in records]
        scores = [s for s in scores if s is not None]
        parts[part.key] = {"mean": round(statistics.fmean(scores), 4) if scores else 0.0,
                           "full": sum(abs(s - part.points) < 1e-9 for s in scores),
                           "max": part.points}
    cases = {}
    for case in rubric.cases():
        statuses = [c.status for r in records for c in r.cases if c.id == case.id]
        cases[case.id] = {s: statuses.count(s) for s in sorted(set(statuses))}
    stats = {"students": len(records),
             "mean": round(statistics.fmean(percents), 4) if percents else 0.0,
             "median": round(statistics.median(percents), 4) if percents else 0.0,
             "min": round(min(percents), 4) if percents else 0.0,
             "max": round(max(percents), 4) if percents else 0.0}
    modes = sorted({str(r.sandbox) for r in records if r.sandbox})  # bwrap/landlock/none
    data = {"stats": stats, "status_counts": counts, "distribution": buckets, "parts": parts,
            "cases": cases, "sandbox": modes,
            "order": {"parts": list(parts), "cases": list(cases)}}
    manual_md = []
    if rubric.manual_parts:
        data["manual"], manual_md = _manual_summary(records, rubric)
    md = ["# Grading summary", ""]
    if rubric.term is not None:  # only then: the default term's summary is as it always was
        data["term"] = rubric.term
        md += [f"Term: {rubric.term} (hidden cases drawn for this term).", ""]
    data["course"] = course_fingerprint(apply_term(rubric))
    md += [summary_line(data["course"]), ""]
    md += [f"{stats['students']} submissions; percent scores: mean {fmt(stats['mean'])}, "
           f"median {fmt(stats['median'])}, min {fmt(stats['min'])}, max {fmt(stats['max'])}.",
           "", f"Sandbox: {', '.join(modes) or 'not recorded'}.", "", *manual_md,
           "## Status", "", "| Status | Submissions |", "|---|---:|"]
    md += [f"| {s} | {n} |" for s, n in counts.items()]
    md += ["", "## Score distribution (percent)", "", "| Range | Submissions | |", "|---|---:|---|"]
    md += [f"| {b} | {n} | {'#' * n} |" for b, n in buckets.items()]
    md += ["", "## Parts", "", "| Part | Mean | Max | Full marks |", "|---|---:|---:|---:|"]
    merged = {k: v["merged"] for k, v in data.get("manual", {}).items()}
    md += [f"| {k} | {fmt(v['mean']) if merged.get(k, 1) else 'not merged'} | {fmt(v['max'])} "
           f"| {v['full']} |" for k, v in parts.items()]
    md += ["", "## Cases", "", "| Case | Statuses |", "|---|---|"]
    md += [f"| {cid} | {', '.join(f'{s} {n}' for s, n in st.items())} |"
           for cid, st in cases.items()]
    return "\n".join(md) + "\n", data


def _manual_summary(records: list[StudentRecord], rubric: Rubric) -> tuple[dict, list[str]]:
    """summary.json's `manual` (per part: points, students merged, file problems) and the
    Markdown lines saying whether the totals include the manual parts yet."""
    data = {}
    for part in rubric.manual_parts:
        problems = [r.manual_check(part.key).problem for r in records]
        data[part.key] = {"max": part.points,
                          "merged": sum(r.manual_score(part.key) is not None for r in records),
                          "problems": {p: problems.count(p) for p in sorted(set(problems) - {None})}}
    waiting = [r.student for r in records
               if any(r.manual_score(p.key) is None for p in rubric.manual_parts)]
    names = ", ".join(p.key for p in rubric.manual_parts)
    line = (f"Manual parts not yet merged for {len(waiting)} of {len(records)} submissions "
            f"({names}): their totals count only the autograded points (`python -m grader "
            f"merge OUT --manual scores.csv` adds the staff's scores)." if waiting else
            f"Manual parts merged ({names}): totals include the course staff's scores.")
    lines = [line, ""]
    for key, d in data.items():
        found = ", ".join(f"{p} {n}" for p, n in d["problems"].items()) or "none"
        lines += [f"- {key}: {fmt(d['max'])} points, graded by course staff; merged for "
                  f"{d['merged']} of {len(records)}; file problems: {found}."]
    return data, lines + [""]


def manual_template(records: list[dict] | list[StudentRecord], rubric: Rubric) -> str:
    """The scores.csv for `merge --manual`, to fill in: every student, the manual parts'
    current scores (empty: none yet), and the comment."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["student"] + [p.key for p in rubric.manual_parts] + ["comment"])
    for r in sorted(as_records(records), key=lambda r: r.student):
        writer.writerow([r.student] + [_part_cell(r, p) for p in rubric.manual_parts]
                        + [r.manual_comment or ""])
    return buffer.getvalue()


def timings_csv(records: list[dict] | list[StudentRecord]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["student", "what", "seconds", "cpu_seconds", "cpu_limit"])
    for r in sorted(as_records(records), key=lambda r: r.student):
        if r.timing.get("import") is not None:
            writer.writerow([r.student, "import", f"{r.timing['import']:.4f}", "", ""])
        for c in r.cases:
            if c.seconds is not None:
                cpu, limit = c.cpu_seconds, c.time_limit
                writer.writerow([r.student, c.id, f"{c.seconds:.4f}",
                                 "" if cpu is None else f"{cpu:.2f}",
                                 "" if limit is None else fmt(limit)])
        if r.timing.get("total") is not None:
            writer.writerow([r.student, "grading (wall)", f"{r.timing['total']:.4f}", "",
                             ""])
    return buffer.getvalue()


def write_student(out: Path, record: dict | StudentRecord, rubric: Rubric) -> None:
    """The per-student files, written as soon as the student is graded."""
    record = as_record(record)
    sid = record.student
    atomic_write_text(out / "feedback" / f"{sid}.md", feedback_md(record, rubric))
    atomic_write_text(out / "results" / sid / "results.json", gradescope_json(record, rubric))
    counterexample.write_all(out, record, rubric)


def write_batch(out: Path, records: list[dict] | list[StudentRecord], rubric: Rubric) -> None:
    """The class-wide files (after every student is graded)."""
    records = as_records(records)
    atomic_write_text(out / "grades.csv", grades_csv(records, rubric))
    md, data = summary(records, rubric)
    atomic_write_text(out / "summary.md", md)
    atomic_write_text(out / "summary.json", dump_json(data))
    atomic_write_text(out / "timings.csv", timings_csv(records))
    if rubric.manual_parts:
        atomic_write_text(out / TEMPLATE, manual_template(records, rubric))
    from .dashboard import write_dashboard
    write_dashboard(out)
