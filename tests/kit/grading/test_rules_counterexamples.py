"""Counterexamples of the parts judged by rules (courses/ustc): the course's own pool
(grader/authoring/rules_pool.py) holds public data only and one right answer per member, the
search (grader/grading/shrink/rules_search.py) tries members smallest first and judges the
student's output by the rules, and the feedback names exactly the rule a bug breaks.

The students are tests/kit/lab_students.py's: a strict Mondrian from scratch that cuts in
column order or reversed (right, and different from the reference), the relaxed median (breaks
"median-cuts"), and the known-good Samarati without deletion (breaks "deletion").
"""
from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from lab_students import mondrian_for, write_submission
from shared_bundles import ustc_twin

from grader.authoring import rules_pool
from grader.catalogs import translator
from grader.commands.grade import grade_class
from grader.courses.folder import resolve
from grader.courses.solution import solution_source
from grader.grading.batch import BatchSettings
from grader.grading.rules_judge import broken_rules
from grader.grading.shrink.pool import Chain, Member, Source, load_chains
from grader.grading.shrink.rules_search import (member_release, rules_folder, search_rules,
                                                smallest_first)
from kcheck.search import Answer
from kcheck.text import Message, render
from kanon.table import parse_table

KIT = Path(__file__).resolve().parents[3]
COURSE = KIT / "courses" / "ustc"
PUBLIC = COURSE / "cases" / "public" / "adult"


@pytest.fixture(scope="module")
def rubric():
    return resolve(COURSE)[0]


def _chains(rubric, key: str) -> list[Chain]:
    chains = load_chains(rules_folder(rubric.cases_dir), key, None)
    assert chains, key
    return chains


def _part(rubric, key: str):
    return next(p for p in rubric.parts if p.key == key)


def test_the_search_tries_members_smallest_first_and_stops_at_the_first_broken() -> None:
    source = Source("t.csv", ["a", "b", "s"], {i: [str(i), str(i), "x"] for i in range(1, 7)},
                    {"a": "*\n", "b": "*\n"})
    def member(rows, qis):
        return Member(source, tuple(rows), tuple(qis), {"k": 1}, "")
    chains = [Chain([member(range(1, 7), "ab"), member(range(1, 5), "ab"), member([1, 2], "ab")]),
              Chain([member(range(1, 7), "ab"), member(range(1, 7), "a"), member([1, 2, 3], "a")])]
    assert [m.size for m in smallest_first(chains)] == [(3, 1), (2, 2), (6, 1), (4, 2), (6, 2)]
    tried = []
    def probe(m: Member) -> Answer:
        tried.append(m.size)
        return Answer(m.size[0] * m.size[1] >= 6, "yours", "", (("k", "why"),))
    found = search_rules(chains, probe)
    assert found.member.size == (6, 1) and tried == [(3, 1), (2, 2), (6, 1)]
    assert search_rules(chains, lambda m: None) is None  # the budget is spent
    assert search_rules(chains, lambda m: Answer(False)) is None
    def raises_when_small(m: Member) -> Answer:  # a rule broken beats an earlier raise
        return Answer(True, None, "raised ValueError") if m.size[0] < 6 else \
            Answer(True, "yours", "", (("k", "why"),))
    assert search_rules(chains, raises_when_small).member.size == (6, 1)
    assert search_rules(chains, lambda m: Answer(True, None, "raised ValueError")
                        ).member.size == (3, 1)  # none breaks a rule: the first raise


def test_every_member_s_answer_keeps_the_rules(rubric) -> None:
    """Each member's `expected` is a right answer: the rules find nothing broken in it."""
    for part in rules_pool.rule_parts(rubric):
        schema = part.cases[0].schema
        for member in smallest_first(_chains(rubric, part.key)):
            out = parse_table(member.expected.encode("utf-8"))
            assert broken_rules(out, member_release(member, schema), part.function,
                                member.ints, hidden=False) == [], (part.key, member.rows)


