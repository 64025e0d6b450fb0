"""Brute-force cross-checks: the reference against the naive oracle on many small random
datasets and hierarchies (seeded, so every run tests the same cases).

Each case: 6-40 rows (and 15 medium cases of 60-150 rows per algorithm), 1-4 QIs in random
column positions, random hierarchies of height 0-4 (unbalanced, sometimes a root with one
child or a single node, sometimes labels that need CSV quoting, sometimes a relabeled copy of
the first QI's hierarchy and values, which makes exact cost ties between lattice nodes),
numeric QIs (with negative and decimal values, sometimes internal labels that look like
Mondrian intervals), sometimes raw values that are internal nodes, 0-2 non-QI columns
(exactly 1 for bottom-up), sometimes a hierarchy file of no column. Skewed value frequencies
give many exact ties. For every case the reference's output must equal the oracle's as parsed
CSV (or both raise ValueError, leaving no file), pass the property checker, and the
reference's costs of it must equal the oracle's exact costs.

A failure lists every failing seed and prints the smallest failing case in full; rerun one
case with `python tests/kit/reference_solution/test_reference_crosscheck.py ALGORITHM SEED [medium]`.
"""
from __future__ import annotations

import csv
import itertools
import os
import random
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

import oracle
import properties

ALGORITHMS = ["random", "clustering", "bottomup", "samarati", "mondrian"]
CHUNKS = 8
PER_CHUNK = 25  # 200 cases per algorithm


@dataclass
class Case:
    algorithm: str
    seed: int
    folder: Path
    params: dict
    n: int

    @property
    def raw(self) -> str:
        return str(self.folder / "raw.csv")

    @property
    def dghs(self) -> str:
        return str(self.folder / "DGHs")

    def describe(self) -> str:
        parts = [f"{self.algorithm} seed {self.seed} params {self.params}",
                 "--- raw.csv", (self.folder / "raw.csv").read_text()]
        for f in sorted((self.folder / "DGHs").iterdir()):
            parts += [f"--- DGHs/{f.name}", f.read_text().replace("\t", "\\t")]
        return "\n".join(parts)


# ------------------------------------------------------------------ random generation

def _categorical_tree(rng: random.Random, prefix: str) -> list[tuple[int, str]]:
    max_depth = 0 if rng.random() < 0.04 else rng.randint(1, 4)
    fancy = rng.random() < 0.1
    counter = itertools.count()
    lines: list[tuple[int, str]] = []

    def node(d: int) -> None:
        i = next(counter)
        lines.append((d, f'{prefix} {i}, "x"' if fancy and i % 2 else f"{prefix}{i}"))
        if d < max_depth and (d == 0 or rng.random() < 0.7):
            for _ in range(rng.choice([1, 2, 2, 3, 3]) if d else rng.choice([1, 2, 2, 3, 4])):
                node(d + 1)

    node(0)
    return lines


def _numeric_tree(rng: random.Random, prefix: str) -> list[tuple[int, str]]:
    values = sorted(rng.sample(range(-20, 60), rng.randint(2, 10)))
    texts = [f"{v}.5" if rng.random() < 0.15 else str(v) for v in values]
    lines: list[tuple[int, str]] = [(0, f"{prefix}all")]
    counter = itertools.count()

    def group(items: list[str], d: int) -> None:
        if len(items) == 1 or d > 3 or rng.random() < 0.25:
            lines.extend((d, t) for t in items)
            return
        cuts = sorted(rng.sample(range(1, len(items)), min(len(items) - 1, rng.randint(1, 2))))
        for a, b in zip([0] + cuts, cuts + [len(items)]):
            part = items[a:b]
            if len(part) == 1 and rng.random() < 0.5:
                lines.append((d, part[0]))
                continue
            looks_like_interval = len(part) > 1 and rng.random() < 0.2
            lines.append((d, f"[{part[0]}-{part[-1]}]" if looks_like_interval
                          else f"{prefix}g{next(counter)}"))
            group(part, d + 1)

    group(texts, 1)
    return lines


def _children(lines: list[tuple[int, str]]) -> dict[str, int]:
    """label -> number of children."""
    count = {label: 0 for _, label in lines}
    stack: list[str] = []
    for d, label in lines:
        del stack[d:]
        if stack:
            count[stack[-1]] += 1
        stack.append(label)
    return count


