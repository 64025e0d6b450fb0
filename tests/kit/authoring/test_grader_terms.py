"""Fresh hidden cases per term of a course (issues 19 and 24): `python -m grader regen --course
DIR --term NAME` draws new hidden datasets and arguments from seeds derived from the course's
secret and NAME (HMAC-SHA256), records the term in course.toml and the manifest, and grading
names it; public cases and the kit's default cases never change.

Everything here works in course folders in tmp_path (never the checkout's grader/cases), with
a small rubric whose hidden cases carry the size-bound k's of the real rubrics, and a fixed
test secret (KEY) so the draws are reproducible here."""
from __future__ import annotations

import hashlib
import hmac
import json
import re
import shutil
import unicodedata
from dataclasses import replace
from pathlib import Path

import pytest

from staff_submission import staff_submission

from grader import cli, rubric
from grader.authoring import casegen, terms
from grader.authoring.regen import _run_reference, regenerate
from grader.courses.folder import load_course
from grader.courses.redraw import redraw
from grader.authoring.terms import term_seed
from grader.errors import UserError
from grader.grading.expected import load_manifest
from grader.grading.freshness import stale
from grader.grading.term_view import apply_term, case_ident, render_name
from grader.paths import KIT_ROOT
from kanon.table import parse_table

REPO = Path(__file__).resolve().parents[3]
CASES = REPO / "grader" / "cases"

RUBRIC = """
[settings]
import_time_limit = 10.0
time_limit = 10.0
time_per_1000_rows = 0.0
cases_dir = "cases"

[[part]]
function = "cost_LM"
points = 10

[[part.case]]
name = "adult-hw1, generalized levels"
data = "public/adult"
anonymized = "anonymized/levels.csv"

[[part.case]]
name = "single QI, suppressed rows"
data = "hidden/single-qi"
anonymized = "anonymized/suppressed.csv"
hidden = true

[[part]]
function = "random_anonymizer"
points = 10

[[part.case]]
name = "unbalanced, k=5 (n=53)"
data = "hidden/unbalanced"
k = 5
s = 1
hidden = true

[[part.case]]
name = "ties, k=17 (two ECs)"
data = "hidden/ties"
k = 17
s = 2
hidden = true

[[part]]
function = "bottomup_anonymizer"
points = 10

[[part.case]]
name = "single QI, k=n=31"
data = "hidden/single-qi"
k = 31
l = 1
hidden = true

[[part]]
function = "samarati"
points = 10

[[part.case]]
name = "ten QIs, k=5, max_sup=3 (suppression decides)"
data = "hidden/many-qi"
k = 5
max_sup = 3
hidden = true

[[part]]
function = "mondrian"
points = 10

[[part.case]]
name = "ties, k=35 (n=36)"
data = "hidden/ties"
k = 35
hidden = true

[[part.case]]
name = "commas, quotes, non-ASCII, k=2"
data = "hidden/quoted"
k = 2
hidden = true
"""
TERMS = ("Fall 2026", "Spring 2027")
KEY = bytes(range(32))  # a fixed test secret (a real course's comes from `secrets`)


