"""The Samarati facts (kcheck.rules.lowest_vectors: the lowest satisfying height and every
satisfying vector of that height, what a rules course's bundle ships for its public cases
and what the self-check's counterexample judge computes) against brute force on the random
small tables of test_rules_properties, and on a hand-computed example."""
from __future__ import annotations

import pytest
from test_rules_properties import samarati_release
from test_rules_samarati import FIVE, FOUR

from kcheck.rules import lowest_vectors
from kcheck.rules.lattice import Lattice


@pytest.mark.parametrize("seed", range(60))
def test_the_lowest_vectors_are_the_brute_force_ones(seed: int) -> None:
    *_, k, max_sup, release, outputs = samarati_release(seed)
    good = [s for s, (outliers, *_) in outputs.items() if outliers <= max_sup]
    found = lowest_vectors(release, k, max_sup)
    if not good:
        assert found is None
        return
    low = min(map(sum, good))
    assert found == (low, sorted(s for s in good if sum(s) == low))
    lattice = Lattice(release, k)
    for s, (count, _table, _every, kept) in outputs.items():
        assert lattice.count(s) == count
        assert lattice.outliers(s) == [not f for f in kept]


def test_the_lowest_vectors_by_hand() -> None:
    """FOUR, k = 2: (1, 0) and (0, 1) satisfy with no outlier; FIVE, max_sup = 0: only (2, 0)
    (test_rules_samarati's docstring); k = 6 > 5 records: nothing satisfies."""
    assert lowest_vectors(FOUR, 2, 0) == (1, [(0, 1), (1, 0)])
    assert lowest_vectors(FIVE, 2, 1) == (1, [(0, 1), (1, 0)])
    assert lowest_vectors(FIVE, 2, 0) == (2, [(2, 0)])
    assert lowest_vectors(FIVE, 6, 0) is None
    with pytest.raises(ValueError, match="k must be at least 1"):
        lowest_vectors(FIVE, 0, 0)
