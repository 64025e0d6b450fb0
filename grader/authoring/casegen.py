"""Deterministic generation of the grader's case inputs (public and hidden datasets).

    python -m grader regen        # runs this, then the reference on every case

`public/adult` is the kit's own adult-hw1.csv and DGHs/. Every `hidden/<name>` dataset is
built here from a fixed seed with Python's Mersenne Twister (the same bytes on every
platform): unbalanced hierarchies, a single QI, many QIs, ties, and cells with commas, quotes
and non-ASCII text. Each dataset folder also holds `anonymized/*.csv`, inputs of the cost
cases: every QI cell generalized a random number of levels (`levels.csv`), numeric QIs as
random intervals (`intervals.csv`), or some rows fully suppressed (`suppressed.csv`); and
`classes.csv`, a full-domain generalization whose ECs have at least 3 rows each (the input of
the privacy measures' cases, entropy_l and t_closeness).
Students never see the hidden datasets: the student bundle excludes grader/ entirely.

Terms of a course (`python -m grader regen --course DIR --term NAME`, grader/authoring/terms.py): the same builders
and hierarchies draw new rows from a seed derived from NAME, with these sizes (rows n):

    unbalanced  53 by default, 42..64 in a term     (+-20%)
    single-qi   31 by default, 25..37 in a term     (+-20%)
    many-qi     47 by default, 38..56 in a term     (+-20%)
    quoted      40 by default, 32..48 in a term     (+-20%)
    ties        36 by default, 34..40 in a term     (every combination twice, plus 2..8
                                                     distinct combinations a third time,
                                                     in a shuffled order)

The default (no term) keeps every file byte for byte. public/adult never changes.
"""
from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Callable, NamedTuple

from kanon.cells import is_numeric
from kanon.hierarchy import DGH, parse_dgh
from kanon.table import parse_table, render_csv

from ..contract import DGH_DIR, RAW_FILE
from ..errors import UserError
from .privacy_inputs import classes

Tree = tuple[str, list["Tree"]]
Dataset = tuple[dict[str, "Tree"], list[str], list[list[str]]]


class Draw(NamedTuple):
    """How one hidden dataset is drawn: the seed of its rows, how many rows, and whether the
    draw is a term's (`fresh`: also the order of the ties dataset's fixed rows is drawn)."""

    seed: int
    rows: int
    fresh: bool = False


def leaf(label: str) -> Tree:
    return (label, [])


def node(label: str, *children: Tree | str) -> Tree:
    return (label, [leaf(c) if isinstance(c, str) else c for c in children])


def dgh_text(tree: Tree) -> str:
    lines: list[str] = []

    def walk(t: Tree, depth: int) -> None:
        lines.append("\t" * depth + t[0])
        for child in t[1]:
            walk(child, depth + 1)
    walk(tree, 0)
    return "\n".join(lines) + "\n"


def leaves_of(tree: Tree) -> list[str]:
    return [tree[0]] if not tree[1] else [x for c in tree[1] for x in leaves_of(c)]


# -- hidden datasets ---------------------------------------------------------------------
def _unbalanced(rng: random.Random, n: int, fresh: bool) -> Dataset:
    region = node("Any", node("Europe", node("West", "France", node("Benelux", "Brussels",
                                                                     "Antwerp")),
                              node("Nordic", "Norway")),
                  node("Asia", "Japan"), "Oceania")
    job = node("Any", node("Tech", "Dev", "Ops", node("Data", "ML", "BI")),
               node("Care", "Nurse"), "Artist")
    age = node("Any", node("[0,40)", node("[20,30)", "21", "24", "27", "29"), "35"),
               node("[40,100)", "41", "55", node("[60,80)", "62", "71")))
    trees = {"age": age, "region": region, "job": job}
    header = ["age", "region", "job", "disease"]
    weights = {"Brussels": 4, "Antwerp": 1, "France": 6, "Norway": 3, "Japan": 5, "Oceania": 2}
    rows = []
    for _ in range(n):
        rows.append([rng.choice(leaves_of(age)),
                     rng.choices(list(weights), list(weights.values()))[0],
                     rng.choice(leaves_of(job)),
                     rng.choice(["Flu", "Cold", "Covid", "Asthma"])])
    return trees, header, rows


