"""HANDOUT.md of a course, assembled from the section sources in `handout/` by its rubric.

Order: the front matter (intro, background, files), the cost functions under "Costs", the
ties, every other graded function in rubric order (the privacy measures under one heading;
a course's own function's section from its folder's handout/<function>.md: own_handout.py),
then bad input, command line, checking your work, one section per part graded by staff,
submission, grading, time limits and the optional reading. A function's heading carries its
points; the line under it, its CPU-time limit and the allowed packages. A section that the
course does not grade is left out whole; inside a section, `<!-- if ... -->` blocks
(grader.publishing.materials.template) keep only the course's rules.
"""
from __future__ import annotations

import re
from pathlib import Path

from .course import ADULT_ROWS, CLI_NAMES, SIXTH, CourseView, points_text
from .reflow import reflow
from .calls import cli_examples, dgh_folder_list, int_rule, pytest_k_lines
from .own_handout import COMMANDS, OWN, course_override, own_fields, own_section, signature
from .template import render
from .translations import section_text
from . import words
from .words import anchor, listing as _listing, tr

SOURCES = Path(__file__).resolve().parent / "handout"
FRONT = ("intro", "background", "files")
BACK = ("bad-input", "command-line", "checking")
END = ("submission", "grading", "time-limits", "beyond")
TITLES = words.titles(str)  # English (the anchors); words.titles(_) in the course's language
WORDS = words.WORDS
DEFINITIONS = words.definitions(str)
"""The cost functions' sections, shown as definitions (no signature, no points) in a course
that does not grade them: the algorithms and the report use MD and LM."""
INTERVAL_WRITERS = ("mondrian", "topdown_greedy")
"""The anonymizers whose numeric cells may be intervals [lo-hi]."""


def heading(course: CourseView, name: str, _: words.Translate = str) -> str:
    """A graded function's or staff part's heading: 'mondrian (20 points)'."""
    for f in course.functions:
        if f.name == name:
            return _("{name} ({points})").format(name=name, points=words.points(_, f.points))
    if name in DEFINITIONS:
        return words.definitions(_)[name]
    part = next(p for p in course.staff_parts if p.name == name)
    text = (_("{title} ({points}, optional, graded by course staff)") if part.optional
            else _("{title} ({points}, graded by course staff)"))
    return text.format(title=_staff_title(part.name, _, course),
                       points=words.points(_, part.points))


def _staff_title(name: str, _: words.Translate = str, course: CourseView | None = None) -> str:
    """A staff part's title: its description's title (before ": ") when the rubric gives
    one, else the name's ('The report', 'Code-clarity')."""
    part = next((p for p in course.staff_parts if p.name == name), None) if course else None
    if part is not None and part.description:
        return words.description_title(_, part.description)
    return words.staff_title(_, name)


def order(course: CourseView) -> list[tuple[str, str | None]]:
    """(source name, function or staff part it presents, or None) in handout order."""
    out: list[tuple[str, str | None]] = [(s, None) for s in FRONT]
    names = course.names
    costs = [n for n in names if course.group(n) == "costs"]
    out += [("costs", None)] + [(n, n) for n in costs]  # the definitions, graded or not
    out += [(n, n) for n in DEFINITIONS if n not in costs
            and (course.data.suppression != "delete" or n == "cost_LM")]  # the lab's LM only
    out.append(("ties", None))
    measures_done = False
    for name in names:
        group = course.group(name)
        if group == "costs":
            continue
        if group == "measures":
            if not measures_done:
                out += [("measures", None)] + [(n, n) for n in names
                                               if course.group(n) == "measures"]
                measures_done = True
            continue
        out.append((OWN if course.function(name).own else name, name))
    for s in BACK:
        if s != "command-line" or course.anonymizers:
            out.append((s, None))
        if s == "command-line" and course.own_functions:
            out.append((COMMANDS, None))
    out += [("report" if p.name == "report" else "staff-part", p.name)
            for p in course.staff_parts]
    out += [(s, None) for s in END if s != "beyond" or "measures" in course.features]
    return [(s, subject) for s, subject in out  # a course's empty override leaves it out
            if (found := course_override(course, s, subject)) is None or found[1].strip()]


