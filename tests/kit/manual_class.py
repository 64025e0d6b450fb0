"""A small class graded with a rubric that has a manual part (a one-page PDF report), for
the manual-part and merge tests: one fast autograded case, and five students whose reports
are a 1-page PDF, a 3-page PDF, missing, a Word file renamed .pdf, and two PDFs in a zipped
folder."""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

from staff_submission import staff_submission

REPO = Path(__file__).resolve().parents[2]

RUBRIC = """\
[settings]
import_time_limit = 5.0
time_limit = 5.0
time_per_1000_rows = 0.0
cases_dir = "{cases}"

[[part]]
function = "cost_MD"
points = 5

[[part.case]]
name = "unbalanced hierarchies, intervals"
data = "hidden/unbalanced"
anonymized = "anonymized/intervals.csv"
hidden = true

[[part]]
kind = "manual"
name = "report"
points = 10
files = ["*.pdf"]
max_pages = 1
"""
SOURCE = "from staffcopy import cost_MD\n"
DOCX = b"PK\x03\x04" + b"\x14\x00\x06\x00" + b"word/document.xml" + bytes(200)


def pdf(pages: int) -> bytes:
    """A PDF of `pages` blank pages, written with pypdf."""
    from pypdf import PdfWriter
    writer = PdfWriter()
    for _ in range(pages):
        writer.add_blank_page(612, 792)
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def write_rubric(folder: Path) -> Path:
    path = folder / "rubric.toml"
    path.write_text(RUBRIC.format(cases=(REPO / "grader" / "cases").as_posix()),
                    encoding="utf-8")
    return path


def zip_folder(folder: Path, target: Path, prefix: str = "") -> Path:
    with zipfile.ZipFile(target, "w") as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, prefix + path.relative_to(folder).as_posix())
    return target


REPORTS = {"alice": {"report.pdf": pdf}, "bob": {"report.pdf": pdf}, "carol": {},
           "dave": {"Report.PDF": None}, "erin": {"a-draft.pdf": pdf, "report.pdf": pdf}}
PAGES = {"alice": 1, "bob": 3, "erin": 1}


def build_class(folder: Path) -> Path:
    """The submissions folder: one zip per student (erin zipped her folder `erin_hw1/`)."""
    subs = folder / "submissions"
    subs.mkdir(parents=True)
    for student, reports in REPORTS.items():
        work = staff_submission(folder / "work" / student, SOURCE)
        for name in reports:
            data = DOCX if student == "dave" else pdf(PAGES[student])
            (work / name).write_bytes(data)
        zip_folder(work, subs / f"{student}.zip",
                   prefix="erin_hw1/" if student == "erin" else "")
    return subs


def grade_manual_class(folder: Path) -> tuple[Path, Path]:
    """Grade the class into folder/graded; returns (graded folder, rubric)."""
    from grader import rubric as rubric_mod
    from grader.commands.grade import grade_class
    from grader.grading.batch import BatchSettings
    rubric = write_rubric(folder)
    out = folder / "graded"
    grade_class(BatchSettings(build_class(folder), out, rubric_mod.load(rubric, {"run_as": "none"}), jobs=2,
                              sandbox="none", progress=False))
    return out, rubric