def _single_qi(rng: random.Random, n: int, fresh: bool) -> Dataset:
    zipcode = node("*", node("476**", node("4767*", "47677", "47678"), "47602"),
                   node("479**", "47905", node("4790*", "47906", "47909")), "10001")
    rows = [[rng.choice(leaves_of(zipcode)), str(rng.choice([30, 40, 50, 60, 70]) * 1000)]
            for _ in range(n)]
    return {"zipcode": zipcode}, ["zipcode", "salary"], rows


def _many_qi(rng: random.Random, n: int, fresh: bool) -> Dataset:
    trees: dict[str, Tree] = {}
    shapes = [2, 1, 2, 1, 3, 1, 2, 1, 1, 2]
    for i, height in enumerate(shapes):
        name = f"q{i}"

        def build(prefix: str, h: int) -> Tree:
            if h == 0:
                return leaf(prefix)
            return node(prefix + "*", *[build(f"{prefix}{c}", h - 1)
                                        for c in "ab"[: 2 if h > 1 else 3]] +
                        ([leaf(prefix + "c")] if h == 1 else []))
        trees[name] = build(name.upper() + "-", height)
    header = list(trees) + ["label"]
    rows = []
    for _ in range(n):
        rows.append([rng.choice(leaves_of(t)) for t in trees.values()] + [rng.choice("XYZ")])
    return trees, header, rows


def _ties(rng: random.Random, n: int, fresh: bool) -> Dataset:
    color = node("Any", node("Warm", "Red", "Orange"), node("Cool", "Blue", "Green"))
    shape = node("Any", node("Round", "Circle", "Oval"), node("Sharp", "Square", "Star"))
    base = [[c, s] for c in leaves_of(color) for s in leaves_of(shape)]  # 16 combinations
    third = sorted(rng.sample(range(16), n - 32)) if fresh else [0, 5, 10, 15]
    rows = [list(r) for r in base] + [list(r) for r in base] + [list(base[i]) for i in third]
    if fresh:
        rng.shuffle(rows)
    for i, row in enumerate(rows):
        row.append("yes" if i % 2 else "no")
    return {"color": color, "shape": shape}, ["color", "shape", "outcome"], rows


def _quoted(rng: random.Random, n: int, fresh: bool) -> Dataset:
    city = node("Anywhere", node("Europe, West", "Paris, FR", "Zürich", 'The "Big" Smoke'),
                node("Asia", "東京", "Seoul, KR"), "São Paulo")
    diet = node("Any diet", "Veg; vegan", 'Omnivore, "all"', "Pescetarian")
    score = node("Any", node("low", "1.5", "2", "2.25"), node("high", "7", "9.5", "10"))
    trees = {"city": city, "score": score, "diet": diet}
    header = ["city", "score", "note, free text", "diet"]
    notes = ['said "hello"', "a, b, c", "naïve café", "—", "plain"]
    rows = [[rng.choice(leaves_of(city)), rng.choice(leaves_of(score)), rng.choice(notes),
             rng.choice(leaves_of(diet))] for _ in range(n)]
    return trees, header, rows


Builder = Callable[[random.Random, int, bool], Dataset]
HIDDEN: dict[str, tuple[Builder, Draw, tuple[int, int]]] = {
    # name -> (builder, the default draw, the rows a term draws from, inclusive)
    "unbalanced": (_unbalanced, Draw(101, 53), (42, 64)),
    "single-qi": (_single_qi, Draw(202, 31), (25, 37)),
    "many-qi": (_many_qi, Draw(303, 47), (38, 56)),
    "ties": (_ties, Draw(404, 36), (34, 40)),
    "quoted": (_quoted, Draw(505, 40), (32, 48)),
}


