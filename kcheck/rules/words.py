"""The rule checkers' messages: `phrase(key, hidden, **params)` is the kcheck.text Message of
the rule template `key` (TEMPLATES: its id the English template, the msgid of kcheck's
catalog, so the grader keeps it in its record and the self-check renders it, both through
kcheck.po), and `render(message, language)` its sentence in a language of LANGUAGES.

A parameter is shown as the template's field needs it (`_SHOWN`, by the parameter's name): a
cell or the header of the student's output is a `Verbatim`; a column name, raw value, label
or expected cell of the course's data its repr (`qi`, a column named before a colon, as it
is); a nested message as it is; a tuple of messages a `Joined` list with "; "; a list of
numbers (`numbers`: data rows, levels) a `Joined` list with ", " (both separators
translated: ； and 、 in Chinese). A template's field is the parameter of that name; its `told`
field is the message of the template "told" with the same parameters.

A hidden case's messages use the templates ending in "/hidden" and carry no cell value,
label, range bound or header (`phrase(..., hidden=True)` drops the SECRET parameters): what a
hidden case shows is only row numbers, column names, counts, vectors and levels.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from ..text import LIST, Joined, Message, N_, Param, Verbatim, say

__all__ = ["LANGUAGES", "SECRET", "TEMPLATES", "KEYS", "phrase", "render", "numbers"]

LANGUAGES = ("en", "zh-CN")
SECRET = frozenset({"cell", "raw", "label", "expected", "roots", "bound", "header"})
"""Parameters that hold the data itself: never kept in a hidden case's message."""
_REASONS = N_("; ")
_FIELD = re.compile(r"\{(\w+)\}")


def phrase(key: str, hidden: bool = False, **params: Any) -> Message:
    """The message of template `key` ("<key>/hidden", without the SECRET parameters, when
    `hidden`); ValueError for an unknown key or a missing parameter."""
    if hidden:
        key += "/hidden"
        params = {name: value for name, value in params.items() if name not in SECRET}
    if key not in TEMPLATES:
        raise ValueError(f"no rule message {key!r}")
    return _message(key, params)


def render(words: Message, language: str = "en") -> str:
    """The message in `language` (ValueError for a language without a catalog)."""
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r} (choose one of: "
                         f"{', '.join(LANGUAGES)})")
    return say(words, language)


def numbers(values: Sequence[int], limit: int | None = None) -> Joined:
    """The numbers as a list ("3, 8, 9" in English, "3、8、9" in Chinese); at most `limit` of
    them, then "..."."""
    shown: list[Param] = [int(n) for n in values[:limit]]
    if limit is not None and len(values) > limit:
        shown.append("...")
    return Joined(shown, LIST)


def _message(key: str, params: dict[str, Any]) -> Message:
    base = key.removesuffix("/hidden")
    template, values = TEMPLATES[key], {}
    for field in _FIELD.findall(template):
        if field == "told":  # a part of its own: "told" or "told/hidden"
            values[field] = _message(field + key[len(base):], params)
            continue
        if field not in params:
            raise ValueError(f"rule message {key!r}: no value for {field}")
        values[field] = _SHOWN.get(field, _plain)(params[field])
    return Message(template, values)


def _plain(value: Any) -> Param:
    """A tuple of messages joined with "; ", a list (column names) as Python shows it,
    anything else as it is."""
    if isinstance(value, tuple) and value and all(isinstance(v, Message) for v in value):
        return Joined(value, _REASONS)
    if isinstance(value, list):
        return str(value)
    return value


_SHOWN: dict[str, Callable[[Any], Param]] = {
    "cell": lambda cell: Verbatim(repr(cell)),
    "header": lambda header: Verbatim(str(header)),
    "column": repr, "raw": repr, "label": repr, "expected": repr,
    "bound": lambda bound: f"<= {bound}",
}
"""parameter -> how a message shows it (any other: `_plain`)."""

