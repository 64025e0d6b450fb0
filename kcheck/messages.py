"""Verdicts in words: kcheck.text Messages, one English template per rule (the catalog's
msgid; kcheck/locale holds each language's translation, read through kcheck.text.catalog).

`verdict_message(verdict)` is "<where>: <text>": where = the data row and the column at fault
(when the verdict has them), text = the rule's template (its variant for `detail`) filled with
the verdict's parameters. `verdict_message(..., hidden=True)` (a hidden case) shows only the
broken rule's name, the row number and the column name: no parameter is read, so no value,
label, range, cost or count computed from the data can show. Parameters are shown as they
are (a student's text is never altered, `Verbatim`): a list is joined with the catalog's
separator (", ", "、" in Chinese), each item in backticks; a float with 10 significant digits.
`facts_message(...)` words the measured facts of a quality judgement.

`finding_message(finding)` words a check's `Finding` (kcheck.checks, kcheck.compare: the
self-check's sentences) with the "checks" templates: a cell, a raw value and a header quoted
as Python's repr quotes them, a list of data rows as "data rows 3, 17 (the header is not
counted)", `{where}` as the output's data row and column, `{counted}` as that remark.

`render(verdict, language, hidden)`, `render_facts(...)` and `say(finding, language)` are
those messages in a language of LANGUAGES (kcheck.text.say).
"""
from __future__ import annotations

import re
from typing import Any

from . import text
from .text import LIST, N_, Joined, Message, Param, Verbatim
from .verdicts import Finding, Verdict

__all__ = ["LANGUAGES", "NAMES", "TEXTS", "CHECKS", "SEPARATOR", "template_keys",
           "where_message", "verdict_message", "facts_message", "finding_message", "render",
           "render_facts", "say"]

LANGUAGES = ("en", "zh-CN")

SEPARATOR = LIST
"""A list's separator ("、" in Chinese)."""

NAMES: dict[str, str] = {
    "passed": N_("all rules hold"),
    "quality.file": N_("the output is a readable CSV file"),
    "quality.columns": N_("the output has exactly the released columns, in the raw file's "
                          "order"),
    "quality.rows": N_("one output row per raw record"),
    "quality.cell": N_("every QI cell is a label of its hierarchy, or a number or a range "
                       "`[lo-hi]`"),
    "quality.copy": N_("the sensitive attribute (any released column that is not a QI) is "
                       "copied unchanged"),
    "quality.cover": N_("every QI cell covers its raw value"),
    "quality.middle": N_("every equivalence class is generalized to its middle (the range or "
                         "the lowest common ancestor of its raw values)"),
    "quality.k": N_("every equivalence class has at least k records"),
    "quality.utility": N_("the information loss is within the allowed limit"),
    "number.type": N_("the result is a number"),
    "number.off": N_("the result is within the tolerance of the expected value"),
}
"""Each rule's name (what a hidden case's message shows)."""

TEXTS: dict[str, str] = {
    "passed": N_("all rules hold."),
    "quality.file/missing": N_("the output file was not written."),
    "quality.file/encoding": N_("the output is not UTF-8 text (a bad byte at offset {byte})."),
    "quality.file/csv": N_("the output is not a readable CSV file."),
    "quality.file/empty": N_("the output file is empty; its first row must name the columns."),
    "quality.file/duplicate": N_("the column name `{name}` appears twice in the output's "
                                 "header."),
    "quality.file/width": N_("the row has {cells} cells, the header has {columns} columns."),
    "quality.columns": N_("the output's columns are {found}; they must be exactly {expected} "
                          "(the released columns, in the raw file's order)."),
    "quality.rows": N_("the output has {found} data rows, the raw file has {expected}; write "
                       "one row per raw record, in the raw file's order."),
    "quality.cell/label": N_("`{cell}` is not a label of the column's hierarchy."),
    "quality.cell/number": N_("`{cell}` is neither a number nor a range `[lo-hi]`."),
    "quality.cell/range": N_("the range `{cell}` needs lo < hi (a range of one value is "
                             "written as the value)."),
    "quality.copy": N_("`{cell}` differs from the raw value `{raw}`; the sensitive attribute "
                       "and any other released column that is not a QI are copied "
                       "unchanged."),
    "quality.cover": N_("`{cell}` does not cover the raw value `{raw}`."),
    "quality.middle": N_("the row's equivalence class (size {size}) has `{cell}`, but the "
                         "class's middle (the range of its raw values, or their lowest common "
                         "ancestor) is `{middle}`."),
    "quality.k": N_("the row's equivalence class has size {size}, less than k = {k}."),
    "quality.utility": N_("the table's {metric} is {cost}, above the allowed {band_max}."),
    "number.type": N_("the result `{value}` (of type `{type}`) is not a number."),
    "number.off": N_("the result is {value}; the expected value is {expected} (tolerance "
                     "{tolerance})."),
}
"""Each rule's text by `template_keys(rule, detail)`, its fields the verdict's parameters."""

