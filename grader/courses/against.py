"""`python -m grader check --course DIR --against PATH`: whether a built zip (the Gradescope
autograder, a student bundle) or a graded folder belongs to the course's current term, by the
fingerprint it recorded (grader/grading/fingerprint.py)."""
from __future__ import annotations

import json
import zipfile
from pathlib import Path

from ..errors import UserError
from ..grading.fingerprint import FINGERPRINT_FILE, differences


def recorded(path: Path) -> dict:
    """The fingerprint record `path` carries: a zip's FINGERPRINT_FILE (at its root, under
    grader/ or under the bundle's folder), or a graded folder's summary.json `course`."""
    if path.is_dir():
        summary = path / "summary.json"
        try:
            data = json.loads(summary.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            raise UserError(f"--against {path}: not a graded folder (no readable summary.json; "
                            f"`grade --out` writes one)") from None
        if not isinstance(data.get("course"), dict):
            raise UserError(f"--against {path}: its summary.json records no course fingerprint "
                            f"(graded by an older kit); grade it again")
        return data["course"]
    if not path.is_file():
        raise UserError(f"--against {path}: not found")
    try:
        with zipfile.ZipFile(path) as archive:
            names = [n for n in archive.namelist()
                     if n.rsplit("/", 1)[-1] == FINGERPRINT_FILE and n.count("/") <= 1]
            if not names:
                raise UserError(f"--against {path}: the zip records no course fingerprint "
                                f"(built by an older kit?); build it again from the course")
            return json.loads(archive.read(sorted(names)[0]).decode("utf-8"))
    except (zipfile.BadZipFile, ValueError, UnicodeDecodeError) as e:
        raise UserError(f"--against {path}: not a zip the grader built ({e})") from None


def rebuild_command(course_dir: Path, path: Path) -> str:
    """The command that builds `path` again from the course: `grade` for a graded folder,
    `gradescope` for an autograder zip (its fingerprint under grader/), `bundle` for a student
    bundle."""
    from ..prog import prog_name

    def shown(p: Path) -> str:
        return f'"{p}"' if " " in str(p) else str(p)

    if path.is_dir():
        name, extra = "grade", f"SUBMISSIONS --out {shown(path)}"
    else:
        try:
            with zipfile.ZipFile(path) as archive:
                autograder = f"grader/{FINGERPRINT_FILE}" in archive.namelist()
        except (OSError, zipfile.BadZipFile):
            autograder = False
        name = "gradescope" if autograder else "bundle"
        extra = f"--out {shown(path)}"
    return f"{prog_name()} {name} {extra} --course {shown(course_dir)}"


def compare(ours: dict, path: Path) -> list[str]:
    """What differs between the course's fingerprint and the one `path` recorded."""
    return differences(ours, recorded(path))
