"""A rubric as graded in the term recorded by its cases folder (grader/authoring/terms.py).

`python -m grader regen --course DIR --term NAME` writes into the course's
cases/manifest.json a `term` record:

    "term": {"name": "Fall 2026", "seed": "<16 hex digits>",
             "rows": {"hidden/ties": 38, ...},                  # each term dataset's size
             "cases": {"<case identity>": {"k": 18, "s": 2}}}    # the term's arguments

`apply_term(rubric)` gives the rubric the grader uses: every case on a term dataset takes the
recorded arguments instead of the rubric's, and its name (and so its id) is rendered with the
term's values, so "ties, k=35 (n=36)" is shown as "ties, k=37 (n=38)": what a student or TA
reads is true of the dataset graded. A manifest without `term` (the default, `regen` without
--term) leaves the rubric as it is. Grading, `check` and the Gradescope zip all go through
here; the resume cache follows the manifest's hash, so a new term regrades everyone.
"""
from __future__ import annotations

import re
from dataclasses import replace

from kanon.files import safe_name

from ..errors import UserError
from ..rubric import Case, Rubric
from .expected import load_manifest

_TOKEN = re.compile(r"(?<!\w)(k|l|s|max_sup|n)=(\d+)(?!\w)")


def case_ident(case: Case) -> str:
    """What identifies a case's arguments across rubrics sharing a cases folder (the manifest
    key of its term arguments): function, variant, data, anonymized input, rubric's ints."""
    ints = ",".join(f"{k}={v}" for k, v in sorted(case.ints.items()))
    function = f"{case.function}/{case.variant}" if case.variant else case.function
    return f"{function} {case.data} {case.anonymized or '-'} {ints or '-'}"


def render_name(name: str, ints: dict, rows: int) -> str:
    """`name` with every "k=", "l=", "s=", "max_sup=" number replaced by the case's value
    and every "n=" number by the dataset's rows ("k=n=31" becomes "k=n=34")."""
    def value(m: re.Match) -> str:
        key = m.group(1)
        new = rows if key == "n" else ints.get(key, m.group(2))
        return f"{key}={new}"
    return _TOKEN.sub(value, name)


def term_case(case: Case, term: dict, ints: dict | None = None) -> Case:
    """`case` as graded in `term` (a manifest's term record), with `ints` when given, else
    the recorded arguments; unchanged when its data is not a term dataset."""
    rows = term.get("rows", {}).get(case.data)
    if rows is None:
        return case
    ints = dict(ints if ints is not None else term.get("cases", {}).get(case_ident(case),
                                                                        case.ints))
    name = render_name(case.name, ints, rows)
    return replace(case, ints=ints, name=name, id=f"{case.part}/{safe_name(name)}")


def with_term(rubric: Rubric, term: dict | None) -> Rubric:
    """The rubric graded in `term` (see the module docstring); `rubric` when term is None."""
    if rubric.term_applied:
        return rubric
    if term is None or rubric.term is not None:
        return replace(rubric, term_applied=True)
    parts = [replace(p, cases=[term_case(c, term) for c in p.cases]) for p in rubric.parts]
    ids = [c.id for p in parts for c in p.cases]
    for cid in ids:
        if ids.count(cid) > 1:
            raise UserError(f"term {term['name']!r}: two cases of {rubric.path.name} become "
                            f"{cid!r}; regenerate with another --term")
    return replace(rubric, parts=parts, term=str(term["name"]), term_applied=True)


def term_record(rubric: Rubric) -> dict | None:
    """The term recorded in the rubric's cases folder, None for the default term."""
    return load_manifest(rubric.cases_dir).get("term")


def apply_term(rubric: Rubric) -> Rubric:
    """The rubric as graded with its cases folder's term (idempotent: a rubric it gave is
    returned as it is, its manifest not read again)."""
    if rubric.term_applied:
        return rubric
    return with_term(rubric, term_record(rubric))
