"""tests/public/teach.py, the self-check's public counterexamples (kcheck's pool, search and
text wired to the self-check's calls), on small hand-made pools: smallest first, the first
member that differs, a stopped call ends the search, the hierarchy lines used, the marked
cells and a rerun command that runs. (End to end in a bundle on quality-gate mutants:
test_selfcheck_counterexample.py.)"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

PUBLIC = Path(__file__).resolve().parents[3] / "tests" / "public"
if str(PUBLIC) not in sys.path:
    sys.path.insert(0, str(PUBLIC))

import teach  # noqa: E402
from kcheck.pool import csv_text, members, used_lines  # noqa: E402

DGH = "Any\n\tlow\n\t\t1\n\t\t2\n\thigh\n\t\t6\n\t\t7\n"
PARAMS = ["raw_dataset_file", "DGH_folder", "k", "output_file"]


def _pool(tmp_path: Path) -> Path:
    """Two chains of one source: rows (1, 2, 3) then (1, 2); rows (2, 3) with both QIs."""
    source = {"label": "tests/public/data/cases/t/raw.csv", "header": ["x", "y", "s"],
              "rows": {"1": ["1", "6", "u"], "2": ["2", "7", "v"], "3": ["6", "1", "w"]},
              "dghs": {"x": DGH, "y": DGH}}
    def member(rows, qis):
        return {"rows": rows, "qis": qis, "expected": f"rows {rows} qis {qis}"}
    data = {"sources": {"t": source}, "chains": [
        {"source": "t", "ints": {"k": 2}, "members": [member([1, 2, 3], ["x"]),
                                                     member([1, 2], ["x"])]},
        {"source": "t", "ints": {"k": 2}, "members": [member([2, 3], ["x", "y"]),
                                                     member([1, 2], ["x"])]}]}
    path = tmp_path / "f.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_members_are_distinct_and_smallest_first(tmp_path: Path) -> None:
    found = members(_pool(tmp_path))
    assert [(m.rows, m.qis) for m in found] == [((1, 2), ("x",)), ((1, 2, 3), ("x",)),
                                                ((2, 3), ("x", "y"))]
    first = found[0]
    assert first.header == ["x", "s"] and first.raw == [["1", "u"], ["2", "v"]]
    assert first.dghs == {"x": DGH}
    first.write(tmp_path / "m")
    assert (tmp_path / "m" / "raw.csv").read_text(encoding="utf-8") == "x,s\n1,u\n2,v\n"
    assert (tmp_path / "m" / "DGHs" / "x.txt").read_text(encoding="utf-8") == DGH


def test_used_lines_are_the_values_and_their_ancestors() -> None:
    assert used_lines(DGH, {"2", "6"}) == ["Any", "  low", "    2", "  high", "    6"]
    assert used_lines(DGH, {"low"}) == ["Any", "  low"]


class Calls:
    """A stand-in for the self-check's worker: writes `outputs[rows]` or answers `kind`."""

    process = object()

    def __init__(self, outputs: dict, kind: str = "returned"):
        self.outputs, self.kind, self.made = outputs, kind, []

    def call(self, name, args, folder, limit):
        rows = (Path(folder) / "raw.csv").read_text(encoding="utf-8").count("\n") - 1
        self.made.append(rows)
        if self.kind != "returned":
            return SimpleNamespace(kind=self.kind, text="ValueError: no", number=None)
        (Path(folder) / args[-1]).write_text(self.outputs[rows], encoding="utf-8")
        return SimpleNamespace(kind="returned", text="None", number=None)


def test_search_returns_the_first_member_that_differs(tmp_path: Path) -> None:
    pool = members(_pool(tmp_path))
    outputs = {2: pool[0].expected, 3: "x,s\n9,u\n"}  # right on 2 rows, wrong on 3
    calls = Calls(outputs)
    found = teach.search(calls, "f", PARAMS, pool, tmp_path / "w")
    assert isinstance(found, teach.Found) and found.member is pool[1] and found.calls == 2
    assert calls.made == [2, 3]
    raised = teach.search(Calls({}, "raised"), "f", PARAMS, pool, tmp_path / "w")
    assert raised.member is pool[0] and raised.problem == "raised ValueError: no"


def test_a_stopped_call_or_the_budget_ends_the_search_in_one_line(tmp_path: Path) -> None:
    pool = members(_pool(tmp_path))
    stopped = teach.search(Calls({}, "timeout"), "f", PARAMS, pool, tmp_path / "w")
    assert stopped == teach.Stopped("limit", 1, stopped.limit) and 0 < stopped.limit <= 10
    line = teach.stopped_line(stopped, "f")
    assert "\n" not in line and "did not return within" in line
    assert teach.search(Calls({}), "f", PARAMS, pool, tmp_path / "w", budget=0) == \
        teach.Stopped("budget", 0)
    agrees = {2: pool[0].expected, 3: pool[1].expected}
    assert teach.search(Calls(agrees), "f", PARAMS, pool[:2], tmp_path / "w") == \
        teach.Stopped("none", 2)


def test_the_text_marks_the_differing_cells_and_its_command_reruns_the_call(
        tmp_path: Path) -> None:
    member = members(_pool(tmp_path))[0]
    member = type(member)(**{**member.__dict__, "expected": "x,s\nlow,u\nlow,v\n"})
    solution = tmp_path / "my solution" / "mine.py"  # a space in the path
    solution.parent.mkdir()
    solution.write_text("import shutil\ndef f(raw, dghs, k, out):\n"
                        "    shutil.copyfile(raw, out)\n", encoding="utf-8")
    folder = tmp_path / "files"
    member.write(folder)
    found = teach.Found(member, "x,s\nlow,u\n2,v\n")
    lines = teach.render(found, "f", PARAMS, folder, solution)
    text = "\n".join(lines)
    assert "raw.csv (2 of the data rows of tests/public/data/cases/t/raw.csv: 1, 2)" in text
    assert "    row  x    s\n    1    low  u\n    2    *2*  v" in text
    assert "      low\n" in text and "high" not in text  # only the lines used
    command = next(line.strip() for line in lines if line.strip().startswith("python -c"))
    assert not set("$%!`") & set(command)
    program = command.removeprefix('python -c "').removesuffix('"')
    assert '"' not in program
    subprocess.run([sys.executable, "-c", program], check=True, timeout=60)
    assert (folder / "yours.csv").read_text(encoding="utf-8") == csv_text(member.header,
                                                                          member.raw)


def test_a_zh_cn_course_reads_the_counterexample_in_chinese(tmp_path: Path, monkeypatch) -> None:
    course = json.loads((PUBLIC / "course.json").read_text(encoding="utf-8"))
    (tmp_path / "course.json").write_text(json.dumps({**course, "language": "zh-CN"}),
                                          encoding="utf-8")
    monkeypatch.setenv("KANON_COURSE_FILE", str(tmp_path / "course.json"))
    member = members(_pool(tmp_path))[0]
    member = type(member)(**{**member.__dict__, "expected": "x,s\n1,u\n2,v\n"})
    lines = teach.render(teach.Found(member, "x,s\n1,u\n9,v\n"), "f", PARAMS, tmp_path,
                         tmp_path / "mine.py")
    text = "\n".join(lines)
    assert text.startswith("使 f 与作业说明的规则结果不一致的最小公开输入")
    assert "    行  x    s\n    1  1    u\n    2  *9*  v" in text
    assert teach.stopped_line(teach.Stopped("budget", 3), "f") == \
        "在自检的 10 秒内没有找到 f 的公开反例（共 3 次调用）。"
