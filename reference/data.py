"""The seeded generator of the kit's adult-hw1.csv and of the USTC lab's synthetic twin.

Rows are sampled from a Chow-Liu tree Bayesian network (a model JSON file): each attribute, in
the model's `sample_order`, is drawn from P(attribute | parent value) by inverse-CDF sampling
over the values in sorted order, with Python's Mersenne Twister (`random.Random(seed)`), whose
`random()` sequence is the same on every platform and Python version. The same model and seed
therefore give the same file byte for byte.

The model's own columns select a profile (PROFILES): the UCI Adult model
(../shared/uci-adult-model.json) gets the lab's column names, its fnlwgt bins "lo-hi" become
an integer drawn uniformly in [lo, hi) from the same stream right after the bin
(lo + int(random() * (hi - lo))), and its own default seed and row count; any other model
(the kit's ../shared/adult-model.json) is written as it is, with the kit's defaults.
`--ages LO-HI` draws only ages LO..HI (the root P(age) restricted and renormalized).

    python -m reference.data MODEL.json OUT.csv [--rows N] [--seed S] [--ages LO-HI]
"""
from __future__ import annotations

import argparse
import bisect
import json
import os
import random
import sys
from dataclasses import dataclass

from kanon.files import atomic_write_bytes
from kanon.table import render_csv


DEFAULT_SEED = 20261123
DEFAULT_ROWS = 9999
DEFAULT_MODEL = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "shared",
                             "adult-model.json")


@dataclass(frozen=True)
class Profile:
    """What a model's columns select: the header written (the model's order), the columns
    sampled as bins "lo-hi", and the default seed and row count."""

    name: str
    header: tuple[str, ...]
    binned: tuple[str, ...]
    seed: int
    rows: int


UCI_COLUMNS = ("age", "workclass", "fnlwgt", "education", "education-num", "marital-status",
               "occupation", "relationship", "race", "sex", "capital-gain", "capital-loss",
               "hours-per-week", "native-country", "income")
LAB_COLUMNS = ("age", "work_class", "final_weight", "education", "education_num",
               "marital_status", "occupation", "relationship", "race", "sex", "capital_gain",
               "capital_loss", "hours_per_week", "native_country", "class")
USTC_SEED = 20210315
USTC_ROWS = 30162  # the cleaned UCI training file's rows
PROFILES = {UCI_COLUMNS: Profile("ustc", LAB_COLUMNS, ("fnlwgt",), USTC_SEED, USTC_ROWS)}


def profile_for(model: dict) -> Profile:
    """The profile the model's columns select; the kit's (no renames) for any other model."""
    columns = tuple(model["columns"])
    return PROFILES.get(columns, Profile("kit", columns, (), DEFAULT_SEED, DEFAULT_ROWS))


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


def _bin_value(label: str, rng: random.Random) -> str:
    lo, hi = (int(end) for end in label.split("-"))
    return str(lo + int(rng.random() * (hi - lo)))


def _tables(model: dict) -> tuple[str, dict[str, float], dict[str, dict[str, dict]]]:
    """(root attribute, P(root), {child: {parent value: P(child | parent value)}}) of either
    layout: the kit's ({"attribute", "p"} root, {"parent", "p"} tables) or the UCI model's
    (the root's distribution itself, each table keyed by parent value)."""
    root = model["root"]
    if "attribute" in root:
        return root["attribute"], root["p"], {c: t["p"] for c, t in model["cpt"].items()}
    attribute = next(a for a in model["sample_order"] if model["parent"][a] is None)
    return attribute, root, model["cpt"]


def _restricted(attribute: str, p: dict[str, float],
                ages: tuple[int, int] | None) -> dict[str, float]:
    if ages is None:
        return p
    if attribute != "age":
        raise ValueError(f"--ages needs a model whose root is age, not {attribute!r}")
    kept = {v: q for v, q in p.items() if ages[0] <= int(v) <= ages[1]}
    if not kept:
        raise ValueError(f"the model has no age in {ages[0]}-{ages[1]}")
    return kept


