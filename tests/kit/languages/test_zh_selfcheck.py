"""The self-check of a zh-CN course speaks Chinese (issue 32): the default course in zh-CN (a
course.toml over the kit's rubric naming the language: its bundle is byte for byte the one of
`course new --from default --language zh-CN` but for course-fingerprint.json, which the
self-check never reads; test_zh_course_end_to_end.py and test_course_language.py run that
command), its bundle unpacked, run on a copy of the staff solution whose mondrian is broken
three ways (a wrong output, an exception, an endless loop) prints every failure, the tests not
run and the closing summary in Simplified Chinese, with no English sentence
(translations.english_runs); the staff solution itself passes every public test."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from child_python import compiled_env

from grader import cli
from grader.publishing.materials.translations import english_runs
from zh_text import ascii_list_commas, avoided_words, cjk_spaces

REPO = Path(__file__).resolve().parents[3]
pytestmark = pytest.mark.slow

BROKEN = '''

_good_mondrian = mondrian


def mondrian(raw_dataset_file, DGH_folder, k, output_file):
    """Broken on purpose: the raw table copied (case grid, 8 rows), an exception (world, 12
    rows, k = 2), an endless loop (jobsex, 10 rows, k = 2)."""
    with open(raw_dataset_file, encoding="utf-8") as f:
        text = f.read()
    rows = len([line for line in text.splitlines() if line.strip()]) - 1
    if output_file == raw_dataset_file or rows > 100:
        return _good_mondrian(raw_dataset_file, DGH_folder, k, output_file)
    if rows == 10 and k == 2:
        while True:
            pass
    if rows == 12 and k == 2:
        raise RuntimeError("boom")
    if rows == 8:
        with open(output_file, "w", encoding="utf-8") as f:
            f.write(text)
        return None
    return _good_mondrian(raw_dataset_file, DGH_folder, k, output_file)
'''


def grader(*args: str) -> None:
    """`python -m grader ARGS`, in process (the self-check's output is this file's claim;
    test_zh_course_end_to_end.py starts `bundle` as it is)."""
    assert cli.main(list(args)) == 0, args


def self_check(bundle: Path, solution: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", f"--solution={solution}",
                           "-p", "no:cacheprovider", *args], cwd=bundle,
                          env=compiled_env(dict(os.environ)),
                          capture_output=True, text=True, timeout=1800)


def test_a_zh_cn_bundles_self_check_speaks_chinese(tmp_path: Path) -> None:
    course = tmp_path / "zc"
    course.mkdir()
    rubric = json.dumps(str(REPO / "grader" / "rubric.toml"))  # a TOML string
    (course / "course.toml").write_text(
        f'[course]\nformat = 1\npublic_demo = true\nrubric = {rubric}\nlanguage = "zh-CN"\n',
        encoding="utf-8")
    grader("bundle", "--course", str(course), "--out", str(tmp_path / "zc.zip"))
    grader("solution", "--course", str(course), "--out", str(tmp_path / "sol.py"))
    with zipfile.ZipFile(tmp_path / "zc.zip") as archive:
        archive.extractall(tmp_path / "unpacked")
    bundle = tmp_path / "unpacked" / "kanon-hw1"
    good = (tmp_path / "sol.py").read_text(encoding="utf-8")
    at = good.index('\nif __name__ == "__main__":')
    (tmp_path / "broken.py").write_text(good[:at] + BROKEN + good[at:], encoding="utf-8")
    # mondrian's limit made 1 s, so that the endless loop is stopped after 3.3 s, not 30
    settings = bundle / "tests" / "public" / "course.json"
    course_json = json.loads(settings.read_text(encoding="utf-8"))
    assert course_json["language"] == "zh-CN"
    course_json["time"]["mondrian"]["time_limit"] = 1.0
    settings.write_text(json.dumps(course_json, indent=2), encoding="utf-8")

    broken = self_check(bundle, tmp_path / "broken.py", "-k", "mondrian")
    shown = broken.stdout + broken.stderr
    assert broken.returncode == 1, shown
    for line in (
            "用例 'grid' 上的 mondrian(k=2)：第 1 条数据行（不计表头）构成的等价类有 1 行，需要 k = 2",
            "用例 'grid' 上的 mondrian(k=2)：与参考输出 tests/public/data/expected/mondrian-grid-k2.csv "
            "不同：输出的第 1 条数据行（不计表头）、列 'x'（原始值 '1'）：应为 '[1-2]'，实际为 '1'；8 行中有 "
            "8 行不同",
            "用例 'world' 上的 mondrian(k=2)：抛出了 RuntimeError: boom（broken.py 第 ",
            "用例 'jobsex' 上的 mondrian(k=2)：没有在 3.3 秒内返回，所以自检停止了它（死循环？见 "
            "HANDOUT.md 的“时间限制”一节）",
            "--- 未运行的公开测试 ---",
            "用例 'adult' 上的 mondrian(k=8)：未运行，因为用例 'jobsex' 上的 mondrian(k=2) 没有在 3.3 "
            "秒内返回",
            "--- 公开自检 ---",
            "用例 'jobsex' 上的 mondrian(k=2) 没有在 3.3 秒内返回（mondrian 中有死循环？），所以自检没有"
            "运行 mondrian 其后的 3 个公开测试",
            "公开测试：4 个通过，8 个未通过，3 个未运行。评分程序还会运行隐藏测试用例"):
        assert line in shown, (line, shown)
    assert "warnings summary" not in shown, shown  # the markers registered in Chinese too
    assert "公开反例" in shown  # the public counterexample under the first failure (issue 34)
    prose = "\n".join(line for line in shown.splitlines()  # its rerun command is code
                      if "python -c" not in line)
    assert english_runs(prose) == [], shown
    written = [line for line in prose.splitlines() if cjk_spaces(line) + ascii_list_commas(line)]
    assert written == [] and avoided_words(prose) == [], (written, avoided_words(prose))

    passed = self_check(bundle, tmp_path / "sol.py")
    shown = passed.stdout + passed.stderr
    assert passed.returncode == 0, shown
    assert "个通过，0 个未通过。评分程序还会运行隐藏测试用例" in shown, shown
    assert english_runs(shown) == [], shown
