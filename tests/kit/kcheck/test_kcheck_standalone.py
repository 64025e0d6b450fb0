"""kcheck ships in the students' bundle as-is: it imports the standard library and itself
only (never numpy, kanon, grader or reference), runs where those cannot be imported, and keeps
the kit's size limits (tests/kit/repo/test_repo_hygiene.py)."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
PACKAGE = REPO / "kcheck"


def test_kcheck_imports_the_standard_library_and_itself_only() -> None:
    foreign = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [] if node.level else [node.module or ""]
            else:
                continue
            foreign += [f"{path.name}: {n}" for n in names
                        if n.split(".")[0] not in sys.stdlib_module_names]
    assert not foreign


def test_kcheck_runs_without_numpy_or_the_kit() -> None:
    script = (
        "import sys\n"
        "for name in ('numpy', 'kanon', 'grader', 'reference'):\n"
        "    sys.modules[name] = None\n"
        "from kcheck import judge_quality, parse_hierarchy, parse_table, render\n"
        "raw = parse_table(b'age,job\\n30,a\\n31,b\\n', 'raw.csv')\n"
        "tree = parse_hierarchy('a;*\\nb;*\\n', 'job', 'job.txt')\n"
        "v, f = judge_quality(raw, {'job': tree}, b'age,job\\n[30-31],*\\n[30-31],*\\n', k=2,\n"
        "                     qis=['age', 'job'], numeric=['age'], released=['age', 'job'])\n"
        "print(render(v, 'zh-CN'), f.cost)\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=REPO, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["全部规则均满足。", "4.0"]


def test_no_module_or_class_is_too_long() -> None:
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert len(text.splitlines()) <= 350, path.name
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                assert node.end_lineno - node.lineno + 1 <= 120, f"{path.name}::{node.name}"
