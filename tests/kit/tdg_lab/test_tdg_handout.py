"""The Top-Down Greedy lab's own handout sections (courses/tdg-lab/handout/*.md, Simplified
Chinese): both exist and open with their function's heading; the Chinese is written as a
Chinese instructor writes it (no space between two CJK characters, no line wrapped inside a
sentence, no ASCII punctuation against a CJK character, no English prose outside code); and
the worked example is the reference's: its raw table, its output file, its NCPs (both right
answers), the quality band over seeds 0-9 and the public bands, as courses/tdg-lab/reference/
tdg.py computes them on the same table written to tmp_path with a tiny ';' hierarchy."""
from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
COURSE = REPO / "courses" / "tdg-lab"
HANDOUT = COURSE / "handout"
SECTIONS = ("topdown_greedy", "cost_NCP")

CJK = "\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"  # ideographs, CJK punctuation
FENCE = re.compile(r"^```.*?^```[ \t]*$", re.M | re.S)
CODE_SPAN = re.compile(r"`[^`\n]+`")
PLACEHOLDER = "\u00b7"  # neither CJK nor ASCII: stands for a code span
BLOCK_START = re.compile(r"^\s*(?:[-*+] |\d+\. |\||#|>|```)")

# The worked example: (age, work_class, class); the other six QIs are constant.
RAW = [("20", "Self-emp-not-inc", "<=50K"), ("55", "Local-gov", ">50K"),
       ("35", "Federal-gov", "<=50K"), ("60", "Self-emp-inc", ">50K"),
       ("25", "Self-emp-not-inc", "<=50K"), ("30", "Local-gov", "<=50K")]
HEADER = ["age", "work_class", "education_num", "marital_status", "occupation", "race", "sex",
          "native_country", "class"]
CONSTANT = ["10", "Married-civ-spouse", "Sales", "White", "Male", "United-States"]
DGHS = {  # the lab's work_class hierarchy (8 leaves); one-line-per-leaf stand-ins elsewhere
    "work_class": "Federal-gov;gov;*\nLocal-gov;gov;*\nNever-worked;not-work;*\nPrivate;*\n"
                  "Self-emp-inc;Self-employ;*\nSelf-emp-not-inc;Self-employ;*\n"
                  "State-gov;gov;*\nWithout-pay;not-work;*\n",
    "marital_status": "Married-civ-spouse;Married;*\nNever-married;NM;*\n",
    "occupation": "Sales;*\nCraft-repair;*\n",
    "race": "White;*\nBlack;*\n",
    "sex": "Male;*\nFemale;*\n",
    "native_country": "United-States;*\nMexico;*\n",
}


