"""HANDOUT.md of a course, assembled from the section sources in `handout/` by its rubric.

Order: the front matter (intro, background, files), the cost functions under "Costs", the
ties, every other graded function in rubric order (the privacy measures under one heading),
then bad input, command line, checking your work, one section per part graded by staff,
submission, grading, time limits and the optional reading. A function's heading carries its
points; the line under it, its CPU-time limit and the allowed packages. A section that the
course does not grade is left out whole; inside a section, `<!-- if ... -->` blocks
(grader.publishing.materials.template) keep only the course's rules.
"""
from __future__ import annotations

import re
import textwrap
from pathlib import Path

from ...contract import CHOICE_PARAMS, int_params
from .course import ADULT_ROWS, CLI_NAMES, GROUPS, SIXTH, CourseView, points_text
from .reflow import reflow
from .template import render
from .translations import section_text

SOURCES = Path(__file__).resolve().parent / "handout"
FRONT = ("intro", "background", "files")
BACK = ("bad-input", "command-line", "checking")
END = ("submission", "grading", "time-limits", "beyond")
TITLES = {"background": "Background", "files": "Files", "costs": "Costs", "ties": "Ties",
          "measures": "Privacy measures", "bad-input": "Bad input",
          "command-line": "Command line", "checking": "Checking your work",
          "submission": "Submission", "grading": "How you are graded",
          "time-limits": "Time limits",
          "beyond": "Beyond k-anonymity: privacy models"}
WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
         8: "eight", 9: "nine", 10: "ten", 11: "eleven", 12: "twelve", 13: "thirteen"}
DEFINITIONS = {"cost_MD": "The distortion metric (MD)", "cost_LM": "The loss metric (LM)"}
"""The cost functions' sections, shown as definitions (no signature, no points) in a course
that does not grade them: the algorithms and the report use MD and LM."""
INTERVAL_WRITERS = ("mondrian", "topdown_greedy")
"""The anonymizers whose numeric cells may be intervals [lo-hi]."""
VARIANT_TITLES = {"lm-only": "LM-only distance"}


def anchor(title: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^a-z0-9_\- ]", "", title.lower()).replace(" ", "-")


def heading(course: CourseView, name: str) -> str:
    """A graded function's or staff part's heading: 'mondrian (20 points)'."""
    for f in course.functions:
        if f.name == name:
            return f"{name} ({_points(f.points)})"
    if name in DEFINITIONS:
        return DEFINITIONS[name]
    part = next(p for p in course.staff_parts if p.name == name)
    return f"{_staff_title(part.name)} ({_points(part.points)}, graded by course staff)"


def _points(value: float) -> str:
    return f"{points_text(value)} point" + ("" if value == 1 else "s")


def _staff_title(name: str) -> str:
    return "The report" if name == "report" else name.replace("_", " ").capitalize()


def _code_list(names: list[str], last: str = "and") -> str:
    quoted = [f"`{n}`" for n in names]
    if len(quoted) < 2:
        return "".join(quoted)
    return f"{', '.join(quoted[:-1])} {last} {quoted[-1]}"


def order(course: CourseView) -> list[tuple[str, str | None]]:
    """(source name, function or staff part it presents, or None) in handout order."""
    out: list[tuple[str, str | None]] = [(s, None) for s in FRONT]
    names = course.names
    costs = [n for n in names if GROUPS.get(n) == "costs"]
    out += [("costs", None)] + [(n, n) for n in costs]  # the definitions, graded or not
    out += [(n, n) for n in DEFINITIONS if n not in costs]
    out.append(("ties", None))
    measures_done = False
    for name in names:
        group = GROUPS.get(name)
        if group == "costs":
            continue
        if group == "measures":
            if not measures_done:
                out += [("measures", None)] + [(n, n) for n in names
                                               if GROUPS.get(n) == "measures"]
                measures_done = True
            continue
        out.append((name, name))
    out += [(s, None) for s in BACK if s != "command-line" or course.anonymizers]
    out += [("report" if p.name == "report" else "staff-part", p.name)
            for p in course.staff_parts]
    out += [(s, None) for s in END if s != "beyond" or "measures" in course.features]
    return out


def _title(course: CourseView, source: str, subject: str | None) -> str:
    return heading(course, subject) if subject else TITLES.get(source, source)


