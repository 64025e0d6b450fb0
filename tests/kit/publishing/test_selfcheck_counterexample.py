"""The public counterexample pool in the students' bundle (grader/publishing/pool_files.py) and
the bundle's self-check showing a counterexample (tests/public/teach.py): the bundle ships the
pool files of the course's graded parts (and variants) only, a rule-judged course its own
(rules/<part>.json);
every input of the shipped pool is public data and nothing in it is a hidden case's input or
answer; a single-bug mutant's self-check prints a counterexample for exactly its function
(all mutants: bench/bench_selfcheck_teach.py)."""
from __future__ import annotations

import csv
import gzip
import io
import json
import zipfile
from pathlib import Path

import pytest

from mutants import MUTANTS
from selfcheck_teach import ALL, FUNCTIONS, caught_in, run, solution
from shared_bundles import course_bundle, unpacked_bundle

KIT = Path(__file__).resolve().parents[3]
POOL = "tests/public/data/counterexamples/"


def _pool(factory: pytest.TempPathFactory, course: str) -> dict[str, dict]:
    """The pool files in the bundle of `course` (relative to the kit; the run's shared
    build, tests/kit/shared_bundles.py): name -> JSON."""
    with zipfile.ZipFile(course_bundle(factory, KIT / course)) as archive:
        return {name.split(POOL, 1)[1]: json.loads(archive.read(name))
                for name in archive.namelist() if POOL in name}


def test_the_bundle_ships_the_pool_of_the_graded_parts_only(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    assert sorted(_pool(tmp_path_factory, "grader/rubric-2025.toml")) == [
        "clustering_anonymizer~lm-only.json", "cost_LM.json", "cost_MD.json",
        "random_anonymizer.json", "topdown_anonymizer.json"]  # the variant's, not the default's
    assert sorted(_pool(tmp_path_factory, "grader/rubric.toml")) == sorted(
        f"{f}.json" for f in ("cost_MD", "cost_LM", "random_anonymizer", "clustering_anonymizer",
                              "bottomup_anonymizer", "samarati", "mondrian"))
    # judged by its rules: its own pool (public data only: test_rules_counterexamples.py)
    own = KIT / "courses" / "ustc" / "cases" / "counterexamples"
    ustc = _pool(tmp_path_factory, "courses/ustc")
    assert ustc == {
        f"rules/{p.name}": json.loads(p.read_text(encoding="utf-8"))
        for p in sorted((own / "rules").glob("*.json"))}
    assert len(ustc) == 3


def _csv(path: Path) -> list[list[str]]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8", newline="") as f:
        return list(csv.reader(f))


def _hidden() -> tuple[set[str], set[str]]:
    """The hidden cases' values that occur in no public file, and their expected outputs
    (texts)."""
    public: set[str] = set()
    for folder in (KIT / "tests" / "public" / "data", KIT / "grader" / "cases" / "public"):
        for path in folder.rglob("*"):
            if path.name.endswith((".csv", ".csv.gz")):
                public |= {c for row in _csv(path) for c in row}
            elif path.suffix == ".txt":
                public |= {line.strip() for line in path.read_text(encoding="utf-8").splitlines()}
    hidden_values: set[str] = set()
    for path in (KIT / "grader" / "cases" / "hidden").rglob("*.csv"):
        hidden_values |= {c for row in _csv(path)[1:] for c in row}
    manifest = json.loads((KIT / "grader" / "cases" / "manifest.json").read_text("utf-8"))
    answers = {(KIT / "grader" / "cases" / e["file"]).read_text(encoding="utf-8").strip()
               for e in manifest["entries"].values() if e["data"].startswith("hidden/")}
    only = {v for v in hidden_values - public if len(v) >= 4 and not v.isdigit()}
    return only, answers


def test_the_bundle_pool_holds_public_inputs_and_no_hidden_case(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    only_hidden, hidden_answers = _hidden()
    assert {"Brussels", "Antwerp"} <= only_hidden and hidden_answers  # the check means something
    adult = _csv(KIT / "adult-hw1.csv")
    pool = _pool(tmp_path_factory, ALL)
    assert len(pool) == 13
    for name, data in pool.items():
        text = json.dumps(data, ensure_ascii=False)
        assert not [v for v in only_hidden if json.dumps(v, ensure_ascii=False) in text], name
        for source in data["sources"].values():  # every input row is the public file's row
            label = source["label"]
            table = adult if label == "adult-hw1.csv" else _csv(KIT / label)
            assert table[0] == source["header"], (name, label)
            for number, cells in source["rows"].items():
                assert table[int(number)] == cells, (name, label, number)
            if source.get("anonymized") is not None:
                anonymized = _csv(KIT / "grader" / "cases" / "public" / "adult" / "anonymized"
                                  / source["anonymized_label"]) if label == "adult-hw1.csv" \
                    else _csv(Path(KIT / label).parent / source["anonymized_label"])
                for number, cells in source["anonymized"].items():
                    assert anonymized[int(number)] == cells, (name, label, number)
        for chain in data["chains"]:
            for member in chain["members"]:
                expected = member["expected"]
                assert not (isinstance(expected, str) and expected.strip() in hidden_answers)


SLOW_MUTANTS = ("mondrian: the upper median", "LM as a mean over records instead of a sum")
SMALL = ("-k", "not adult")
"""The self-check's tests of every function on the small public cases: the mutant's own on
adult-hw1.csv wait for its small cases anyway (call_gate.py: not run once one fails), and the
other functions' adult-size runs (three quarters of a whole run's CPU time) add nothing to
"exactly its function" that their small cases do not show."""


@pytest.mark.slow
@pytest.mark.parametrize("name", SLOW_MUTANTS)
def test_a_mutants_bundle_self_check_shows_a_counterexample_for_exactly_its_function(
        name: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    mutant = next(m for m in MUTANTS if m.name == name)
    folder = unpacked_bundle(tmp_path_factory, KIT / ALL,  # built once per run
                             tmp_path_factory.mktemp("bundle"))
    work = tmp_path_factory.mktemp("mutant")
    lessons, _, stdout = run(folder, solution(mutant, work), caught_in(mutant), *SMALL)
    assert [x.function for x in lessons] == [FUNCTIONS[mutant.marker]], stdout
    lesson = lessons[0]
    assert lesson.found and lesson.calls >= 1
    assert "python -c \"import os, sys; sys.path.insert(0, r'" in lesson.text
    rows = int(lesson.text.split("raw.csv (", 1)[1].split(" ", 1)[0])
    assert 1 <= rows <= 12
