"""`python -m grader similarity`: renamed copies are found, different code is not."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from child_python import compiled_env
from grader import cli
from grader import rubric as rubric_mod
from grader.similarity.run import (copydetect_available, fingerprint, normalized_tokens,
                                   run_similarity)

REPO = Path(__file__).resolve().parents[3]

ORIGINAL = '''
def cost_MD(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    """My MD cost."""
    total = 0
    with open(raw_dataset_file) as raw, open(anonymized_dataset_file) as anon:
        for line_raw, line_anon in zip(raw, anon):
            cells = line_raw.split(",")
            generalized = line_anon.split(",")
            for a, b in zip(cells, generalized):
                if a != b:
                    total += depth_difference(a, b, DGH_folder) * 2 - 1
    return total


def depth_difference(a, b, folder):
    tree = load(folder)
    return tree[a] - tree[b] if a in tree and b in tree else 0
'''

RENAMED = '''
# Homework 1 -- Ben
def cost_MD(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    # computes the distortion
    s = 0
    with open(raw_dataset_file) as f1, open(anonymized_dataset_file) as f2:
        for x, y in zip(f1, f2):
            xs = x.split(';')
            ys = y.split(';')
            for p, q in zip(xs, ys):
                if p != q:
                    s += depth_diff(p, q, DGH_folder) * 3 - 7
    return s


def depth_diff(p, q, where):
    h = load(where)
    return h[p] - h[q] if p in h and q in h else 0
'''

OTHER = '''
import numpy as np

def cost_MD(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    data = np.loadtxt(raw_dataset_file, dtype=str, delimiter=",")
    out = np.loadtxt(anonymized_dataset_file, dtype=str, delimiter=",")
    mask = data != out
    return float(mask.sum()) + sum(level(v) for v in out[mask])

def level(value):
    return len(value) % {n}
'''


def test_normalization_ignores_names_comments_and_literals() -> None:
    assert normalized_tokens(ORIGINAL) == normalized_tokens(RENAMED)
    assert normalized_tokens("x = 'a' 'b'  # c\n") == ["ID", "=", "STR"]
    assert fingerprint(ORIGINAL) == fingerprint(RENAMED) != fingerprint(OTHER.format(n=3))


def _class(root: Path) -> Path:
    subs = root / "subs"
    for name, text in {"ann": ORIGINAL, "ben": RENAMED, "cal": OTHER.format(n=3),
                       "dan": "def mondrian(a, b, k, o):\n    return [k] * 3\n" * 3}.items():
        (subs / name).mkdir(parents=True)
        (subs / name / "skeleton.py").write_text(text, encoding="utf-8")
    return subs


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["tokens", "copydetect"])
def test_similarity_command_lists_the_renamed_copy_only(tmp_path: Path, engine: str) -> None:
    if engine == "copydetect" and not copydetect_available():
        pytest.skip('copydetect is not installed (pip install -e ".[similarity]")')
    subs = _class(tmp_path)
    out = tmp_path / "pairs.csv"
    cmd = [sys.executable, "-m", "grader", "similarity", str(subs), "--out", str(out),
           "--engine", engine]
    env = compiled_env(dict(os.environ))  # the run's compiled modules, reused
    done = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert f"({engine}, 4 submissions)" in done.stderr and "not a verdict" in done.stderr
    first = out.read_bytes()
    header, *pairs = first.decode().splitlines()
    assert header == "student_a,student_b,similarity,a_in_b,b_in_a,shared"
    assert len(pairs) == 1 and pairs[0].startswith("ann,ben,")
    assert float(pairs[0].split(",")[2]) >= 0.9 and int(pairs[0].split(",")[5]) > 50
    page = out.with_suffix(".html").read_text(encoding="utf-8")
    assert "not a verdict" in page and "ann and ben" in page
    assert "def cost_MD(raw_dataset_file" in page  # the code itself, side by side
    if engine == "copydetect":
        assert page.count("<mark>") >= 2  # the matched code highlighted on both sides
    subprocess.run(cmd, cwd=REPO, env=env, check=True, capture_output=True)
    assert out.read_bytes() == first
    assert out.with_suffix(".html").read_text(encoding="utf-8") == page
    everything = tmp_path / "all.csv"  # the threshold's effect: in this process
    assert cli.main(cmd[3:6] + [str(everything), "--threshold", "0", "--engine", engine]) == 0
    assert len(everything.read_text().splitlines()) == 1 + 6


def test_archive_pairs_a_student_with_a_past_year(tmp_path: Path) -> None:
    subs = _class(tmp_path)
    shutil.rmtree(subs / "ben")
    archive = tmp_path / "2025"
    (archive / "old").mkdir(parents=True)
    (archive / "old" / "skeleton.py").write_text(RENAMED, encoding="utf-8")
    (archive / "older").mkdir()
    (archive / "older" / "skeleton.py").write_text(RENAMED, encoding="utf-8")
    out = tmp_path / "pairs.csv"
    done = run_similarity(subs, out, rubric_mod.load(None), archives=[archive])
    assert [(p.a, p.b) for p in done.pairs] == [("ann", "2025/old"), ("ann", "2025/older")]
    assert done.archived == 2 and done.compared == 3  # archived ones not paired together


def test_without_copydetect_the_token_matcher_runs_with_a_hint(tmp_path: Path, monkeypatch,
                                                                 capsys) -> None:
    from grader.similarity import run as similarity
    monkeypatch.setattr(similarity, "copydetect_available", lambda: False)
    subs = _class(tmp_path)
    assert cli.main(["similarity", str(subs), "--out", str(tmp_path / "p.csv")]) == 0
    err = capsys.readouterr().err
    assert similarity.INSTALL_HINT in err and 'pip install -e ".[similarity]"' in err
    assert "(tokens, 4 submissions)" in err
    assert cli.main(["similarity", str(subs), "--out", str(tmp_path / "p.csv"),
                     "--engine", "copydetect"]) == 2


def test_the_report_does_not_call_uncompared_code_unshared() -> None:
    """A pair whose compared code is all shared: 100% beside a long unhighlighted stretch,
    which the page must not call "not shared" (it holds skeleton code, never compared)."""
    from grader.similarity.pairs import Pair
    from grader.similarity.report import report_html
    source = "".join(f"line_{n} = {n}\n" for n in range(40)) + "def f():\n    return 1\n"
    start = source.index("def f")
    pair = Pair("ann", "ben", 1.0, 1.0, 1.0, 20, [(start, len(source))], [(start, len(source))])
    page = report_html([pair], {"ann": source, "ben": source}, "copydetect", 0.5, 2, 0)
    assert "not shared" not in page
    assert "ann (100% of its compared code found in the other)" in page
    assert "[... 37 line(s) not highlighted ...]" in page  # kept: the 3 lines before the mark
    assert "not compared, so not counted in the shares" in page