def fields(course: CourseView, sources: Path = SOURCES) -> dict[str, str]:
    """The values of the sources' {{fields}} that do not depend on the section (`sources`:
    the handout's section sources, for the included ones)."""
    values: dict[str, str] = {}
    entries = order(course)
    for source, subject in entries:
        if source == "intro":
            continue
        title = _title(course, source, subject)
        values[f"ref.{subject or source}"] = f"[{subject or title}](#{anchor(title)})"
        values[f"anchor.{subject or source}"] = anchor(title)
    values["contents"] = " · ".join(
        f"[{_contents_name(course, s, subject)}](#{anchor(_title(course, s, subject))})"
        for s, subject in entries
        if s not in ("intro", "time-limits") and GROUPS.get(subject or "") is None)
    values["points_table"] = _points_table(course)
    values["time_table"] = _time_table(course)
    values["function_count"] = f"{WORDS.get(len(course.functions), len(course.functions))} " \
                               f"function" + ("s" if len(course.functions) != 1 else "")
    values["total"] = points_text(course.total)
    values["packages"] = course.packages_text()
    names = sorted(course.allowed_packages)
    values["packages_rule"] = (f"only {', '.join(names)} and the standard library" if names
                               else "only the standard library")
    values["staff_list"] = ", ".join(_staff_title(p.name).lower() for p in course.staff_parts)
    values["import_limit"] = points_text(course.import_time_limit)
    values["memory"] = (f"{points_text(course.memory_mb / 1024)} GB" if course.memory_mb >= 1024
                        else f"{course.memory_mb} MB")
    values["file_size"] = f"{course.file_size_mb} MB"
    values["tolerance"] = re.sub(r"e([+-])0*(\d)", r"e\1\2", f"{course.cost_tolerance:g}")
    values["partial_credit"] = ("half" if course.partial_credit == 0.5
                                else f"{course.partial_credit * 100:g}%")
    anonymizers = course.anonymizers
    values["cli_algorithms"] = _code_list([CLI_NAMES[f.name] for f in anonymizers], "or")
    values["cli_sixth"] = "; ".join(
        f"{SIXTH[f.name][0]} for {CLI_NAMES[f.name]} (default {SIXTH[f.name][1]})"
        for f in anonymizers if f.name in SIXTH) or "none: no graded anonymizer takes one"
    writers = [n for n in course.names if n in INTERVAL_WRITERS]
    values["interval_writers"] = f"only {_code_list(writers)} " + (
        "writes" if len(writers) == 1 else "write")
    values["markers"] = ", ".join(f.marker for f in course.functions)
    values["pytest_k_lines"] = _pytest_k_lines(course)
    values["measure_list"] = _code_list([n for n in course.names if GROUPS.get(n) == "measures"])
    values["anonymizer_list"] = _code_list([f.name for f in anonymizers])
    sixth = [SIXTH[f.name][0] for f in anonymizers if f.name in SIXTH]
    values["cli_sixth_usage"] = f" [{' | '.join(sixth)}]" if sixth else ""
    values["cli_examples"] = _cli_examples(course)
    values["int_rule"] = _int_rule(course)
    values["include.lattice"] = section_text(sources / "_lattice.md", course.language).rstrip()
    values["graded_list"] = _code_list(course.names)
    values["submission_files"] = _submission_files(course)
    return values


def _part_fields(course: CourseView, name: str) -> dict[str, str]:
    """The {{part.*}} fields of a staff part's section."""
    part = next(p for p in course.staff_parts if p.name == name)
    pages = (f"at most {part.max_pages} page" + ("" if part.max_pages == 1 else "s")
             if part.max_pages else "no page limit")
    return {"part.files": _code_list(list(part.files) or ["a file"], "or"),
            "part.max_pages": pages,
            "part.pages_check": f" (a PDF keeps to {pages})" if part.max_pages else ""}


def _pytest_k_lines(course: CourseView) -> str:
    """`pytest -k <marker>  # one function: ...` with the comment wrapped under itself."""
    first = next((f.marker for f in course.functions if f.marker == "clustering"),
                 course.functions[0].marker if course.functions else "cost_MD")
    command = f"pytest -k {first}".ljust(40)
    words = textwrap.wrap("one function: " + ", ".join(f.marker for f in course.functions),
                          95 - len(command) - 2, break_on_hyphens=False)
    return "\n".join((command if i == 0 else " " * 40) + ("# " if i == 0 else "#   ") + w
                     for i, w in enumerate(words))


