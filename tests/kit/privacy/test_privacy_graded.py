"""The optional graded measures entropy_l and t_closeness (HANDOUT.md, "Privacy measures:
entropy_l and t_closeness (optional)"; reference/measures.py): the handout's worked
example, bad input, agreement with the checker's functions, and every stored expected value of
grader/rubric-optional.toml recomputed by a plain-Python transcription of the handout."""
from __future__ import annotations

import csv
import math
import random
from collections import Counter
from pathlib import Path

import pytest

import kanon.privacy
import reference
from grader.grading import expected as expected_mod
from grader import rubric
from kanon.privacy import t_closeness_of
from reference.measures import entropy_l, t_closeness

REPO = Path(__file__).resolve().parents[3]
PUBLIC_CASES = REPO / "tests" / "public" / "data" / "cases"
def _handout_of(rubric_file: str) -> str:
    from grader.publishing.materials import course_materials
    return course_materials(rubric.load(REPO / "grader" / rubric_file), REPO)[
        "HANDOUT.md"].decode("utf-8")


HANDOUT = _handout_of("rubric-all.toml")  # a course that grades the measures


@pytest.fixture()
def in_case(monkeypatch: pytest.MonkeyPatch):
    def enter(name: str) -> None:
        monkeypatch.chdir(PUBLIC_CASES / name)
    return enter


def test_the_handouts_example(in_case) -> None:
    in_case("disease")
    assert entropy_l("raw.csv", "anon-example.csv", "DGHs") == pytest.approx(3 / 2 ** (2 / 3))
    assert t_closeness("raw.csv", "anon-example.csv", "DGHs", "equal") == pytest.approx(0.5)
    with pytest.raises(ValueError, match="not all numbers"):
        t_closeness("raw.csv", "anon-example.csv", "DGHs", "ordered")
    in_case("disease-codes")
    assert t_closeness("raw.csv", "anon-example.csv", "DGHs", "ordered") == pytest.approx(31 / 72)
    assert t_closeness("raw.csv", "anon-example.csv", "DGHs", "equal") == pytest.approx(0.5)
    section = HANDOUT[HANDOUT.index("## Privacy measures"):HANDOUT.index("## Bad input")]
    assert "= 3 / 2^(2/3) = 1.8899" in section and f"{3 / 2 ** (2 / 3):.4f}" == "1.8899"
    assert "returns 31/72 = 0.4306 (C)" in section and f"{31 / 72:.4f}" == "0.4306"
    assert "returns 1/2 (A and C)" in section


@pytest.mark.parametrize("distance", ["hierarchical", "Equal", "", None, 1, True])
def test_only_the_graded_distances(in_case, distance) -> None:
    in_case("disease-codes")
    with pytest.raises(ValueError, match="distance must be one of 'equal', 'ordered'"):
        t_closeness("raw.csv", "anon-example.csv", "DGHs", distance)


def test_bad_files(in_case, tmp_path: Path) -> None:
    in_case("jobsex")
    for call in (lambda: entropy_l("raw.csv", "anon-not-ancestor.csv", "DGHs"),
                 lambda: t_closeness("raw.csv", "anon-not-ancestor.csv", "DGHs", "equal")):
        with pytest.raises(ValueError, match="data row .*'Job'"):
            call()
    with pytest.raises(FileNotFoundError):
        entropy_l("raw.csv", "missing.csv", "DGHs")
    # two non-QI columns: no single sensitive attribute
    (tmp_path / "DGHs").mkdir()
    (tmp_path / "DGHs" / "Sex.txt").write_text("Any\n\tMale\n\tFemale\n", encoding="utf-8")
    (tmp_path / "raw.csv").write_text("Job,Sex,Disease\nA,Male,Flu\nB,Female,Flu\n",
                                      encoding="utf-8")
    for call in (lambda: entropy_l(str(tmp_path / "raw.csv"), str(tmp_path / "raw.csv"),
                                   str(tmp_path / "DGHs")),
                 lambda: t_closeness(str(tmp_path / "raw.csv"), str(tmp_path / "raw.csv"),
                                     str(tmp_path / "DGHs"), "equal")):
        with pytest.raises(ValueError, match="2 non-QI columns"):
            call()


def test_the_reference_package_exports_them() -> None:
    assert reference.entropy_l is entropy_l and reference.t_closeness is t_closeness
    assert {"entropy_l", "t_closeness"} <= set(reference.OPTIONAL)


# ------------------------------------------------------------- a transcription of the handout
def _read(path: Path) -> tuple[list[str], list[list[str]]]:
    with open(path, encoding="utf-8-sig", newline="") as f:
        rows = [r for r in csv.reader(f) if r]
    return rows[0], rows[1:]


