"""Mixed scripts render (a course in its own language, item 4): a zh-CN course's feedback page
(its fixed words from the catalog, a counterexample's English-free explanation, code and
numbers in ASCII) and a dashboard naming Chinese students, opened in headless Chromium. The
test skips, saying why, without Chromium or without a CJK font (.ci/run installs chromium
and fonts-noto-cjk); it keeps the screenshots in KANON_SCREENSHOTS when that is set, for a
person to look at."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest

from grader.gradebook.dashboard import write_dashboard
from grader.gradebook.export import feedback_md
from grader.gradebook.markdown_html import page, to_html
from grader.rubric import load

REPO = Path(__file__).resolve().parents[3]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _cjk_font() -> bool:
    if shutil.which("fc-list") is None:
        return False
    found = subprocess.run(["fc-list", ":lang=zh"], capture_output=True, text=True)
    return bool(found.stdout.strip())


pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium (Debian: apt-get install "
                                                "chromium) to render the pages"),
    pytest.mark.skipif(not _cjk_font(), reason="no CJK font (Debian: apt-get install "
                                               "fonts-noto-cjk): Chinese would show as boxes"),
]


def _render(html_file: Path, shot: Path) -> str:
    """The page's DOM after Chromium loaded it; its screenshot in `shot`."""
    profile = tempfile.mkdtemp(prefix="kanon-chromium-")
    try:
        flags = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", f"--user-data-dir={profile}", "--window-size=1000,1400"]
        dom = subprocess.run(flags + ["--dump-dom", html_file.as_uri()], capture_output=True,
                             text=True, timeout=120)
        subprocess.run(flags + [f"--screenshot={shot}", html_file.as_uri()],
                       capture_output=True, timeout=120)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 20_000
    keep = os.environ.get("KANON_SCREENSHOTS")
    if keep:
        shutil.copy(shot, Path(keep) / shot.name)
    return dom.stdout


def test_zh_cn_feedback_page_renders(tmp_path: Path) -> None:
    rubric = replace(load(REPO / "grader" / "rubric.toml"), language="zh-CN")
    part = rubric.auto_parts[-1]
    record = {"student": "张三", "score": 42.5, "max": 110.0, "status": "wrong_output",
              "source": "zhangsan.py", "solution": "zhangsan/skeleton.py", "notes": [],
              "parts": {part.key: 12.5},
              "cases": [{"part": part.key, "status": "wrong_output", "hidden": True,
                         "name": "ties, k=3", "points": 0.0, "max_points": 5.0,
                         "message": "第 3 行，列 age：期望 `[20-29]`，得到 `25`",
                         "time_limit": 10.0, "cpu_seconds": 0.42},
                        {"part": part.key, "status": "passed", "hidden": False,
                         "name": "adult-hw1, k=4", "points": 5.0, "max_points": 5.0,
                         "message": "正确", "time_limit": 10.0, "cpu_seconds": 1.5}]}
    html_file = tmp_path / "feedback-zh.html"
    html_file.write_text(page("张三 的反馈", to_html(feedback_md(record, rubric)), "zh-CN"),
                         encoding="utf-8")
    dom = _render(html_file, tmp_path / "feedback-zh.png")
    for text in ("张三 的反馈", "得分：42.5 / 110", "隐藏测试用例：ties、k=3", "未通过", "通过",
                 "CPU 时间限制 10 秒", "隐藏测试用例使用你没有见过的数据集"):
        assert text in dom


def test_dashboard_with_chinese_names_renders(tmp_path: Path) -> None:
    folder = tmp_path / "graded"
    folder.mkdir()
    summary = {"stats": {"students": 2, "mean": 55.0, "median": 55.0, "min": 10.0,
                         "max": 100.0},
               "status_counts": {"ok": 1, "timeout": 1},
               "distribution": {f"{lo}-{lo + 9}": 0 for lo in range(0, 90, 10)}
               | {"90-100": 1, "10-19": 1},
               "parts": {"mondrian": {"mean": 10.0, "full": 1, "max": 20}},
               "cases": {"mondrian/ties_k_2": {"passed": 1, "timeout": 1}}}
    (folder / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    (folder / "timings.csv").write_text("student,what,seconds,cpu_seconds,cpu_limit\n"
                                        "张三,mondrian/ties_k_2,0.3,0.25,10\n"
                                        "李四,mondrian/ties_k_2,9.0,8.00,10\n",
                                        encoding="utf-8")
    (folder / "pairs.csv").write_text("student_a,student_b,similarity,a_in_b,b_in_a,shared\n"
                                      "张三,李四,0.93,0.93,0.5,400\n", encoding="utf-8")
    html_file = write_dashboard(folder)
    dom = _render(html_file, tmp_path / "dashboard-zh.png")
    assert "张三" in dom and "李四" in dom and "Grading summary" in dom
