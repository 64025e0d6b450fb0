"""Every course can be made private (issue 37, item 3): `course new DIR --from ustc` copies the
USTC lab's rubric, public data, hierarchies and data model (courses/ustc/data-model.json), and
draws every hidden dataset its rubric declares ([data] model, [[data.hidden]]:
grader/rubric_model.py) from the model with the new course's secret; `regen --term` draws
them again. Such a course is graded like any private one: no public-demo warning, `check`
shows its term, the known-good solution earns every autograded point and the untouched
skeleton none.

Grading and redrawing a term run on a private copy of the lab's 4,000-row twin (the same
rubric, data model and hidden declarations: tests/kit/ustc_class/small_course.py, made once per
run): what they claim is about the copy's secret, term and hidden draws, which the size of the
public dataset does not change; a copy of courses/ustc itself shows what `--from ustc` copies
and draws, and the twin's copy (the same data model and declarations, another secret) that
another secret draws other rows."""
from __future__ import annotations

import csv
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from child_python import compiled_env
from shared_bundles import ustc_twin

from grader import cli
from grader.authoring.model_draw import declared, draw_rows, load_model, seed_of
from grader.authoring.terms import term_seed
from grader.courses.checks import demo_warning
from grader.courses.folder import load_course
from grader.errors import UserError
from grader.rubric import load
from kanon.hierarchy import read_dgh_folder

REPO = Path(__file__).resolve().parents[3]
USTC = REPO / "courses" / "ustc"
TERM = "Spring 2027"
HIDDEN = {"sample-500": 500, "sample-200": 200, "ages-30-45": 61}
QUIET = ["--sandbox", "none", "--run-as", "none", "--jobs", "1"]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader", *args], cwd=REPO,
                          env=compiled_env(dict(os.environ)),  # compiled modules: reused
                          capture_output=True, text=True, timeout=900)


def rows_of(path: Path) -> tuple[list[str], list[tuple[str, ...]]]:
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], [tuple(r) for r in rows[1:]]


def files(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A private copy, with the term TERM, of the lab's 4,000-row twin (made once per run)."""
    folder = tmp_path_factory.mktemp("private-small") / "small"
    assert cli.main(["course", "new", str(folder), "--from",
                     str(ustc_twin(tmp_path_factory)), "--term", TERM]) == 0
    return folder


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory, small: Path) -> dict[str, Path]:
    """Two private courses with the same term and the USTC data model, each with its own
    secret: "a", a copy of the USTC demo, and "b", the copy of its twin (`small`: the same
    data model and [[data.hidden]] declarations, so its hidden datasets are drawn as a's)."""
    base = tmp_path_factory.mktemp("private")
    demo = files(USTC)
    assert cli.main(["course", "new", str(base / "a"), "--from", "ustc", "--term", TERM]) == 0
    assert files(USTC) == demo  # the demo's own files untouched
    return {"a": base / "a", "b": small}


def test_a_private_copy_holds_the_courses_data_and_its_own_hidden_draws(made) -> None:
    a = made["a"]
    assert sorted(p.name for p in a.iterdir()) == [
        "README.md", "cases", "course.toml", "data-model.json", "secret"]
    table = tomllib.loads((a / "course.toml").read_text(encoding="utf-8"))["course"]
    assert table == {"format": 1, "term": TERM, "from": "ustc", "language": "zh-CN"}
    course = load_course(a)
    assert not course.public_demo and course.term == TERM and len(course.key) == 32
    assert course.rubric.schema == load_course(USTC).rubric.schema
    assert (a / "data-model.json").read_bytes() == (USTC / "data-model.json").read_bytes()
    assert files(a / "cases" / "public") == files(USTC / "cases" / "public")
    public_dghs = files(USTC / "cases/public/adult/DGHs")
    for name, rows in HIDDEN.items():
        folder = a / "cases" / "hidden" / name
        header, drawn = rows_of(folder / "adult-hw1.csv")
        assert header == rows_of(USTC / "cases/public/adult/adult-hw1.csv")[0]
        assert len(drawn) == rows
        assert files(folder / "DGHs") == public_dghs  # a copy of the public hierarchies
        dghs = read_dgh_folder(str(folder / "DGHs"), "child-parent")
        for column, dgh in dghs.items():  # every value drawn is a leaf of its hierarchy
            at = header.index(column)
            assert {r[at] for r in drawn} <= set(dgh.index), (name, column)
    _, ages = rows_of(a / "cases/hidden/ages-30-45/adult-hw1.csv")
    assert {int(r[0]) for r in ages} <= set(range(30, 46))
    readme = (a / "README.md").read_text(encoding="utf-8")
    assert "`data-model.json`" in readme and "`cases/public/`" in readme


