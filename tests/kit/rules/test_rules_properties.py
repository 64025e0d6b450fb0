"""The rule checkers against brute force on random small tables: every right answer is
accepted and every other output is rejected.

Samarati: every lattice vector's output is computed (rules_brute.samarati_outputs); the right
answers are those of the satisfying vectors of the lowest satisfying height. Candidates:
every vector's output, with the outliers kept, with a kept record dropped, and right answers
with rows swapped, dropped or repeated, a QI cell moved one level, a sensitive cell changed.
Mondrian: every tree of allowable strict median cuts is enumerated
(rules_brute.mondrian_partitions); the right answers are their final partitions generalized.
Candidates: every partition of the rows into groups, generalized exactly, and right answers
with one cell widened or moved to the root.
"""
from __future__ import annotations

import random

import pytest
from rules_brute import (as_table, generalize, mondrian_partitions, random_tree, release_of,
                         samarati_outputs, samarati_right, set_partitions, tree)

from kcheck.rules import MONDRIAN_RULES, SAMARATI_RULES, check_mondrian, check_samarati


def _secrets(trees, rows, candidates) -> set[str]:
    """Every raw cell, hierarchy label and output cell of a case."""
    return ({cell for row in rows for cell in row} | {v for t in trees for v in t.parent}
            | {cell for table in candidates for row in table for cell in row})


def _assert_silent(broken, secret: set[str]) -> None:
    """No message quotes a value; labels of 3 or more characters appear nowhere (shorter ones
    may be digits of a row number)."""
    for b in broken:
        assert not [v for v in secret if f"'{v}'" in b.message or f"\"{v}\"" in b.message
                    or (len(v) >= 3 and v in b.message)], b.message


def _samarati_candidates(rng, outputs, right, trees, q):
    candidates = set()
    for _, table, every, flags in outputs.values():
        candidates.add(table)
        candidates.add(tuple(every))  # outliers kept
        kept = [i for i, f in enumerate(flags) if f]
        if kept:
            drop = rng.choice(kept)
            candidates.add(tuple(e for i, (e, f) in enumerate(zip(every, flags))
                                 if f and i != drop))
        outliers = [i for i, f in enumerate(flags) if not f]
        if outliers:
            keep = rng.choice(outliers)
            candidates.add(tuple(e for i, (e, f) in enumerate(zip(every, flags))
                                 if f or i == keep))
    for table in right:
        rows = list(table)
        if len(rows) >= 2:
            i, j = rng.sample(range(len(rows)), 2)
            swapped = rows[:]
            swapped[i], swapped[j] = swapped[j], swapped[i]
            candidates.add(tuple(swapped))
            candidates.add(tuple(rows[:i] + rows[i + 1:]))
            candidates.add(tuple(rows[:i + 1] + [rows[i]] + rows[i + 1:]))
        for i, row in enumerate(rows):
            for j, t in enumerate(trees):
                parent = t.parent[row[j]]
                kids = [v for v, p in t.parent.items() if p == row[j]]
                for cell in ([parent] if parent else []) + kids[:1]:
                    changed = list(row)
                    changed[j] = cell
                    candidates.add(tuple(rows[:i] + [tuple(changed)] + rows[i + 1:]))
            changed = list(row)
            changed[q] = "sens9"
            candidates.add(tuple(rows[:i] + [tuple(changed)] + rows[i + 1:]))
    return candidates


def _samarati_case(seed: int):
    rng = random.Random(seed)
    q = 1 if seed % 7 == 0 else rng.randint(2, 3)
    trees = [random_tree(rng, f"q{j}", [f"q{j}v{i}" for i in range(rng.randint(2, 3))])
             for j in range(q)]
    n = rng.randint(1, 12)
    rows = [[rng.choice(t.leaves()) for t in trees] + [rng.choice("xyz"), "extra9"]
            for _ in range(n)]
    released = list(range(q + 1)) if seed % 2 else list(range(q + 2))
    return rng, trees, rows, q, released, rng.randint(1, 3), rng.randint(0, 3)


def samarati_release(seed: int):
    """The random case of `seed`: (rng, trees, q, k, max_sup, its release, every vector's
    brute-force output)."""
    rng, trees, rows, q, released, k, max_sup = _samarati_case(seed)
    header = [t.name for t in trees] + ["s", "e"]
    release = release_of(trees, header, rows, list(range(q)), released)
    outputs = samarati_outputs(trees, rows, list(range(q)), released, k)
    return rng, trees, q, k, max_sup, release, outputs


