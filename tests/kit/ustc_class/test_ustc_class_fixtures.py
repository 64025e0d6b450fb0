"""Sanity of the USTC class's fixtures (not their grading): every student folder is labelled
with known outcomes, defines the lab's two functions with the lab's parameters and imports
only the standard library, numpy and its own modules; and the brute-force rule judge the
labels were checked with (rules.py) gives hand-computed verdicts on tiny tables."""
from __future__ import annotations

import ast
import sys
import tomllib
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from check_labels import RUNS, main_file  # noqa: E402
from rules import Case, judge_mondrian, judge_samarati  # noqa: E402

LABELS = tomllib.loads((HERE / "labels.toml").read_text(encoding="utf-8"))
STUDENTS = sorted(p.name for p in HERE.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")))
RULES = {"samarati": {"columns", "full-domain", "satisfies", "lowest-height", "deletion"},
         "mondrian": {"columns", "cover", "exact", "k", "median-cuts", "final"}}
PARAMS = {"samarati": ["raw_dataset_file", "DGH_folder", "k", "max_sup", "output_file"],
          "mondrian": ["raw_dataset_file", "DGH_folder", "k", "output_file"]}


def test_every_student_is_labelled_and_every_label_has_a_student() -> None:
    assert sorted(LABELS) == STUDENTS
    assert len(STUDENTS) >= 16


@pytest.mark.parametrize("student", STUDENTS)
def test_labels_name_known_outcomes(student: str) -> None:
    table = LABELS[student]
    assert table["style"] and table["why"]
    for key, (function, _, _) in RUNS.items():
        value = table[key]
        if value in ("right", "error"):
            continue
        rules = [value] if isinstance(value, str) else value
        assert rules and set(rules) <= RULES[function], (key, value)


@pytest.mark.parametrize("student", STUDENTS)
def test_submission_defines_the_lab_functions_and_imports_only_allowed_modules(student: str) -> None:
    folder = HERE / student
    main = main_file(folder)
    tree = ast.parse(main.read_text(encoding="utf-8"))
    functions = {n.name: [a.arg for a in n.args.args] for n in tree.body
                 if isinstance(n, ast.FunctionDef)}
    for name, params in PARAMS.items():
        assert functions[name] == params
    own = {p.stem for p in folder.glob("*.py")}
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) else []
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or top == "numpy" or top in own, \
                    f"{path.name} imports {name}"


# ---------------------------------------------------------------- the judge, by hand

SAMARATI_RAW = [("30", "M", "a"), ("31", "M", "b"), ("30", "F", "c"), ("31", "F", "d"),
                ("40", "M", "e"), ("41", "M", "f"), ("40", "M", "g"), ("41", "F", "h")]
AGE = "30,[30-31]\n31,[30-31]\n40,[40-41]\n41,[40-41]\n[30-31],*\n[40-41],*\n"


def _case(tmp_path: Path, header: list[str], rows, dghs: dict[str, str]) -> Case:
    (tmp_path / "raw.csv").write_text(
        "\n".join(",".join(r) for r in [header, *rows]) + "\n", encoding="utf-8")
    (tmp_path / "DGHs").mkdir()
    for name, text in dghs.items():
        (tmp_path / "DGHs" / f"{name}.txt").write_text(text, encoding="utf-8")
    return Case(str(tmp_path / "raw.csv"), str(tmp_path / "DGHs"))


def _output(tmp_path: Path, header: list[str], rows) -> str:
    path = tmp_path / "out.csv"
    path.write_text("\n".join(",".join(r) for r in [header, *rows]) + "\n", encoding="utf-8")
    return str(path)


def test_samarati_judge_by_hand(tmp_path: Path) -> None:
    # k=2, max_sup=1: height 1 is the lowest; (0,1) has no outlier, (1,0) one (row h)
    case = _case(tmp_path, ["age", "sex", "occupation"], SAMARATI_RAW,
                 {"age": AGE, "sex": "M,*\nF,*\n"})
    header = ["age", "sex", "occupation"]
    by_sex = [(a, "*", o) for a, _, o in SAMARATI_RAW]
    assert judge_samarati(case, 2, 1, _output(tmp_path, header, by_sex)) == []
    by_age = [(f"[{a[0]}0-{a[0]}1]", s, o) for a, s, o in SAMARATI_RAW]
    assert judge_samarati(case, 2, 1, _output(tmp_path, header, by_age[:7])) == []
    starred = by_age[:7] + [("*", "*", "h")]
    assert [b.split(":")[0] for b in judge_samarati(case, 2, 1, _output(tmp_path, header, starred))] \
        == ["full-domain", "deletion"]
    top = [("*", "*", o) for _, _, o in SAMARATI_RAW]
    assert [b.split(":")[0] for b in judge_samarati(case, 2, 1, _output(tmp_path, header, top))] \
        == ["lowest-height"]
    assert judge_samarati(case, 2, 1, _output(tmp_path, ["age", "sex"], top))[0].startswith("columns")
    # every row deleted (raw_key_deletion at k=50 on the 4,000-row twin): no cell shows a
    # vector, and 8 rows deleted is more than max_sup allows whatever the vector
    assert [b.split(":")[0] for b in judge_samarati(case, 2, 1, _output(tmp_path, header, []))] \
        == ["deletion"]


def test_mondrian_judge_by_hand(tmp_path: Path) -> None:
    # the lab's example, k=2: [1,2,3,3,4,5] -> [1,2] [3,3] [4,5] by strict median cuts
    ages = ["1", "2", "3", "3", "4", "5"]
    case = _case(tmp_path, ["age", "occupation"], [(a, "x") for a in ages],
                 {"age": "".join(f"{a},*\n" for a in sorted(set(ages)))})
    header = ["age", "occupation"]

    def judged(cells: list[str]) -> list[str]:
        out = _output(tmp_path, header, [(c, "x") for c in cells])
        return [b.split(":")[0] for b in judge_mondrian(case, 2, out)]

    assert judged(["[1-2]", "[1-2]", "3", "3", "[4-5]", "[4-5]"]) == []
    assert judged(["[1-3]", "[1-3]", "[1-3]", "[3-5]", "[3-5]", "[3-5]"]) == ["median-cuts"]
    assert judged(["[1-3]", "[1-3]", "3", "3", "[4-5]", "[4-5]"]) == ["exact"]
    assert judged(["[1-3]", "[1-3]", "[1-3]", "[1-3]", "[4-5]", "[4-5]"]) == ["final"]
    assert judged(["[1-2]", "[1-2]", "3", "3", "4", "5"]) == ["k", "median-cuts"]
    assert judged(["[1-2]", "[1-2]", "3", "4", "[4-5]", "[4-5]"])[0] == "cover"
