"""`python -m grader similarity`: renamed copies are found, different code is not."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from grader.similarity import fingerprint, normalized_tokens

REPO = Path(__file__).resolve().parents[2]

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


def test_similarity_command_lists_the_renamed_copy_only(tmp_path: Path) -> None:
    subs = tmp_path / "subs"
    for name, text in {"ann": ORIGINAL, "ben": RENAMED, "cal": OTHER.format(n=3),
                       "dan": "def mondrian(a, b, k, o):\n    return [k] * 3\n" * 3}.items():
        (subs / name).mkdir(parents=True)
        (subs / name / "skeleton.py").write_text(text, encoding="utf-8")
    out = tmp_path / "pairs.csv"
    cmd = [sys.executable, "-m", "grader", "similarity", str(subs), "--out", str(out)]
    done = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    first = out.read_bytes()
    header, *pairs = first.decode().splitlines()
    assert header == "student_a,student_b,similarity,shared_runs"
    assert len(pairs) == 1 and pairs[0].startswith("ann,ben,1.0,")
    assert int(pairs[0].split(",")[3]) > 50  # runs shared beyond the skeleton's own code
    subprocess.run(cmd, cwd=REPO, check=True, capture_output=True)
    assert out.read_bytes() == first
    everything = tmp_path / "all.csv"
    subprocess.run(cmd[:-1] + [str(everything), "--threshold", "0"], cwd=REPO, check=True,
                   capture_output=True)
    assert len(everything.read_text().splitlines()) == 1 + 6
