"""What the similarity engines share: a pair of alike submissions and the caveat every report
carries (no module of the engines or the report imports grader.similarity.run, which
imports them)."""
from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["CAVEAT", "Pair"]

CAVEAT = ("A high score is a pointer for a human, not a verdict: read both files before "
          "concluding anything.")


@dataclass
class Pair:
    """Two submissions alike: b may be an archived one. a_in_b is the share of a's code
    found in b; score the larger share; shared the matched amount (copydetect: characters of
    filtered code in a; tokens: shared runs); spans the matched (start, end) characters."""

    a: str
    b: str
    score: float
    a_in_b: float
    b_in_a: float
    shared: int
    spans_a: list[tuple[int, int]] = field(default_factory=list)
    spans_b: list[tuple[int, int]] = field(default_factory=list)