def _title(course: CourseView, source: str, subject: str | None,
           _: words.Translate = str) -> str:
    if source == COMMANDS:
        source = "command-line"
    return heading(course, subject, _) if subject else words.titles(_).get(source, source)


def fields(course: CourseView, sources: Path = SOURCES) -> dict[str, str]:
    """The values of the sources' {{fields}} that do not depend on the section (`sources`:
    the handout's section sources, for the included ones), in the course's language."""
    _ = tr(course.language)
    values: dict[str, str] = {}
    entries = order(course)
    for source, subject in entries:
        if source == "intro":
            continue
        title, shown = _title(course, source, subject), _title(course, source, subject, _)
        values[f"ref.{subject or source}"] = f"[{subject or shown}](#{anchor(title)})"
        values[f"anchor.{subject or source}"] = anchor(title)
    values["contents"] = " · ".join(
        f"[{_contents_name(course, s, subject, _)}](#{anchor(_title(course, s, subject))})"
        for s, subject in entries
        if s not in ("intro", "time-limits") and course.group(subject or "") is None
        and (s != COMMANDS or not course.anonymizers))
    values["points_table"] = _points_table(course, _)
    values["time_table"] = _time_table(course, _)
    values["function_count"] = words.function_count(_, len(course.functions))
    values["total"] = points_text(course.total)
    values["packages"] = words.packages_text(_, course)
    values["packages_rule"] = words.packages_rule(_, course)
    titles = [_staff_title(p.name, _, course) for p in course.staff_parts]
    values["staff_list"] = (", ".join(t.lower() for t in titles) if course.language == "en"
                            else _(", ").join(titles))  # titles keep their case outside English
    values["import_limit"] = points_text(course.import_time_limit)
    values["memory"] = (f"{points_text(course.memory_mb / 1024)} GB" if course.memory_mb >= 1024
                        else f"{course.memory_mb} MB")
    values["file_size"] = f"{course.file_size_mb} MB"
    values["tolerance"] = re.sub(r"e([+-])0*(\d)", r"e\1\2", f"{course.cost_tolerance:g}")
    values["partial_credit"] = (_("half") if course.partial_credit == 0.5
                                else f"{course.partial_credit * 100:g}%")
    anonymizers = course.anonymizers
    values["cli_algorithms"] = _listing(_, [CLI_NAMES[f.name] for f in anonymizers], _("or"))
    values["cli_sixth"] = "; ".join(
        _("{param} for {algorithm} (default {default})").format(
            param=SIXTH[f.name][0], algorithm=CLI_NAMES[f.name], default=SIXTH[f.name][1])
        for f in anonymizers if f.name in SIXTH) or _("none: no graded anonymizer takes one")
    writers = [n for n in course.names if n in INTERVAL_WRITERS]
    values["interval_writers"] = (_("only {names} writes") if len(writers) == 1 else
                                  _("only {names} write")).format(
        names=_listing(_, writers, _("and")))
    values["markers"] = ", ".join(f.marker for f in course.functions)
    values["pytest_k_lines"] = pytest_k_lines(course, _)
    values["measure_list"] = _listing(_, [n for n in course.names
                                         if course.group(n) == "measures"], _("and"))
    values["anonymizer_list"] = _listing(_, [f.name for f in anonymizers], _("and"))
    sixth = [SIXTH[f.name][0] for f in anonymizers if f.name in SIXTH]
    values["cli_sixth_usage"] = f" [{' | '.join(sixth)}]" if sixth else ""
    values["cli_examples"] = cli_examples(course)
    values["dgh_folders"] = dgh_folder_list(course, _)
    values["int_rule"] = int_rule(course, _)
    values["include.lattice"] = section_text(sources / "_lattice.md", course.language).rstrip()
    values["graded_list"] = _listing(_, course.names, _("and"))
    values["submission_files"] = _submission_files(course, _)
    values.update(own_fields(course, _))
    values.update(data_fields(course, _))
    return values


def _file_order(columns: tuple[str, ...] | list[str], qis: tuple[str, ...]) -> list[str]:
    """The QIs in the dataset's column order (as the handout says they are), else as given."""
    ordered = [c for c in columns if c in qis]
    return ordered if len(ordered) == len(qis) else list(qis)