CLI_EXAMPLES = {"clustering_anonymizer": "4", "mondrian": "8", "topdown_anonymizer": "4",
                "bottomup_anonymizer": "16 2", "samarati": "10 50", "random_anonymizer": "4 7"}


def _cli_examples(course: CourseView) -> str:
    """Up to two command lines: one anonymizer without a sixth argument, one with."""
    names = course.names
    plain = [n for n in CLI_EXAMPLES if n in names and n not in SIXTH][:1]
    extra = [n for n in ("bottomup_anonymizer", "samarati", "random_anonymizer")
             if n in names][:1]
    return "\n".join(f"python skeleton.py {CLI_NAMES[n]} DGHs adult-hw1.csv anonymized.csv "
                     f"{CLI_EXAMPLES[n]}" for n in plain + extra)


def _int_rule(course: CourseView) -> str:
    """The bad-input rule on the course's integer parameters ('k, s and ... must be ...')."""
    names = list(dict.fromkeys(p for f in course.names for p in int_params(f)
                               if p not in CHOICE_PARAMS))
    if not names:
        return "Every argument is a file or folder path (`str`)."
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    verb = "must be an integer" if len(names) == 1 else "must be integers"
    return (f"{listed} {verb}: Python `int` or numpy integers, but **not `bool`**. "
            f"Otherwise `ValueError`.")


def _contents_name(course: CourseView, source: str, subject: str | None) -> str:
    """A function's name, a staff part's title ('The report'), else the section's title."""
    if subject in course.names:
        return subject
    return _staff_title(subject) if subject else _title(course, source, subject)


def _points_table(course: CourseView) -> str:
    rows = ["| Part | Points |", "| --- | ---: |"]
    for f in course.functions:
        variant = f" ({VARIANT_TITLES.get(f.variant, f.variant)})" if f.variant else ""
        rows.append(f"| [`{f.name}`](#{anchor(heading(course, f.name))}){variant} "
                    f"| {points_text(f.points)} |")
    for p in course.staff_parts:
        rows.append(f"| [{_staff_title(p.name)}](#{anchor(heading(course, p.name))}) "
                    f"(graded by course staff) | {points_text(p.points)} |")
    rows.append(f"| **Total** | **{points_text(course.total)}** |")
    return "\n".join(rows)


def _time_table(course: CourseView) -> str:
    groups: dict[object, list[str]] = {}
    for f in course.functions:
        groups.setdefault(f.time, []).append(f.name)
    rows = ["| Function | CPU-time limit per call | on `adult-hw1.csv` (9,999 rows) |",
            "| --- | --- | ---: |"]
    for rule, names in groups.items():
        rows.append(f"| {', '.join(f'`{n}`' for n in names)} | {rule.text()} "
                    f"| {points_text(rule.on(ADULT_ROWS))} s |")
    return "\n".join(rows)


def _submission_files(course: CourseView) -> str:
    """skeleton.py and each staff part's file, a glob `*.pdf` named after the part."""
    names = ["skeleton.py"]
    for part in course.staff_parts:
        if part.files:
            glob = part.files[0]
            names.append(f"{part.name}{glob[1:]}" if glob.startswith("*.") else glob)
    return _code_list(names)


def _meta(course: CourseView, name: str) -> str:
    f = course.function(name)
    return (f"*{_points(f.points)} · CPU-time limit per call: {f.time.text()} "
            f"({points_text(f.time.on(ADULT_ROWS))} s on `adult-hw1.csv`) · packages: "
            f"{course.packages_text()}.*")


def render_handout(course: CourseView, sources: Path = SOURCES) -> str:
    """The whole HANDOUT.md of `course`."""
    values = fields(course, sources)
    features = course.features
    chunks: list[str] = []
    for source, subject in order(course):
        path = sources / f"{source}.md"
        text = section_text(path, course.language)
        local = dict(values)
        if subject:
            level = "###" if GROUPS.get(subject) else "##"
            local["heading"] = heading(course, subject)
            local["name"] = subject
            lines = [f"{level} {heading(course, subject)}", ""]
            if subject in course.names:
                local["meta"] = _meta(course, subject)
            elif subject not in DEFINITIONS:
                local.update(_part_fields(course, subject))
            text = "\n".join(lines) + "\n" + text
        chunk = render(text, features, local, f"{path.parent.name}/{path.name}").strip("\n")
        chunks.append(chunk)
    return re.sub(r"\n{3,}", "\n\n", reflow("\n\n".join(chunks))) + "\n"
