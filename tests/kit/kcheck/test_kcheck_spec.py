"""kcheck.spec: a course's columns stated once. The TDG lab's contract (courses/tdg-lab/):
8 QIs, `class` sensitive, the numeric QIs exactly those without a hierarchy file, ';' paths
files; on the first rows of the USTC twin data a release made by sorting and chunking
passes, and its numeric QIs are inferred as age and education_num."""
from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from kcheck import Spec, judge_number, render, spec_of
from kcheck.cells import make_columns
from kcheck.tables import parse_table
from kcheck_data import JOB_PATHS, RAW_CSV, output

REPO = Path(__file__).resolve().parents[3]
DATA = REPO / "courses" / "ustc" / "cases" / "public" / "adult" / "adult-hw1.csv"
TDG = Spec(qis=("age", "work_class", "education_num", "marital_status", "occupation", "race",
                "sex", "native_country"), sensitive="class")
MARITAL = {"Married": ("Married-civ-spouse", "Married-AF-spouse"),
           "leave": ("Divorced", "Separated"), "alone": ("Widowed", "Married-spouse-absent"),
           "NM": ("Never-married",)}


def test_the_example_through_a_spec(tmp_path: Path) -> None:
    (tmp_path / "job.txt").write_text(JOB_PATHS, encoding="utf-8")
    (tmp_path / "name.txt").write_text("Ann;*\n", encoding="utf-8")  # not a QI: ignored
    spec = spec_of(["age", "job"], "disease")
    assert spec.released_columns() == ("age", "job", "disease")
    case = spec.prepare(RAW_CSV.encode(), tmp_path)
    assert list(case.columns) == ["age", "job"] and case.columns["age"].numeric
    assert spec.judge(case, output(), k=2).verdict.ok
    assert spec.judge(case, output(), k=3).verdict.rule == "quality.k"


def test_a_spec_refuses_a_contradiction() -> None:
    with pytest.raises(ValueError, match="is a QI"):
        Spec(("age", "class"), "class")
    with pytest.raises(ValueError, match="must hold every QI"):
        Spec(("age",), "class", released=("age",))
    with pytest.raises(ValueError, match="distinct"):
        Spec(("age", "age"), "class")
    with pytest.raises(ValueError, match="unknown hierarchy format"):
        Spec(("age",), "class", hierarchy_format="xml")


def _tdg_hierarchies(folder: Path, rows: list[dict[str, str]]) -> None:
    work = ["Private;*", "Self-emp-not-inc;Self-employ;*", "Self-emp-inc;Self-employ;*",
            "Federal-gov;gov;*", "Local-gov;gov;*", "State-gov;gov;*",
            "Without-pay;not-work;*", "Never-worked;not-work;*"]
    texts = {"work_class": "\n".join(work) + "\n",
             "marital_status": "".join(f"{m};{g};*\n" for g, ms in MARITAL.items() for m in ms)}
    for column in ("occupation", "race", "sex", "native_country"):
        texts[column] = "".join(f"{v};*\n" for v in sorted({r[column] for r in rows}))
    for column, text in texts.items():
        (folder / f"{column}.txt").write_text(text, encoding="utf-8")


def test_the_tdg_labs_contract_on_the_twin_data(tmp_path: Path) -> None:
    lines = DATA.read_text(encoding="utf-8").splitlines()[:401]
    raw_bytes = ("\n".join(lines) + "\n").encode()
    raw = parse_table(raw_bytes, "adult-hw1.csv")
    records = [dict(zip(raw.header, r)) for r in raw.rows]
    _tdg_hierarchies(tmp_path, records)
    case = TDG.prepare(raw, tmp_path)
    assert TDG.numeric_columns(TDG.read_hierarchies(tmp_path)) == ("age", "education_num")
    released = TDG.released_columns()
    assert [c for c in raw.header if c in released] == [*TDG.qis, "class"]

    k = 7
    columns = make_columns(raw.header, raw.rows, TDG.read_hierarchies(tmp_path), TDG.qis,
                           ("age", "education_num"))
    order = sorted(range(len(records)), key=lambda r: tuple(
        int(records[r][q]) if q in ("age", "education_num") else records[r][q]
        for q in TDG.qis))
    chunks = [order[i:i + k] for i in range(0, len(order), k)]
    last = chunks.pop()
    chunks[-1].extend(last)
    out = [[records[r][c] for c in raw.header if c in released] for r in range(len(records))]
    header = [c for c in raw.header if c in released]
    for chunk in chunks:
        for q in TDG.qis:
            column = columns[q]
            middle = column.text(column.middle(column.raw(records[r][q]) for r in chunk))
            for r in chunk:
                out[r][header.index(q)] = middle
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows([header] + out)
    verdict, facts = TDG.judge(case, buffer.getvalue().encode(), k=k)
    assert verdict.ok, render(verdict)
    assert facts.smallest >= k and facts.cost > 0
    assert TDG.judge(case, buffer.getvalue().encode(), k=k, band_max=facts.cost / 2) \
        .verdict.rule == "quality.utility"
    assert judge_number(facts.cost, facts.cost * (1 + 1e-12), 1e-9, relative=True).ok
