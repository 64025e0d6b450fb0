"""The property checker (properties.py) itself: it accepts the hand-computed outputs and names
the first violation of each kind in hand-broken ones (a checker that cannot fail proves
nothing)."""
from __future__ import annotations

from pathlib import Path

import pytest

import properties

DATA = Path(__file__).resolve().parents[2] / "data" / "reference"
JOBS = DATA / "jobs"
AGES = DATA / "ages"


def check(tmp_path: Path, text: str, folder: Path = JOBS, **options) -> str | None:
    out = tmp_path / "out.csv"
    out.write_text(text, encoding="utf-8")
    return properties.check_output(str(folder / "raw.csv"), str(out), str(folder / "DGHs"),
                                   **options)


@pytest.mark.parametrize("expected,options", [
    ("clustering_k2.csv", dict(k=2, minimal=True)),
    ("random_k2_s42.csv", dict(k=2, minimal=True)),
    ("bottomup_k2_l2.csv", dict(k=2, l=2, full_domain=True)),
    ("samarati_k2_sup1.csv", dict(k=2, max_sup=1, full_domain=True)),
    ("mondrian_k2.csv", dict(k=2, minimal=True)),
])
def test_hand_outputs_pass(expected, options):
    assert properties.check_output(str(JOBS / "raw.csv"), str(JOBS / expected),
                                   str(JOBS / "DGHs"), **options) is None


def test_mondrian_intervals_pass():
    for k in (2, 3):
        assert properties.check_output(str(AGES / "raw.csv"), str(AGES / f"mondrian_k{k}.csv"),
                                       str(AGES / "DGHs"), k=k, intervals=True,
                                       minimal=True) is None


GOOD = (JOBS / "mondrian_k2.csv").read_text()  # rows: see test_reference_hand.py


@pytest.mark.parametrize("name,text,options,words", [
    ("header", GOOD.replace("Disease", "Illness"), dict(k=2), ["header"]),
    ("missing row", GOOD.rsplit("\n", 2)[0] + "\n", dict(k=2), ["6 output rows"]),
    ("non-QI changed", GOOD.replace("HIV", "Flu"), dict(k=2), ["row 5", "Disease"]),
    ("rows swapped", GOOD.replace("Professional,Male,Flu\nProfessional,Male,Cold",
                                  "Professional,Male,Cold\nProfessional,Male,Flu"),
     dict(k=2), ["row 1", "Disease"]),
    ("not an ancestor", GOOD.replace("Artist,Any,Flu\nArtist,Any,Cold",
                                     "Professional,Any,Flu\nArtist,Any,Cold"), dict(k=2),
     ["row 3", "Job", "Professional"]),
    ("unknown cell", GOOD.replace("Professional,Female,HIV", "Boss,Female,HIV"), dict(k=2),
     ["row 5", "Boss"]),
    ("small EC", GOOD, dict(k=3), ["< k = 3"]),
    ("l-diversity", GOOD, dict(k=2, l=2), []),  # passes: every EC has 2 diseases
    ("l-diversity 3", GOOD, dict(k=2, l=3), ["< l = 3"]),
    ("interval without option", (AGES / "mondrian_k2.csv").read_text(), dict(k=2, folder=AGES),
     ["row 1", "Age"]),
])
def test_broken_outputs_are_named(name, text, options, words, tmp_path):
    folder = options.pop("folder", JOBS)
    message = check(tmp_path, text, folder, **options)
    if not words:
        assert message is None, message
        return
    assert message is not None, name
    for word in words:
        assert word in message, (name, message)


def test_non_minimal_generalization_is_named(tmp_path):
    # {r0, r1} as (Any, Male) instead of the minimal (Professional, Male).
    text = GOOD.replace("Professional,Male,Flu\nProfessional,Male,Cold",
                        "Any,Male,Flu\nAny,Male,Cold")
    message = check(tmp_path, text, k=2, minimal=True)
    assert message and "minimal" in message and "Professional" in message
    assert check(tmp_path, text, k=2) is None  # valid, only not minimal


def test_suppression_limits(tmp_path):
    text = (JOBS / "samarati_k2_sup1.csv").read_text()  # r5 suppressed to (Any, Any)
    assert check(tmp_path, text, k=2, max_sup=1, full_domain=True) is None
    assert "max_sup = 0" in check(tmp_path, text, k=2, max_sup=0)
    assert "< k = 2" in check(tmp_path, text, k=2)  # without max_sup: a 1-row EC


def test_full_domain_violation_is_named(tmp_path):
    # Mondrian's output mixes heights: Job at height 1 but Sex generalized only for some rows.
    message = check(tmp_path, GOOD, k=2, full_domain=True)
    assert message and "Sex" in message


def test_bad_intervals_are_named(tmp_path):
    good = (AGES / "mondrian_k2.csv").read_text()
    for bad, row in (("[25-21]", 1), ("[26-30]", 1), ("[21-21]", 1)):
        text = good.replace("[21-25],M,Flu", f"{bad},M,Flu")
        message = check(tmp_path, text, AGES, k=1, intervals=True)
        assert message and f"row {row}" in message and "Age" in message, (bad, message)
    # a valid interval that is not [min-max] of its EC
    text = good.replace("[21-25]", "[21-28]")
    assert check(tmp_path, text, AGES, k=2, intervals=True) is None
    assert "minimal" in check(tmp_path, text, AGES, k=2, intervals=True, minimal=True)
