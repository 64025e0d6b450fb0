"""Inputs of the privacy measures' cases (entropy_l, t_closeness; issue 12): casegen writes
`anonymized/classes.csv` into every dataset folder with `classes`, a table whose ECs are big
enough for entropy and closeness to mean something (the cost inputs have many one-row ECs)."""
from __future__ import annotations

import random
from typing import Callable


def classes(rows: list[list[str]], qi: list[int], up: Callable[[int, str, int], str],
            rng: random.Random, k: int = 3) -> list[list[str]]:
    """A full-domain generalization with every EC of at least k rows (the input of the
    privacy measures' cases: entropy_l, t_closeness): each QI starts a random 0 or 1 levels
    up; while an EC is smaller than k, the QI with the most distinct values (not yet all at
    the root; ties: the leftmost) climbs one more level. `up(c, value, steps)` is the
    ancestor `steps` levels above `value` in column c's hierarchy (the root at most)."""
    steps = {c: rng.randrange(0, 2) for c in qi}
    while True:
        table = [[up(c, r[c], steps[c]) if c in steps else r[c] for c in range(len(r))]
                 for r in rows]
        sizes: dict[tuple[str, ...], int] = {}
        for row in table:
            key = tuple(row[c] for c in qi)
            sizes[key] = sizes.get(key, 0) + 1
        if min(sizes.values()) >= k or len(sizes) == 1:
            return table
        distinct = {c: len({row[c] for row in table}) for c in qi
                    if any(up(c, r[c], 99) != row[c] for r, row in zip(rows, table))}
        c = max(distinct, key=lambda c: (distinct[c], -c))
        steps[c] += 1