def data_fields(course: CourseView, _: words.Translate = str) -> dict[str, str]:
    """`data.rows` / `.columns` / `.sensitive`, `qis.<function>`, `released.<function>`,
    `optional.<part name or function>.points` / `.qis` / `.released` / `.title`."""
    d = course.data
    values = {"data.rows": f"{d.rows:,}", "data.columns": _listing(_, list(d.columns), _("and")),
              "data.sensitive": f"`{d.sensitive}`" if d.sensitive else ""}
    for f in course.functions:
        if f.qis is not None:
            values[f"qis.{f.name}"] = _listing(_, _file_order(d.columns, f.qis), _("and"))
            values[f"released.{f.name}"] = _listing(_, d.released(f.qis), _("and"))
    for o in course.optional_parts:
        keys = [o.name] + ([o.function] if o.function else [])
        for key in keys:
            values[f"optional.{key}.points"] = words.points(_, o.points)
            values[f"optional.{key}.title"] = (_staff_title(o.name, _, course) if not o.function
                                               else o.name)
            if o.qis is not None:
                values[f"optional.{key}.qis"] = _listing(_, _file_order(d.columns, o.qis),
                                                         _("and"))
                values[f"optional.{key}.released"] = _listing(_, d.released(o.qis), _("and"))
    return values


def _part_fields(course: CourseView, name: str) -> dict[str, str]:
    """The {{part.*}} fields of a staff part's section."""
    _ = tr(course.language)
    part = next(p for p in course.staff_parts if p.name == name)
    _title_, _sep, text = part.description.partition(": ")
    pages = ((_("at most {n} page") if part.max_pages == 1 else _("at most {n} pages"))
             .format(n=part.max_pages) if part.max_pages else _("no page limit"))
    return {"part.files": _listing(_, list(part.files) or [_("a file")], _("or")),
            "part.max_pages": pages,
            "part.pages_check": _(" (a PDF keeps to {pages})").format(pages=pages)
            if part.max_pages else "",
            "part.text": _(text.strip()) if text.strip() else ""}


def _part_features(course: CourseView, name: str) -> frozenset[str]:
    """Tokens of the staff part a section presents: `this:files` (it names files to hand
    in), `this:described` (its description says what it holds), `this:optional`,
    `this:pages` (a page limit)."""
    part = next(p for p in course.staff_parts if p.name == name)
    _title_, _sep, text = part.description.partition(": ")
    return frozenset(t for t, on in (("this:files", bool(part.files)),
                                     ("this:described", bool(text.strip())),
                                     ("this:optional", part.optional),
                                     ("this:pages", part.max_pages is not None)) if on)


def _contents_name(course: CourseView, source: str, subject: str | None,
                   _: words.Translate = str) -> str:
    """A function's name, a staff part's title ('The report'), else the section's title."""
    if subject in course.names:
        return subject
    return _staff_title(subject, _, course) if subject else _title(course, source, subject, _)


def _points_table(course: CourseView, _: words.Translate = str) -> str:
    """Every part and its points; with optional parts, the required ones first (their sum),
    then the optional ones, marked so (their sum), then the total."""
    rows = [_("| Part | Points |"), "| --- | ---: |"]
    for f in course.functions:
        variant = f" ({words.variant_title(_, f.variant)})" if f.variant else ""
        rows.append(f"| [`{f.name}`](#{anchor(heading(course, f.name))}){variant} "
                    f"| {points_text(f.points)} |")
    for p in course.staff_parts:
        if not p.optional:
            rows.append(_staff_row(course, p.name, _))
    if course.optional_parts:
        rows.append(_("| **Required** | **{points}** |").format(
            points=points_text(course.required)))
        for o in course.optional_parts:
            if o.function:
                label = _("`{function}` (part {name})").format(function=o.function,
                                                                 name=o.name)
                rows.append(f"| [{label}](#{anchor(heading(course, o.function))}) "
                            + _("(optional, graded by the grader)")
                            + f" | {points_text(o.points)} |")
            else:
                rows.append(_staff_row(course, o.name, _))
        rows.append(_("| **Optional** | **{points}** |").format(
            points=points_text(course.total - course.required)))
    rows.append(_("| **Total** | **{total}** |").format(total=points_text(course.total)))
    return "\n".join(rows)


