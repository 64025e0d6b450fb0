"""Inputs of the privacy measures' cases (entropy_l, t_closeness; issue 12): casegen writes
`anonymized/classes.csv` into every dataset folder with `classes`, a table whose ECs are big
enough for entropy and closeness to mean something (the cost inputs have many one-row ECs)."""
from __future__ import annotations

import random
from collections import Counter
from typing import Callable


def classes(rows: list[list[str]], qi: list[int], up: Callable[[int, str, int], str],
            rng: random.Random, k: int = 3) -> list[list[str]]:
    """A full-domain generalization with every EC of at least k rows (the input of the
    privacy measures' cases: entropy_l, t_closeness): each QI starts a random 0 or 1 levels
    up; while an EC is smaller than k, the QI with the most distinct values (not yet all at
    the root; ties: the leftmost) climbs one more level. `up(c, value, steps)` is the
    ancestor `steps` levels above `value` in column c's hierarchy (the root at most)."""
    steps = {c: rng.randrange(0, 2) for c in qi}
    raw = {c: [r[c] for r in rows] for c in qi}
    top = {c: [up(c, v, 99) for v in raw[c]] for c in qi}  # each value's root
    column: dict[int, list[str]] = {}  # each QI's cells at its steps (redone when they change)
    rooted: dict[int, bool] = {}  # whether every cell of the QI is at its root
    for c in qi:
        column[c] = [up(c, v, steps[c]) for v in raw[c]]
        rooted[c] = column[c] == top[c]
    while True:
        sizes = Counter(zip(*(column[c] for c in qi))) if qi else Counter({(): len(rows)})
        if min(sizes.values()) >= k or len(sizes) == 1:
            return [[column[c][i] if c in column else v for c, v in enumerate(r)]
                    for i, r in enumerate(rows)]
        distinct = {c: len(set(column[c])) for c in qi if not rooted[c]}
        c = max(distinct, key=lambda c: (distinct[c], -c))
        steps[c] += 1
        column[c] = [up(c, v, steps[c]) for v in raw[c]]
        rooted[c] = column[c] == top[c]
