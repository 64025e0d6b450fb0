"""Records keep their type past the seam (issue 39, item 3): the gradebook, the exports and
the dashboard read a graded record through grader/grading/record.py's StudentRecord and
CaseRecord, never its keys by string. A read is `NAME["key"]` or `NAME.get("key")` with NAME
a record's usual name and "key" one of a record's keys. The modules below still read some
(grading's own: the host and the runner fill the record in, manual_scores keeps the staff's
scores on the JSON record); the count can only go down."""
from __future__ import annotations

import ast
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
STUDENT_KEYS = {"student", "source", "notes", "solution", "import", "cases", "timing", "parts",
                "score", "max", "remarks", "status", "forbidden_paths", "counterexamples",
                "manual", "auto_score", "manual_comment", "sandbox", "key", "course"}
CASE_KEYS = {"id", "part", "function", "name", "hidden", "visibility", "message", "output",
             "max_points", "points", "seconds", "cpu_seconds", "time_limit", "privacy",
             "message_ref", "privacy_ref"}
NAMES = {"record", "records", "rec", "r", "case", "c", "first"}  # what a record is called
OWN = {"grader/grading/record.py",  # the type itself
       "grader/grading/results.py"}  # the writer of the JSON record
NOT_RECORDS = {"grader/authoring/regen.py": "a manifest's term record",
               "grader/grading/shrink/pool.py": "the counterexample pool's JSON"}
ALLOWED = {  # module -> the reads it may still make (today's count)
    "grader/grading/host.py": 4,
    "grader/grading/manual_scores.py": 15,
    "grader/grading/runner.py": 2,
}


def _reads(tree: ast.AST) -> int:
    n = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript):
            holder, key = node.value, node.slice
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "get" and node.args):
            holder, key = node.func.value, node.args[0]
        else:
            continue
        if (isinstance(holder, ast.Name) and holder.id in NAMES
                and isinstance(key, ast.Constant) and key.value in STUDENT_KEYS | CASE_KEYS):
            n += 1
    return n


def _found() -> dict[str, int]:
    found = {}
    for path in sorted((REPO / "grader").rglob("*.py")):
        rel = path.relative_to(REPO).as_posix()
        if rel in OWN or rel in NOT_RECORDS:
            continue
        n = _reads(ast.parse(path.read_text(encoding="utf-8"), rel))
        if n:
            found[rel] = n
    return found


def test_the_scan_sees_a_record_read() -> None:
    assert _reads(ast.parse('record["score"] + r.get("max") + case["points"]')) == 3
    assert _reads(ast.parse('record.score + r.timing["import"] + manifest["name"]')) == 0


def test_no_module_reads_more_record_keys_by_string() -> None:
    more = {m: n for m, n in _found().items() if n > ALLOWED.get(m, 0)}
    assert not more, (f"modules reading a graded record's keys by string: {more}; read it as "
                      f"grader.grading.record.StudentRecord (record.score, case.points)")


def test_the_list_shrinks_when_a_module_stops_reading() -> None:
    found = _found()
    fewer = {m: (n, found.get(m, 0)) for m, n in ALLOWED.items() if found.get(m, 0) < n}
    assert not fewer, f"lower ALLOWED to today's counts: {fewer}"
