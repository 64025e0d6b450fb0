"""Records keep their type past the seam (issue 39, item 3): the gradebook, the exports and
the dashboard read a graded record through grader/grading/record.py's StudentRecord and
CaseRecord, never its keys by string. A read is `NAME["key"]` or `NAME.get("key")` with NAME
a record's usual name and "key" one of a record's keys. Grading fills the record in through
the type as well (the host, the runner, the staff's scores in manual_scores): only the type
itself and the writer of the JSON record name its keys. Its nested parts are typed as well
(grader/grading/record_parts.py: the import's information, a manual part's check, a part's
counterexample): the gradebook (feedback, exports, dashboard) reads none of their keys by
string either; grading makes them (the import session, manual_check, shrink/hook.py)."""
from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
STUDENT_KEYS = {"student", "source", "notes", "solution", "import", "cases", "timing", "parts",
                "score", "max", "remarks", "status", "forbidden_paths", "counterexamples",
                "manual", "auto_score", "manual_comment", "sandbox", "key", "course"}
CASE_KEYS = {"id", "part", "function", "name", "hidden", "visibility", "message", "output",
             "max_points", "points", "seconds", "cpu_seconds", "time_limit", "privacy",
             "message_ref", "privacy_ref", "name_ref"}
NAMES = {"record", "records", "rec", "r", "case", "c", "first"}  # what a record is called
PART_KEYS = {"status", "mode", "output", "problem", "retried", "dropped", "retry_problem",
             "sandbox_layers",  # the import's information
             "file", "pages", "check", "check_ref", "score",  # a manual part's check
             "calls", "cpu_seconds", "case", "case_id", "hidden", "found", "stopped", "source",
             "rows", "header", "qis", "raw", "ints", "dghs", "expected", "yours",
             "problem_ref", "anonymized_source", "anonymized", "judge", "hierarchy_format",
             "broken", "broken_said"}
PART_NAMES = {"entry", "check", "imported", "info", "found", "missed"}  # what a part is called
READERS = "grader/gradebook"  # the gradebook, the exports and the dashboard
OWN = {"grader/grading/record.py",  # the type itself
       "grader/grading/results.py"}  # the writer of the JSON record
NOT_RECORDS = {"grader/authoring/regen.py": "a manifest's term record",
               "grader/grading/shrink/pool.py": "the counterexample pool's JSON"}


def _reads(tree: ast.AST, names: set[str] = NAMES,
           keys: set[str] = STUDENT_KEYS | CASE_KEYS) -> int:
    n = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript):
            holder, key = node.value, node.slice
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "get" and node.args):
            holder, key = node.func.value, node.args[0]
        else:
            continue
        if (isinstance(holder, ast.Name) and holder.id in names
                and isinstance(key, ast.Constant) and key.value in keys):
            n += 1
    return n


def _found() -> dict[str, int]:
    found = {}
    for path in sorted((REPO / "grader").rglob("*.py")):
        rel = path.relative_to(REPO).as_posix()
        if rel in OWN or rel in NOT_RECORDS:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), rel)
        n = _reads(tree)
        if rel.startswith(READERS + "/"):
            n += _reads(tree, PART_NAMES, PART_KEYS)
        if n:
            found[rel] = n
    return found


def test_the_scan_sees_a_record_read() -> None:
    assert _reads(ast.parse('record["score"] + r.get("max") + case["points"]')) == 3
    assert _reads(ast.parse('record.score + r.timing["import"] + manifest["name"]')) == 0
    part = ast.parse('entry["rows"] + check.get("problem") + imported["output"] + entry.raw')
    assert _reads(part, PART_NAMES, PART_KEYS) == 3


def test_the_part_keys_are_the_types_keys() -> None:
    from grader.grading.record_parts import Counterexample, ImportInfo, ManualCheck
    assert PART_KEYS == {*ImportInfo.keys(), *ManualCheck.keys(), *Counterexample.keys()}


def test_no_module_reads_a_record_key_by_string() -> None:
    found = _found()
    assert not found, (f"modules reading a graded record's keys by string: {found}; read it "
                       f"as grader.grading.record.StudentRecord (record.score, case.points)")
