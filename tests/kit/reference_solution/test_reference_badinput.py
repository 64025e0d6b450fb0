"""Bad input (HANDOUT.md, "Files", "Costs" and "Bad input"): one test per kind of fault, each checking the
exception type, that the message names what is at fault (file, line, row, column, value or
parameter), and that no output file nor temporary file is left behind.

Inputs are a copy of tests/data/reference/jobs in tmp/in (7 rows, QIs Job and Sex, Disease
sensitive); outputs go to the otherwise empty folder tmp/out.
"""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "data" / "reference"
ANONYMIZERS = ["random", "clustering", "bottomup", "samarati", "mondrian"]
GOOD = {"random": dict(k=2, s=1), "clustering": dict(k=2), "bottomup": dict(k=2, l=1),
        "samarati": dict(k=2, max_sup=1), "mondrian": dict(k=2)}


class Env:
    """tmp/in (raw.csv, DGHs/) and the empty output folder tmp/out."""

    def __init__(self, tmp: Path, case: str = "jobs"):
        self.tmp = tmp
        self.inp = tmp / "in"
        shutil.copytree(DATA / case, self.inp)
        self.raw = self.inp / "raw.csv"
        self.dghs = self.inp / "DGHs"
        self.out_dir = tmp / "out"
        self.out_dir.mkdir()
        self.out = self.out_dir / "out.csv"
        self.before = self.snapshot()

    def snapshot(self) -> dict[str, bytes]:
        return {str(p.relative_to(self.inp)): p.read_bytes()
                for p in self.inp.rglob("*") if p.is_file()}

    def run(self, algorithm: str, raw=None, dghs=None, out=None, **params) -> None:
        import reference
        raw, dghs = str(raw or self.raw), str(dghs or self.dghs)
        out = str(out or self.out)
        p = {**GOOD[algorithm], **params}
        if algorithm == "random":
            reference.random_anonymizer(raw, dghs, p["k"], p["s"], out)
        elif algorithm == "clustering":
            reference.clustering_anonymizer(raw, dghs, p["k"], out)
        elif algorithm == "bottomup":
            reference.bottomup_anonymizer(raw, dghs, p["k"], p["l"], out)
        elif algorithm == "samarati":
            reference.samarati(raw, dghs, p["k"], p["max_sup"], out)
        else:
            reference.mondrian(raw, dghs, p["k"], out)

    def message(self, error: BaseException) -> str:
        """The message with the temporary folder's path removed (its digits are noise)."""
        return str(error).replace(str(self.tmp), "<tmp>")

    def assert_nothing_left(self, changed_inputs: tuple[str, ...] = ()) -> None:
        assert os.listdir(self.out_dir) == [], f"left behind: {os.listdir(self.out_dir)}"
        after = self.snapshot()
        for name in changed_inputs:
            after.pop(name, None)
            self.before.pop(name, None)
        assert after == self.before, "an input file was changed or a file added beside them"


def names_number(message: str, number: int) -> bool:
    return re.search(rf"(?<![\d.]){number}(?![\d.])", message) is not None


