"""The public counterexample of a part judged by rules (test_public_rules.py loads this module;
teach.py calls it after the part's first failing public test): the smallest input of the
course's public counterexample pool on which your function breaks a rule of the handout, with
the rule named, your output, one right answer (the staff solution's) and one command that
reruns exactly that call.

The pool is `data/counterexamples/rules/<part>.json` (kcheck/pool.py's format), made when the
bundle was made from the course's public data only: rows of adult-hw1.csv (at most 12) with
some of the part's QIs and their hierarchy files ("child,parent" lines). Each of your outputs
on it is judged by the rules the public tests apply: kcheck.rules, the grader's own rule sets
(kcheck/ beside tests/, as it is). Standard library only: this file ships in the students'
bundle.
"""
from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import teach
from kanon_check import read_csv_text
from messages import language
from public_cases import Run
from rules_cases import BY_RUN, HIERARCHY_FORMAT, RulesCase, release
from rules_cases import judge as judge_output
from kcheck import teach_text
from kcheck.pool import Member, members

HERE = Path(__file__).resolve().parent
POOL = HERE / "data" / "counterexamples" / "rules"
CHECKED = ("samarati", "mondrian")


def part_of(params: dict) -> str | None:
    """The rule-judged part a public test checks (from its parameters), None for another."""
    for value in params.values():
        if isinstance(value, RulesCase):
            return value.part
        if isinstance(value, Run) and value in BY_RUN:
            return BY_RUN[value].part
    return None


def pool_file(part: str, folder: Path = POOL) -> Path | None:
    """The pool file of `part`, if the bundle has one."""
    path = folder / f"{part}.json"
    return path if path.is_file() else None


def judge(function: str, schema: dict):
    """judge(member, header, rows): the rules `function`'s output on `member` breaks, as
    (rule, sentence) pairs, [] for a right answer. `schema`: the pool file's (the course's
    sensitive column and whether the other columns are released)."""
    def broken(member: Member, header: list[str], rows: list[list[str]]) -> list:
        qis = tuple(q for q in member.header if q in member.dghs)
        columns = tuple(c for c in member.header if schema.get("other_columns") != "drop"
                        or c in member.dghs or c == schema.get("sensitive"))
        found = judge_output(function, release(member.header, member.raw, member.dghs, qis,
                                               columns, "raw.csv"),
                             int(member.ints["k"]), member.ints.get("max_sup"), header, rows)
        return [(b.rule, b.text(language())) for b in found]
    return broken


def render(found: teach.Found, part: str, function: str, params: list[str], folder: Path,
           solution: Path) -> list[str]:
    """The section's lines for a counterexample whose files are in `folder` (kcheck's
    teach_text.render_rules, in the course's language)."""
    return teach_text.render_rules(found.member, found.yours, found.problem, found.broken,
                                   function, part, params, folder, solution, read_csv_text,
                                   language(), HIERARCHY_FORMAT)


def lesson(calls, part: str, function: str, solution: Path, scratch: Path,
           budget: float = teach.BUDGET, folder: Path = POOL) -> list[str] | None:
    """The section's lines for a failing rule-judged `part` (None: no pool for it here)."""
    path, params = pool_file(part, folder), teach.parameters(function)
    if path is None or params is None or function not in CHECKED:
        return None
    start = time.monotonic()
    schema = json.loads(path.read_text(encoding="utf-8")).get("schema") or {}
    result = teach.search(calls, function, params, members(path), scratch / "call", budget,
                          judge(function, schema))
    seconds = time.monotonic() - start
    if isinstance(result, teach.Stopped):
        return [teach_text.spent(teach.stopped_line(result, function), result.calls, seconds,
                                 language())]
    where = scratch / part
    shutil.rmtree(where, ignore_errors=True)
    result.member.write(where)
    (where / "expected.csv").write_text(str(result.member.expected), encoding="utf-8",
                                        newline="")
    return render(result, part, function, params, where, solution) + [
        teach_text.spent(None, result.calls, seconds, language())]