WHERE: dict[str, str] = {
    "row_column": N_("data row {row}, column `{column}`"),
    "row": N_("data row {row}"),
    "column": N_("column `{column}`"),
}
FULL = N_("{where}: {text}")
HIDDEN = N_("{where}: the rule “{name}” is broken.")
HIDDEN_BARE = N_("the rule “{name}” is broken.")
FACTS = N_("equivalence classes: {classes}, the smallest of size {smallest}; {metric}: {cost}.")

COUNTED = N_("(the header is not counted)")
ROW = N_("data row {rows}{more} {counted}")
ROWS = N_("data rows {rows}{more} {counted}")
MORE = N_(", ... ({count} rows)")
WHERE_OUTPUT = N_("output data row {row} {counted}, column {column}")
CHECKS: dict[str, str] = {
    "valid.header": N_("the output header is {header}, expected the raw file's header {raw}"),
    "valid.rows": N_("the output has {rows} data rows, the raw file has {raw} (one output row "
                     "per raw row, in the same order)"),
    "valid.width": N_("output data row {row} {counted} has {cells} cells, the header has "
                      "{header}"),
    "valid.copy": N_("{where}: non-QI cells must not change, got {cell} for the raw value "
                     "{value} (are the rows in their original order?)"),
    "valid.ancestor": N_("{where}: {cell} is neither the raw value {value} nor one of its "
                         "ancestors in DGHs/{column}.txt (are the rows in their original "
                         "order?)"),
    "valid.label": N_("{where}: {cell} is not a label of DGHs/{column}.txt"),
    "valid.interval_or_label": N_("{where}: {cell} is not an interval [lo-hi] or a label of "
                                  "DGHs/{column}.txt"),
    "valid.interval": N_("{where}: interval {cell} must have lo < hi and contain the raw value "
                         "{value}"),
    "k": N_("the EC of {rows} has {count} row(s), needs k = {k}"),
    "l": N_("the EC of {rows} has {count} distinct {name}, needs l = {l}"),
    "suppressed": N_("{count} rows are suppressed ({rows}), more than max_sup = {max_sup}, "
                     "and they are fewer than k = {k}"),
    "difference": N_("{where} (raw value {raw}): expected {expected}, got {got}; {differing} "
                     "of {rows} rows differ"),
}
"""Each check's sentence by its Finding's `message` key."""

_QUOTED = {"raw": False, "value": False, "expected": False, "cell": True, "got": True,
           "header": True}
"""A finding's fields whose text (a cell, a header) is shown as Python's repr quotes it, and
whether that text is the student's (`Verbatim`) rather than the raw data's."""


def template_keys(rule: str, detail: str = "") -> str:
    """The key in TEXTS of a rule's text (its variant when `detail` is given)."""
    return f"{rule}/{detail}" if detail else rule


def _language(language: str) -> str:
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r} (choose one of: "
                         f"{', '.join(LANGUAGES)})")
    return language


