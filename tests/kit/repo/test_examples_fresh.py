"""The committed example class is exactly what examples/make_examples.py builds today (its
correct submissions embed the reference, so a reference change must be followed by a rebuild:
`python examples/make_examples.py`)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts}


def test_example_submissions_are_fresh(repo: Path, tmp_path: Path) -> None:
    subprocess.run([sys.executable, str(repo / "examples" / "make_examples.py"),
                    str(tmp_path / "submissions")], check=True, capture_output=True)
    built, committed = _files(tmp_path / "submissions"), _files(repo / "examples" / "submissions")
    assert sorted(built) == sorted(committed), "example file list differs; rebuild the examples"
    stale = [name for name in built if built[name] != committed[name]]
    assert not stale, f"stale example submissions {stale}: run python examples/make_examples.py"


def test_example_downloads_are_fresh(repo: Path, tmp_path: Path) -> None:
    """examples/downloads/ is what examples/make_downloads.py builds from the committed
    submissions and rosters (Canvas's flat names, Moodle's folders)."""
    done = subprocess.run([sys.executable, str(repo / "examples" / "make_downloads.py"),
                           str(tmp_path / "downloads")], check=True, capture_output=True,
                          text=True)
    assert "wrote canvas.zip, moodle.zip (13 students each)" in done.stdout
    built, committed = _files(tmp_path / "downloads"), _files(repo / "examples" / "downloads")
    assert sorted(built) == sorted(committed) == ["canvas.zip", "moodle.zip"]
    stale = [name for name in built if built[name] != committed[name]]
    assert not stale, f"stale downloads {stale}: run python examples/make_downloads.py"
