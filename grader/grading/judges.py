"""The judges, one strategy per name of grader.parts.JUDGES, behind one interface: the
verdict on what a call returned (a number) or wrote (a table's bytes).

- exact: the reference's one output (grader.grading.compare: a table's rows and cells, a
  number within the course's cost tolerance);
- rules: a named rule set of kcheck/rules (grader.grading.rules_judge);
- quality: kcheck.quality (a valid generalization, every class of at least k records, a
  utility no worse than the reference's seeded runs allow: the case's stored band);
- number: kcheck.number (within the course's tolerance of the reference's value).

An exact or rules verdict keeps its message as a kcheck.text Message (`ref`: its id and
parameters), a verdict of quality or number as a kcheck verdict (`ref`: rule, row, column),
rendered in English for the record and in the course's language for the student
(grader.gradebook renders it with kcheck.messages): a hidden case's shows the rule's name,
its row and its column only.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Protocol

from kanon.schema import Schema

from ..contract import DGH_DIR, RAW_FILE
from . import compare, rules_judge
from .compare import CaseData
from .expected import Expected

__all__ = ["Verdict", "CaseInput", "Judge", "JUDGES", "message_ref", "render_ref"]


@dataclass(frozen=True)
class Verdict:
    """A judge's decision: "passed", "partial" or "wrong", its English sentence, and for the
    kcheck judges the message as data (`ref`: rule, row, column, detail, params)."""

    status: str
    message: str
    ref: dict = field(default_factory=dict, hash=False)


@dataclass(frozen=True)
class CaseInput:
    """What a judge may read of a case: the function, its arguments, hidden or not, the
    stored expectation, the course's tolerance, the case's data folder (raw file and DGHs),
    its QIs and the course's schema; `data` the core's reading of it (exact and rules)."""

    function: str
    ints: dict
    hidden: bool
    expected: Expected
    tolerance: float
    inputs: Path | None = None
    qis: tuple[str, ...] = ()
    schema: Schema = Schema()
    data: CaseData | None = None


class Judge(Protocol):
    hidden_summary: bool

    def table(self, produced: bytes, case: CaseInput) -> Verdict: ...

    def number(self, value: float, case: CaseInput) -> Verdict: ...


def message_ref(verdict, facts=None, band_max: float | None = None) -> dict:
    """A kcheck verdict as plain data (what the record keeps to render it again): the rule,
    row, column, detail and parameters; for a quality judgement the facts measured and the
    band's top."""
    ref = {"rule": verdict.rule, "row": verdict.row, "column": verdict.column,
           "detail": verdict.detail, "params": dict(verdict.params)}
    if facts is not None and facts.classes is not None:
        ref["facts"] = {"classes": facts.classes, "smallest": facts.smallest,
                        "cost": facts.cost, "metric": facts.metric}
    if band_max is not None:
        ref["band_max"] = band_max
    return ref


def render_ref(ref: dict, language: str = "en", hidden: bool = False) -> str:
    """A kcheck judge's message in `language`: the verdict, then (public cases only) what
    was measured. A hidden case's shows the rule's name, row and column only."""
    from kcheck.messages import render, render_facts
    from kcheck.verdicts import Verdict as KVerdict
    verdict = KVerdict("passed" if ref["rule"] == "passed" else "wrong", ref["rule"],
                       ref.get("row"), ref.get("column"), dict(ref.get("params") or {}),
                       ref.get("detail") or "")
    text = render(verdict, language, hidden=hidden and not verdict.ok)  # passed: no data
    facts = ref.get("facts")
    if hidden or not facts:
        return text
    measured = render_facts(facts["classes"], facts["smallest"], facts["cost"],
                            facts.get("metric", "ncp"), language)
    return f"{text} {measured}".strip()


def _kcheck_verdict(verdict, hidden: bool, facts=None,
                    band_max: float | None = None) -> Verdict:
    ref = message_ref(verdict, facts, band_max)
    return Verdict("passed" if verdict.ok else "wrong", render_ref(ref, "en", hidden), ref)


def _exact(verdict: compare.Verdict) -> Verdict:
    """The exact judge's verdict, its message kept as data (kcheck.text) when it has one."""
    return Verdict(verdict.status, verdict.message,
                   verdict.said.to_json() if verdict.said is not None else {})


class Exact:
    """The reference's one output."""

    hidden_summary = True
    """Whether a hidden case's feedback may carry the output's privacy summary (the counts
    of its classes: grader/grading/privacy_summary.py)."""

    def table(self, produced: bytes, case: CaseInput) -> Verdict:
        return _exact(compare.compare_table(produced, case.expected.path, case.data,
                                            case.function, case.ints, case.hidden))

    def number(self, value: float, case: CaseInput) -> Verdict:
        return _exact(compare.compare_cost(value, case.expected.value, case.tolerance))


class Rules(Exact):
    """A named rule set of kcheck/rules (the function's)."""

    hidden_summary = False  # a hidden case: the broken rules' names, rows and columns only

    def table(self, produced: bytes, case: CaseInput) -> Verdict:
        return _exact(rules_judge.judge_by_rules(produced, case.data, case.function,
                                                 case.ints, case.hidden))


class Quality(Exact):
    """Any valid, k-anonymous generalization whose utility is within the stored band."""

    def table(self, produced: bytes, case: CaseInput) -> Verdict:
        from kcheck.quality import judge_prepared
        schema = case.schema
        released = (None if schema.other_columns == "keep" else
                    tuple(case.qis) + ((schema.sensitive,) if schema.sensitive else ()))
        raw = _prepared(case.inputs, tuple(case.qis), schema.numeric, released,
                        schema.hierarchy_format)
        result = judge_prepared(raw, produced, k=int(case.ints["k"]),
                                band_max=case.expected.value)
        return _kcheck_verdict(result.verdict, case.hidden, result.facts,
                               case.expected.value)


@lru_cache(maxsize=16)
def _prepared(folder: Path, qis: tuple[str, ...], numeric: tuple[str, ...],
              released: tuple[str, ...] | None, fmt: str):
    """A case's raw side read and checked once per grader process (every student's output
    of the case is judged against it)."""
    from kcheck.hierarchies import read_folder
    from kcheck.quality import prepare_raw
    return prepare_raw(folder / RAW_FILE, read_folder(folder / DGH_DIR, fmt), qis=qis,
                       numeric=numeric,
                       released=released if released is not None else
                       _header(folder / RAW_FILE))


class Number(Exact):
    """A returned number within the course's tolerance of the reference's."""

    def number(self, value: float, case: CaseInput) -> Verdict:
        from kcheck.number import judge_number
        expected = case.expected.value  # the tolerance is relative, as the exact judge's
        tolerance = case.tolerance * max(1.0, abs(expected))
        return _kcheck_verdict(judge_number(value, expected, tolerance), case.hidden)


def _header(raw: Path) -> list[str]:
    import csv
    with raw.open(encoding="utf-8-sig", newline="") as f:
        return next(csv.reader(f))


JUDGES: dict[str, Judge] = {"exact": Exact(), "rules": Rules(), "quality": Quality(),
                            "number": Number()}