def _value(value: Any) -> Param:
    """A verdict's parameter as shown: a list joined, each item in backticks; a float with 10
    significant digits (35986.87432); a text as it is."""
    if isinstance(value, (list, tuple)):
        return Joined([Verbatim(f"`{item}`") for item in value], SEPARATOR)
    if isinstance(value, float):
        return format(value, ".10g")
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return Verbatim(str(value))


def where_message(row: int | None = None, column: str | None = None) -> Message | None:
    """"data row 3, column `age`" (either part alone when the other is None); None for
    neither."""
    if row is not None and column is not None:
        return Message(WHERE["row_column"], row=row, column=column)
    if row is not None:
        return Message(WHERE["row"], row=row)
    if column is not None:
        return Message(WHERE["column"], column=column)
    return None


def verdict_message(verdict: Verdict, hidden: bool = False) -> Message:
    """The verdict as a Message (module docstring); `hidden` reads no parameter."""
    where = where_message(verdict.row, verdict.column)
    if hidden and verdict.rule == "passed":
        return Message(TEXTS["passed"])
    if hidden:
        name = Message(NAMES[verdict.rule])
        return Message(HIDDEN, where=where, name=name) if where else \
            Message(HIDDEN_BARE, name=name)
    template = TEXTS[template_keys(verdict.rule, verdict.detail)]
    said = Message(template, {key: _value(value) for key, value in verdict.params.items()
                              if key in _fields(template)})
    return Message(FULL, where=where, text=said) if where else said


def render(verdict: Verdict, language: str = "en", hidden: bool = False) -> str:
    """The verdict in `language` (module docstring); `hidden` shows no data."""
    return text.say(verdict_message(verdict, hidden), _language(language))


def facts_message(classes: int | None, smallest: int | None, cost: float | None,
                  metric: str = "ncp", hidden: bool = False) -> Message | None:
    """The measured facts of a quality judgement; None for a hidden case or when they were
    not measured (the output broke a rule before the classes could be formed)."""
    if hidden or classes is None or smallest is None or cost is None:
        return None
    return Message(FACTS, classes=classes, smallest=smallest, metric=metric.upper(),
                   cost=format(float(cost), ".10g"))


def render_facts(classes: int | None, smallest: int | None, cost: float | None,
                 metric: str = "ncp", language: str = "en", hidden: bool = False) -> str:
    """`facts_message` in `language`; "" when there is none."""
    said = facts_message(classes, smallest, cost, metric, hidden)
    return "" if said is None else text.say(said, _language(language))


def _rows(rows: list[int], limit: int = 8) -> Message:
    """"data rows 3, 17 (the header is not counted)", shortened after `limit` rows."""
    more: Param = Message(MORE, count=len(rows)) if len(rows) > limit else ""
    return Message(ROWS if len(rows) > 1 else ROW, rows=Joined(rows[:limit], SEPARATOR),
                   more=more, counted=Message(COUNTED))


def _quoted(name: str, value: Any) -> Param:
    if name in _QUOTED and isinstance(value, (str, list, tuple)):
        return Verbatim(repr(value)) if _QUOTED[name] else repr(value)
    if name == "rows" and isinstance(value, list):
        return _rows(value)
    return value


def finding_message(finding: Finding) -> Message:
    """A check's finding as a Message (module docstring)."""
    template = CHECKS[finding.message]
    fields = _fields(template)
    params = {name: _quoted(name, value) for name, value in finding.params.items()
              if name in fields}
    if "counted" in fields:
        params["counted"] = Message(COUNTED)
    if "where" in fields:
        params["where"] = Message(WHERE_OUTPUT, row=finding.params["row"],
                                  counted=Message(COUNTED),
                                  column=repr(finding.params["column"]))
    return Message(template, params)


def say(finding: Finding, language: str = "en") -> str:
    """A check's finding in `language` (module docstring)."""
    return text.say(finding_message(finding), _language(language))


def _fields(template: str) -> set[str]:
    return set(_FIELD.findall(template))


_FIELD = re.compile(r"\{(\w+)\}")