def test_hidden_rows_come_from_the_secret_never_from_the_demo(made) -> None:
    demo_rows = set()
    for name in HIDDEN:
        demo_rows |= set(rows_of(USTC / "cases/hidden" / name / "adult-hw1.csv")[1])
    drawn = {}
    for course in ("a", "b"):
        drawn[course] = {name: rows_of(made[course] / "cases/hidden" / name /
                                       "adult-hw1.csv")[1] for name in HIDDEN}
        for rows in drawn[course].values():
            assert not demo_rows & set(rows)  # none of the public demo's hidden rows
    assert load_course(made["b"]).term == TERM  # the same term and data model, ...
    assert (made["b"] / "data-model.json").read_bytes() == (USTC / "data-model.json").read_bytes()
    for name in HIDDEN:  # ... another secret: other rows
        assert drawn["a"][name] != drawn["b"][name]
        assert not set(drawn["a"][name]) & set(drawn["b"][name])
    # the rows are the model's draw seeded by HMAC(secret, term, "model:<name>") ...
    course = load_course(made["a"])
    model = declared(course.rubric)
    data = load_model(course.rubric.path, model)
    leaves = {c: set(d.index) for c, d in read_dgh_folder(
        str(USTC / "cases/public/adult/DGHs"), "child-parent").items()}
    spec = model.hidden[0]
    assert seed_of(course.key, TERM, spec) == term_seed(course.key, TERM, f"model:{spec.name}")
    assert draw_rows(data, spec, seed_of(course.key, TERM, spec), leaves, "x")[1] == [
        list(r) for r in drawn["a"][spec.name]]
    # ... so the term's name alone, public, gives other rows
    public_only = term_seed(b"", TERM, f"model:{spec.name}")
    assert draw_rows(data, spec, public_only, leaves, "x")[1] != [
        list(r) for r in drawn["a"][spec.name]]


def test_the_declaration_reproduces_the_demos_public_draws() -> None:
    """The demo's committed hidden data are the same declaration drawn with public seeds
    (docs/developers.md, "The data"), so a private copy draws exactly what the demo did, with
    secret seeds."""
    rubric = load_course(USTC).rubric
    model = declared(rubric)
    assert [(d.name, d.rows, d.filter, d.hierarchies) for d in model.hidden] == [
        ("sample-500", 500, (), "public/adult"), ("sample-200", 200, (), "public/adult"),
        ("ages-30-45", 61, (("age", 30, 45),), "public/adult")]
    data = load_model(rubric.path, model)
    leaves = {c: set(d.index) for c, d in read_dgh_folder(
        str(USTC / "cases/public/adult/DGHs"), "child-parent").items()}
    for spec, seed in zip(model.hidden, (20210316, 20210317, 20210318)):
        header, rows = draw_rows(data, spec, seed, leaves, spec.name)
        assert (header, [tuple(r) for r in rows]) == rows_of(
            USTC / "cases/hidden" / spec.name / "adult-hw1.csv")


def test_check_shows_the_term_and_no_public_demo_warning(made) -> None:
    done = run("check", "--course", str(made["a"]))  # a program: `regen` runs in process
    assert done.returncode == 0, done.stderr
    assert f"term {TERM}," in done.stderr and "term default" not in done.stderr
    assert demo_warning(load_course(made["a"]), None) is None