def generate_rows(model: dict, rows: int, seed: int, binned: tuple[str, ...] = (),
                  ages: tuple[int, int] | None = None) -> tuple[list[str], list[list[str]]]:
    """Sample `rows` records; returns the header (the model's column order) and the rows.
    A `binned` column's bin "lo-hi" becomes an integer in [lo, hi), drawn right after it;
    `ages` (lo, hi) keeps the root's ages lo..hi only."""
    rng = random.Random(seed)
    root, root_p, cpt = _tables(model)
    samplers = {root: {None: _Sampler(_restricted(root, root_p, ages))}}
    for child, table in cpt.items():
        samplers[child] = {parent_value: _Sampler(p) for parent_value, p in table.items()}
    parents = model["parent"]
    result = []
    for _ in range(rows):
        record: dict[str, str] = {}
        cells: dict[str, str] = {}
        for attribute in model["sample_order"]:
            parent = parents[attribute]
            record[attribute] = samplers[attribute][record[parent] if parent else None].draw(rng)
            cells[attribute] = (_bin_value(record[attribute], rng) if attribute in binned
                                else record[attribute])
        result.append([cells[c] for c in model["columns"]])
    return list(model["columns"]), result


def model_csv(model: dict, rows: int | None = None, seed: int | None = None,
              ages: tuple[int, int] | None = None) -> bytes:
    """The CSV file (header row, csv.writer) of `rows` records drawn with `seed`; both
    default to the model's profile's."""
    profile = profile_for(model)
    _, records = generate_rows(model, profile.rows if rows is None else rows,
                               profile.seed if seed is None else seed, profile.binned, ages)
    return render_csv(list(profile.header), records).encode("utf-8")


def generate_csv(model_path: str, rows: int | None = None, seed: int | None = None,
                 ages: tuple[int, int] | None = None) -> bytes:
    """model_csv of the model in a JSON file."""
    with open(model_path, encoding="utf-8") as f:
        return model_csv(json.load(f), rows, seed, ages)


def _age_range(text: str) -> tuple[int, int]:
    try:
        lo, hi = (int(end) for end in text.split("-"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected LO-HI (two integers), not {text!r}") from None
    if lo > hi:
        raise argparse.ArgumentTypeError(f"an empty age range: {text!r}")
    return lo, hi


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m reference.data", description=__doc__.split("\n")[0])
    parser.add_argument("model", nargs="?", default=DEFAULT_MODEL, help="the Bayesian network JSON")
    parser.add_argument("out", nargs="?", default="adult-hw1.csv", help="the CSV file to write")
    parser.add_argument("--rows", type=int, help="records to draw (default: the model's "
                        f"profile's, {DEFAULT_ROWS} for the kit's model, {USTC_ROWS} for UCI's)")
    parser.add_argument("--seed", type=int, help="the random seed (default: the profile's, "
                        f"{DEFAULT_SEED} for the kit's model, {USTC_SEED} for UCI's)")
    parser.add_argument("--ages", type=_age_range, metavar="LO-HI",
                        help="draw only ages LO..HI (the root's distribution restricted)")
    args = parser.parse_args(argv)
    if not os.path.isfile(args.model):
        print(f"error: model file not found: {args.model}", file=sys.stderr)
        return 2
    with open(args.model, encoding="utf-8") as f:
        model = json.load(f)
    profile = profile_for(model)
    rows = profile.rows if args.rows is None else args.rows
    seed = profile.seed if args.seed is None else args.seed
    try:
        data = model_csv(model, rows, seed, args.ages)
    except ValueError as e:
        print(f"error: {args.model}: {e}", file=sys.stderr)
        return 2
    atomic_write_bytes(args.out, data)
    print(f"wrote {rows} rows to {args.out} (seed {seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