TEMPLATES: dict[str, str] = {
    # where a cell is
    "at.row_column": N_("data row {row}, column {column}: {detail}"),
    "at.output_row_column": N_("data row {row} of the output, column {column}: {detail}"),
    # columns and rows
    "header": N_("the header is {header}, but the released columns are {columns} (in the raw "
                 "file's order)"),
    "header/hidden": N_("the header differs from the released columns {columns} (in the raw "
                        "file's order)"),
    "rows.every": N_("the output has {found} data rows, but the raw file has {rows} and every "
                     "record is released"),
    "rows.more": N_("the output has {found} data rows, more than the raw file's {rows}"),
    "copied.record": N_("the cell {cell} differs from its record's (raw data row {raw_row}) "
                        "{raw}; non-QI cells are copied unchanged"),
    "copied.record/hidden": N_("the cell differs from its record's (raw data row {raw_row}); "
                               "non-QI cells are copied unchanged"),
    "copied.raw": N_("the cell {cell} differs from the raw one {raw}; non-QI cells are copied "
                     "unchanged"),
    "copied.raw/hidden": N_("the cell differs from the raw one; non-QI cells are copied "
                            "unchanged"),
    # Samarati: full-domain
    "cell.not_label": N_("the cell {cell} is not a label of the column's hierarchy"),
    "cell.not_label/hidden": N_("the cell is not a label of the column's hierarchy"),
    "cell.no_level": N_("the cell {cell} generalizes no raw value of the column at any level"),
    "cell.no_level/hidden": N_("the cell generalizes no raw value of the column at any level"),
    "cell.no_level_above": N_("no single level of the hierarchy gives this cell and every cell "
                              "above it in the column"),
    "levels.apart": N_("data rows {first} and {row} of the output, column {column}: the "
                       "cells are at different levels of the hierarchy ({levels1} and "
                       "{levels2}), but full-domain generalization puts a column at one level"),
    "level": N_("level {list}"),
    "levels": N_("levels {list}"),
    "root": N_("data row {row} of the output has every QI cell at its hierarchy's root "
               "({roots}) and other rows do not: no single vector generalizes both (a "
               "suppressed record is deleted, not released with its QI cells at the root)"),
    "root/hidden": N_("data row {row} of the output has every QI cell at its hierarchy's root "
                      "and other rows do not: no single vector generalizes both (a suppressed "
                      "record is deleted, not released with its QI cells at the root)"),
    "misfit": N_("data row {row} of the output matches no raw record generalized by vector "
                 "{vector}: the closest, raw data row {raw_row}, {closest}"),
    "closest": N_("generalizes to {label} in column {column}, not {cell}"),
    "closest/hidden": N_("generalizes to another cell in column {column}"),
    # Samarati: satisfies, lowest-height, deletion
    "satisfies": N_("the output is generalized by vector {vector}, which leaves {count} outliers "
                    "(records in classes of fewer than k = {k}), more than max_sup = {max_sup}"),
    "lowest": N_("the output's vector {vector} has height {height}, but vector {better} of "
                 "height {lowest} already satisfies k = {k} with at most max_sup = {max_sup} "
                 "outliers"),
    "deletion.kept": N_("raw data row {raw_row} is an outlier of vector {vector} (its class has "
                        "fewer than k = {k} records) and must be deleted, but it is released as "
                        "data row {row} of the output"),
    "deletion.left_out": N_("raw data row {raw_row} is in a class of at least k = {k} records "
                            "under vector {vector}, so it must be released, but the output "
                            "leaves it out"),
    "deletion.root": N_("data row {row} of the output is a suppressed record (every QI cell at "
                        "the root): it must be deleted (left out of the output), not released"),
    "deletion.order": N_("data row {row} of the output repeats a record or breaks the raw "
                         "order: under vector {vector}, no raw data row after {after} "
                         "generalizes to its cells (the output releases records in raw order, "
                         "each at most once)"),
    # Mondrian: cover
    "cover.misses": N_("the cell {cell} does not cover the raw value {raw}"),
    "cover.misses/hidden": N_("the cell does not cover the raw value"),
    "cover.not_a_cell": N_("the cell {cell} is neither a label of the column's hierarchy nor an "
                           "interval [lo-hi]"),
    "cover.not_a_cell/hidden": N_("the cell is neither a label of the column's hierarchy nor an "
                                  "interval [lo-hi]"),
    "cover.not_allowed": N_("the cell {cell} is an interval, but the column is not numeric"),
    "cover.not_allowed/hidden": N_("the cell is an interval, but the column is not numeric"),
    "cover.not_finite": N_("the cell {cell} is an interval without finite bounds lo < hi"),
    "cover.not_finite/hidden": N_("the cell is an interval without finite bounds lo < hi"),
    "cover.equal": N_("the cell {cell} is an interval with lo = hi, but an interval needs lo < "
                      "hi: where the smallest and largest values are equal, the cell keeps the "
                      "raw value {raw}"),
    "cover.equal/hidden": N_("the cell is an interval with lo = hi, but an interval needs lo < "
                             "hi: where the smallest and largest values are equal, the cell "
                             "keeps the raw value"),
    "cover.reversed": N_("the cell {cell} is an interval with lo > hi, but an interval needs lo "
                         "< hi"),
    "cover.reversed/hidden": N_("the cell is an interval with lo > hi, but an interval needs lo "
                                "< hi"),
    # Mondrian: exact, k, median-cuts, final
    "exact": N_("the class of data row {row} ({size} rows), column {column}: the cell {told}"),
    "exact/hidden": N_("the class of data row {row} ({size} rows), column {column}: the cell "
                       "{told}"),
    "told": N_("is {cell}, but {what} is {expected}"),
    "told/hidden": N_("is not {what}"),
    "what.range": N_("the class's [min-max] range (its value when min = max)"),
    "what.lca": N_("the lowest common ancestor of the class's values"),
    "k": N_("the class of data row {row} has {size} row(s) (data rows {rows}), fewer than k = {k}"),
    "cuts.limit": N_("no tree of strict median cuts with these classes as leaves was found "
                     "within the search's limit"),
    "cuts": N_("the classes are not the leaves of a tree of strict median cuts: {named} ({size} "
               "rows) has no allowable cut on any QI that keeps every class whole ({reasons})"),
    "cuts.whole": N_("the whole table"),
    "cuts.part": N_("the partition of the classes of data rows {rows}"),
    "why.ancestor": N_("{qi}: a row's value is the partition's common ancestor itself"),
    "why.nothing_above": N_("{qi}: the {at} leaves no row above it"),
    "why.small_side": N_("{qi}: the {at} leaves a side of {size} rows, fewer than k = {k}"),
    "why.splits": N_("{qi}: the {at} splits the class of data row {row}"),
    "at.median": N_("median cut ({bound})"),
    "at.median/hidden": N_("median cut"),
    "at.children": N_("cut into the children of the common ancestor"),
    "final": N_("the class of data row {row} ({size} rows) still admits an allowable {how} on "
                "column {column} (every part would keep at least k = {k} rows), so Mondrian "
                "would have cut it"),
    "how.median": N_("median cut"),
    "how.children": N_("cut into the children of its LCA"),
}
"""key -> the English template (the message id); "<key>/hidden": a hidden case's."""
KEYS = tuple(TEMPLATES)
"""Every template key (the "/hidden" variants included)."""
