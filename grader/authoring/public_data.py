"""The public tests' data: what the students' self-check needs to know of each function whose
public tests a folder holds, written as tests/public/data/functions.json from the functions'
contracts (grader.contract). The self-check's Python names no function: its generic tests
(tests/public/test_public_functions.py) read this table and the cases of
tests/public/data/cases.json. The kit's copy lists every gradable function; a course's bundle
gets the table and the cases of the functions it grades (course_cases below)
(grader.publishing.course_files).

Per function: `marker` (the name of its tests and of `pytest -k`), `kind` (anonymizer, cost,
measure), `signature`, `optional` (beyond the default homework: its signature and raw-file
tests are its own), `checks` (the generic tests it gets, CHECKS), `extra` (an anonymizer's
fifth parameter), `example` (the values between DGH_folder and output_file of the raw-file
test), `intervals` (numeric QI cells may be [lo-hi]), `property` (the test checking the
output's privacy property: its name and the kanon_check checks it runs, each with the run's
fields it takes).
"""
from __future__ import annotations

import json
from pathlib import Path

from ..contract import COST_FUNCTIONS, GRADABLE, OPTIONAL_FUNCTIONS, SIGNATURES
from ..grading.compare import INTERVALS

__all__ = ["CASES_FILE", "FUNCTIONS_FILE", "MARKERS", "cases_json", "course_cases",
           "function_table", "functions_json", "write_functions_file"]

FUNCTIONS_FILE = Path("tests") / "public" / "data" / "functions.json"
CASES_FILE = Path("tests") / "public" / "data" / "cases.json"

MARKERS = {"random_anonymizer": "random", "clustering_anonymizer": "clustering",
           "bottomup_anonymizer": "bottomup", "topdown_anonymizer": "topdown",
           "topdown_greedy": "greedy"}
"""Functions whose `pytest -k` name is not the function's own."""
MEASURES = ("entropy_l", "t_closeness")
"""The privacy measures among COST_FUNCTIONS (optional parts with tests of their own)."""
EXAMPLE_VALUES = {"k": 2, "s": 0, "l": 1, "max_sup": 0}
"""The values of the raw-file test's call (it must refuse before using them)."""
K_ANONYMOUS = {"test": "valid_and_k_anonymous", "checks": [["check_k", "k"]]}
PROPERTY = {
    "samarati": {"test": "valid_and_k_anonymous_after_suppression",
                 "checks": [["check_suppressed_k", "k", "extra"]]},
    "bottomup_anonymizer": {"test": "valid_and_k_anonymous_and_l_diverse",
                            "checks": [["check_k", "k"], ["check_l", "extra"]]},
}
"""The privacy property an anonymizer's output must have, when not k-anonymity alone."""


def _kind(function: str) -> str:
    if function in MEASURES:
        return "measure"
    return "cost" if function in COST_FUNCTIONS else "anonymizer"


CHECKS = {"anonymizer": ["property", "expected", "bad_calls"], "cost": ["value", "bad_cells"],
          "measure": ["signature", "value", "bad_calls"]}
"""The generic tests each kind of function gets (an optional anonymizer also `signature` and
`raw_file`); a function the course's rules judge gets ["rules"] (test_public_rules.py)."""


def _checks(function: str, kind: str, by_rules: bool) -> list[str]:
    if by_rules:
        return ["rules"]
    if kind == "anonymizer" and function in OPTIONAL_FUNCTIONS:
        return ["signature", *CHECKS[kind], "raw_file"]
    return CHECKS[kind]


def _entry(function: str, by_rules: bool) -> dict:
    params = SIGNATURES[function]
    kind = _kind(function)
    entry: dict = {"marker": MARKERS.get(function, function), "kind": kind,
                   "signature": f"({', '.join(params)})",
                   "optional": function in OPTIONAL_FUNCTIONS,
                   "checks": _checks(function, kind, by_rules)}
    if kind == "anonymizer":
        values = params[params.index("DGH_folder") + 1:params.index("output_file")]
        entry["extra"] = values[1] if len(values) > 1 else None
        entry["example"] = [EXAMPLE_VALUES[v] for v in values]
        entry["intervals"] = function in INTERVALS
        entry["property"] = PROPERTY.get(function, K_ANONYMOUS)
    return entry


Names = list[str] | tuple[str, ...] | frozenset[str]


def function_table(functions: Names, by_rules: Names = ()) -> dict:
    """The self-check's table of `functions` (the kit's among them, in the handout's order);
    those of `by_rules` are judged by the course's rules."""
    return {"functions": {f: _entry(f, f in by_rules) for f in GRADABLE if f in functions}}


def functions_json(functions: Names = GRADABLE, by_rules: Names = ()) -> str:
    return cases_json(function_table(functions, by_rules))


def write_functions_file(kit_root: Path) -> Path:
    """Write the kit's copy (every gradable function)."""
    path = kit_root / FUNCTIONS_FILE
    path.write_text(functions_json(), encoding="utf-8")
    return path


def course_cases(cases: dict, graded: frozenset[str]) -> dict:
    """The kit's public cases (tests/public/data/cases.json) cut to the functions a course
    grades: its runs, bad calls and measures, the cost cases when it grades a cost, and the
    anonymized inputs those use."""
    costs = bool(graded & {"cost_MD", "cost_LM"})
    out = {"about": {k: v for k, v in cases["about"].items() if k.split(":")[0] in graded},
           "runs": [run for run in cases["runs"] if run["function"] in graded],
           "costs": cases["costs"] if costs else [],
           "measures": [m for m in cases["measures"] if m["function"] in graded],
           "bad_calls": [b for b in cases["bad_calls"] if b["function"] in graded],
           "bad_costs": cases["bad_costs"] if costs else [],
           "bad_measures": [b for b in cases["bad_measures"] if b["function"] in graded]}
    used = set(out["costs"]) | {m["input"] for m in out["measures"]}
    out["inputs"] = {k: v for k, v in cases["inputs"].items() if k in used}
    return {key: out[key] for key in cases}  # the kit's order of keys


def cases_json(cases: dict) -> str:
    """The text of cases.json (and functions.json): one entry a line, under its table's
    key."""
    lines = []
    for key, value in cases.items():
        if isinstance(value, dict):
            items = [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}"
                     for k, v in value.items()]
            opening, closing = "{", "}"
        else:
            items = [f"  {json.dumps(v, ensure_ascii=False)}" for v in value]
            opening, closing = "[", "]"
        body = ",\n".join(items)
        lines.append(f" {json.dumps(key)}: {opening}\n{body}\n {closing}" if items
                     else f" {json.dumps(key)}: {opening}{closing}")
    return "{\n" + ",\n".join(lines) + "\n}\n"