def _run(function, member: Member, schema, tmp: Path) -> tuple[list, bool]:
    """The broken rules of `function`'s output on `member` (called here, in process) and
    whether that output differs from the reference's."""
    for path in sorted(tmp.rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    member.write(tmp, "adult-hw1.csv")
    function(str(tmp / "adult-hw1.csv"), str(tmp / "DGHs"), member.ints["k"],
             str(tmp / "out.csv"))
    produced = (tmp / "out.csv").read_text(encoding="utf-8")
    out = parse_table(produced.encode("utf-8"))
    broken = broken_rules(out, member_release(member, schema), "mondrian", member.ints, False)
    return broken, produced != member.expected


def test_right_mondrians_break_no_rule_on_any_member_the_relaxed_median_does(
        rubric, tmp_path: Path) -> None:
    part = _part(rubric, "mondrian")
    schema, chains = part.cases[0].schema, _chains(rubric, "mondrian")
    for flavour in ("right", "reversed"):
        results = [_run(mondrian_for(flavour), m, schema, tmp_path) for m in smallest_first(chains)]
        assert all(broken == [] for broken, _ in results), flavour
        assert any(differs for _, differs in results), flavour  # right, yet not the reference's
    def probe(member: Member) -> Answer:
        broken = _run(mondrian_for("relaxed"), member, schema, tmp_path)[0]
        return Answer(bool(broken), "", "", tuple((b.rule, b.message) for b in broken))
    found = search_rules(chains, probe)
    assert found is not None and len(found.member.rows) <= 12
    assert [rule for rule, _ in found.answer.broken] == ["median-cuts"]


def _public_values() -> set[str]:
    with open(PUBLIC / "adult-hw1.csv", encoding="utf-8", newline="") as f:
        values = {c for row in csv.reader(f) for c in row}
    for path in (PUBLIC / "DGHs").glob("*.txt"):
        values |= {label for line in path.read_text(encoding="utf-8").splitlines()
                   for label in line.split(",")}
    return values


def _hidden_values() -> set[str]:
    values: set[str] = set()
    for path in (COURSE / "cases" / "hidden").rglob("*"):
        if path.suffix == ".csv":
            with open(path, encoding="utf-8", newline="") as f:
                values |= {c for row in list(csv.reader(f))[1:] for c in row}
        elif path.suffix == ".txt":
            values |= {label for line in path.read_text(encoding="utf-8").splitlines()
                       for label in line.split(",")}
    return values


def _strings(data: object):
    """Every string in a JSON value; CSV texts split into cells, hierarchy lines into labels."""
    if isinstance(data, str):
        yield data
        if "\n" in data:
            for row in csv.reader(io.StringIO(data)):
                yield from row
    elif isinstance(data, dict):
        for key, value in data.items():
            yield key
            yield from _strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from _strings(value)


def test_the_pool_holds_public_data_only_and_is_fresh(rubric) -> None:
    public, hidden = _public_values(), _hidden_values()
    only_hidden = hidden - public
    assert len(only_hidden) > 100  # (final_weight draws) so the check means something
    folder = rules_folder(rubric.cases_dir)
    assert sorted(p.stem for p in folder.glob("*.json")) == sorted(
        p.key for p in rules_pool.rule_parts(rubric))
    interval = re.compile(r"^\[(.+)-(.+)\]$")
    for path in folder.glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        strings = set(_strings(data))
        assert not strings & only_hidden, path.name
        for source in data["sources"].values():
            cells = {c for row in source["rows"].values() for c in row}
            for chain in data["chains"]:
                for member in chain["members"]:
                    cells |= {c for row in list(csv.reader(io.StringIO(member["expected"])))[1:]
                              for c in row}
            for cell in cells:
                m = interval.match(cell)
                assert ({m.group(1), m.group(2)} if m and cell not in public else {cell}) <= public
    with open(PUBLIC / "adult-hw1.csv", encoding="utf-8", newline="") as f:
        header, *rows = list(csv.reader(f))
    for part in rules_pool.rule_parts(rubric):
        released = [c for c in header if c in part.qis or c == "occupation"]
        released = [c for c in header if c in released or c == "work_class"]  # + one not
        for chain in _chains(rubric, part.key):
            source = chain.members[0].source
            assert source.header == released and source.label == "adult-hw1.csv"
            assert all(cells == [rows[n - 1][header.index(c)] for c in released]
                       for n, cells in source.rows.items())
            assert source.dghs == {q: (PUBLIC / "DGHs" / f"{q}.txt").read_text(encoding="utf-8")
                                   for q in part.qis}
    assert rules_pool.fresh(rubric) == [], \
        "run `python -m grader regen --course courses/ustc` to rebuild its counterexamples"


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> Path:
    """The buggy and the right-but-different student graded against courses/ustc's smaller
    twin (tests/kit/shared_bundles.py's ustc_twin: the same rubric, rules and hidden cases, a
    4,000-row public dataset and its own rules pool, made once per run and shared)."""
    twin = resolve(ustc_twin(tmp_path_factory))[0]
    tmp = tmp_path_factory.mktemp("ustc")
    staff = solution_source(twin, "ustc")
    write_submission(tmp / "subs" / "buggy", staff, "relaxed", samarati_deletes=False)
    write_submission(tmp / "subs" / "other", staff, "reversed")
    grade_class(BatchSettings(tmp / "subs", tmp / "out", twin, jobs=2, sandbox="none",
                              progress=False))
    return tmp / "out"


def _record(out: Path, student: str) -> dict:
    return json.loads((out / "results" / student / "record.json").read_text(encoding="utf-8"))


def _detail(entry: dict, _) -> str:
    """The first broken rule's detail in the language of `_`, from its data (`broken_said`)."""
    said = Message.from_json(entry["broken_said"][0])
    assert said.english() == entry["broken"][0][1]
    return render(said, _)


@pytest.mark.slow
def test_a_broken_rule_is_named_with_a_small_public_counterexample(graded: Path) -> None:
    record = _record(graded, "buggy")
    entries = record["counterexamples"]
    for part, rule in (("mondrian", "median-cuts"), ("samarati", "deletion")):
        entry = entries[part]
        assert entry["found"] and entry["judge"] == "rules" and len(entry["rows"]) <= 12
        assert [r for r, _ in entry["broken"]] == [rule], (part, entry["broken"])
    feedback = (graded / "feedback" / "buggy.md").read_text(encoding="utf-8")
    _ = translator(resolve(COURSE)[0].language)  # the course's language (zh-CN)
    title = _("### Counterexample for {part}")
    mondrian = feedback.split(title.format(part="mondrian"))[1].split("\n## ")[0]
    assert _("A small input from public data on which your output breaks a rule of the "
             "handout. It is a pointer to the rule, not another test: it earns and costs "
             "nothing.") in mondrian
    rule = _("- rule \"{rule}\": {message}")
    message = _detail(entries["mondrian"], _)  # the rule's detail, translated
    assert message != entries["mondrian"]["broken"][0][1]
    assert rule.format(rule="median-cuts", message=message) in mondrian
    assert _("One right answer (the reference's; any output that keeps every rule is "
             "right):") in mondrian and "**" in mondrian
    assert "from lab import mondrian; mondrian('raw.csv', 'DGHs', 2, 'yours.csv')" in mondrian
    samarati = feedback.split(title.format(part="samarati"))[1]
    assert rule.format(rule="deletion", message=_detail(entries["samarati"], _)) in samarati
    folder = graded / "feedback" / "buggy" / "counterexamples" / "mondrian"
    assert sorted(p.name for p in folder.iterdir()) == ["DGHs", "expected.csv", "raw.csv",
                                                        "yours.csv"]
    mondrian_for("relaxed")(str(folder / "raw.csv"), str(folder / "DGHs"), 2,
                            str(folder / "again.csv"))  # the rerun gives the shown output
    assert (folder / "again.csv").read_text() == (folder / "yours.csv").read_text()


@pytest.mark.slow
def test_a_right_but_different_answer_gets_no_counterexample(graded: Path) -> None:
    record = _record(graded, "other")
    assert record["parts"]["mondrian"] == 25 and record["parts"]["samarati"] == 25
    assert not record.get("counterexamples")
    _ = translator(resolve(COURSE)[0].language)
    assert _("### Counterexample for {part}").format(part="mondrian") not in (
        graded / "feedback" / "other.md").read_text(encoding="utf-8")


def test_a_course_s_rules_pool_stays_beside_the_kit_s(tmp_path: Path) -> None:
    """regen drops a course's copy of the kit's pool when no part of it uses one, never its
    rules/ pool; a folder holding only rules/ leaves exact parts with the kit's pool."""
    from grader.authoring.regen import _pool
    from grader.grading.shrink.pool import KIT_POOL, pool_folder
    own = tmp_path / "counterexamples"
    (own / "rules").mkdir(parents=True)
    (own / "mondrian.json").write_text("{}")
    (own / "rules" / "mondrian.json").write_text("{}")
    _pool(tmp_path, public=False, rubrics=[])
    assert sorted(p.relative_to(own).as_posix() for p in own.rglob("*")) == [
        "rules", "rules/mondrian.json"]
    assert pool_folder(tmp_path) == KIT_POOL


def test_no_counterexample_found_says_no_rule_broke() -> None:
    from grader.gradebook.counterexample import section
    from grader.grading.record_parts import Counterexample
    entry = Counterexample.from_json({"found": False, "judge": "rules", "hidden": False,
                                      "case": "adult, k=10", "calls": 7, "stopped": "budget"})
    lines = section(entry, "mondrian", "mondrian", "lab")
    assert lines[2] == ("No small public input on which your output breaks a rule was found "
                        "within its budget (7 calls).")
