"""The search for a counterexample in the pool (kcheck/pool.py), shared by the grader's
feedback and the students' self-check. Pure: the student's calls come in through a *probe*,
`probe(member) -> Answer | None` (None: stop here, the budget is spent or the call was
stopped at its limit; `budget.stopped` says why), so the grader runs each call in its
sandbox, the self-check in its child process, and tests with plain functions.

Two orders:
  search       the grader's on the course's pool: seeds from the failing public cases' datasets
               first, then smallest first; a seed that differs has each of its chains
               binary-searched for the smallest member that still differs.
  first_found  the distinct members smallest first (rows x QIs, then rows, then pool
               order), the first that differs; with `rules` (several right answers) the
               first whose output breaks a rule, and a call that raised or wrote nothing
               readable only when no member breaks one.
Standard library only: it ships in the students' bundle.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .pool import Chain, Member

__all__ = ["Answer", "Found", "Probe", "Budget", "STOP_BELOW", "order", "search",
           "first_found"]

STOP_BELOW = 0.05
"""Seconds: a call that could run for less than this is not made (the budget is spent)."""


@dataclass(frozen=True)
class Answer:
    """The student's answer on one member, next to the reference's."""

    differs: bool
    yours: object = None  # CSV text or a number, when the call returned one
    problem: str = ""  # why there is no answer to compare: raised, no output...
    broken: tuple = ()  # judged by rules: the (rule, message) pairs broken


@dataclass(frozen=True)
class Found:
    member: Member
    answer: Answer


Probe = Callable[[Member], "Answer | None"]


@dataclass
class Budget:
    """What one search may spend: calls and seconds (the grader counts CPU seconds, the
    self-check wall-clock ones), and why it stopped early, if it did."""

    calls: float
    seconds: float
    used_calls: int = 0
    used_seconds: float = 0.0
    stopped: str = field(default="")

    def left(self) -> float:
        return self.seconds - self.used_seconds if self.used_calls < self.calls else 0.0

    def limit(self, call_limit: float) -> float | None:
        """The next call's time limit (its own, cut to what is left), or None (and
        `stopped` says "budget") when too little is left for a call."""
        limit = min(call_limit, self.left())
        if limit <= STOP_BELOW:
            self.stop("budget")
            return None
        return limit

    def stop(self, why: str) -> None:
        """Record why the search stops (the first reason stays)."""
        self.stopped = self.stopped or why


def order(chains: list[Chain], preferred: set[str]) -> list[list[Chain]]:
    """The chains grouped by seed, in search order: seeds from a `preferred` source (the
    dataset of a failing public case) first, then by size (rows x QIs), then pool order."""
    groups: dict[tuple, list[Chain]] = {}
    for chain in chains:
        groups.setdefault(chain.members[0].ident, []).append(chain)
    def key(item: tuple[int, list[Chain]]) -> tuple:
        n, group = item
        head = group[0].members[0]
        rows, qis = head.size
        return (head.source.label not in preferred, rows * qis, n)
    return [g for _, g in sorted(enumerate(groups.values()), key=key)]


class _Cached:
    """`probe` called at most once per member."""

    def __init__(self, probe: Probe):
        self.probe, self.seen = probe, {}
        self.spent = False

    def __call__(self, member: Member) -> Answer | None:
        ident = member.ident
        if ident not in self.seen:
            answer = None if self.spent else self.probe(member)
            if answer is None:
                self.spent = True
                return None
            self.seen[ident] = answer
        return self.seen[ident]


def _smallest_in(chain: Chain, probe: _Cached) -> Found | None:
    """The chain's last member that differs (binary search from its head, which differs)."""
    members = chain.members
    head = probe(members[0])
    if head is None or not head.differs:
        return None
    lo, hi, best = 0, len(members) - 1, head
    while lo < hi:
        mid = (lo + hi + 1) // 2
        answer = probe(members[mid])
        if answer is None:
            break
        if answer.differs:
            lo, best = mid, answer
        else:
            hi = mid - 1
    return Found(members[lo], best)


def search(chains: list[Chain], probe: Probe, preferred: set[str] = frozenset()
           ) -> Found | None:
    """The smallest counterexample of the first seed on which the student differs."""
    cached = _Cached(probe)
    for group in order(chains, preferred):
        found = [f for f in (_smallest_in(c, cached) for c in group) if f is not None]
        if found:
            return min(found, key=lambda f: (f.member.size[0] * f.member.size[1],
                                             f.member.size))
        if cached.spent:
            return None
    return None


def first_found(members: list[Member], probe: Probe, rules: bool = False) -> Found | None:
    """The first of `members` (smallest first: pool.smallest_first) on which the student
    differs; with `rules`, the first that breaks a rule, else the first that differs
    otherwise (raised, no readable output), until the probe says stop."""
    failed = None
    for member in members:
        answer = probe(member)
        if answer is None:
            return failed
        if answer.differs and (answer.broken or not rules):
            return Found(member, answer)
        if answer.differs and failed is None:
            failed = Found(member, answer)
    return failed
