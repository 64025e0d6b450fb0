"""tests/public/kanon_check.py restates no kit check: its checks are kcheck's (kcheck/checks.py,
kcheck/compare.py), each finding worded by kcheck's catalog in the course's language."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import kcheck

REPO = Path(__file__).resolve().parents[3]
PUBLIC = REPO / "tests" / "public"
if str(PUBLIC) not in sys.path:
    sys.path.insert(0, str(PUBLIC))

import kanon_check  # noqa: E402


def test_kanon_check_defines_no_check_of_its_own() -> None:
    tree = ast.parse((PUBLIC / "kanon_check.py").read_text(encoding="utf-8"))
    defined = {node.name for node in tree.body
               if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    assert defined == {"_worded"}  # the wording of kcheck's findings, nothing else
    assert kanon_check.Table is kcheck.Dataset and kanon_check.read_csv is kcheck.read_csv


def test_its_checks_are_kcheck_s_in_the_course_s_words() -> None:
    case = PUBLIC / "data" / "cases" / "jobsex"
    raw = kanon_check.load_table(str(case / "raw.csv"), str(case / "DGHs"))
    rows = [list(r) for r in raw.rows]
    assert kanon_check.check_valid(raw, raw.header, rows) is None  # the raw table itself
    k = len(rows) + 1
    assert kanon_check.check_k(raw, rows, k) == kcheck.say(kcheck.check_k(raw, rows, k))
    assert kanon_check.check_k(raw, rows, k).endswith(f"needs k = {k}")
    header, anonymized = kanon_check.read_csv(str(case / "anon-not-ancestor.csv"))
    assert kanon_check.check_valid(raw, header, anonymized) == kcheck.say(
        kcheck.check_valid(raw, header, anonymized))
    assert "nor one of its ancestors" in kanon_check.check_valid(raw, header, anonymized)
