"""The counterexample search of a part judged by rules (`judge = "rules"`): several outputs
are right, so the student's output on a pool member is judged by the course's rules
(kcheck/rules, with the member's release, `hidden=False`: the pool is public data), not
compared with the reference's.

The pool is the course's own (grader/authoring/rules_pool.py builds it): one file per part,
`<cases_dir>/counterexamples/rules/<part key>.json`, in pool.py's format; each member's
`expected` is one right answer (the reference's), shown beside the student's. The search runs
the student's function on the distinct members smallest first (rows x QIs, then rows, then
pool order) and stops at the first member on which a rule breaks, or when the probe returns
None (budget spent); a call that raises, writes nothing or writes no readable table is shown
only when no member breaks a rule (the rule is what the student needs to see).
"""
from __future__ import annotations

from pathlib import Path

from kanon.hierarchy import parse_dgh
from kanon.schema import Schema
from kanon.table import parse_table, render_csv
from kcheck.pool import smallest_first
from kcheck.rules import Release
from kcheck.search import Answer, Found, Probe, first_found

from ...contract import DGH_DIR, RAW_FILE
from ..rules_judge import broken_rules, rules_release
from .pool import POOL_DIR, Chain, Member
from .probe import SandboxProbe

RULES_DIR = "rules"

__all__ = ["RULES_DIR", "rules_folder", "member_release", "smallest_first", "search_rules",
           "RulesProbe"]


def rules_folder(cases_dir: Path) -> Path:
    """Where a course's rule-judged parts' pool files are."""
    return cases_dir / POOL_DIR / RULES_DIR


def member_release(member: Member, schema: Schema) -> Release:
    """The raw side of a call on `member`: its raw table, QIs and hierarchies (in the
    schema's format) and released columns, as the rule checkers take them."""
    header = member.header
    raw = parse_table(render_csv(header, member.table()).encode("utf-8"), RAW_FILE)
    qi_columns = [c for c, name in enumerate(header) if name in member.qis]
    dghs = [parse_dgh(member.source.dghs[header[c]], header[c], f"{DGH_DIR}/{header[c]}.txt",
                      schema.hierarchy_format) for c in qi_columns]
    return rules_release(raw, qi_columns, dghs, schema.released(header, qi_columns, RAW_FILE))


def search_rules(chains: list[Chain], probe: Probe) -> Found | None:
    """The first member, smallest first, on which the student's output breaks a rule; a call
    that raises or writes no readable table is the answer only when no member breaks a rule
    (within the budget: the probe returns None when it is spent)."""
    return first_found(smallest_first(chains), probe, rules=True)


class RulesProbe(SandboxProbe):
    """A SandboxProbe whose returned answers are judged by the course's rules."""

    def __init__(self, runner, function: str, budget, call_limit: float, schema: Schema):
        super().__init__(runner, function, budget, call_limit)
        self.schema = schema

    def answer(self, member: Member, yours: object) -> Answer:
        try:
            out = parse_table(str(yours).encode("utf-8"))
        except ValueError:
            return Answer(True, yours)  # the feedback shows it is not a readable table
        broken = broken_rules(out, member_release(member, self.schema), self.function,
                              member.ints, hidden=False)
        return Answer(bool(broken), yours, "",
                      tuple((b.rule, b.words or b.message) for b in broken))