@pytest.mark.parametrize("seed", range(60))
def test_samarati_accepts_exactly_the_brute_force_answers(seed: int) -> None:
    rng, trees, q, k, max_sup, release, outputs = samarati_release(seed)
    right = samarati_right(outputs, max_sup)
    candidates = _samarati_candidates(rng, outputs, right, trees, q)
    assert right <= candidates
    secret = _secrets(trees, release.raw.rows, candidates)
    for n, table in enumerate(sorted(candidates)):
        broken = check_samarati(release, k, max_sup, as_table(release, table))
        assert (not broken) == (table in right), (table, broken, right)
        if broken and n % 3 == 0:
            hidden = check_samarati(release, k, max_sup, as_table(release, table), True)
            assert [b.rule for b in hidden] == [b.rule for b in broken]
            _assert_silent(hidden, secret)
        assert [b.rule for b in broken] == [r for r in SAMARATI_RULES
                                            if r in {b.rule for b in broken}]


def _mondrian_case(seed: int):
    rng = random.Random(seed)
    n = rng.randint(1, 8)
    numeric = [True] * rng.randint(1, 2) + [False] * rng.randint(0, 1)
    trees, rows = [], [[] for _ in range(n)]
    for j, is_numeric in enumerate(numeric):
        if is_numeric:
            column = [str(rng.randint(1, 4)) for _ in range(n)]
            trees.append(tree(f"n{j}", ("*", sorted(set(column)))))
        else:
            t = random_tree(rng, f"c{j}", [f"c{j}v{i}" for i in range(rng.randint(2, 4))])
            column = [rng.choice(t.leaves()) for _ in range(n)]
            trees.append(t)
        for row, cell in zip(rows, column):
            row.append(cell)
    for row in rows:
        row.append(rng.choice("xy"))
    q = len(numeric)
    k = rng.randint(1, max(1, min(2, n // 2)))
    return rng, trees, numeric, rows, q, k


def _partitions(rng: random.Random, n: int):
    """Every partition of n rows into groups (n <= 6), else 300 random ones."""
    if n <= 6:
        yield from set_partitions(list(range(n)))
        return
    for _ in range(300):
        labels = [rng.randrange(rng.randint(1, n)) for _ in range(n)]
        yield [[r for r in range(n) if labels[r] == g] for g in set(labels)]


@pytest.mark.parametrize("seed", range(60))
def test_mondrian_accepts_exactly_the_brute_force_answers(seed: int) -> None:
    rng, trees, numeric, rows, q, k = _mondrian_case(seed)
    header = [t.name for t in trees] + ["s"]
    released = list(range(q + 1))
    release = release_of(trees, header, rows, list(range(q)), released)
    qis = list(range(q))
    finals = [[sorted(g) for g in p] for p in mondrian_partitions(trees, numeric, rows, qis, k)]
    right = {generalize(trees, numeric, rows, qis, released, p) for p in finals}
    near = [p[:a] + p[a + 1:b] + p[b + 1:] + [p[a] + p[b]]  # two classes merged
            for p in finals for a in range(len(p)) for b in range(a + 1, len(p))]
    near += [p[:a] + p[a + 1:] + [p[a][:1], p[a][1:]]  # a class split
             for p in finals for a in range(len(p)) if len(p[a]) > 1]
    candidates = {generalize(trees, numeric, rows, qis, released, p)
                  for p in [*_partitions(rng, len(rows)), *near]}
    assert right <= candidates or len(rows) > 6
    candidates |= right
    for table in list(right):
        i, j = rng.randrange(len(rows)), rng.randrange(q)
        for cell in ("*", "[0-9]", f"[{rows[i][j]}-9]" if numeric[j] else trees[j].leaves()[0]):
            changed = [list(r) for r in table]
            changed[i][j] = cell
            candidates.add(tuple(map(tuple, changed)))
    secret = _secrets(trees, rows, candidates)
    for n, table in enumerate(sorted(candidates)):
        broken = check_mondrian(release, k, as_table(release, table))
        assert (not broken) == (table in right), (table, broken, right)
        if broken and n % 3 == 0:
            hidden = check_mondrian(release, k, as_table(release, table), True)
            assert [b.rule for b in hidden] == [b.rule for b in broken]
            _assert_silent(hidden, secret)
        assert [b.rule for b in broken] == [r for r in MONDRIAN_RULES
                                            if r in {b.rule for b in broken}]


def test_the_random_cases_include_several_right_answers() -> None:
    """The two property tests above meet inputs with more than one right answer."""
    several = 0
    for seed in range(60):
        _, trees, rows, q, released, k, max_sup = _samarati_case(seed)
        several += len(samarati_right(samarati_outputs(trees, rows, list(range(q)), released,
                                                       k), max_sup)) > 1
    assert several >= 5
    several = 0
    for seed in range(60):
        _, trees, numeric, rows, q, k = _mondrian_case(seed)
        several += len(mondrian_partitions(trees, numeric, rows, list(range(q)), k)) > 1
    assert several >= 5
