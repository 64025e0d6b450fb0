"""The grader's stored cases: generated deterministically, expected outputs fresh.

When these fail after a change to reference/, adult-hw1.csv, DGHs/ or
grader/authoring/casegen.py, run `python -m grader regen` and commit grader/cases (see
docs/reference.md, "Regenerating expected outputs").
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from grader.authoring import casegen

from grader import rubric
from grader.authoring.regen import _run_reference
from grader.grading.expected import case_key, load_manifest
from grader.grading.freshness import stale
from grader.grading.term_view import apply_term
from kanon.files import sha256_bytes, sha256_file

REPO = Path(__file__).resolve().parents[3]
CASES = REPO / "grader" / "cases"
RUBRICS = [REPO / "grader" / "rubric.toml", REPO / "examples" / "rubric.toml",
           REPO / "grader" / "rubric-2025.toml", REPO / "grader" / "rubric-optional.toml"]


def test_manifest_covers_both_rubrics_and_matches_every_stored_file() -> None:
    problems = stale([rubric.load(p) for p in RUBRICS])
    assert problems == [], "stale cases; run `python -m grader regen`:\n" + "\n".join(problems)


@pytest.mark.slow
def test_datasets_regenerate_byte_for_byte(tmp_path: Path) -> None:
    manifest = load_manifest(CASES)
    assert "term" not in manifest  # the kit's own cases are the default ones (terms: courses)
    casegen.generate(tmp_path, REPO)
    produced = {p.relative_to(tmp_path).as_posix(): sha256_file(p)
                for p in sorted(tmp_path.rglob("*")) if p.is_file()}
    assert produced == manifest["files"]


@pytest.mark.slow
def test_expected_outputs_are_what_the_reference_produces_now() -> None:
    r = apply_term(rubric.load(RUBRICS[0]))
    manifest = load_manifest(CASES)
    for case in r.cases():
        entry = manifest["entries"][case_key(case, CASES)]
        kind, result = _run_reference(case, CASES)
        assert kind == entry["kind"], case.id
        data = result if kind == "table" else (
            json.dumps({"value": result}, indent=2, sort_keys=True) + "\n").encode()
        assert sha256_bytes(data) == entry["sha256"], f"{case.id}: run `python -m grader regen`"


def test_hidden_cases_cover_the_issue_list() -> None:
    """Unbalanced hierarchies, one QI, many QIs, k = 1, k close to n, n not a multiple of k,
    ties, and cells with commas, quotes and non-ASCII text."""
    from grader.grading.compare import load_case_data
    r = apply_term(rubric.load(RUBRICS[0]))
    hidden = [c for c in r.cases() if c.hidden]
    shapes = {}
    for c in hidden:
        data = load_case_data(CASES / c.data)
        heights = {int(d.depth[[i for i, ch in enumerate(d.children) if not ch]].min()) ==
                   d.height for d in data.dghs}
        shapes[c.data] = (len(data.table.rows), len(data.qi_columns), heights)
    assert any(False in s[2] for s in shapes.values())  # a hierarchy with leaves at two depths
    assert min(s[1] for s in shapes.values()) == 1 and max(s[1] for s in shapes.values()) >= 10
    ks = [(c.ints["k"], shapes[c.data][0]) for c in hidden if "k" in c.ints]
    assert any(k == 1 for k, n in ks) and any(k >= n - 1 for k, n in ks)
    assert any(n % k for k, n in ks)
    quoted = (CASES / "hidden" / "quoted" / "adult-hw1.csv").read_text(encoding="utf-8")
    assert '"' in quoted and "," in quoted.splitlines()[1] and "ü" in quoted and "東京" in quoted
