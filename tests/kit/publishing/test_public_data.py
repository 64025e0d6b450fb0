"""The public tests are data-driven (issue 39, item 2): their Python names no function, the
table of functions (tests/public/data/functions.json) is written from the contracts, and a
bundle differs from the kit only by data: the table and the cases cut to its course."""
from __future__ import annotations

import json
import re
from pathlib import Path

from grader.authoring.public_data import (cases_json, course_cases, function_table,
                                          functions_json)
from grader.contract import GRADABLE
from grader.publishing.course_files import course_entries
from grader.zipfiles import Entry

REPO = Path(__file__).resolve().parents[3]
PUBLIC = REPO / "tests" / "public"
GENERIC = ("conftest.py", "public_cases.py", "test_public_api.py", "test_public_functions.py",
           "kanon_options.py", "solution_import.py")
"""The self-check's modules that every course gets as they are."""


def test_the_function_table_is_fresh() -> None:
    stored = (PUBLIC / "data" / "functions.json").read_text(encoding="utf-8")
    assert stored == functions_json(), "functions.json is stale: run `python -m grader regen`"


def test_the_cases_file_keeps_one_case_a_line() -> None:
    stored = (PUBLIC / "data" / "cases.json").read_text(encoding="utf-8")
    assert cases_json(json.loads(stored)) == stored


def test_the_table_says_what_each_function_gets() -> None:
    table = function_table(["samarati", "cost_MD", "kaca"])["functions"]
    assert list(table) == ["cost_MD", "samarati", "kaca"]  # the handout's order
    assert table["cost_MD"] == {"marker": "cost_MD", "kind": "cost", "optional": False,
                                "signature": "(raw_dataset_file, anonymized_dataset_file, "
                                             "DGH_folder)", "checks": ["value", "bad_cells"]}
    assert table["samarati"]["extra"] == "max_sup" and table["samarati"]["example"] == [2, 0]
    assert table["samarati"]["property"]["checks"] == [["check_suppressed_k", "k", "extra"]]
    assert table["samarati"]["checks"] == ["property", "expected", "bad_calls"]
    assert table["kaca"]["optional"] and table["kaca"]["example"] == [2]
    assert table["kaca"]["checks"] == ["signature", "property", "expected", "bad_calls",
                                       "raw_file"]
    mondrian = function_table(["mondrian"], by_rules=["mondrian"])["functions"]["mondrian"]
    assert mondrian["intervals"] is True and mondrian["checks"] == ["rules"]


def test_the_generic_modules_name_no_function() -> None:
    names = {spec["marker"] for spec in function_table(GRADABLE)["functions"].values()}
    pattern = re.compile(r"\b(" + "|".join(sorted(names | set(GRADABLE))) + r")\b")
    found = {name: pattern.findall((PUBLIC / name).read_text(encoding="utf-8"))
             for name in GENERIC}
    assert not {name: hits for name, hits in found.items() if hits}
    assert {p.name for p in PUBLIC.glob("test_public_*.py")} == {
        "test_public_api.py", "test_public_functions.py", "test_public_course_parts.py",
        "test_public_rules.py"}  # no copy per function


CASES = {
    "about": {"samarati": "s", "cost_MD": "c", "clustering_anonymizer:lm-only": "v"},
    "runs": [{"function": "samarati", "case": "sam", "k": 2, "extra": 0},
             {"function": "clustering_anonymizer", "case": "world", "k": 4,
              "variant": "lm-only"}],
    "inputs": {"a": {"case": "jobsex", "anonymized": "anon.csv"},
               "b": {"case": "adult", "anonymized": "mondrian-adult-k8.csv.gz"},
               "c": {"case": "disease", "anonymized": "anon.csv"}},
    "costs": ["a", "b"],
    "measures": [{"function": "entropy_l", "input": "c"}],
    "bad_calls": [{"function": "samarati", "case": "sam", "args": [2, -1], "reason": "r"}],
    "bad_costs": [{"case": "jobsex", "anonymized": "x.csv", "column": "Job"}],
    "bad_measures": [],
}


def test_a_course_gets_its_own_functions_cases() -> None:
    cut = course_cases(CASES, frozenset({"cost_MD", "clustering_anonymizer"}))
    assert list(cut) == list(CASES)
    assert cut["about"] == {"cost_MD": "c", "clustering_anonymizer:lm-only": "v"}
    assert cut["runs"] == [CASES["runs"][1]]
    assert cut["inputs"] == {"a": CASES["inputs"]["a"], "b": CASES["inputs"]["b"]}
    assert (cut["costs"], cut["measures"], cut["bad_calls"]) == (["a", "b"], [], [])
    assert cut["bad_costs"] == CASES["bad_costs"]
    only = course_cases(CASES, frozenset({"entropy_l"}))
    assert (only["costs"], only["bad_costs"], list(only["inputs"])) == ([], [], ["c"])


def test_a_bundle_differs_from_the_kit_by_data_alone() -> None:
    data = "tests/public/data/"
    entries = [Entry("tests/public/conftest.py", b"import x\n"),
               Entry(f"{data}index.json", b"{}"),
               Entry(f"{data}functions.json", functions_json().encode()),
               Entry(f"{data}cases.json", cases_json(CASES).encode()),
               Entry(f"{data}expected/mondrian-adult-k8.csv.gz", b"z")]
    graded = frozenset({"cost_MD", "cost_LM", "samarati", "own_function"})
    kit = graded - {"own_function"}
    out = {e.name: e.data for e in course_entries(entries, graded, kit, frozenset({"samarati"}))}
    assert out["tests/public/conftest.py"] == b"import x\n"
    assert f"{data}index.json" not in out
    assert out[f"{data}expected/anonymized-adult-k8.csv.gz"] == b"z"
    assert json.loads(out[f"{data}functions.json"]) == function_table(kit, ["samarati"])
    cases = json.loads(out[f"{data}cases.json"])
    assert cases["inputs"]["b"]["anonymized"] == "anonymized-adult-k8.csv.gz"
    assert cases["runs"] == cases["bad_calls"] == []  # samarati's: the rules self-check's
    assert "mondrian" not in out[f"{data}cases.json"].decode()
