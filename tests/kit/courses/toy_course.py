"""A toy course with functions of its own (no kit file knows them): `chunk_anonymizer`,
judged by quality (its reference starts at a random record, so right answers differ), and
`count_classes`, judged as a number on the reference's anonymized output. Written into a
temporary folder by `make_toy_course`; its students by `toy_student`."""
from __future__ import annotations

from pathlib import Path

RUBRIC = """\
[settings]
time_limit = 10
import_time_limit = 10
cases_dir = "cases"
allowed_packages = ["numpy"]

[data]
qis = ["age", "sex", "zip"]
numeric = ["age"]
sensitive = "disease"
other_columns = "drop"
hierarchy_format = "paths"

[[function]]
name = "chunk_anonymizer"
returns = "file"
reference = "ref/toy.py:chunk_anonymizer"
seed_param = "seed"
params = [{ name = "raw_dataset_file", kind = "raw" },
          { name = "DGH_folder", kind = "dghs" },
          { name = "k", kind = "int", min = 1 },
          { name = "output_file", kind = "output" }]

[[function]]
name = "count_classes"
returns = "number"
reference = "ref/toy.py:count_classes"
params = [{ name = "raw_dataset_file", kind = "raw" },
          { name = "anonymized_dataset_file", kind = "anonymized" },
          { name = "DGH_folder", kind = "dghs" }]

[[part]]
function = "chunk_anonymizer"
points = 6
judge = "quality"
seeds = 5
slack = 0.10

[[part.case]]
name = "toy, k=3"
data = "public/toy"
k = 3

[[part.case]]
name = "toy, k=5"
data = "public/toy"
k = 5

[[part.case]]
name = "k = 0"
data = "public/toy"
k = 0
expect = "ValueError"

[[part]]
function = "count_classes"
points = 4

[[part.case]]
name = "toy, chunks of 3"
data = "public/toy"
anonymized = { function = "chunk_anonymizer", k = 3 }
"""

REFERENCE = '''\
"""The toy course's reference: sort the records by their QIs, start at a random record and
cut the circle into runs of k records (the last run joins the one before); each run
released as its middle (the ages' range, the labels' lowest common ancestor)."""
import csv
import random

QIS = ("age", "sex", "zip")


def _read(raw_dataset_file):
    with open(raw_dataset_file, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def _parents(DGH_folder, column):
    parent = {}
    with open(f"{DGH_folder}/{column}.txt") as f:
        for line in f:
            path = [p.strip() for p in line.strip().split(";") if p.strip()]
            for child, up in zip(path, path[1:]):
                parent[child] = up
    return parent


def _lca(parent, labels):
    paths = []
    for label in labels:
        path = [label]
        while path[-1] in parent:
            path.append(parent[path[-1]])
        paths.append(path)
    common = [n for n in paths[0] if all(n in p for p in paths)]
    return common[0]


def chunk_anonymizer(raw_dataset_file, DGH_folder, k, output_file, seed=None):
    header, rows = _read(raw_dataset_file)
    if k < 1 or k > len(rows):
        raise ValueError(f"k must be between 1 and {len(rows)}")
    q = [header.index(c) for c in QIS]
    order = sorted(range(len(rows)), key=lambda i: (int(rows[i][q[0]]), rows[i][q[1]],
                                                     rows[i][q[2]], i))
    start = random.Random(seed).randrange(len(order))
    order = order[start:] + order[:start]
    runs = [order[i:i + k] for i in range(0, len(order), k)]
    if len(runs) > 1 and len(runs[-1]) < k:
        last = runs.pop()
        runs[-1] += last
    parents = {c: _parents(DGH_folder, c) for c in QIS[1:]}
    out = [None] * len(rows)
    for run in runs:
        ages = [int(rows[i][q[0]]) for i in run]
        age = str(ages[0]) if min(ages) == max(ages) else f"[{min(ages)}-{max(ages)}]"
        cells = [age] + [_lca(parents[c], [rows[i][q[j + 1]] for i in run])
                         for j, c in enumerate(QIS[1:])]
        for i in run:
            out[i] = cells + [rows[i][header.index("disease")]]
    with open(output_file, "w", newline="") as f:
        writer = csv.writer(f, lineterminator="\\n")
        writer.writerow(list(QIS) + ["disease"])
        writer.writerows(out)


def count_classes(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    with open(anonymized_dataset_file, newline="") as f:
        rows = list(csv.reader(f))[1:]
    return float(len({tuple(r[:3]) for r in rows}))
'''

HANDOUT = {
    "chunk_anonymizer": """\
```python
{{signature}}
```

{{meta}}

Sort the records by their QIs (`age`, then `sex`, then `zip`) and cut them into runs of k
consecutive records; a last run shorter than k joins the run before it. Release each run as
its middle: the range `[lo-hi]` of its ages (the age itself when they are all equal) and the
lowest common ancestor of its `sex` and `zip` labels. Only the QIs and `disease` are released,
one row per raw record in the raw file's order. k < 1 or k > n is a `ValueError`.

Where you start cutting is up to you: any valid, k-anonymous output whose NCP stays within the
band the staff's own runs give earns {{points}}.
""",
    "count_classes": """\
```python
{{signature}}
```

{{meta}}

The number of equivalence classes of an anonymized table: the distinct combinations of its QI
cells (`age`, `sex`, `zip`). Returns a number.
""",
}
"""The course's own handout sections (handout/<function>.md in its folder), in English."""