def test_the_demo_names_the_one_command_that_makes_a_private_copy(capsys) -> None:
    warning = demo_warning(load_course(USTC), None)
    assert "course new DIR --from ustc --term NAME" in warning
    comment = (USTC / "course.toml").read_text(encoding="utf-8")
    assert 'python -m grader course new ../my-course --from ustc --term "Spring 2027"' in comment
    capsys.readouterr()  # in process: `regen` runs as a program in the tests below
    assert cli.main(["regen", "--course", str(USTC), "--term", TERM]) == 2
    assert "--from ustc" in capsys.readouterr().err


def test_regen_term_redraws_the_hidden_data_and_keeps_the_public(small, tmp_path,
                                                                 capsys) -> None:
    course = tmp_path / "course"
    shutil.copytree(small, course)
    before = files(course)
    capsys.readouterr()  # in process: `regen --term` runs as a program in test_docs_instructors
    code = cli.main(["regen", "--course", str(course), "--term", "Fall 2027"])
    assert code == 0, capsys.readouterr().err
    after = files(course)
    for name in HIDDEN:
        rel = f"cases/hidden/{name}/adult-hw1.csv"
        assert after[rel] != before[rel], name
        assert len(rows_of(course / rel)[1]) == HIDDEN[name]
    assert {k: v for k, v in after.items() if k.startswith("cases/public/")} == {
        k: v for k, v in before.items() if k.startswith("cases/public/")}
    assert after["data-model.json"] == before["data-model.json"]
    assert after["secret"] == before["secret"]
    assert load_course(course).term == "Fall 2027"
    capsys.readouterr()  # in process: `check` runs as a program elsewhere in the file
    code, err = cli.main(["check", "--course", str(course)]), capsys.readouterr().err
    assert code == 0 and "term Fall 2027," in err, err
    back = cli.main(["regen", "--course", str(course), "--term", TERM])  # the same term:
    assert back == 0, capsys.readouterr().err  # same bytes
    assert {k: v for k, v in files(course).items() if k.startswith("cases/hidden/")} == {
        k: v for k, v in before.items() if k.startswith("cases/hidden/")}


@pytest.mark.slow
def test_the_known_good_solution_earns_every_point_and_the_skeleton_none(small) -> None:
    """End to end on the full rubric, its public cases on the twin's 4,000 rows."""
    base = small.parent / "graded"
    (base / "class" / "wang").mkdir(parents=True)
    (base / "class" / "li").mkdir(parents=True)
    course = str(small)
    for command, out in (("solution", base / "class" / "wang" / "lab.py"),  # in process
                         ("materials", base / "preview")):  # (programs in other files)
        assert cli.main([command, "--course", course, "--out", str(out)]) == 0
    shutil.copyfile(base / "preview" / "skeleton.py", base / "class" / "li" / "skeleton.py")
    done = run("grade", str(base / "class"), "--course", course, "--out", str(base / "out"),
               *QUIET)
    assert done.returncode == 0, done.stderr
    assert "public demo" not in done.stderr and "warning" not in done.stderr, done.stderr
    assert f"term {TERM}" in done.stderr
    with open(base / "out" / "grades.csv", encoding="utf-8", newline="") as f:
        grades = {row["student"]: row for row in csv.DictReader(f)}
    auto = ("samarati", "mondrian", "mondrian-categorical")
    assert tuple(grades["wang"][p] for p in auto) == ("25", "25", "5")
    assert grades["wang"]["total"] == "55"  # every autograded point (the rest: staff's)
    assert tuple(grades["li"][p] for p in auto) == ("0", "0", "0")
    assert (grades["li"]["total"], grades["li"]["status"]) == ("0", "not-attempted")
    record = json.loads((base / "out/results/li/record.json").read_text(encoding="utf-8"))
    assert record["cases"] and all(
        c["status"] == "not-attempted" and "NotImplementedError" in c["message"]
        for c in record["cases"])
    hidden = [c for c in json.loads((base / "out/results/wang/record.json").read_text(
        encoding="utf-8"))["cases"] if c.get("hidden")]
    assert len(hidden) == 7 and all(c["status"] == "passed" for c in hidden), hidden


