"""`python -m reference.experiments`: the report's sweeps, their CSV and plots."""
from __future__ import annotations

import csv
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from reference import bottomup_anonymizer, cost_LM, cost_MD, random_anonymizer, samarati
from reference import experiments

REPO = Path(__file__).resolve().parents[3]
HAS_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> Path:
    """The first 300 rows of adult-hw1.csv: every algorithm runs in milliseconds."""
    folder = tmp_path_factory.mktemp("small")
    lines = (REPO / "adult-hw1.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    (folder / "raw.csv").write_text("".join(lines[:301]), encoding="utf-8")
    return folder


def _args(small: Path, out: Path, *more: str) -> list[str]:
    return ["--out", str(out), "--data", str(small / "raw.csv"), "--dghs", str(REPO / "DGHs"),
            "--k", "4,16", "--l", "1,2,3", "--l-k", "4", "--seeds", "2", "--max-sup", "0,20",
            "--quiet", *more]


def _rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def _without_seconds(path: Path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return [row[:7] + row[8:] for row in csv.reader(f)]


def test_plan_covers_the_handout_sweeps_once() -> None:
    runs = experiments.plan(list(experiments.ALGORITHMS), seeds=5)
    labels = [r.label() for r in runs]
    assert len(labels) == len(set(labels))
    by_algorithm = {a: [r for r in runs if r.algorithm == a] for a in experiments.ALGORITHMS}
    assert len(by_algorithm["random"]) == 7 * 5
    assert len(by_algorithm["samarati"]) == 7 * len(experiments.MAX_SUP)
    assert len(by_algorithm["clustering"]) == len(by_algorithm["mondrian"]) == 7
    # bottom-up: l = 1 for every k, plus l = 2..8 at k = 16 (l = 1 at k = 16 is shared)
    assert len(by_algorithm["bottomup"]) == 7 + 7
    assert {r.l for r in by_algorithm["bottomup"] if r.k == 16} == set(range(1, 9))


def test_rubric_limits_the_algorithms(tmp_path: Path) -> None:
    rubric = tmp_path / "rubric.toml"
    rubric.write_text('[[part]]\nfunction = "cost_MD"\npoints = 5\n\n'
                      '[[part]]\nfunction = "mondrian"\npoints = 20\n', encoding="utf-8")
    assert experiments.enabled_algorithms(rubric) == ["mondrian"]
    assert experiments.enabled_algorithms(None) == list(experiments.ALGORITHMS)
    assert experiments.enabled_algorithms(REPO / "grader" / "rubric.toml") == \
        list(experiments.ALGORITHMS)


@pytest.fixture(scope="module")
def swept(small: Path, tmp_path_factory) -> Path:
    """The small sweep run twice in this process: one worker (a/) and two (b/), each
    writing its CSV, table and (with matplotlib) plots."""
    out = tmp_path_factory.mktemp("swept")
    assert experiments.main(_args(small, out / "a", "--jobs", "1")) == 0
    assert experiments.main(_args(small, out / "b", "--jobs", "2")) == 0
    return out


@pytest.mark.slow
def test_csv_holds_the_reference_costs_and_is_reproducible(small: Path, swept: Path,
                                                            tmp_path: Path) -> None:
    rows = _rows(swept / "a" / "experiments.csv")
    assert list(rows[0]) == experiments.COLUMNS
    # 2 k x 2 seeds random, 2 clustering, bottom-up 2 (l = 1) + 2 more l at k = 4,
    # Samarati 2 k x 2 max_sup, 2 mondrian
    assert len(rows) == 4 + 2 + 4 + 4 + 2
    raw, dghs = str(small / "raw.csv"), str(REPO / "DGHs")
    out = str(tmp_path / "check.csv")
    for row, call in [
        (next(r for r in rows if r["algorithm"] == "random" and r["k"] == "16"
              and r["seed"] == "1"), lambda: random_anonymizer(raw, dghs, 16, 1, out)),
        (next(r for r in rows if r["algorithm"] == "bottomup" and r["l"] == "3"),
         lambda: bottomup_anonymizer(raw, dghs, 4, 3, out)),
        (next(r for r in rows if r["algorithm"] == "samarati" and r["max_sup"] == "20"
              and r["k"] == "16"), lambda: samarati(raw, dghs, 16, 20, out)),
    ]:
        call()
        assert float(row["LM"]) == pytest.approx(cost_LM(raw, out, dghs), abs=1e-6)
        assert float(row["MD"]) == cost_MD(raw, out, dghs)
        assert int(row["classes"]) >= 1 and float(row["seconds"]) >= 0
        assert row["l"] == ("3" if row["algorithm"] == "bottomup" else "")
    # Two worker processes give the same rows (only the measured seconds differ).
    assert _without_seconds(swept / "a" / "experiments.csv") == \
        _without_seconds(swept / "b" / "experiments.csv")
    table = (swept / "a" / "table.md").read_text(encoding="utf-8")
    assert "| Samarati (max_sup = 20) | 16 |" in table and "| bottom-up (k = 4) | 3 |" in table


def test_without_matplotlib_the_csv_is_written_and_the_hint_printed(
        small: Path, tmp_path: Path, monkeypatch, capsys) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "matplotlib" else real(name, *a))
    assert experiments.main(_args(small, tmp_path, "--jobs", "1")) == 0
    err = capsys.readouterr().err
    assert experiments.PLOTS_HINT in err and 'pip install -e ".[plots]"' in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["experiments.csv", "table.md"]


@pytest.mark.slow
@pytest.mark.skipif(not HAS_MATPLOTLIB, reason="matplotlib is not installed (the plots extra)")
def test_plots_are_written_and_cost_plots_are_reproducible(small: Path, swept: Path,
                                                             tmp_path: Path) -> None:
    """The command writes the six plots; its cost plots are byte for byte those of the same
    sweep run again (here, in this process: `swept`)."""
    cmd = [sys.executable, "-m", "reference.experiments"]
    done = subprocess.run(cmd + _args(small, tmp_path / "a", "--jobs", "1"), cwd=REPO,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    names = [f"{m}_vs_{s}.png" for s in ("k", "l") for m in ("LM", "MD", "seconds")]
    assert names[0] in done.stderr
    for name in names:
        data = (tmp_path / "a" / name).read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 10_000
        if not name.startswith("seconds"):
            assert data == (swept / "a" / name).read_bytes()


def test_bad_arguments_are_one_line_errors(tmp_path: Path, capsys) -> None:
    assert experiments.main(["--out", str(tmp_path), "--data", str(tmp_path / "no.csv")]) == 2
    assert "dataset not found" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        experiments.main(["--out", str(tmp_path), "--k", "4,x"])
