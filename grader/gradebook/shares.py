"""Gradescope's per-test max_score and score: a case's share of its part's points, chosen so
that Gradescope's own floating-point sum of the tests is exactly the rubric's points."""
from __future__ import annotations

from ..grading.record import CaseRecord
from ..rubric import Rubric

UNITS = 16  # max_scores are multiples of 1/16 (0.0625): exact binary fractions


def shares(cases: list[tuple[str, float]], rubric: Rubric) -> list[float]:
    """Each case's max_score (`cases`: each case's part and max_points, in the record's
    order), a multiple of 1/UNITS (at most 4 decimals), so that a part's cases add up to
    exactly the part's points, and every part's to the rubric's, in any order
    and in floating point (Gradescope adds them up: 3.3333 + 3.3334 + ... makes
    99.99999999999997). Largest remainders first: a part of 3 cases worth 10 gets 3.375,
    3.3125 and 3.3125. A part whose points are no multiple of 1/UNITS keeps 4 decimals, the
    remainder on its last case."""
    shares = [0.0] * len(cases)
    for part in rubric.parts:
        index = [i for i, (key, _) in enumerate(cases) if key == part.key]
        if not index:
            continue
        maxima = [cases[i][1] for i in index]
        total = sum(maxima)
        if abs(total * UNITS - round(total * UNITS)) > 1e-4:
            kept = [round(x, 4) for x in maxima[:-1]]
            for i, share in zip(index, kept + [round(total - sum(kept), 4)]):
                shares[i] = share
            continue
        exact = [x * UNITS for x in maxima]
        units = [int(x) for x in exact]
        left = round(total * UNITS) - sum(units)
        for j in sorted(range(len(index)), key=lambda j: (-(exact[j] - units[j]), j))[:left]:
            units[j] += 1
        for i, u in zip(index, units):
            shares[i] = u / UNITS
    return shares


def test_score(case: CaseRecord, share: float) -> float:
    """A test's score: its whole share when the case earned all its points, else the same
    fraction of the share (4 decimals)."""
    if case.points >= case.max_points - 1e-9:
        return share
    return round(share * case.points / case.max_points, 4) if case.max_points else 0.0


__all__ = ["UNITS", "shares", "test_score"]
