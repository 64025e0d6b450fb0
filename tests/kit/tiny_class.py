"""A tiny class for the grading tests: a two-part rubric on one hidden case of the kit's own
cases (cost_MD and cost_LM), its stored answers, and a student file returning given values."""
from __future__ import annotations

from pathlib import Path

from grader import rubric
from grader.grading.expected import load_manifest, lookup

REPO = Path(__file__).resolve().parents[2]
CASES = REPO / "grader" / "cases"
TINY = f"""\
[settings]
time_limit = 2
import_time_limit = 5
cases_dir = "{CASES}"

[[part]]
function = "cost_MD"
points = 4

[[part.case]]
name = "unbalanced hierarchies, intervals"
data = "hidden/unbalanced"
anonymized = "anonymized/intervals.csv"
hidden = true

[[part]]
function = "cost_LM"
points = 6

[[part.case]]
name = "unbalanced hierarchies, intervals"
data = "hidden/unbalanced"
anonymized = "anonymized/intervals.csv"
hidden = true
"""


def tiny_rubric(tmp_path: Path) -> rubric.Rubric:
    path = tmp_path / "tiny.toml"
    path.write_text(TINY, encoding="utf-8")
    return rubric.load(path)


def answers(r: rubric.Rubric) -> dict[str, float]:
    manifest = load_manifest(r.cases_dir)
    return {c.function: lookup(c, r.cases_dir, manifest).value for c in r.cases()}


def student(folder: Path, md: str, lm: str, extra: str = "") -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "skeleton.py").write_text(
        extra + f"def cost_MD(raw_dataset_file, anonymized_dataset_file, DGH_folder):\n"
        f"    return {md}\n\ndef cost_LM(raw_dataset_file, anonymized_dataset_file, "
        f"DGH_folder):\n    return {lm}\n", encoding="utf-8")
