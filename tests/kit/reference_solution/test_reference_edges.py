"""File-format and corner cases of HANDOUT.md, "Files" and "samarati", on hand-made inputs:
BOM, CRLF and blank lines in datasets and hierarchies, exact (unstripped) cell comparison,
intervals whose numbers contain '-', and Samarati suppressing every row.
"""
from __future__ import annotations

import csv
import re
import shutil
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "data" / "reference"
JOBS = DATA / "jobs"


def read_csv(path) -> list[list[str]]:
    with open(path, encoding="utf-8", newline="") as f:
        return [r for r in csv.reader(f) if r]


@pytest.fixture
def jobs(tmp_path) -> Path:
    folder = tmp_path / "jobs"
    shutil.copytree(JOBS, folder)
    return folder


def _mondrian(folder: Path, out: Path, raw: str = "raw.csv") -> list[list[str]]:
    import reference
    reference.mondrian(str(folder / raw), str(folder / "DGHs"), 2, str(out))
    return read_csv(out)


def _samarati(folder: Path, out: Path) -> list[list[str]]:
    import reference
    reference.samarati(str(folder / "raw.csv"), str(folder / "DGHs"), 2, 1, str(out))
    return read_csv(out)


@pytest.mark.parametrize("variant", ["bom", "crlf", "blank-lines", "bom-crlf-blank"])
def test_dataset_encodings_give_the_same_output(variant, jobs, tmp_path):
    text = (jobs / "raw.csv").read_text(encoding="utf-8")
    if "blank" in variant:
        lines = text.splitlines()
        text = "\n" + "\n\n".join(lines) + "\n\n"
    if "crlf" in variant:
        text = text.replace("\n", "\r\n")
    data = text.encode("utf-8")
    if "bom" in variant:
        data = b"\xef\xbb\xbf" + data
    (jobs / "raw.csv").write_bytes(data)
    assert _samarati(jobs, tmp_path / "s.csv") == read_csv(JOBS / "samarati_k2_sup1.csv")
    assert _mondrian(jobs, tmp_path / "m.csv") == read_csv(JOBS / "mondrian_k2.csv")


def test_hierarchy_encodings_give_the_same_output(jobs, tmp_path):
    # BOM, CRLF, blank and whitespace-only lines, trailing spaces after labels.
    text = (jobs / "DGHs" / "Job.txt").read_text(encoding="utf-8")
    lines = [line + "  " for line in text.splitlines()]
    lines.insert(3, "\t\t")
    lines.insert(1, "")
    (jobs / "DGHs" / "Job.txt").write_bytes(b"\xef\xbb\xbf" + "\r\n".join(lines).encode())
    assert _samarati(jobs, tmp_path / "s.csv") == read_csv(JOBS / "samarati_k2_sup1.csv")
    assert _mondrian(jobs, tmp_path / "m.csv") == read_csv(JOBS / "mondrian_k2.csv")


def test_costs_read_an_anonymized_file_with_bom_and_crlf(tmp_path):
    import reference
    anon = tmp_path / "anon.csv"
    text = (JOBS / "mondrian_k2.csv").read_text(encoding="utf-8").replace("\n", "\r\n")
    anon.write_bytes(b"\xef\xbb\xbf" + text.encode())
    args = (str(JOBS / "raw.csv"), str(anon), str(JOBS / "DGHs"))
    assert reference.cost_MD(*args) == pytest.approx(10, abs=1e-9)  # see test_reference_hand
    assert reference.cost_LM(*args) == pytest.approx(8 / 3, abs=1e-9)


@pytest.mark.parametrize("value", ["Male ", " Male", "male"])
def test_cells_are_compared_exactly(value, jobs, tmp_path):
    import reference
    text = (jobs / "raw.csv").read_text().replace("Engineer,Male", f"Engineer,{value}", 1)
    (jobs / "raw.csv").write_text(text)
    with pytest.raises(ValueError) as e:
        reference.mondrian(str(jobs / "raw.csv"), str(jobs / "DGHs"), 2, str(tmp_path / "o"))
    assert repr(value) in str(e.value) or f'"{value}"' in str(e.value), e.value


def test_quoted_labels_with_commas_and_quotes(tmp_path):
    # A hierarchy whose labels need CSV quoting: the output is parsed back to the labels.
    import reference
    folder = tmp_path / "q"
    (folder / "DGHs").mkdir(parents=True)
    (folder / "DGHs" / "C.txt").write_text('All, "x"\n\ta,1\n\t"b"\n', encoding="utf-8")
    with open(folder / "raw.csv", "w", newline="", encoding="utf-8") as f:
        csv.writer(f, lineterminator="\n").writerows(
            [["C", "S"], ["a,1", "u"], ['"b"', "v"], ["a,1", "w"], ['"b"', "u"]])
    out = tmp_path / "out.csv"
    reference.bottomup_anonymizer(str(folder / "raw.csv"), str(folder / "DGHs"), 3, 1, str(out))
    # k = 3: two values twice each -> only the root satisfies.
    assert read_csv(out) == [["C", "S"]] + [['All, "x"', s] for s in "uvwu"]
    args = (str(folder / "raw.csv"), str(out), str(folder / "DGHs"))
    assert reference.cost_MD(*args) == pytest.approx(4, abs=1e-9)
    assert reference.cost_LM(*args) == pytest.approx(4, abs=1e-9)


# sci: X = R{1e-5, 3, -2.5} (height 1), numeric, U - L = 3 - (-2.5) = 5.5; Y is not a QI.
SCI = DATA / "sci"


