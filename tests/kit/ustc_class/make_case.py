"""Build a stand-in USTC case for the class's fixtures (until courses/ustc/cases lands).

    python tests/kit/ustc_class/make_case.py OUT_FOLDER [--rows N] [--seed S]

Samples N rows (default 30,000) from ../shared/uci-adult-model.json with Python's seeded
random.Random (the same model and seed give the same bytes), writes them with the lab's
column names (header row, csv.writer), fnlwgt as an integer drawn in its bin [lo, hi). Writes
the lab's hierarchies as the course states them, in the course's case layout:

    OUT/adult-hw1.csv
    OUT/DGHs/{age,sex,race,marital_status,education_num}.txt    "child,parent" lines
    OUT/tabs/<column>.txt                                        the same trees, tab-indented

A call's DGH folder holds only its part's QIs (PARTS): check_labels.py copies those files.

(the tab copies are for the reference, whose child,parent reader is not on main yet).
"""
from __future__ import annotations

import argparse
import bisect
import csv
import json
import random
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
# ../shared beside the checkout (/work/main), or beside the worktrees' folder (/work/wt/<name>)
MODELS = [REPO.parent / "shared" / "uci-adult-model.json",
          REPO.parent.parent / "shared" / "uci-adult-model.json"]
LAB_NAMES = {"workclass": "work_class", "fnlwgt": "final_weight", "education-num": "education_num",
             "marital-status": "marital_status", "capital-gain": "capital_gain",
             "capital-loss": "capital_loss", "hours-per-week": "hours_per_week",
             "native-country": "native_country", "income": "class"}
PARTS = {"samarati": ["age", "sex", "race", "marital_status"],
         "mondrian": ["age", "education_num"],
         "categorical": ["age", "education_num", "sex"]}
MARITAL = {"Married": ["Married-civ-spouse", "Married-AF-spouse"],
           "leave": ["Divorced", "Separated"],
           "alone": ["Widowed", "Married-spouse-absent"], "NM": ["Never-married"]}


def _draw(p: dict[str, float], rng: random.Random) -> str:
    values = sorted(p)
    cumulative, total = [], 0.0
    for v in values:
        total += p[v]
        cumulative.append(total)
    return values[min(bisect.bisect_right(cumulative, rng.random() * total), len(values) - 1)]


def sample(rows: int, seed: int) -> tuple[list[str], list[list[str]]]:
    path = next((m for m in MODELS if m.is_file()), None)
    if path is None:
        raise SystemExit(f"no model file: looked for {', '.join(map(str, MODELS))}")
    model = json.loads(path.read_text(encoding="utf-8"))
    rng = random.Random(seed)
    out = []
    for _ in range(rows):
        record: dict[str, str] = {}
        for a in model["sample_order"]:
            parent = model["parent"][a]
            p = model["root"] if parent is None else model["cpt"][a][record[parent]]
            record[a] = _draw(p, rng)
        lo, hi = (int(x) for x in record["fnlwgt"].split("-"))
        record["fnlwgt"] = str(lo + int(rng.random() * (hi - lo)))
        out.append([record[c] for c in model["columns"]])
    return [LAB_NAMES.get(c, c) for c in model["columns"]], out


def trees(header: list[str], rows: list[list[str]]) -> dict[str, dict[str, list[str]]]:
    """column -> {node: children} (root '*'), children in sorted order."""
    def values(col: str) -> list[str]:
        return sorted({r[header.index(col)] for r in rows})

    result: dict[str, dict[str, list[str]]] = {}
    ages: dict[str, list[str]] = {"*": []}
    for a in sorted(int(v) for v in values("age")):
        w20, w10, w5 = a // 20 * 20, a // 10 * 10, a // 5 * 5
        chain = ["*", f"[{w20}-{w20 + 19}]", f"[{w10}-{w10 + 9}]", f"[{w5}-{w5 + 4}]", str(a)]
        for parent, child in zip(chain, chain[1:]):
            ages.setdefault(parent, [])
            if child not in ages[parent]:
                ages[parent].append(child)
    result["age"] = ages
    result["sex"] = {"*": values("sex")}
    result["race"] = {"*": values("race")}
    result["education_num"] = {"*": sorted(values("education_num"), key=int)}
    marital = {"*": list(MARITAL)}
    for group, members in MARITAL.items():
        marital[group] = members
    result["marital_status"] = marital
    return result


def child_parent(tree: dict[str, list[str]]) -> str:
    return "".join(f"{c},{p}\n" for p, kids in tree.items() for c in kids)


def tabs(tree: dict[str, list[str]], node: str = "*", depth: int = 0) -> str:
    return "\t" * depth + node + "\n" + "".join(tabs(tree, c, depth + 1) for c in tree.get(node, []))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out")
    parser.add_argument("--rows", type=int, default=30000)
    parser.add_argument("--seed", type=int, default=31)
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    header, rows = sample(args.rows, args.seed)
    with open(out / "adult-hw1.csv", "w", newline="", encoding="utf-8") as f:
        csv.writer(f, lineterminator="\n").writerows([header, *rows])
    all_trees = trees(header, rows)
    for kind, render in (("DGHs", child_parent), ("tabs", tabs)):
        (out / kind).mkdir(parents=True, exist_ok=True)
        for q, tree in all_trees.items():
            (out / kind / f"{q}.txt").write_text(render(tree), encoding="utf-8")
    print(f"wrote {args.rows} rows and the hierarchies to {out}")


if __name__ == "__main__":
    main()