def plain(raw: Path, anon: Path, dghs: Path, distance: str | None) -> float:
    """entropy_l (distance None) or t_closeness, written as a student would from the handout
    (standard library only; the files are assumed valid)."""
    header, rows = _read(raw)
    _, out = _read(anon)
    qi = [c for c, name in enumerate(header) if (dghs / f"{name}.txt").is_file()]
    (s,) = [c for c in range(len(header)) if c not in qi]
    classes: dict[tuple, list[str]] = {}
    for o, r in zip(out, rows):
        classes.setdefault(tuple(o[c] for c in qi), []).append(r[s])
    if distance is None:
        def entropy(values: list[str]) -> float:
            return -sum(n / len(values) * math.log(n / len(values))
                        for n in Counter(values).values())
        return math.exp(min(entropy(v) for v in classes.values()))
    domain = sorted({r[s] for r in rows}, key=float if distance == "ordered" else str)
    q = Counter(r[s] for r in rows)
    worst = 0.0
    for values in classes.values():
        p = Counter(values)
        diff = [p[v] / len(values) - q[v] / len(rows) for v in domain]
        if distance == "equal":
            d = sum(abs(x) for x in diff) / 2
        else:
            running, total = 0.0, 0.0
            for x in diff:
                running += x
                total += abs(running)
            d = total / (len(domain) - 1) if len(domain) > 1 else 0.0
        worst = max(worst, d)
    return worst


OPTIONAL_RUBRIC = rubric.load(REPO / "grader" / "rubric-optional.toml")
MEASURE_CASES = [c for c in OPTIONAL_RUBRIC.cases() if c.function in ("entropy_l", "t_closeness")]


def test_the_optional_rubric_has_hidden_measure_cases() -> None:
    assert {c.function for c in MEASURE_CASES} == {"entropy_l", "t_closeness"}
    assert sum(c.hidden for c in MEASURE_CASES if c.function == "entropy_l") >= 4
    assert {c.ints.get("distance") for c in MEASURE_CASES if c.hidden and
            c.function == "t_closeness"} == {"equal", "ordered"}


@pytest.mark.parametrize("case", MEASURE_CASES, ids=[c.id for c in MEASURE_CASES])
def test_stored_expected_values_match_the_handouts_formulas(case) -> None:
    cases_dir = OPTIONAL_RUBRIC.cases_dir
    stored = expected_mod.lookup(case, cases_dir, expected_mod.load_manifest(cases_dir))
    folder = cases_dir / case.data
    if case.expect:
        assert stored.kind == "error" and stored.error == case.expect
        with pytest.raises(ValueError):
            plain(folder / "adult-hw1.csv", folder / case.anonymized, folder / "DGHs",
                  case.ints.get("distance", None))
        return
    value = plain(folder / "adult-hw1.csv", folder / case.anonymized, folder / "DGHs",
                  case.ints.get("distance"))
    assert stored.kind == "value" and stored.value == pytest.approx(value, rel=1e-9, abs=1e-12)
    assert value > 0


# ------------------------------------------------------------- agreement with the checker
def _random_case(folder: Path, seed: int) -> None:
    rng = random.Random(seed)
    folder.mkdir()
    (folder / "DGHs").mkdir()
    (folder / "DGHs" / "a.txt").write_text("Any\n\tA\n\t\ta1\n\t\ta2\n\tB\n\t\tb1\n\t\tb2\n",
                                           encoding="utf-8")
    (folder / "DGHs" / "b.txt").write_text("Any\n\tx\n\ty\n\tz\n", encoding="utf-8")
    n = rng.randrange(3, 40)
    raw = [[rng.choice(["a1", "a2", "b1", "b2"]), rng.choice("xyz"),
            str(rng.choice([3, 10, 25, 7.5, -2]))] for _ in range(n)]
    parent = {"a1": "A", "a2": "A", "b1": "B", "b2": "B"}
    levels = (rng.randrange(3), rng.randrange(2))
    anon = [[r[0] if levels[0] == 0 else parent[r[0]] if levels[0] == 1 else "Any",
             r[1] if levels[1] == 0 else "Any", r[2]] for r in raw]
    for name, rows in (("raw.csv", raw), ("anon.csv", anon)):
        with open(folder / name, "w", encoding="utf-8", newline="") as f:
            csv.writer(f, lineterminator="\n").writerows([["a", "b", "s"], *rows])


@pytest.mark.parametrize("seed", range(30))
def test_agrees_with_the_checker_and_the_transcription(tmp_path: Path, seed: int) -> None:
    folder = tmp_path / "case"
    _random_case(folder, seed)
    raw, anon, dghs = (str(folder / n) for n in ("raw.csv", "anon.csv", "DGHs"))
    value = entropy_l(raw, anon, dghs)
    assert math.floor(value * (1 + 1e-9)) == kanon.privacy.entropy_l_of(raw, anon, dghs)
    assert value == pytest.approx(plain(folder / "raw.csv", folder / "anon.csv",
                                        folder / "DGHs", None), rel=1e-12)
    for distance in ("equal", "ordered"):
        t = t_closeness(raw, anon, dghs, distance)
        assert t == t_closeness_of(raw, anon, dghs, distance)
        assert t == pytest.approx(plain(folder / "raw.csv", folder / "anon.csv",
                                        folder / "DGHs", distance), rel=1e-9, abs=1e-12)
