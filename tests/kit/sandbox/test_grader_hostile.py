"""The hostile example class (examples/hostile/, built by examples/make_hostile.py), graded end
to end in every sandbox mode: every submission gets the verdict of the golden file, and
nothing it started outlives the batch or escapes its scratch folder. Landlock is reached the
way a container reaches it (`--sandbox auto` where bubblewrap cannot run), none the way an
older kernel does (auto, with neither: graded with the warning)."""
from __future__ import annotations

import csv
import json
import hashlib
import time
from pathlib import Path

import pytest

from grader.sandbox import reaper

from grader import rubric
from grader.commands.grade import grade_class
from grader.grading.batch import BatchSettings
from grader.grading import host
from grader.sandbox import bwrap_available, landlock_available

REPO = Path(__file__).resolve().parents[3]
HOSTILE = REPO / "examples" / "hostile"
ESCAPED = Path("/tmp/kanon-hostile-daisy-escaped")  # what daisy's daemons write 3 s later
# `alone` (tests/kit/conftest.py): grading the class, where daisy's calls (a 3 s CPU-time
# limit) must return before her daemons' 3 s of sleep end, and bomb's forks fit in its limit
MODES = ["none", pytest.param("bwrap", marks=pytest.mark.skipif(
    not bwrap_available(), reason="bubblewrap (bwrap) is missing or cannot create namespaces")),
    pytest.param("landlock", marks=pytest.mark.skipif(
        not landlock_available(), reason="this kernel offers no Landlock"))]


def read(path: Path) -> dict[str, dict]:
    with open(path, encoding="utf-8", newline="") as f:
        return {row["student"]: row for row in csv.DictReader(f)}


def digest(folder: Path) -> str:
    h = hashlib.sha256()
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            h.update(p.relative_to(folder).as_posix().encode() + p.read_bytes())
    return h.hexdigest()


def test_the_hostile_class_is_up_to_date(tmp_path: Path) -> None:
    import sys
    sys.path.insert(0, str(REPO / "examples"))
    try:
        import make_hostile
        make_hostile.build(tmp_path / "subs")
    finally:
        sys.path.remove(str(REPO / "examples"))
    fresh = {p.name: p.read_bytes() for p in (tmp_path / "subs").iterdir()}
    assert fresh == {p.name: p.read_bytes() for p in (HOSTILE / "submissions").iterdir()}


@pytest.mark.alone
@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_the_hostile_class_gets_fair_verdicts_and_nothing_escapes(tmp_path: Path, mode: str,
                                                                 monkeypatch) -> None:
    ESCAPED.unlink(missing_ok=True)
    choice = mode
    if mode != "bwrap":  # bubblewrap made unusable: auto chooses Landlock where the kernel has it
        monkeypatch.setattr(host, "bwrap_available", lambda run_as=None: False)
        monkeypatch.setattr(host, "landlock_available", lambda: mode == "landlock")
        choice = "auto"
    cases = digest(REPO / "grader" / "cases")
    base = tmp_path / "scratch"
    base.mkdir()
    r = rubric.load(HOSTILE / "rubric.toml", {"run_as": "none"})
    result = grade_class(BatchSettings(HOSTILE / "submissions", tmp_path / "out", r, jobs=2, sandbox=choice,
                                       scratch=base, progress=False))
    assert result.sandbox == mode and not result.interrupted
    assert (host.UNCONFINED in result.warnings) == (mode == "none")
    assert f"\nSandbox: {mode}.\n" in (tmp_path / "out" / "summary.md").read_text()
    records = [json.loads(p.read_text())
               for p in (tmp_path / "out").glob("results/*/record.json")]
    assert {r["sandbox"] for r in records} == {mode}
    layers = [r["import"].get("sandbox_layers", {}) for r in records if r["import"]]
    assert layers and all(bool(layer.get("files")) == (mode == "landlock") for layer in layers)
    assert read(tmp_path / "out" / "grades.csv") == read(HOSTILE / "expected-grades.csv")
    feedback = {p.stem: p.read_text(encoding="utf-8")
                for p in (tmp_path / "out" / "feedback").iterdir()}
    for name in ("bomb", "daisy"):  # the processes each call left were killed and said so
        assert "running after the call returned; " in feedback[name]
    for name in ("sig", "wes"):  # refused; the paths are kept for the staff, not shown
        assert "The access was refused and recorded in your grade record." in feedback[name]
    tried = {name: json.loads((tmp_path / "out" / "results" / name / "record.json").read_text())
             ["forbidden_paths"] for name in ("sig", "wes")}
    assert any("(the grader)" in p for p in tried["sig"])
    assert any(p.startswith("/proc/<grader>/") for p in tried["wes"])
    # fred's forged result line does not count: his cost_MD raised (a hidden case: the type
    # and his line, not his message)
    assert "raised ValueError at skeleton.py, line " in feedback["fred"]
    assert "the forged line above must not count" not in feedback["fred"]
    assert "a link or not a regular file" in feedback["lena"]
    # nothing of the batch runs any more, its scratch is gone, the cases are unchanged
    deadline = time.monotonic() + 10
    while reaper.marked(base) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert reaper.marked(base) == set()
    assert list(base.iterdir()) == []
    assert digest(REPO / "grader" / "cases") == cases
    # longer than daisy's daemons wait before writing, counted from her record (written
    # after her last call ended): the rest of the class was graded meanwhile
    time.sleep(max(0.0, 3.5 - (time.time() - (tmp_path / "out" / "results" / "daisy" /
                                              "record.json").stat().st_mtime)))
    assert not ESCAPED.exists()
    assert not Path("/tmp/kanon-hostile-slip.py").exists()
    assert not Path("/tmp/kanon-hostile-abs.py").exists()
