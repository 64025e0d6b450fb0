"""When a function's calls stop being made: one policy for the students' self-check and the
grader, each with its own parameters (HANDOUT.md, "Time limits").

A call stopped at its time limit (an endless loop?) is a `Stop`. Once a function has
`give_up_after` stops, none of its later calls is made (the self-check gives up after the
first, the grader after the second). Until then, a later call runs under the smaller of its
own limit and the first stopped call's (a short probe: the grader's cases run from the
smallest dataset up). With `small_first`, a function's calls on a large dataset are held back
once one of its small cases failed (the self-check's; the grader runs every case).
Pure bookkeeping: nothing here runs or times code. Standard library only.
"""
from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Stop", "CallPolicy", "SELF_CHECK", "GRADER", "CallLog", "STOPPED", "SMALL_FAILED"]

STOPPED, SMALL_FAILED = "stopped", "small-failed"
"""Why a call is held back (CallLog.held_back)."""


@dataclass(frozen=True)
class Stop:
    """A call stopped at its limit: what it was (a call's or a case's name), the limit in
    seconds, and its dataset's data rows (0 when unknown)."""

    what: str
    limit: float
    rows: int = 0


@dataclass(frozen=True)
class CallPolicy:
    """The gate's parameters (module docstring)."""

    give_up_after: int
    small_first: bool

    def __post_init__(self) -> None:
        if self.give_up_after < 1:
            raise ValueError(f"give_up_after must be at least 1, got {self.give_up_after}")


SELF_CHECK = CallPolicy(give_up_after=1, small_first=True)
GRADER = CallPolicy(give_up_after=2, small_first=False)


@dataclass
class CallLog:
    """Each function's stopped calls and first failed small case, under a policy."""

    policy: CallPolicy
    stops: dict[str, list[Stop]] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)

    def stop(self, function: str, what: str, limit: float, rows: int = 0) -> None:
        """A call of `function` (named `what`) was stopped after `limit` seconds."""
        self.stops.setdefault(function, []).append(Stop(what, limit, rows))

    def small_failed(self, function: str, what: str) -> None:
        """A case of `function` on a small dataset (named `what`) failed; the first is kept."""
        self.failed.setdefault(function, what)

    def given_up(self, function: str) -> list[Stop] | None:
        """The stops that ended the function's calls, or None while they are still made."""
        stops = self.stops.get(function, [])
        return stops[:self.policy.give_up_after] \
            if len(stops) >= self.policy.give_up_after else None

    def held_back(self, function: str, large: bool) -> str | None:
        """Why the next call of `function` (on a large dataset when `large`) is not made:
        STOPPED, SMALL_FAILED, or None when it is made."""
        if self.given_up(function) is not None:
            return STOPPED
        if large and self.policy.small_first and function in self.failed:
            return SMALL_FAILED
        return None

    def limit(self, function: str, own_limit: float) -> float:
        """The limit of the function's next call: its own, or the first stopped call's when
        that is smaller (a probe after a stop)."""
        stops = self.stops.get(function)
        return min(own_limit, stops[0].limit) if stops else own_limit