def test_a_failing_course_new_leaves_nothing(tmp_path, capsys) -> None:
    origin = tmp_path / "lab"
    shutil.copytree(USTC, origin, ignore=shutil.ignore_patterns("expected", "counterexamples"))
    rubric = origin / "rubric.toml"
    text = rubric.read_text(encoding="utf-8")
    rubric.write_text(text.replace("filter = { age = [30, 45] }", "filter = { age = [200, 300] }"),
                      encoding="utf-8")
    (tmp_path / "new").mkdir()
    before = sorted(p.name for p in tmp_path.iterdir())
    code = cli.main(["course", "new", str(tmp_path / "new" / "mine"), "--from", str(origin),
                     "--term", TERM])  # in process: the fixture's `course new` is in process too
    err = capsys.readouterr().err
    assert code == 2, err
    assert "data.hidden[3]" in err and "no age in 200-300" in err, err
    assert list((tmp_path / "new").iterdir()) == []  # no folder, no temporary one
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_a_case_on_undeclared_hidden_data_is_refused_before_anything_is_written(tmp_path):
    origin = tmp_path / "lab"
    shutil.copytree(USTC, origin, ignore=shutil.ignore_patterns("expected", "counterexamples"))
    rubric = origin / "rubric.toml"
    text = rubric.read_text(encoding="utf-8")
    start = text.index("[[data.hidden]]\nname = \"sample-200\"")
    end = text.index("[[data.hidden]]\nname = \"ages-30-45\"")
    rubric.write_text(text[:start] + text[end:], encoding="utf-8")
    with pytest.raises(UserError, match=r"hidden/sample-200.*\[\[data.hidden\]\]"):
        cli_new(tmp_path / "mine", str(origin))
    assert not (tmp_path / "mine").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lab"]


def cli_new(folder: Path, origin: str) -> Path:
    from grader.courses.create import new_course
    return new_course(folder, origin, TERM)


BAD = {  # what the table says -> the key named, and the words of the error
    'rows = 0': ("data.hidden[1].rows", "expected an integer from 1"),
    'rows = 500\ncolour = "red"': ("data.hidden[1].colour", "unknown key"),
    'rows = 500\nfilter = { age = [45, 30] }': ("data.hidden[1].filter.age", "LOW <= HIGH"),
    'rows = 500\nfilter = { age = 30 }': ("data.hidden[1].filter.age", "[LOW, HIGH]"),
}


@pytest.mark.parametrize("what", list(BAD))
def test_a_bad_declaration_names_the_file_and_the_key(tmp_path, what) -> None:
    text = (USTC / "rubric.toml").read_text(encoding="utf-8")
    path = tmp_path / "rubric.toml"
    path.write_text(text.replace("rows = 500", what, 1), encoding="utf-8")
    key, words = BAD[what]
    with pytest.raises(UserError) as caught:
        load(path)
    assert str(caught.value).startswith(f"{path}: {key}: ") and words in str(caught.value)


def test_hidden_tables_need_a_model_and_distinct_names(tmp_path) -> None:
    text = (USTC / "rubric.toml").read_text(encoding="utf-8")
    path = tmp_path / "rubric.toml"
    path.write_text(text.replace('model = "data-model.json"', ""), encoding="utf-8")
    with pytest.raises(UserError, match=r"rubric.toml: data.model: missing"):
        load(path)
    path.write_text(text.replace('name = "sample-200"', 'name = "sample-500"'), encoding="utf-8")
    with pytest.raises(UserError, match=r"data.hidden\[2\].name: two hidden datasets"):
        load(path)
    path.write_text(text.replace('model = "data-model.json"', 'model = "../x.json"'),
                    encoding="utf-8")
    with pytest.raises(UserError, match=r"data.model: '../x.json': the model lives in"):
        load(path)


def test_check_on_a_course_folder_names_regen_course(tmp_path, capsys) -> None:
    copy = tmp_path / "ustc"
    shutil.copytree(USTC, copy)
    next((copy / "cases" / "expected").iterdir()).unlink()
    capsys.readouterr()  # in process: `check` runs as a program in the tests above
    code, err = cli.main(["check", "--course", str(copy)]), capsys.readouterr().err
    assert code == 1
    assert f"regen --course {copy}" in err
    assert "run `python -m grader regen`" not in err, err
