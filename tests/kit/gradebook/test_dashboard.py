"""summary.html, the class dashboard: its content, and how it renders in a real browser."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from child_python import compiled_env
from grader import cli
from grader.gradebook.dashboard import render, write_dashboard

REPO = Path(__file__).resolve().parents[3]
SUMMARY = {
    "stats": {"students": 3, "mean": 55.0, "median": 60.0, "min": 5.0, "max": 100.0},
    "status_counts": {"timeout": 1, "ok": 2},
    "distribution": {**{f"{lo}-{lo + 9}": 0 for lo in range(0, 90, 10)}, "90-100": 1,
                     "0-9": 1, "60-69": 1},
    "parts": {"cost_MD": {"mean": 2.5, "full": 1, "max": 5},
              "mondrian": {"mean": 10.0, "full": 1, "max": 20}},
    "cases": {"cost_MD/adult": {"passed": 2, "wrong": 1},
              "mondrian/ties_k_2": {"partial": 1, "timeout": 1, "wrong": 1}},
}
TIMINGS = ("student,what,seconds,cpu_seconds,cpu_limit\nann,import,0.1,,\n"
           "ann,cost_MD/adult,0.2,0.15,10\nben,cost_MD/adult,0.3,0.25,10\n"
           "ann,mondrian/ties_k_2,9.0,8.00,10\n")


def batch(folder: Path, pairs: str | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "summary.json").write_text(json.dumps(SUMMARY), encoding="utf-8")
    (folder / "timings.csv").write_text(TIMINGS, encoding="utf-8")
    if pairs is not None:
        (folder / "pairs.csv").write_text(pairs, encoding="utf-8")
    return write_dashboard(folder)


def test_dashboard_shows_every_section(tmp_path: Path) -> None:
    page = batch(tmp_path, "student_a,student_b,similarity,a_in_b,b_in_a,shared\n"
                           "ann,ben,0.93,0.93,0.5,400\n").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page and "http" not in page
    assert "3 submissions" in page and "timeout 1, ok 2" in page
    assert "score (percent of the maximum)" in page and ">submissions</text>" in page
    assert '<tr class=allfail><td>mondrian/ties_k_2 (nobody passes)' in page
    assert "1 case(s) nobody passes" in page and "cost_MD/adult (nobody" not in page
    assert "<td>cost_MD</td><td class=\"n\">2</td>" in page  # two timed calls of cost_MD
    assert "<td>ann</td><td>ben</td><td class=\"n\">0.93</td>" in page
    assert "not a verdict" in page
    assert render(SUMMARY, [], None) == render(SUMMARY, [], None)


def test_dashboard_without_similarity_says_how_to_get_it(tmp_path: Path) -> None:
    page = batch(tmp_path).read_text(encoding="utf-8")
    assert "Not run." in page and "--out &lt;this folder&gt;/pairs.csv" in page


def _chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.slow
@pytest.mark.skipif(_chromium() is None,
                    reason="no Chromium (Debian: apt-get install chromium) to render the page")
def test_dashboard_renders_in_headless_chromium(tmp_path: Path) -> None:
    page = batch(tmp_path / "graded", "student_a,student_b,similarity,a_in_b,b_in_a,shared\n"
                                      "ann,ben,0.93,0.93,0.5,400\n")
    profile = tempfile.mkdtemp(prefix="kanon-chromium-")
    try:
        flags = [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-quic", f"--user-data-dir={profile}",
                 "--window-size=1200,1800"]
        dom = subprocess.run(flags + ["--dump-dom", page.as_uri()], capture_output=True,
                             text=True, timeout=120)
        shot = tmp_path / "dashboard.png"
        subprocess.run(flags + [f"--screenshot={shot}", page.as_uri()], capture_output=True,
                       timeout=120)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    assert dom.returncode == 0, dom.stderr[-2000:]
    for text in ("Grading summary", "Score distribution", "mondrian/ties_k_2 (nobody passes)",
                 "Run time per function", "ann", "0.93"):
        assert text in dom.stdout
    assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 20_000


@pytest.mark.slow
def test_grading_writes_the_dashboard_and_similarity_updates_it(tmp_path: Path,
                                                                 capsys) -> None:
    out = tmp_path / "graded"
    subs = tmp_path / "subs"
    (subs / "ann").mkdir(parents=True)
    (subs / "ann" / "skeleton.py").write_text((REPO / "skeleton.py").read_text())
    env = compiled_env({**os.environ, "PYTHONPATH": str(REPO)})  # compiled modules: reused
    done = subprocess.run([sys.executable, "-m", "grader", "grade", str(subs), "--out", str(out),
                           "--rubric", str(REPO / "examples" / "rubric.toml"), "--quiet",
                           "--sandbox", "none", "--run-as", "none"], cwd=REPO, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    page = (out / "summary.html").read_text(encoding="utf-8")
    assert "1 submissions" in page and "Not run." in page
    # the similarity command in this process (tests/kit/similarity runs it as a fresh one)
    capsys.readouterr()
    assert cli.main(["similarity", str(subs), "--out", str(out / "pairs.csv")]) == 0
    err = capsys.readouterr().err
    assert "updated" in err, err
    page = (out / "summary.html").read_text(encoding="utf-8")
    assert "Not run." not in page and "No pair at or above the threshold." in page


def test_parts_cases_and_functions_follow_the_rubric_not_the_alphabet(tmp_path: Path) -> None:
    """summary.json's keys are sorted; its `order` (the rubric's) decides the page's order."""
    summary = {**SUMMARY, "order": {"parts": ["mondrian", "cost_MD"],
                                    "cases": ["mondrian/ties_k_2", "cost_MD/adult"]}}
    page = render(summary, [{"student": "ann", "what": w, "seconds": "1", "cpu_seconds": "1",
                             "cpu_limit": "10"} for w in ("cost_MD/adult", "mondrian/ties_k_2")],
                  None)
    parts, cases, times = (page.split(h)[1] for h in ("<h2>Parts", "<h2>Cases",
                                                      "<h2>Run time"))
    for section in (parts, cases, times):
        assert section.index("mondrian") < section.index("cost_MD")
    alphabetical = render(SUMMARY, [], None).split("<h2>Parts")[1]  # no order: as given
    assert alphabetical.index("cost_MD") < alphabetical.index("mondrian")


def test_summary_json_keeps_the_rubrics_order(repo: Path) -> None:
    from grader.gradebook.export import summary
    from grader.rubric import load
    rubric = load(repo / "examples" / "rubric.toml")
    _, data = summary([], rubric)
    assert data["order"]["parts"] == [p.key for p in rubric.parts]
    assert data["order"]["parts"] != sorted(data["order"]["parts"])
    assert data["order"]["cases"] == [c.id for c in rubric.cases()]