def _reference():
    spec = importlib.util.spec_from_file_location("tdg_lab_reference_handout",
                                                  COURSE / "reference" / "tdg.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _text(name: str) -> str:
    return (HANDOUT / f"{name}.md").read_text(encoding="utf-8")


def _prose(text: str) -> str:
    """The text outside fenced blocks, each code span replaced by PLACEHOLDER."""
    return CODE_SPAN.sub(PLACEHOLDER, FENCE.sub("", text))


def _numbers(pattern: str, text: str) -> list[float]:
    return [float(x) for x in re.findall(pattern, text)]


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    """The example's raw table and hierarchies in a folder, and the reference."""
    folder = tmp_path_factory.mktemp("tdg_handout")
    (folder / "DGHs").mkdir()
    for column, text in DGHS.items():
        (folder / "DGHs" / f"{column}.txt").write_text(text, encoding="utf-8")
    lines = [",".join(HEADER)] + [",".join([age, wc, *CONSTANT, income])
                                  for age, wc, income in RAW]
    (folder / "raw.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder, _reference()


def _run(folder: Path, tdg, name: str, **how) -> tuple[str, float]:
    out = folder / name
    tdg.topdown_greedy(str(folder / "raw.csv"), str(folder / "DGHs"), 2, str(out), **how)
    return out.read_text(encoding="utf-8"), tdg.cost_NCP(str(folder / "raw.csv"), str(out),
                                                          str(folder / "DGHs"))


# ------------------------------------------------------------------------------ the files

@pytest.mark.parametrize("name", SECTIONS)
def test_each_function_has_its_section_opening_with_its_heading(name: str) -> None:
    text = _text(name)
    assert text.split("\n", 1)[0] == f"## {name}"
    assert re.search(rf"^{name}\(", text, re.M), "the signature in a code block"


def test_the_readme_says_what_the_folder_is_in_five_lines() -> None:
    lines = (HANDOUT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 5 and all(lines)
    assert "topdown_greedy.md" in lines[2] and "cost_NCP.md" in lines[2]


# ------------------------------------------------------------------------------ the Chinese

@pytest.mark.parametrize("name", SECTIONS)
def test_no_space_between_two_cjk_characters(name: str) -> None:
    prose = _prose(_text(name))
    found = re.findall(rf".{{0,8}}[{CJK}][ \t\u00a0\u3000]+[{CJK}].{{0,8}}", prose)
    assert not found


@pytest.mark.parametrize("name", SECTIONS)
def test_no_line_is_wrapped_inside_a_sentence(name: str) -> None:
    lines = FENCE.sub("", _text(name)).splitlines()
    wrapped = [f"{a!r} / {b!r}" for a, b in zip(lines, lines[1:])
               if a.strip() and b.strip() and re.search(rf"[{CJK}]$", a.rstrip())
               and not BLOCK_START.match(b)]
    assert not wrapped


@pytest.mark.parametrize("name", SECTIONS)
def test_prose_uses_chinese_punctuation(name: str) -> None:
    prose = _prose(_text(name))
    found = re.findall(rf".{{0,8}}(?:[{CJK}][,.;:!?()]|[,.;:!?()][{CJK}]).{{0,8}}", prose)
    assert not found


@pytest.mark.parametrize("name", SECTIONS)
def test_no_english_prose_outside_code(name: str) -> None:
    """No run of 3 or more English words in any stretch of text without a CJK character (or
    a code span) in it: English terms stand alone, code is in backticks."""
    runs = []
    for stretch in re.split(rf"[^\x00-\x7f]", _prose(_text(name))):
        words = re.findall(r"[A-Za-z][A-Za-z'-]*", stretch)
        if len(words) >= 3:
            runs.append(stretch.strip())
    assert not runs


@pytest.mark.parametrize("name", SECTIONS)
def test_code_is_ascii(name: str) -> None:
    text = _text(name)
    code = FENCE.findall(text) + CODE_SPAN.findall(FENCE.sub("", text))
    assert [c for c in code if not c.isascii()] == []


# ------------------------------------------------------------------------------ the example

def test_the_example_raw_table_is_the_tested_one() -> None:
    rows = re.findall(r"^\| (\d) \| `(\d+)` \| `([\w-]+)` \| `([<=>\dK]+)` \|$",
                      _text("topdown_greedy"), re.M)
    assert [(age, wc, income) for _, age, wc, income in rows] == RAW
    assert [int(n) for n, *_ in rows] == list(range(1, len(RAW) + 1))


def test_the_example_output_file_is_the_references(example) -> None:
    folder, tdg = example
    written, _ = _run(folder, tdg, "first.csv", first=0)  # u = data row 1
    block = re.search(r"^```csv\n(.*?)^```", _text("topdown_greedy"), re.M | re.S)
    assert block and block.group(1) == written


def test_the_example_ncp_in_the_text_is_the_references(example) -> None:
    folder, tdg = example
    _, first = _run(folder, tdg, "first.csv", first=0)
    _, fourth = _run(folder, tdg, "fourth.csv", first=3)  # u = data row 4
    stated = _numbers(r"整张表的 NCP 为 `[^`]*`，即 `([\d.]+)`", _text("topdown_greedy"))
    assert stated == pytest.approx([first, fourth], rel=1e-12)
    assert stated == [3.5, 6.75]
    returned = _numbers(r"`cost_NCP` 返回 `([\d.]+)`", _text("cost_NCP"))
    assert returned == pytest.approx([first, fourth], rel=1e-12)
    gcp = re.search(r"GCP 为 `3\.5 / \(6 \* 8\)`，约 ([\d.]+)%", _text("cost_NCP"))
    assert gcp and float(gcp.group(1)) == round(100 * first / (len(RAW) * len(HEADER[:-1])), 2)


def test_the_example_band_is_the_worst_of_the_ten_seeds_times_1_05(example) -> None:
    folder, tdg = example
    worst = max(_run(folder, tdg, "seed.csv", seed=s)[1] for s in range(10))
    band = re.search(r"`([\d.]+) \* 1\.05 = ([\d.]+)`", _text("topdown_greedy"))
    assert band and float(band.group(1)) == pytest.approx(worst)
    assert float(band.group(2)) == pytest.approx(worst * 1.05)


def test_the_public_bands_and_slack_are_the_rubrics() -> None:
    import tomllib
    rubric = tomllib.loads((COURSE / "rubric.toml").read_text(encoding="utf-8"))
    part = next(p for p in rubric["part"] if p.get("function") == "topdown_greedy")
    assert (part["slack"], part["seeds"], part["points"]) == (0.05, 10, 50)
    manifest = json.loads((COURSE / "cases" / "manifest.json").read_text(encoding="utf-8"))
    bands = {}
    for entry in manifest["entries"].values():
        if (entry["function"], entry["data"], entry.get("kind")) == (
                "topdown_greedy", "public/adult", "band"):
            expected = json.loads((COURSE / "cases" / entry["file"]).read_text("utf-8"))
            bands[entry["ints"]["k"]] = expected["band_max"]
    stated = dict((int(k), float(v)) for k, v in
                  re.findall(r"`k = (\d+)` 时为 `([\d.]+)`", _text("topdown_greedy")))
    assert stated.keys() == bands.keys() == {10, 50}
    assert all(abs(stated[k] - bands[k]) <= 0.005 for k in bands)