def _staff_row(course: CourseView, name: str, _: words.Translate) -> str:
    part = next(p for p in course.staff_parts if p.name == name)
    mark = (_("(optional, graded by course staff)") if part.optional
            else _("(graded by course staff)"))
    return (f"| [{_staff_title(name, _, course)}](#{anchor(heading(course, name))}) {mark} "
            f"| {points_text(part.points)} |")


def _time_table(course: CourseView, _: words.Translate = str) -> str:
    groups: dict[object, list[str]] = {}
    for f in course.functions:
        groups.setdefault(f.time, []).append(f.name)
    rows = [_("| Function | CPU-time limit per call | on `adult-hw1.csv` (9,999 rows) |")
            if course.data.rows == ADULT_ROWS else
            _("| Function | CPU-time limit per call | on `adult-hw1.csv` ({rows} rows) |").format(
                rows=f"{course.data.rows:,}"), "| --- | --- | ---: |"]
    for rule, names in groups.items():
        rows.append(f"| {_(', ').join(f'`{n}`' for n in names)} | {words.time_rule(_, rule)} "
                    f"| " + _("{n} s").format(n=points_text(rule.on(course.data.rows))) + " |")
    return "\n".join(rows)


def _submission_files(course: CourseView, _: words.Translate = str) -> str:
    """skeleton.py and each staff part's file, a glob `*.pdf` named after the part."""
    names = ["skeleton.py"]
    for part in course.staff_parts:
        if part.files:
            glob = part.files[0]
            names.append(f"{part.name}{glob[1:]}" if glob.startswith("*.") else glob)
    return _listing(_, names, _("and"))


def _meta(course: CourseView, name: str) -> str:
    _ = tr(course.language)
    f = course.function(name)
    return _("*{points} · CPU-time limit per call: {rule} ({on} s on `adult-hw1.csv`) · "
             "packages: {packages}.*").format(
        points=words.points(_, f.points), rule=words.time_rule(_, f.time),
        on=points_text(f.time.on(course.data.rows)), packages=words.packages_text(_, course))


def render_handout(course: CourseView, sources: Path = SOURCES) -> str:
    """The whole HANDOUT.md of `course`."""
    values = fields(course, sources)
    features = course.features
    chunks: list[str] = []
    _ = tr(course.language)
    for source, subject in order(course):
        if source == OWN:  # the course's own section, in its language already
            path = own_section(course, subject)
            text = path.read_text(encoding="utf-8")
        elif (replaced := course_override(course, source, subject)) is not None:
            path, text = replaced  # the course's own words for a kit section (order()
            # has left out those it empties)
        else:
            path = sources / f"{source}.md"
            text = section_text(path, course.language)
        local = dict(values)
        here = features
        if subject:
            level = "###" if course.group(subject) else "##"
            local["heading"] = heading(course, subject, _)
            local["name"] = subject
            lines = [f"{level} {heading(course, subject, _)}"
                     f"{words.anchor_tag(course.language, heading(course, subject))}", ""]
            if subject in course.names:
                local["meta"] = _meta(course, subject)
                if source == OWN:
                    local["points"] = words.points(_, course.function(subject).points)
                    local["signature"] = signature(course, subject)
            elif subject not in DEFINITIONS:
                local.update(_part_fields(course, subject))
                here = features | _part_features(course, subject)
            text = "\n".join(lines) + "\n" + text
        chunk = render(text, here, local, f"{path.parent.name}/{path.name}").strip("\n")
        chunks.append(_anchored(chunk, course.language, TITLES.get(source)))
    return re.sub(r"\n{3,}", "\n\n", reflow("\n\n".join(chunks))) + "\n"


def _anchored(chunk: str, language: str, title: str | None) -> str:
    """A translated section whose own heading lacks its English anchor, given it (so the
    links to `#ties` and the like hold in every language)."""
    first, sep, rest = chunk.partition("\n")
    if title is None or language == "en" or not first.startswith("#") or "<a id=" in first:
        return chunk
    return first + words.anchor_tag(language, title) + sep + rest
