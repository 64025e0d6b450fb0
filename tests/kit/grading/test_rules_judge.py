"""Judging by the course's rules (grader/grading/rules_judge.py): every right answer passes,
a valid and k-anonymous output that breaks only a rule of optimality earns partial credit,
anything else is wrong, and the message names the rules.

Hand example (Samarati, k = 2, max_sup = 0): A = Any{a1{x1, x2}, a2{x3, x4}}, B = Any{b1, b2};
rows r1 (x1, b1), r2 (x2, b2), r3 (x3, b1), r4 (x4, b2). Heights 0 and 1 leave every row
alone; at height 2 both (2, 0) -> (Any, b1/b2) and (1, 1) -> (a1/a2, Any) make classes of 2:
two right answers. (2, 1) releases all rows as (Any, Any): k-anonymous, not the lowest.
"""
from __future__ import annotations

import pytest

from grader.grading.compare import load_case_data
from grader.grading.rules_judge import judge_by_rules
from kanon.schema import Schema

A = "Any\n\ta1\n\t\tx1\n\t\tx2\n\ta2\n\t\tx3\n\t\tx4\n"
B = "Any\n\tb1\n\tb2\n"
RAW = "Name,A,B,S\nn1,x1,b1,s1\nn2,x2,b2,s2\nn3,x3,b1,s1\nn4,x4,b2,s2\n"
LAB = Schema(sensitive="S", other_columns="drop", suppression="delete")


@pytest.fixture
def data(tmp_path):
    (tmp_path / "DGHs").mkdir()
    (tmp_path / "DGHs" / "A.txt").write_text(A, encoding="utf-8")
    (tmp_path / "DGHs" / "B.txt").write_text(B, encoding="utf-8")
    (tmp_path / "adult-hw1.csv").write_text(RAW, encoding="utf-8")
    return load_case_data(tmp_path, ("A", "B"), LAB)


def table(*rows: str) -> bytes:
    return ("A,B,S\n" + "".join(r + "\n" for r in rows)).encode()


ARGS = {"k": 2, "max_sup": 0}


@pytest.mark.parametrize("output", [
    table("Any,b1,s1", "Any,b2,s2", "Any,b1,s1", "Any,b2,s2"),   # vector (2, 0)
    table("a1,Any,s1", "a1,Any,s2", "a2,Any,s1", "a2,Any,s2"),   # vector (1, 1)
])
def test_every_right_answer_passes(data, output):
    verdict = judge_by_rules(output, data, "samarati", ARGS, hidden=False)
    assert (verdict.status, verdict.message) == (
        "passed", "a right answer: it keeps every rule of the handout")


def test_a_higher_vector_earns_partial_credit_naming_the_rule(data):
    output = table("Any,Any,s1", "Any,Any,s2", "Any,Any,s1", "Any,Any,s2")
    verdict = judge_by_rules(output, data, "samarati", ARGS, hidden=False)
    assert verdict.status == "partial"
    assert 'rule "lowest-height"' in verdict.message and "height 2" in verdict.message


def test_an_output_that_is_not_k_anonymous_is_wrong(data):
    output = table("x1,b1,s1", "x2,b2,s2", "x3,b1,s1", "x4,b2,s2")
    verdict = judge_by_rules(output, data, "samarati", ARGS, hidden=False)
    assert verdict.status == "wrong" and 'rule "satisfies"' in verdict.message


def test_releasing_a_column_the_course_does_not_release_is_wrong(data):
    output = b"Name,A,B,S\nn1,Any,b1,s1\nn2,Any,b2,s2\nn3,Any,b1,s1\nn4,Any,b2,s2\n"
    verdict = judge_by_rules(output, data, "samarati", ARGS, hidden=False)
    assert verdict.status == "wrong" and 'rule "columns"' in verdict.message


def test_mondrian_by_rules(data):
    # categorical A and B, k = 2: A's cut {a1: r1 r2, a2: r3 r4} and B's {b1: r1 r3,
    # b2: r2 r4} are both allowable: either is a right first cut; then nothing more is.
    by_a = table("a1,Any,s1", "a1,Any,s2", "a2,Any,s1", "a2,Any,s2")
    by_b = table("Any,b1,s1", "Any,b2,s2", "Any,b1,s1", "Any,b2,s2")
    for output in (by_a, by_b):
        assert judge_by_rules(output, data, "mondrian", {"k": 2}, False).status == "passed"
    uncut = table("Any,Any,s1", "Any,Any,s2", "Any,Any,s1", "Any,Any,s2")
    verdict = judge_by_rules(uncut, data, "mondrian", {"k": 2}, False)
    assert verdict.status == "partial" and 'rule "final"' in verdict.message


def test_a_hidden_case_message_shows_no_cell(data):
    output = table("x1,b1,s1", "x2,b2,s2", "x3,b1,s1", "x4,b2,s2")
    message = judge_by_rules(output, data, "samarati", ARGS, hidden=True).message
    assert not {"x1", "x2", "x3", "x4", "a1", "a2", "b1", "b2", "s1", "s2", "Any"} & set(
        message.replace(",", " ").replace("'", " ").split())


def test_an_unreadable_output_is_wrong(data):
    verdict = judge_by_rules(b"A,B,S\n\"unclosed\n", data, "samarati", ARGS, hidden=False)
    assert verdict.status == "wrong" and "not a readable dataset" in verdict.message
