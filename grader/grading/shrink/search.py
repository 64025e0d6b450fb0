"""The search for a counterexample over the pool's chains (pure: the student's calls come in
through `probe`, so tests drive it with plain functions).

Seeds are tried in order (the failing public cases' datasets first, then the smallest seeds
first); a seed on which the student agrees with the reference costs one call. For a seed that
differs, each of its chains is binary-searched for its last (smallest) member that still
differs: halves of the chain first, then single steps, every answer checked by a call. The
smallest member found over the seed's chains is the counterexample; the search stops there,
or when `probe` returns None (the budget is spent or the session ended).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .pool import Chain, Member


@dataclass(frozen=True)
class Answer:
    """The student's answer on one member, next to the reference's."""

    differs: bool
    yours: object = None  # CSV text or a number, when the call returned one
    problem: str = ""  # why there is no answer to compare: raised, no output, timeout...
    broken: tuple = ()  # judged by rules (rules_search.py): the (rule, message) pairs broken


@dataclass(frozen=True)
class Found:
    member: Member
    answer: Answer


Probe = Callable[[Member], "Answer | None"]


def _ident(member: Member) -> tuple:
    return (member.source.label, member.source.anonymized_label, member.rows, member.qis,
            tuple(sorted(member.ints.items())))


def order(chains: list[Chain], preferred: set[str]) -> list[list[Chain]]:
    """The chains grouped by seed, in search order: seeds from a `preferred` source (the
    dataset of a failing public case) first, then by size (rows x QIs), then pool order."""
    groups: dict[tuple, list[Chain]] = {}
    for chain in chains:
        groups.setdefault(_ident(chain.members[0]), []).append(chain)
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
        ident = _ident(member)
        if ident not in self.seen:
            answer = None if self.spent else self.probe(member)
            if answer is None:
                self.spent = True
                return None
            self.seen[ident] = answer
        return self.seen[ident]


def smallest_in(chain: Chain, probe: _Cached) -> Found | None:
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
        found = [f for f in (smallest_in(c, cached) for c in group) if f is not None]
        if found:
            return min(found, key=lambda f: (f.member.size[0] * f.member.size[1],
                                             f.member.size))
        if cached.spent:
            return None
    return None