def names_word(message: str, word: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", message) is not None


@pytest.fixture
def env(tmp_path) -> Env:
    return Env(tmp_path)


# ---------------------------------------------------------------- missing files

@pytest.mark.parametrize("algorithm", ANONYMIZERS)
def test_missing_dataset_file(algorithm, env):
    with pytest.raises(FileNotFoundError) as e:
        env.run(algorithm, raw=env.inp / "nope.csv")
    assert "nope.csv" in str(e.value)
    env.assert_nothing_left()


@pytest.mark.parametrize("algorithm", ANONYMIZERS)
def test_missing_dgh_folder(algorithm, env):
    with pytest.raises(FileNotFoundError) as e:
        env.run(algorithm, dghs=env.inp / "NoDGHs")
    assert "NoDGHs" in str(e.value)
    env.assert_nothing_left()


@pytest.mark.parametrize("cost", ["cost_MD", "cost_LM"])
@pytest.mark.parametrize("missing", ["raw", "anonymized", "DGH folder"])
def test_cost_missing_file(cost, missing, env):
    import reference
    args = {"raw": str(env.raw), "anonymized": str(env.raw), "DGH folder": str(env.dghs)}
    args[missing] = str(env.inp / "absent")
    with pytest.raises(FileNotFoundError) as e:
        getattr(reference, cost)(args["raw"], args["anonymized"], args["DGH folder"])
    assert "absent" in str(e.value)


# ---------------------------------------------------------------- integer parameters

INT_PARAMS = [(a, name) for a in ANONYMIZERS for name in GOOD[a]]


@pytest.mark.parametrize("algorithm,name", INT_PARAMS)
@pytest.mark.parametrize("value", [2.0, "2", True, False, None], ids=repr)
def test_parameter_not_an_int(algorithm, name, value, env):
    with pytest.raises(ValueError) as e:
        env.run(algorithm, **{name: value})
    assert names_word(env.message(e.value), name), e.value
    env.assert_nothing_left()


@pytest.mark.parametrize("algorithm,name,value", [
    *[(a, "k", v) for a in ANONYMIZERS for v in (0, -1)],
    ("bottomup", "l", 0), ("bottomup", "l", -2), ("samarati", "max_sup", -1)])
def test_parameter_below_minimum(algorithm, name, value, env):
    with pytest.raises(ValueError) as e:
        env.run(algorithm, **{name: value})
    assert names_word(env.message(e.value), name), e.value
    env.assert_nothing_left()


@pytest.mark.parametrize("algorithm", ["random", "clustering", "mondrian", "bottomup"])
def test_fewer_rows_than_k(algorithm, env):
    # 7 rows, k = 8: a ValueError (bottom-up: even the top node has an EC of 7 < 8 rows).
    with pytest.raises(ValueError) as e:
        env.run(algorithm, k=8)
    message = env.message(e.value)
    assert names_word(message, "k") or names_number(message, 8), e.value
    env.assert_nothing_left()


def test_samarati_without_a_satisfying_node(env):
    # k = 8 > 7 rows: every node has 7 outliers > max_sup = 6.
    with pytest.raises(ValueError):
        env.run("samarati", k=8, max_sup=6)
    env.assert_nothing_left()


def test_failed_call_keeps_an_existing_output_file(env):
    env.out.write_text("old contents\n")
    with pytest.raises(ValueError):
        env.run("mondrian", k=0)
    assert env.out.read_text() == "old contents\n"


# ---------------------------------------------------------------- bad hierarchy files

JOB_OK = "Any\n\tProfessional\n\t\tEngineer\n\t\tLawyer\n\tArtist\n\t\tWriter\n\t\tDancer\n"
BAD_DGHS = {
    # name: (Job.txt text, line number at fault)
    "indentation-jump": ("Any\n\tProfessional\n\t\t\tEngineer\n\t\tLawyer\n\tArtist\n"
                         "\t\tWriter\n\t\tDancer\n", 3),
    "jump-after-blank-lines": ("Any\n\n\tProfessional\n\n\t\t\t\tEngineer\n", 5),
    "second-root": (JOB_OK + "Other\n", 8),
    "root-indented": ("\t" + JOB_OK, 1),
    "spaces-not-tabs": (JOB_OK.replace("\t\tDancer", "    Dancer"), 7),
    "duplicate-label": (JOB_OK.replace("\t\tDancer", "\t\tLawyer"), 7),
    "duplicate-of-parent": (JOB_OK + "\t\tArtist\n", 8),
}


@pytest.mark.parametrize("fault", BAD_DGHS)
@pytest.mark.parametrize("algorithm", ANONYMIZERS)
def test_bad_hierarchy_file_names_file_and_line(algorithm, fault, env):
    text, line = BAD_DGHS[fault]
    (env.dghs / "Job.txt").write_text(text, encoding="utf-8")
    with pytest.raises(ValueError) as e:
        env.run(algorithm)
    message = env.message(e.value)
    assert "Job.txt" in message and names_number(message.replace("Job.txt", ""), line), message
    env.assert_nothing_left(changed_inputs=("DGHs/Job.txt",))


@pytest.mark.parametrize("text", ["", "\n\n", "\t\n   \n"], ids=["empty", "newlines", "blank"])
@pytest.mark.parametrize("algorithm", ["clustering", "samarati"])
def test_empty_hierarchy_file_names_file(algorithm, text, env):
    (env.dghs / "Sex.txt").write_text(text, encoding="utf-8")
    with pytest.raises(ValueError) as e:
        env.run(algorithm)
    assert "Sex.txt" in str(e.value)
    env.assert_nothing_left(changed_inputs=("DGHs/Sex.txt",))


@pytest.mark.parametrize("cost", ["cost_MD", "cost_LM"])
def test_cost_with_bad_hierarchy_file(cost, env):
    import reference
    (env.dghs / "Job.txt").write_text(BAD_DGHS["second-root"][0], encoding="utf-8")
    with pytest.raises(ValueError) as e:
        getattr(reference, cost)(str(env.raw), str(env.raw), str(env.dghs))
    assert "Job.txt" in str(e.value) and names_number(env.message(e.value).replace(
        "Job.txt", ""), 8)


# ---------------------------------------------------------------- bad datasets

@pytest.mark.parametrize("algorithm", ANONYMIZERS)
def test_raw_value_not_in_hierarchy(algorithm, env):
    env.raw.write_text(env.raw.read_text().replace("Dancer,Female", "Pilot,Female"))
    with pytest.raises(ValueError) as e:
        env.run(algorithm)
    message = env.message(e.value)
    assert names_word(message, "Job") and "Pilot" in message, message
    env.assert_nothing_left(changed_inputs=("raw.csv",))


@pytest.mark.parametrize("row", ["Engineer,Male", "Engineer,Male,Flu,extra"])
@pytest.mark.parametrize("algorithm", ANONYMIZERS)
def test_row_with_wrong_number_of_cells(algorithm, row, env):
    lines = env.raw.read_text().splitlines()
    lines[3] = row  # data row 3
    env.raw.write_text("\n".join(lines) + "\n")
    with pytest.raises(ValueError) as e:
        env.run(algorithm)
    message = env.message(e.value)
    assert "raw.csv" in message and names_number(message.replace("raw.csv", ""), 3), message
    env.assert_nothing_left(changed_inputs=("raw.csv",))


@pytest.mark.parametrize("same", ["raw.csv", "./raw.csv", "DGHs/../raw.csv"])
@pytest.mark.parametrize("algorithm", ANONYMIZERS)
def test_output_file_is_the_raw_file(algorithm, same, env):
    with pytest.raises(ValueError) as e:
        env.run(algorithm, out=f"{env.inp}/{same}")
    assert "raw" in str(e.value)
    env.assert_nothing_left()  # the raw file is byte for byte unchanged


@pytest.mark.parametrize("l", [1, 2])
@pytest.mark.parametrize("columns", [["Extra"], []], ids=["two-non-QI", "no-non-QI"])
def test_l_diversity_needs_exactly_one_sensitive_column(columns, l, env):
    lines = env.raw.read_text().splitlines()
    if columns:
        lines = [lines[0] + ",Extra"] + [line + ",e" for line in lines[1:]]
    else:
        lines = [line.rsplit(",", 1)[0] for line in lines]
    env.raw.write_text("\n".join(lines) + "\n")
    with pytest.raises(ValueError) as e:
        env.run("bottomup", l=l)
    message = env.message(e.value)
    assert ("sensitive" in message or "non-QI" in message), message
    env.assert_nothing_left(changed_inputs=("raw.csv",))


# ---------------------------------------------------------------- cost functions

def _cost_error(env: Env, cost: str, anon_text: str, case: str = "jobs") -> str:
    import reference
    anon = env.tmp / "anon.csv"
    anon.write_text(anon_text, encoding="utf-8")
    with pytest.raises(ValueError) as e:
        getattr(reference, cost)(str(env.raw), str(anon), str(env.dghs))
    return env.message(e.value)


COSTS = ["cost_MD", "cost_LM"]


@pytest.mark.parametrize("cost", COSTS)
def test_cost_header_mismatch(cost, env):
    text = env.raw.read_text().replace("Disease", "Illness", 1)
    message = _cost_error(env, cost, text)
    assert "header" in message or "Illness" in message, message


@pytest.mark.parametrize("cost", COSTS)
def test_cost_header_in_another_order(cost, env):
    lines = env.raw.read_text().splitlines()
    swapped = [",".join([r.split(",")[1], r.split(",")[0], r.split(",")[2]]) for r in lines]
    message = _cost_error(env, cost, "\n".join(swapped) + "\n")
    assert "header" in message or "order" in message, message


@pytest.mark.parametrize("drop", [True, False], ids=["fewer-rows", "more-rows"])
@pytest.mark.parametrize("cost", COSTS)
def test_cost_row_count_mismatch(cost, drop, env):
    lines = env.raw.read_text().splitlines()
    lines = lines[:-1] if drop else lines + ["Any,Any,Flu"]
    message = _cost_error(env, cost, "\n".join(lines) + "\n")
    assert names_number(message, 7) and names_number(message, 6 if drop else 8), message


# (row to replace, 1-based; new row; column at fault)
BAD_CELLS = {
    "sibling-label": (1, "Lawyer,Male,Flu", "Job"),  # raw Engineer
    "unknown-label": (4, "Dancer,Man,Cold", "Sex"),
    "other-branch": (6, "Professional,Male,Flu", "Job"),  # raw Dancer
    "interval-on-categorical": (2, "[0-1],Male,Cold", "Job"),
}


@pytest.mark.parametrize("fault", BAD_CELLS)
@pytest.mark.parametrize("cost", COSTS)
def test_cost_invalid_cell_names_row_and_column(cost, fault, env):
    row, new, column = BAD_CELLS[fault]
    lines = env.raw.read_text().splitlines()
    lines[row] = new
    message = _cost_error(env, cost, "\n".join(lines) + "\n")
    assert names_number(message.replace("anon.csv", "").replace("raw.csv", ""), row), message
    assert names_word(message, column), message


INTERVAL_ROWS = {  # intervals case; raw Temp -5 3 0 12
    "outside": (3, "[-5--2],a,p"),  # raw 0 is not in [-5, -2]
    "lo-equals-hi": (2, "[3-3],b,q"),
    "lo-above-hi": (4, "[12-8],b,q"),
    "not-a-number": (1, "[a-0],a,p"),
    "no-brackets": (3, "-2-0,a,p"),
}


@pytest.mark.parametrize("fault", INTERVAL_ROWS)
@pytest.mark.parametrize("cost", COSTS)
def test_cost_invalid_interval_names_row_and_column(cost, fault, tmp_path):
    env = Env(tmp_path, "intervals")
    row, new = INTERVAL_ROWS[fault]
    lines = (env.inp / "anon.csv").read_text().splitlines()
    lines[row] = new
    message = _cost_error(env, cost, "\n".join(lines) + "\n")
    assert names_number(message.replace("anon.csv", "").replace("raw.csv", ""), row), message
    assert names_word(message, "Temp"), message
