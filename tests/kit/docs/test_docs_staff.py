"""What the README's Quick start and the TAs' guide (docs/tas.md) say about installing and
exporting is what the kit does: the venv advice comes before the install it applies to, every
`export` command shown parses, and the feedback zips' example names are the names the export
writes."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

from grader import cli
from grader.gradebook import feedback_export, lms

REPO = Path(__file__).resolve().parents[3]
README = (REPO / "README.md").read_text(encoding="utf-8")
TAS = (REPO / "docs" / "tas.md").read_text(encoding="utf-8")




def section(text: str, start: str, end: str) -> str:
    return text[text.index(start):text.index(end, text.index(start))]


def test_the_venv_advice_comes_before_the_install_it_applies_to() -> None:
    quick = section(README, "## Quick start", "## Who reads what")
    assert quick.index("python3 -m venv .venv && . .venv/bin/activate") < \
        quick.index('python -m pip install -e ".[test]"')


def test_every_export_command_of_the_tas_guide_parses() -> None:
    exports = section(TAS, "### Importing the grades into", "### Similarity")
    commands = re.findall(r"python -m grader (export [^`\n]+)", exports)
    assert len(commands) >= 6
    parser = cli._parser("python -m grader")
    for command in commands:
        args = parser.parse_args(shlex.split(command))
        assert args.command == "export"
        assert args.func.__module__ == "grader.gradebook.export_command"


def test_the_feedback_zip_names_shown_are_those_written() -> None:
    exports = section(TAS, "### Importing the grades into", "### Similarity")
    moodle = lms.Grade("Jane_Smith", "moodle", "12345", "Jane Smith",
                       "Jane Smith_12345_assignsubmission_file_", "1", "1", "ok")
    canvas = lms.Grade("smithjane", "canvas", "12345", "smithjane",
                       "smithjane_12345_67890_hw1.zip", "1", "1", "ok")
    (_, moodle_name), = feedback_export._moodle_targets([moodle], None)[0]
    (_, canvas_name), = feedback_export._canvas_targets([canvas])[0]
    assert f"`{moodle_name}`" in exports and f"`{canvas_name}`" in exports
