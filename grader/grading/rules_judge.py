"""Judging an output by the course's rules where they allow several right answers (a part
with `judge = "rules"`): the USTC lab's Samarati (any satisfying vector of the lowest height)
and Mondrian (any dimension at each cut). The rules themselves are kcheck/rules (the
standard-library rule sets the students' self-check ships too); here their verdict becomes the
grader's.

A right answer passes. An output that breaks only the rules of optimality (lowest height,
exactly the outliers deleted, median cuts, final classes) while being a valid generalization
that reaches k earns the part's partial credit, like a valid, private but different output of
an exactly judged part; anything else is wrong. The message names every broken rule; a hidden case's names each rule with its row and column
only (`where`). The verdict's message is a kcheck.text Message (`said`), each rule's detail
the checker's own Message (kcheck.rules.words, kcheck's catalog), rendered per language from
the record.
"""
from __future__ import annotations

from typing import Sequence

from kanon.hierarchy import DGH
from kanon.table import Table, parse_table
from kcheck.hierarchies import Tree
from kcheck.rules import Broken, Release, check_mondrian, check_samarati
from kcheck.tables import Table as CheckedTable
from kcheck.text import Joined, Message

from .compare import CaseData, Verdict, unreadable

__all__ = ["judge_by_rules", "broken_rules", "where", "named", "release_of", "rules_release",
           "OPTIMALITY"]

OPTIMALITY = frozenset({"lowest-height", "deletion", "median-cuts", "final"})
"""The rules an output may break and still be valid and k-anonymous (partial credit)."""


def rules_release(raw: Table, qi_columns: Sequence[int], dghs: Sequence[DGH],
                  released: Sequence[int]) -> Release:
    """The raw side of a call as kcheck's rule sets take it (the same rows and labels;
    the raw file and each hierarchy keep their paths for messages)."""
    trees = [Tree(d.name, d.path, d.labels, [int(p) for p in d.parent]) for d in dghs]
    return Release(CheckedTable(raw.path, raw.header, raw.rows), list(qi_columns), trees,
                   list(released))


def release_of(data: CaseData) -> Release:
    return rules_release(data.table, data.qi_columns, data.dghs, data.released_columns())


def broken_rules(out: Table, release: Release, function: str, ints: dict[str, int],
                 hidden: bool) -> list[Broken]:
    """The rules of `function` that the output table `out` breaks ([]: a right answer)."""
    table = CheckedTable(out.path, out.header, out.rows)
    if function == "samarati":
        return check_samarati(release, ints["k"], ints["max_sup"], table, hidden=hidden)
    if function == "mondrian":
        return check_mondrian(release, ints["k"], table, hidden=hidden)
    # rubric.py lets only contract.RULE_JUDGED parts say judge = "rules"
    raise ValueError(f"{function} is not judged by rules")


def where(broken: Broken) -> Message:
    """A hidden case's words on a broken rule: its name, and its row and column when it has
    them; nothing computed from the hidden data (no vector, level, count, label or value)."""
    rule, row, column = broken.rule, broken.row, broken.column
    if row is not None:
        if broken.raw:
            return Message("rule \"{rule}\" at raw data row {row}", rule=rule, row=row)
        if column is not None:
            return Message("rule \"{rule}\" at data row {row}, column {column}", rule=rule,
                           row=row, column=repr(column))
        return Message("rule \"{rule}\" at data row {row}", rule=rule, row=row)
    if column is not None:
        return Message("rule \"{rule}\" at column {column}", rule=rule, column=repr(column))
    return Message("rule \"{rule}\"", rule=rule)


def named(broken: Broken) -> Message:
    """A public case's words on a broken rule: its name and the checker's detail."""
    return Message("rule \"{rule}\": {detail}", rule=broken.rule,
                   detail=broken.words or broken.message)


def judge_by_rules(produced: bytes, data: CaseData, function: str, ints: dict[str, int],
                   hidden: bool) -> Verdict:
    """The verdict on an output file's bytes under the course's rules for `function`."""
    try:
        out = parse_table(produced)
    except ValueError as e:
        return unreadable(e)
    broken = broken_rules(out, release_of(data), function, ints, hidden)
    if not broken:
        return _verdict("passed", Message("a right answer: it keeps every rule of the handout"))
    rules = Joined([where(b) if hidden else named(b) for b in broken], "; ")
    if all(b.rule in OPTIMALITY for b in broken):
        return _verdict("partial", Message("valid and k-anonymous, but it breaks {rules}",
                                           rules=rules))
    return _verdict("wrong", Message("it breaks {rules}", rules=rules))


def _verdict(status: str, message: Message) -> Verdict:
    return Verdict(status, message.english(), message)