def make_case(algorithm: str, seed: int, folder: Path,
              sizes: tuple[int, int] = (6, 40)) -> Case:
    rng = random.Random(f"{algorithm}-{seed}-{sizes}")
    n = rng.randint(*sizes)
    m = rng.randint(1, 4)
    numeric_share = 0.45 if algorithm == "mondrian" else 0.2
    internal = rng.random() < 0.15
    (folder / "DGHs").mkdir(parents=True)
    columns: dict[str, list[str]] = {}
    first: list[tuple[int, str]] = []
    for j in range(m):
        name = f"q{j}"
        numeric = rng.random() < numeric_share
        copy = j > 0 and rng.random() < 0.3  # a relabeled copy of q0: exact lattice ties
        if copy:
            lines = [(d, f"{name}:{label}") for d, label in first]
        else:
            lines = _numeric_tree(rng, name) if numeric else _categorical_tree(rng, name)
        if j == 0:
            first = lines
        (folder / "DGHs" / f"{name}.txt").write_text(
            "".join("\t" * d + label + "\n" for d, label in lines), encoding="utf-8")
        if copy and rng.random() < 0.7:
            columns[name] = [f"{name}:{v}" for v in columns["q0"]]
            continue
        kids = _children(lines)
        leaves = [label for _, label in lines if kids[label] == 0]
        pool = [label for _, label in lines] if internal and not numeric else leaves
        weights = [rng.random() ** 2 + 0.02 for _ in pool]
        columns[name] = rng.choices(pool, weights, k=n)
    n_other = 1 if algorithm == "bottomup" else rng.choice([0, 1, 1, 1, 2])
    for j in range(n_other):
        kinds = rng.randint(1, 4)
        columns[f"s{j}"] = [f"v{rng.randrange(kinds)}" for _ in range(n)]
    if rng.random() < 0.2:
        (folder / "DGHs" / "absent.txt").write_text("Z\n\tz1\n\tz2\n", encoding="utf-8")
    header = list(columns)
    rng.shuffle(header)
    with open(folder / "raw.csv", "w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(header)
        writer.writerows(zip(*(columns[c] for c in header)))
    small_k = rng.choice([1, 2, 2, 3, 3, 4, 5, 7])
    if algorithm == "random":
        params = dict(k=rng.choice([small_k, small_k, n // 2 or 1, n]), s=rng.randrange(2**32))
    elif algorithm == "bottomup":
        params = dict(k=small_k, l=rng.choice([1, 1, 2, 3]))
    elif algorithm == "samarati":
        params = dict(k=small_k, max_sup=rng.choice([0, 0, 1, 2, n // 4, n // 2]))
    else:
        params = dict(k=small_k)
    if "k" in params and algorithm != "samarati":
        params["k"] = min(params["k"], n) if algorithm != "bottomup" else params["k"]
    return Case(algorithm, seed, folder, params, n)


# ------------------------------------------------------------------ running and comparing

def run_reference(case: Case, out: str) -> None:
    import reference
    p = case.params
    if case.algorithm == "random":
        reference.random_anonymizer(case.raw, case.dghs, p["k"], p["s"], out)
    elif case.algorithm == "clustering":
        reference.clustering_anonymizer(case.raw, case.dghs, p["k"], out)
    elif case.algorithm == "bottomup":
        reference.bottomup_anonymizer(case.raw, case.dghs, p["k"], p["l"], out)
    elif case.algorithm == "samarati":
        reference.samarati(case.raw, case.dghs, p["k"], p["max_sup"], out)
    else:
        reference.mondrian(case.raw, case.dghs, p["k"], out)


def run_oracle(case: Case):
    fn = {"random": oracle.random_anonymizer, "clustering": oracle.clustering_anonymizer,
          "bottomup": oracle.bottomup_anonymizer, "samarati": oracle.samarati,
          "mondrian": oracle.mondrian}[case.algorithm]
    return fn(case.raw, case.dghs, *case.params.values())


def property_options(case: Case) -> dict:
    p, algorithm = case.params, case.algorithm
    if algorithm == "bottomup":
        return dict(k=p["k"], l=p["l"], full_domain=True)
    if algorithm == "samarati":
        return dict(k=p["k"], max_sup=p["max_sup"], full_domain=True)
    if algorithm == "mondrian":
        return dict(k=p["k"], intervals=True, minimal=True)
    return dict(k=p["k"], minimal=True)  # random, clustering


def check_case(case: Case) -> str | None:
    """None when the reference agrees with the oracle, else what differs."""
    import reference
    out = str(case.folder / "out.csv")
    try:
        expected = run_oracle(case)
    except ValueError as e:
        expected = e
    try:
        run_reference(case, out)
        got = None
    except ValueError as e:
        got = e
    except Exception as e:  # noqa: BLE001 - any other exception is a finding
        return f"reference raised {type(e).__name__}: {e}"
    if isinstance(expected, ValueError):
        if got is None:
            return f"oracle raises ValueError ({expected}) but the reference wrote an output"
        if os.path.exists(out):
            return "reference raised ValueError but left an output file"
        return None
    if got is not None:
        return f"reference raised ValueError ({got}); oracle output {expected}"
    header, rows = oracle.read_dataset(out)
    if [header] + rows != [expected[0]] + expected[1]:
        diff = [f"row {i}: expected {e} got {g}"
                for i, (e, g) in enumerate(zip(expected[1], rows), start=1) if e != g]
        return "outputs differ:\n" + "\n".join(diff[:10])
    problem = properties.check_output(case.raw, out, case.dghs, **property_options(case))
    if problem:
        return f"property violated: {problem}"
    md, lm = oracle.costs(case.raw, out, case.dghs)
    ref_md = reference.cost_MD(case.raw, out, case.dghs)
    ref_lm = reference.cost_LM(case.raw, out, case.dghs)
    if abs(ref_md - float(md)) > 1e-9 or abs(ref_lm - float(lm)) > 1e-9:
        return f"costs differ: reference MD {ref_md} LM {ref_lm}, oracle MD {md} LM {float(lm)}"
    return None


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_reference_agrees_with_oracle(algorithm, chunk, tmp_path):
    failures = []
    for seed in range(chunk * PER_CHUNK, (chunk + 1) * PER_CHUNK):
        case = make_case(algorithm, seed, tmp_path / f"case{seed}")
        problem = check_case(case)
        if problem:
            failures.append((case.n, seed, case, problem))
    if failures:
        failures.sort(key=lambda t: (t[0], t[1]))
        _, _, case, problem = failures[0]
        seeds = [seed for _, seed, _, _ in failures]
        pytest.fail(f"{len(failures)} of {PER_CHUNK} {algorithm} cases disagree "
                    f"(seeds {seeds}); smallest:\n{problem}\n\n{case.describe()}")


@pytest.mark.slow
@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_reference_agrees_with_oracle_on_medium_cases(algorithm, tmp_path):
    # 15 cases of 60-150 rows: longer clustering runs, deeper Mondrian recursions.
    failures = []
    for seed in range(15):
        case = make_case(algorithm, seed, tmp_path / f"case{seed}", sizes=(60, 150))
        problem = check_case(case)
        if problem:
            failures.append((case.n, seed, case, problem))
    if failures:
        failures.sort(key=lambda t: (t[0], t[1]))
        _, _, case, problem = failures[0]
        pytest.fail(f"{len(failures)} of 15 medium {algorithm} cases disagree (seeds "
                    f"{[f[1] for f in failures]}); smallest:\n{problem}\n\n{case.describe()}")


def test_generator_covers_the_interesting_shapes(tmp_path):
    # The random cases must actually contain ties, unbalanced trees, numeric QIs, internal
    # raw values and single-node hierarchies, or the cross-check proves little.
    seen = {"unbalanced": 0, "numeric": 0, "internal raw": 0, "single node": 0,
            "interval label": 0, "top fails": 0}
    for seed in range(PER_CHUNK * CHUNKS):
        case = make_case("mondrian" if seed % 2 else "bottomup", seed, tmp_path / str(seed))
        p = oracle.Problem(case.raw, case.dghs)
        for c in p.qi:
            h = p.h[c]
            depths = {h.depth[v] for v in h.all_leaves()}
            seen["unbalanced"] += len(depths) > 1
            seen["numeric"] += p.is_numeric(c)
            seen["internal raw"] += any(not h.is_leaf(r[c]) for r in p.rows)
            seen["single node"] += len(h.parent) == 1
            seen["interval label"] += any(v.startswith("[") for v in h.parent)
        if case.algorithm == "bottomup":
            try:
                run_oracle(case)
            except ValueError:
                seen["top fails"] += 1
    assert all(count >= 3 for count in seen.values()), seen


if __name__ == "__main__":  # rerun one case: python test_reference_crosscheck.py ALGO SEED [medium]
    import tempfile
    sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
    with tempfile.TemporaryDirectory() as tmp:
        size = (60, 150) if sys.argv[3:] == ["medium"] else (6, 40)
        one = make_case(sys.argv[1], int(sys.argv[2]), Path(tmp) / "case", size)
        print(one.describe())
        print(check_case(one) or "agree")