HANDOUT_ZH = {
    "chunk_anonymizer": """\
```python
{{signature}}
```

{{meta}}

按准标识符（先 `age`，再 `sex`，再 `zip`）对记录排序，切成每段 k 条连续记录；最后一段不足 k 条时并入前一段。
每段发布为其中间值：年龄的区间 `[lo-hi]`（全部相等时写该年龄本身），`sex` 与 `zip` 标签的最近公共祖先。
只发布准标识符和 `disease`，每条原始记录按原始文件的顺序输出一行。k < 1 或 k > n 时抛出 `ValueError`。

从哪里开始切由你决定：任何有效、满足 k-匿名、信息损失（NCP）不超过助教自己多次运行所给范围的输出，都得 {{points}}。
""",
    "count_classes": """\
```python
{{signature}}
```

{{meta}}

匿名化表的等价类个数：其准标识符单元格（`age`、`sex`、`zip`）的不同组合数。返回一个数值。
""",
}
"""The same sections in Simplified Chinese (a zh-CN toy course: `make_toy_course(...,
language="zh-CN")`)."""

HIERARCHIES = {
    "sex": "Male;*\nFemale;*\n",
    "zip": "13053;130**;*\n13068;130**;*\n14850;148**;*\n14853;148**;*\n",
}

DISEASES = ("flu", "cold", "asthma", "ulcer")
ZIPS = ("13053", "13068", "14850", "14853")


def toy_rows(n: int = 24) -> list[list[str]]:
    """Deterministic rows: ages 21-60, both sexes, four zip codes."""
    return [[str(21 + (i * 7) % 40), ("Male", "Female")[i % 2], ZIPS[(i * 3) % 4],
             DISEASES[(i * 5) % 4]] for i in range(n)]


def make_toy_course(folder: Path, language: str = "en", extra_cases: str = "") -> Path:
    """The toy course's folder (rubric.toml, ref/toy.py, cases/public/toy, handout/); its
    rubric. `language`: the course's ("zh-CN": a [course] table and the Chinese handout
    sections); `extra_cases`: [[part.case]] tables added to the first part."""
    data = folder / "cases" / "public" / "toy"
    (data / "DGHs").mkdir(parents=True)
    lines = ["age,sex,zip,disease"] + [",".join(r) for r in toy_rows()]
    (data / "adult-hw1.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for name, text in HIERARCHIES.items():
        (data / "DGHs" / f"{name}.txt").write_text(text, encoding="utf-8")
    (folder / "ref").mkdir()
    (folder / "ref" / "toy.py").write_text(REFERENCE, encoding="utf-8")
    rubric = RUBRIC if language == "en" else f'[course]\nlanguage = "{language}"\n\n' + RUBRIC
    if extra_cases:
        at = rubric.index("[[part]]\nfunction = \"count_classes\"")
        rubric = rubric[:at] + extra_cases.strip("\n") + "\n\n" + rubric[at:]
    (folder / "rubric.toml").write_text(rubric, encoding="utf-8")
    (folder / "handout").mkdir()
    for name, text in (HANDOUT if language == "en" else HANDOUT_ZH).items():
        (folder / "handout" / f"{name}.md").write_text(text, encoding="utf-8")
    return folder / "rubric.toml"


GOOD = '''\
import csv
import sys


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def up(DGH_folder, name):
    parent = {}
    for line in open(DGH_folder + "/" + name + ".txt"):
        path = line.strip().split(";")
        for a, b in zip(path, path[1:]):
            parent[a] = b
    return parent


def common(parent, labels):
    labels = set(labels)
    while len(labels) > 1:
        labels = {parent.get(x, x) for x in labels}
    return labels.pop()


def chunk_anonymizer(raw_dataset_file, DGH_folder, k, output_file):
    header, rows = read(raw_dataset_file)
    if k < 1 or k > len(rows):
        raise ValueError("bad k")
    idx = sorted(range(len(rows)), key=lambda i: (int(rows[i][0]), rows[i][2], rows[i][1]))
    groups = [idx[i:i + K] for K in [k] for i in range(0, len(idx), K)]
    if len(groups) > 1 and len(groups[-1]) < GROUP_MIN(k):
        last = groups.pop()
        groups[-1] += last
    sex, zips = up(DGH_folder, "sex"), up(DGH_folder, "zip")
    out = {}
    for g in groups:
        ages = [int(rows[i][0]) for i in g]
        age = str(ages[0]) if min(ages) == max(ages) else "[%d-%d]" % (min(ages), max(ages))
        s = common(sex, [rows[i][1] for i in g])
        z = common(zips, [rows[i][2] for i in g])
        for i in g:
            out[i] = [age, s, z, rows[i][3]]
    with open(output_file, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["age", "sex", "zip", "disease"])
        for i in range(len(rows)):
            w.writerow(out[i])


def GROUP_MIN(k):
    return k


def count_classes(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    header, rows = read(anonymized_dataset_file)
    return len(set(tuple(r[:3]) for r in rows)) + OFF_BY


OFF_BY = 0

if __name__ == "__main__":
    chunk_anonymizer(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4])
'''

UNTOUCHED = '''\
def chunk_anonymizer(raw_dataset_file, DGH_folder, k, output_file):
    raise NotImplementedError


def count_classes(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    raise NotImplementedError
'''


def toy_student(folder: Path, kind: str) -> Path:
    """A student of the toy course: "good", "buggy" (its last group may be smaller than k,
    its class count one too many) or "untouched" (the skeleton)."""
    folder.mkdir(parents=True)
    text = {"good": GOOD, "untouched": UNTOUCHED,
            "buggy": GOOD.replace("return k\n", "return 1\n").replace("OFF_BY = 0", "OFF_BY = 1")
            }[kind]
    (folder / "skeleton.py").write_text(text, encoding="utf-8")
    return folder
