"""A zh-CN course end to end, in a copy of the kit whose handout sections carry stand-in
translations (the English text under a correct header; the real ones are translators' work):
`course new --language zh-CN`, then its bundle (README.md, HANDOUT.md and skeleton.py in
Chinese where the kit generates them, course.json naming the language, the self-check's
catalog and messages module) and its Gradescope zip (the feedback's catalog, the language in
its rubric, `check --against` agreeing)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from child_python import compiled_env

from grader.publishing.materials.translations import header

REPO = Path(__file__).resolve().parents[3]
COPIED = ["adult-hw1.csv", "DGHs", "kanon", "kcheck", "reference", "grader", "tests", "pyproject.toml",
          "skeleton.py", "HANDOUT.md", "examples", "courses"]
pytestmark = pytest.mark.slow


def run(kit: Path, *args: str) -> subprocess.CompletedProcess:
    """`python -m grader ARGS` in the kit's copy; its five runs share their compiled modules
    (child_python.py)."""
    return subprocess.run([sys.executable, "-m", "grader", *args], cwd=kit,
                          env=compiled_env(dict(os.environ)), capture_output=True, text=True,
                          timeout=600)


def test_a_zh_cn_course_bundle_and_autograder(tmp_path: Path) -> None:
    kit = tmp_path / "kit"
    for name in COPIED:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, kit / name, ignore=shutil.ignore_patterns(
                "__pycache__", ".pytest_cache"))
        else:
            kit.mkdir(exist_ok=True)
            shutil.copy(source, kit / name)
    handout = kit / "grader" / "publishing" / "materials" / "handout"
    shutil.rmtree(handout / "zh-CN", ignore_errors=True)
    (handout / "zh-CN").mkdir()
    for english in handout.glob("*.md"):
        (handout / "zh-CN" / english.name).write_text(
            f"{header(english)}\n{english.read_text(encoding='utf-8')}", encoding="utf-8")
    course = tmp_path / "zh"
    made = run(kit, "course", "new", str(course), "--from", "examples", "--term", "Fall 2026",
               "--language", "zh-CN")
    assert made.returncode == 0, made.stderr
    done = run(kit, "bundle", "--course", str(course), "--out", str(tmp_path / "s.zip"))
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(tmp_path / "s.zip") as z:
        read = {n.removeprefix("kanon-hw1/"): z.read(n) for n in z.namelist()}
    assert read["README.md"].decode().startswith("# k-匿名（k-anonymity）作业")
    assert json.loads(read["tests/public/course.json"])["language"] == "zh-CN"
    assert "tests/public/locale/zh_CN/LC_MESSAGES/selfcheck.mo" in read
    assert "kcheck/locale/zh_CN/LC_MESSAGES/kcheck.mo" in read  # the checker's messages
    assert "tests/public/messages.py" in read
    assert '<a id="ties"></a>' in read["HANDOUT.md"].decode()
    assert "你的解答写在这个文件里" in read["skeleton.py"].decode()
    done = run(kit, "gradescope", "--course", str(course), "--out", str(tmp_path / "ag.zip"))
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(tmp_path / "ag.zip") as z:
        assert "grader/locale/zh_CN/LC_MESSAGES/grader.mo" in z.namelist()
        assert "kcheck/locale/zh_CN/LC_MESSAGES/kcheck.mo" in z.namelist()
        assert 'language = "zh-CN"' in z.read("grader/rubric.toml").decode()
    done = run(kit, "check", "--course", str(course), "--against", str(tmp_path / "ag.zip"))
    assert done.returncode == 0 and "language zh-CN" in done.stderr, done.stderr
    # the same course without its handout translation: refused, naming the file and command
    (handout / "zh-CN" / "ties.md").unlink()
    done = run(kit, "bundle", "--course", str(course), "--out", str(tmp_path / "t.zip"))
    assert done.returncode == 2 and "zh-CN/ties.md: missing" in done.stderr
    assert "python -m grader languages --language zh-CN" in done.stderr
    assert not (tmp_path / "t.zip").exists()
