"""The Top-Down Greedy lab's own handout sections (courses/tdg-lab/handout/*.md, Simplified
Chinese): its two functions' sections exist and open with their function's heading, and every
other file words a kit section (an empty one leaves it out); in every file the Chinese is
written as a Chinese instructor writes it (no space between two CJK characters, no line
wrapped inside a sentence, no ASCII punctuation against a CJK character, no English prose
outside code and quoted messages); the worked example is the reference's: its raw table, its
output file, its NCPs (both right answers), the quality band over seeds 0-9 and the public
bands, as courses/tdg-lab/reference/tdg.py computes them on the same table written to tmp_path
with a tiny ';' hierarchy; and the HANDOUT.md that `python -m grader materials` assembles says
what is true of this course and its bundle: the 30,162 rows, no path under tests/public/data/
that the bundle lacks, nothing of MD, LM or samarati."""
from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
COURSE = REPO / "courses" / "tdg-lab"
HANDOUT = COURSE / "handout"
SECTIONS = ("topdown_greedy", "cost_NCP")
FILES = tuple(sorted(p.stem for p in HANDOUT.glob("*.md") if p.name != "README.md"))
"""Every handout file of the course (its functions' sections and its kit-section overrides)."""
KIT_SECTIONS = REPO / "grader" / "publishing" / "materials" / "handout" / "zh-CN"

CJK = "\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"  # ideographs, CJK punctuation
FENCE = re.compile(r"^```.*?^```[ \t]*$", re.M | re.S)
CODE_SPAN = re.compile(r"`[^`\n]+`")
FIELD = re.compile(r"\{\{[^}\n]*\}\}")  # {{ref.files}}: filled by the kit, not prose
COMMENT = re.compile(r"<!--.*?-->", re.S)
QUOTED = re.compile(r"\u201c[^\u201d\n]*\u201d")  # "..." in Chinese quotes: a message shown as is
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
    """The text outside fenced blocks and comments, each code span, field and quoted message
    replaced by PLACEHOLDER."""
    text = COMMENT.sub("", FENCE.sub("", text))
    return QUOTED.sub(PLACEHOLDER, FIELD.sub(PLACEHOLDER, CODE_SPAN.sub(PLACEHOLDER, text)))


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


@pytest.mark.parametrize("name", [n for n in FILES if n not in SECTIONS])
def test_every_other_file_words_a_kit_section(name: str) -> None:
    """A kit section's source of that name exists; a non-empty override (but the intro, the
    command lines and the report, whose headings the kit writes or fills) opens with a
    heading."""
    assert (KIT_SECTIONS / f"{name}.md").is_file(), f"no kit section {name}"
    text = _text(name)
    if text.strip() and name not in ("intro", "command-line-own", "report"):
        assert re.match(r"#{2,3} \S", text), text.split("\n", 1)[0]


def test_the_readme_says_what_the_folder_is_in_five_lines() -> None:
    lines = (HANDOUT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 5 and all(lines)
    assert "topdown_greedy.md" in lines[2] and "cost_NCP.md" in lines[2]


# ------------------------------------------------------------------------------ the Chinese

@pytest.mark.parametrize("name", FILES)
def test_no_space_between_two_cjk_characters(name: str) -> None:
    prose = _prose(_text(name))
    found = re.findall(rf".{{0,8}}[{CJK}][ \t\u00a0\u3000]+[{CJK}].{{0,8}}", prose)
    assert not found


@pytest.mark.parametrize("name", FILES)
def test_no_line_is_wrapped_inside_a_sentence(name: str) -> None:
    lines = FENCE.sub("", _text(name)).splitlines()
    wrapped = [f"{a!r} / {b!r}" for a, b in zip(lines, lines[1:])
               if a.strip() and b.strip() and re.search(rf"[{CJK}]$", a.rstrip())
               and not BLOCK_START.match(b)]
    assert not wrapped


@pytest.mark.parametrize("name", FILES)
def test_prose_uses_chinese_punctuation(name: str) -> None:
    prose = _prose(_text(name))
    found = re.findall(rf".{{0,8}}(?:[{CJK}][,.;:!?()]|[,.;:!?()][{CJK}]).{{0,8}}", prose)
    assert not found


@pytest.mark.parametrize("name", FILES)
def test_no_english_prose_outside_code(name: str) -> None:
    """No run of 3 or more English words in any stretch of text without a CJK character (or
    a code span) in it: English terms stand alone, code is in backticks."""
    runs = []
    for stretch in re.split(rf"[^\x00-\x7f]", _prose(_text(name))):
        words = re.findall(r"[A-Za-z][A-Za-z'-]*", stretch)
        if len(words) >= 3:
            runs.append(stretch.strip())
    assert not runs


@pytest.mark.parametrize("name", FILES)
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


# ------------------------------------------------------------------------------ HANDOUT.md

@pytest.fixture(scope="module")
def assembled(tmp_path_factory) -> str:
    """HANDOUT.md as `python -m grader materials --course courses/tdg-lab` writes it."""
    out = tmp_path_factory.mktemp("tdg_materials")
    made = subprocess.run([sys.executable, "-m", "grader", "materials", "--course", str(COURSE),
                           "--out", str(out)], cwd=REPO, capture_output=True, text=True,
                          timeout=600)
    assert made.returncode == 0, made.stderr
    return (out / "HANDOUT.md").read_text(encoding="utf-8")


def test_the_handout_names_only_public_data_the_bundle_has(assembled: str) -> None:
    from grader.publishing.bundle import collect
    names = {entry.name for entry in collect(REPO, "", COURSE)}
    folders = {"/".join(n.split("/")[:i]) + "/" for n in names for i in range(1, n.count("/") + 1)}
    named = set(re.findall(r"tests/public/data/[^\s`'\"\)\uff09\uff0c\u3001\uff1b\u3002]*",
                           assembled))
    assert named, "the handout says where the public data is"
    assert sorted(p for p in named if p not in names and p not in folders) == []
    assert "tests/public/data/cases" not in assembled and "tests/public/data/expected" not in assembled


def test_the_handout_says_the_courses_row_count(assembled: str) -> None:
    assert "30,162" in assembled and "9,999" not in assembled


def test_the_handout_says_nothing_of_md_lm_or_samarati(assembled: str) -> None:
    assert re.findall(r"(?<![A-Za-z])(?:MD|LM)(?![A-Za-z])|samarati|max_sup", assembled) == []
