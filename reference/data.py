"""The seeded generator of the kit's adult-hw1.csv.

Rows are sampled from a Chow-Liu tree Bayesian network (adult-model.json): each attribute, in
the model's `sample_order`, is drawn from P(attribute | parent value) by inverse-CDF sampling
over the values in sorted order, with Python's Mersenne Twister (`random.Random(seed)`), whose
`random()` sequence is the same on every platform and Python version. The same model and seed
therefore give the same file byte for byte.

    python -m reference.data MODEL.json OUT.csv [--rows N] [--seed S]
"""
from __future__ import annotations

import argparse
import bisect
import json
import os
import random
import sys

from kanon.files import atomic_write_bytes
from kanon.table import render_csv


DEFAULT_SEED = 20261123
DEFAULT_ROWS = 9999
DEFAULT_MODEL = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "shared",
                             "adult-model.json")


class _Sampler:
    """Inverse-CDF sampling from one discrete distribution, values in sorted order."""

    def __init__(self, probabilities: dict[str, float]):
        self.values = sorted(probabilities)
        total, self.cumulative = 0.0, []
        for value in self.values:
            total += probabilities[value]
            self.cumulative.append(total)
        self.total = total

    def draw(self, rng: random.Random) -> str:
        position = bisect.bisect_right(self.cumulative, rng.random() * self.total)
        return self.values[min(position, len(self.values) - 1)]


def generate_rows(model: dict, rows: int, seed: int) -> tuple[list[str], list[list[str]]]:
    """Sample `rows` records; returns the header (the model's column order) and the rows."""
    rng = random.Random(seed)
    root = model["root"]
    samplers = {root["attribute"]: {None: _Sampler(root["p"])}}
    for child, table in model["cpt"].items():
        samplers[child] = {parent_value: _Sampler(p) for parent_value, p in table["p"].items()}
    parents = model["parent"]
    result = []
    for _ in range(rows):
        record: dict[str, str] = {}
        for attribute in model["sample_order"]:
            parent = parents[attribute]
            record[attribute] = samplers[attribute][record[parent] if parent else None].draw(rng)
        result.append([record[c] for c in model["columns"]])
    return list(model["columns"]), result


def generate_csv(model_path: str, rows: int = DEFAULT_ROWS, seed: int = DEFAULT_SEED) -> bytes:
    with open(model_path, encoding="utf-8") as f:
        model = json.load(f)
    return render_csv(*generate_rows(model, rows, seed)).encode("utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reference.data", description=__doc__.split("\n")[0])
    parser.add_argument("model", nargs="?", default=DEFAULT_MODEL, help="the Bayesian network JSON")
    parser.add_argument("out", nargs="?", default="adult-hw1.csv", help="the CSV file to write")
    parser.add_argument("--rows", type=int, default=DEFAULT_ROWS)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    args = parser.parse_args(argv)
    if not os.path.isfile(args.model):
        print(f"error: model file not found: {args.model}", file=sys.stderr)
        return 2
    data = generate_csv(args.model, args.rows, args.seed)
    atomic_write_bytes(args.out, data)
    print(f"wrote {args.rows} rows to {args.out} (seed {args.seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