def test_intervals_whose_numbers_contain_a_minus_sign():
    # "[1e-5-3]": the first '-' leaves "1e", not a number; the second gives 1e-5 and 3.
    # "[-2.5-1e-5]": the '-' after the first character gives -2.5 and 1e-5.
    # LM = ((3 - 1e-5) * 2 + (1e-5 + 2.5)) / 5.5 = (8.5 - 1e-5) / 5.5; MD = 1 + 1 + 1 = 3.
    import reference
    args = (str(SCI / "raw.csv"), str(SCI / "anon.csv"), str(SCI / "DGHs"))
    assert reference.cost_LM(*args) == pytest.approx((8.5 - 1e-5) / 5.5, abs=1e-9)
    assert reference.cost_MD(*args) == pytest.approx(3, abs=1e-9)


def test_mondrian_writes_raw_strings_of_min_and_max(tmp_path):
    # k = 2, 3 rows: split at the lower median 1e-5 leaves {3} alone -> one partition,
    # "[-2.5-3]" (raw strings). LM 3 * 5.5 / 5.5 = 3, MD 3.
    import reference
    out = tmp_path / "out.csv"
    assert _mondrian(SCI, out) == read_csv(SCI / "mondrian_k2.csv")
    args = (str(SCI / "raw.csv"), str(out), str(SCI / "DGHs"))
    assert reference.cost_LM(*args) == pytest.approx(3, abs=1e-9)
    assert reference.cost_MD(*args) == pytest.approx(3, abs=1e-9)


def test_samarati_may_suppress_every_row(tmp_path):
    # jobs, k = 8 > 7 rows, max_sup = 7: height 0 satisfies with all 7 rows suppressed.
    import reference
    out = tmp_path / "out.csv"
    reference.samarati(str(JOBS / "raw.csv"), str(JOBS / "DGHs"), 8, 7, str(out))
    assert read_csv(out) == read_csv(JOBS / "bottomup_k2_l3.csv")  # every QI cell "Any"


def test_outputs_are_deterministic_bytes(tmp_path):
    import reference
    raw, dghs = str(JOBS / "raw.csv"), str(JOBS / "DGHs")
    for name in ("a.csv", "b.csv"):
        reference.clustering_anonymizer(raw, dghs, 2, str(tmp_path / name))
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()
    assert (tmp_path / "a.csv").read_bytes().count(b"\r") == 0


def test_a_label_that_looks_like_an_interval_is_never_read_as_one(tmp_path):
    # X = R{[0-10]{0, 4}, B{7, 12}}: "[0-10]" is a label, so for raw 7 (under B) it is not
    # an ancestor -> invalid at data row 3, although 7 lies inside the interval [0, 10].
    import reference
    (tmp_path / "DGHs").mkdir()
    (tmp_path / "DGHs" / "X.txt").write_text("R\n\t[0-10]\n\t\t0\n\t\t4\n\tB\n\t\t7\n\t\t12\n")
    (tmp_path / "raw.csv").write_text("X,S\n0,a\n4,b\n7,c\n12,d\n")
    (tmp_path / "anon.csv").write_text("X,S\n[0-10],a\n[0-10],b\n[0-10],c\n12,d\n")
    for cost in (reference.cost_MD, reference.cost_LM):
        with pytest.raises(ValueError) as e:
            cost(str(tmp_path / "raw.csv"), str(tmp_path / "anon.csv"), str(tmp_path / "DGHs"))
        message = str(e.value).replace(str(tmp_path), "")
        assert re.search(r"(?<![\d.])3(?![\d.])", message), message
        assert re.search(r"(?<![\w-])X(?![\w-])", message), message


# Numeric columns whose values float() accepts but that are not ordinary distinct numbers.
# The contract calls a QI numeric when every raw value parses with float(); "nan", "inf" and
# two spellings of one number ("5", "5.0") parse too. Whatever the decision (treat such a
# column as categorical, or refuse it with a ValueError), Mondrian must not crash, must keep
# its k-anonymity promise and its output must have finite costs.
ODD_NUMBERS = {
    "nan": ["1", "2", "nan", "1"],
    "inf": ["1", "2", "inf", "1"],
    "minus-inf": ["-inf", "2", "3", "2"],
    "two-spellings": ["5.0", "5", "7", "07", "5"],
}


@pytest.mark.parametrize("name", ODD_NUMBERS)
def test_mondrian_on_odd_numeric_values_is_valid_or_refused(name, tmp_path):
    import math

    import reference

    import properties
    values = ODD_NUMBERS[name]
    (tmp_path / "DGHs").mkdir()
    (tmp_path / "DGHs" / "X.txt").write_text(
        "R\n" + "".join(f"\t{v}\n" for v in dict.fromkeys(values)))
    (tmp_path / "raw.csv").write_text("X,S\n" + "".join(f"{v},s{i}\n"
                                                         for i, v in enumerate(values)))
    raw, dghs, out = (str(tmp_path / "raw.csv"), str(tmp_path / "DGHs"),
                      str(tmp_path / "out.csv"))
    try:
        reference.mondrian(raw, dghs, 2, out)
    except ValueError:
        assert not (tmp_path / "out.csv").exists()
        return
    problem = properties.check_output(raw, out, dghs, k=2, intervals=True)
    assert problem is None, f"{problem}; output {(tmp_path / 'out.csv').read_text()!r}"
    assert math.isfinite(reference.cost_LM(raw, out, dghs))
    assert math.isfinite(reference.cost_MD(raw, out, dghs))