def _regen(folder: Path, term: str, key: bytes = KEY) -> rubric.Rubric:
    """A course folder `folder` with the small rubric, the secret `key` and its cases drawn
    for `term`."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "course.toml").write_text(f'[course]\nterm = "{term}"\n' + RUBRIC,
                                        encoding="utf-8")
    (folder / "secret").write_text(key.hex() + "\n", encoding="ascii")
    redraw(load_course(folder), None)
    return rubric.load(folder / "course.toml")


def _plain(folder: Path) -> rubric.Rubric:
    """The small rubric as a plain rubric file in `folder` (the kit's default cases)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "rubric.toml").write_text(RUBRIC, encoding="utf-8")
    r = rubric.load(folder / "rubric.toml")
    regenerate([r], KIT_ROOT)
    return r


def _files(cases: Path) -> dict[str, bytes]:
    return {p.relative_to(cases).as_posix(): p.read_bytes()
            for p in sorted(cases.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Term name -> a folder holding the small rubric and its cases for that term."""
    base = tmp_path_factory.mktemp("terms")
    folders = {}
    for i, term in enumerate(TERMS):
        _regen(base / f"t{i}", term)
        folders[term] = base / f"t{i}"
    return folders


def _rows(cases: Path, data: str) -> int:
    path = cases / data / "adult-hw1.csv"
    return len(parse_table(path.read_bytes(), str(path)).rows)


@pytest.mark.slow
def test_two_terms_differ_in_hidden_data_and_read_the_kits_public_cases(made) -> None:
    a, b = (_files(made[t] / "cases") for t in TERMS)
    default = load_manifest(CASES)["files"]
    assert not [n for n in list(a) + list(b) if n.startswith("public/")]  # the kit's are read
    for dataset in casegen.HIDDEN:
        raw = f"hidden/{dataset}/adult-hw1.csv"
        assert a[raw] != b[raw] and hashlib.sha256(a[raw]).hexdigest() != default[raw], raw
        dghs = [n for n in default if n.startswith(f"hidden/{dataset}/DGHs/")]
        assert dghs and all(hashlib.sha256(a[n]).hexdigest() == default[n] for n in dghs)


@pytest.mark.slow
def test_the_same_term_twice_gives_the_same_bytes(made, tmp_path: Path) -> None:
    _regen(tmp_path / "again", TERMS[0])
    assert _files(tmp_path / "again" / "cases") == _files(made[TERMS[0]] / "cases")


@pytest.mark.slow
def test_the_same_term_with_another_secret_gives_other_hidden_data(made, tmp_path: Path) -> None:
    _regen(tmp_path / "other", TERMS[0], key=bytes(32))
    mine, theirs = _files(made[TERMS[0]] / "cases"), _files(tmp_path / "other" / "cases")
    for dataset in casegen.HIDDEN:
        raw = f"hidden/{dataset}/adult-hw1.csv"
        assert mine[raw] != theirs[raw], raw
    expected = {n for n in mine if n.startswith("expected/")}
    assert expected != {n for n in theirs if n.startswith("expected/")}


def test_the_manifest_records_the_term_and_every_name_tells_the_truth(made) -> None:
    for term in TERMS:
        cases = made[term] / "cases"
        record = load_manifest(cases)["term"]
        assert record["name"] == term and record["seed"] == f"{term_seed(KEY, term, 'term'):016x}"
        for dataset, (_, default, (lo, hi)) in casegen.HIDDEN.items():
            n = record["rows"][f"hidden/{dataset}"]
            assert lo <= n <= hi and _rows(cases, f"hidden/{dataset}") == n
        base = rubric.load(made[term] / "course.toml")
        graded = apply_term(base)
        assert graded.term == term and stale([graded]) == []
        for original, case in zip(base.cases(), graded.cases()):
            if case.data.startswith("public/"):
                assert case == original
                continue
            assert record["cases"][case_ident(original)] == case.ints
            n, k = record["rows"][case.data], case.ints.get("k")
            for said in re.findall(r"\bn=(\d+)", case.name):
                assert int(said) == n, case.name
            for said in re.findall(r"\bk=(\d+)", case.name):
                assert int(said) == k, case.name
            if "k=n=" in case.name:
                assert k == n
            if "two ECs" in case.name:
                assert n // k == 2 and n % k, case.name  # still not a multiple of k
            if "(n=" in case.name and "k=" in case.name and "unbalanced" in case.name:
                assert n % k, case.name  # n not a multiple of k, as by default (53 % 5)
            if "suppression decides" in case.name:
                without = replace(case, ints={**case.ints, "max_sup": 0})
                assert _run_reference(case, cases) != _run_reference(without, cases)


def test_the_gradescope_zip_carries_the_term(made) -> None:
    from grader.publishing import gradescope
    from grader.zipfiles import zip_bytes
    entries = gradescope.collect(REPO, made[TERMS[0]])
    manifest = next(e for e in entries if e.name == "grader/cases/manifest.json")
    assert json.loads(manifest.data)["term"]["name"] == TERMS[0]
    gradescope.verify(zip_bytes(entries))  # its own check of the cases passes in the term


def test_k_follows_n_within_the_stated_ranges() -> None:
    def case(data: str, k: int) -> rubric.Case:
        return rubric.Case(id="p/c", part="p", function="mondrian", name="c", data=data,
                           ints={"k": k}, anonymized=None, hidden=True, weight=1.0,
                           time_limit=1.0, expect=None, visibility="hidden")
    for term in ("A", "B", "Été 2026", "x" * 64):
        for n in range(34, 41):
            assert [c["k"] for c in terms.candidates(term, KEY, case("hidden/ties", 35), n)] == [n - 1]
            assert terms.candidates(term, KEY, case("hidden/ties", 1), n) == [{"k": 1}]
            two = [c["k"] for c in terms.candidates(term, KEY, case("hidden/ties", 17), n)]
            assert two and all(n // k == 2 and n % k for k in two)
            small = [c["k"] for c in terms.candidates(term, KEY, case("hidden/ties", 4), n)]
            assert small[0] in (3, 4, 5) and sorted(small) == list(range(2, 9))  # fallbacks
            # 36 is a multiple of 4: the term's n is one of its k too, when it can be
            assert n % small[0] == 0 or not any(n % k == 0 for k in (3, 4, 5))
        public = case("public/adult", 4)
        assert terms.candidates(term, KEY, public, 9999) == [{"k": 4}]


def test_the_seed_is_an_hmac_of_the_nfc_name_under_the_courses_secret() -> None:
    decomposed = unicodedata.normalize("NFD", "Été 2026")
    assert terms.check_name(decomposed) == "Été 2026"
    expected = int.from_bytes(hmac.new(KEY, "kanon-kit term\0Été 2026\0rows:ties".encode(),
                                       hashlib.sha256).digest()[:8], "big")
    assert term_seed(KEY, "Été 2026", "rows:ties") == expected
    assert terms.draws("A", KEY) == terms.draws("A", KEY) != terms.draws("B", KEY)
    assert terms.draws("A", KEY) != terms.draws("A", bytes(32))  # the name alone is not enough


def test_names_are_rendered_with_the_terms_values() -> None:
    assert render_name("single QI, k=n=31", {"k": 34}, 34) == "single QI, k=n=34"
    assert render_name("ties, k=35 (n=36)", {"k": 37}, 38) == "ties, k=37 (n=38)"
    assert (render_name("ten QIs, k=5, max_sup=3 (suppression decides)", {"k": 4,
                                                                          "max_sup": 3}, 40)
            == "ten QIs, k=4, max_sup=3 (suppression decides)")
    assert render_name("Q1 with k=2s", {"k": 3}, 9) == "Q1 with k=2s"  # not a whole number


@pytest.mark.slow
def test_the_staff_solution_gets_full_marks_in_both_terms_and_grade_names_the_term(
        made, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    folder = tmp_path / "course"
    shutil.copytree(made[TERMS[0]], folder)
    staff_submission(tmp_path / "subs" / "staff", "from staffcopy import *\n")
    out = tmp_path / "out"
    args = ["grade", str(tmp_path / "subs"), "--out", str(out), "--course", str(folder),
            "--sandbox", "none", "--run-as", "none", "--jobs", "1"]
    for term in TERMS:
        if term != TERMS[0]:
            assert cli.main(["regen", "--course", str(folder), "--term", term]) == 0
            assert f'term = "{term}"' in (folder / "course.toml").read_text(encoding="utf-8")
        capsys.readouterr()
        assert cli.main(args) == 0
        lines = capsys.readouterr().err.splitlines()
        assert lines[0].startswith(f"course {folder}: term {term} (hidden cases drawn for this "
                                   f"term); fingerprint "), lines
        assert "graded 1, reused 0" in lines[-1]  # a new term is never taken from the cache
        record = json.loads((out / "results" / "staff" / "record.json").read_text())
        assert record["score"] == record["max"] == 50, [
            (c["id"], c["status"]) for c in record["cases"]]
        summary = (out / "summary.md").read_text(encoding="utf-8")
        assert f"Term: {term} (hidden cases drawn for this term)." in summary.splitlines()[2]
        assert json.loads((out / "summary.json").read_text())["term"] == term
        assert f"Term: {term}" in (out / "summary.html").read_text(encoding="utf-8")
        shown = [c["name"] for c in record["cases"]]
        rows = load_manifest(folder / "cases")["term"]["rows"]
        assert f"ties, k={rows['hidden/ties'] - 1} (n={rows['hidden/ties']})" in shown


@pytest.mark.slow
def test_the_default_cases_are_todays_datasets(tmp_path: Path) -> None:
    _plain(tmp_path / "back")
    manifest = load_manifest(tmp_path / "back" / "cases")
    assert "term" not in manifest and manifest["files"] == load_manifest(CASES)["files"]
    graded = apply_term(rubric.load(tmp_path / "back" / "rubric.toml"))
    assert graded.term is None
    assert "single QI, k=n=31" in [c.name for c in graded.cases()]


def test_a_term_needs_a_course(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    (tmp_path / "rubric.toml").write_text(RUBRIC, encoding="utf-8")
    assert cli.main(["regen", "--rubric", str(tmp_path / "rubric.toml"), "--term", "X"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "course new DIR" in err and "--course DIR" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rubric.toml"]  # nothing written


@pytest.mark.slow
def test_check_and_keep_datasets_keep_the_term(made, tmp_path: Path,
                                               capsys: pytest.CaptureFixture) -> None:
    folder = tmp_path / "kept"
    shutil.copytree(made[TERMS[0]], folder)
    before = _files(folder / "cases")
    assert cli.main(["regen", "--course", str(folder), "--keep-datasets"]) == 0
    assert f"term '{TERMS[0]}'" in capsys.readouterr().err
    assert _files(folder / "cases") == before
    assert cli.main(["check", "--course", str(folder)]) == 0


BAD_TERMS = [("", "empty"), ("   ", "empty"), ("fall/2026", "path separator"),
             ("fall\\2026", "path separator"), ("fall\n2026", "control"),
             ("fall\x00", "control"), ("fall\u200b2026", "unprintable"),
             (" fall", "leading or trailing"), ("x" * 65, "at most 64")]


@pytest.mark.parametrize("name,why", BAD_TERMS, ids=[w for _, w in BAD_TERMS])
def test_a_bad_term_name_is_one_line_naming_the_option(
        name: str, why: str, made, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    folder = tmp_path / "course"
    shutil.copytree(made[TERMS[0]], folder)
    before = _files(folder)
    assert cli.main(["regen", "--course", str(folder), "--term", name]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and err.startswith("error: --term") and why in err, err
    assert _files(folder) == before  # nothing changed
    assert cli.main(["course", "new", str(tmp_path / "new"), "--from", "examples",
                     "--term", name]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and err.startswith("error: --term") and why in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["course"]  # nothing written


def test_term_and_keep_datasets_together_are_refused(made, tmp_path: Path) -> None:
    folder = tmp_path / "course"
    shutil.copytree(made[TERMS[0]], folder)
    with pytest.raises(UserError, match=r"^--term draws new hidden datasets; it cannot be "
                                        r"combined with --keep-datasets$"):
        redraw(load_course(folder), TERMS[1], keep_datasets=True)