# -- cost inputs ---------------------------------------------------------------------------
def anonymized_inputs(header: list[str], rows: list[list[str]], dghs: dict[str, DGH],
                      seed: int, suppress: bool = True) -> dict[str, str]:
    """CSV texts of the cost cases' anonymized inputs for one dataset."""
    rng = random.Random(seed)
    qi = [c for c, name in enumerate(header) if name in dghs]
    numeric = {c for c in qi if is_numeric([r[c] for r in rows])}

    climbed: dict[tuple[int, str, int], str] = {}  # up()'s answers: asked again row by row

    def up(c: int, value: str, steps: int) -> str:
        key = (c, value, steps)
        if key not in climbed:
            dgh = dghs[header[c]]
            v = dgh.index[value]
            target = max(int(dgh.depth[v]) - steps, 0)
            climbed[key] = dgh.labels[int(dgh.ancestors[v, target])]
        return climbed[key]

    levels = [[up(c, r[c], rng.randrange(0, 4)) if c in qi else r[c] for c in range(len(r))]
              for r in rows]
    intervals = []
    sorted_values = {c: sorted({float(x[c]) for x in rows}) for c in numeric}
    raw_text = {c: {float(x[c]): x[c] for x in rows} for c in numeric}
    for r in rows:
        out = list(r)
        for c in qi:
            values = sorted_values.get(c, [])
            if c in numeric and len(values) > 1 and rng.random() < 0.7:
                v = float(r[c])
                lows = [x for x in values if x <= v]
                highs = [x for x in values if x >= v]
                lo, hi = rng.choice(lows), rng.choice(highs)
                if lo == hi:
                    lo, hi = values[0], values[-1]
                out[c] = f"[{raw_text[c][lo]}-{raw_text[c][hi]}]"
            else:
                out[c] = up(c, r[c], rng.randrange(0, 3))
        intervals.append(out)
    suppressed = [[up(c, r[c], 99) if c in qi else r[c] for c in range(len(r))]
                  if rng.random() < 0.2 else
                  [up(c, r[c], 1) if c in qi else r[c] for c in range(len(r))] for r in rows]
    result = {"levels.csv": render_csv(header, levels),
              "classes.csv": render_csv(header, classes(rows, qi, up,
                                                        random.Random(seed + 1000)))}
    if suppress:
        result["suppressed.csv"] = render_csv(header, suppressed)
    if numeric:
        result["intervals.csv"] = render_csv(header, intervals)
    return result


def _write_dataset(folder: Path, trees_or_dghs: dict[str, str], raw_text: str) -> None:
    if folder.exists():
        shutil.rmtree(folder)
    (folder / DGH_DIR).mkdir(parents=True)
    (folder / RAW_FILE).write_text(raw_text, encoding="utf-8", newline="")
    for name, text in trees_or_dghs.items():
        (folder / DGH_DIR / f"{name}.txt").write_text(text, encoding="utf-8", newline="")


def _finish(folder: Path, header: list[str], rows: list[list[str]], seed: int,
            suppress: bool = True) -> None:
    dghs = {}
    for path in sorted((folder / DGH_DIR).glob("*.txt")):
        dghs[path.stem] = parse_dgh(path.read_text(encoding="utf-8"), path.stem, str(path))
    (folder / "anonymized").mkdir()
    for name, text in anonymized_inputs(header, rows, dghs, seed, suppress).items():
        (folder / "anonymized" / name).write_text(text, encoding="utf-8", newline="")


def generate(cases_dir: Path, kit_root: Path, draws: dict[str, Draw] | None = None,
             public: bool = True) -> list[Path]:
    """(Re)write every dataset folder under `cases_dir`; returns the folders written. `draws`
    (a term's, grader.authoring.terms.draws) replaces the default draw of hidden datasets;
    `public` False leaves out public/adult (a course reads the kit's)."""
    raw = kit_root / RAW_FILE
    dgh_dir = kit_root / DGH_DIR
    if not raw.is_file() or not dgh_dir.is_dir():
        raise UserError(f"the kit's {RAW_FILE} and {DGH_DIR}/ are not in {kit_root}; "
                        f"generate cases from a checkout of the kit")
    written = []
    if public:
        adult = cases_dir / "public" / "adult"
        dgh_texts = {p.stem: p.read_text(encoding="utf-8")
                     for p in sorted(dgh_dir.glob("*.txt"))}
        _write_dataset(adult, dgh_texts, raw.read_bytes().decode("utf-8"))
        table = parse_table(raw.read_bytes(), str(raw))
        _finish(adult, table.header, table.rows, seed=11, suppress=False)
        written.append(adult)
    for name, (build, default, _) in HIDDEN.items():
        draw = (draws or {}).get(name, default)
        trees, header, rows = build(random.Random(draw.seed), draw.rows, draw.fresh)
        folder = cases_dir / "hidden" / name
        _write_dataset(folder, {n: dgh_text(t) for n, t in trees.items()},
                       render_csv(header, rows))
        _finish(folder, header, rows, draw.seed + 1)
        written.append(folder)
    return written
