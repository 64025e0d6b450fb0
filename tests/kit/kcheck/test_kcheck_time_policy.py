"""kcheck.time_policy: the one call gate of the self-check (tests/public/call_gate.py: gives
up on a function after its first stopped call, runs it on a large dataset only once its small
cases pass) and the grader (grader/grading/time_policy.py: gives up after the second stop,
runs every case, a probe's shorter limit in between)."""
from __future__ import annotations

import pytest

from kcheck.time_policy import (GRADER, SELF_CHECK, SMALL_FAILED, STOPPED, CallLog, CallPolicy,
                                Stop)


def test_the_self_check_gives_up_after_one_stop_and_holds_large_calls_after_a_failure() -> None:
    log = CallLog(SELF_CHECK)
    assert log.held_back("mondrian", large=True) is None
    log.small_failed("mondrian", "test_a")
    log.small_failed("mondrian", "test_b")  # the first failure is the one named
    assert log.failed == {"mondrian": "test_a"}
    assert log.held_back("mondrian", large=False) is None
    assert log.held_back("mondrian", large=True) == SMALL_FAILED
    log.stop("mondrian", "mondrian(k=2)", 30.0, rows=36)
    assert log.given_up("mondrian") == [Stop("mondrian(k=2)", 30.0, 36)]
    assert log.held_back("mondrian", large=False) == STOPPED  # a stop outranks a failure
    assert log.held_back("samarati", large=True) is None  # another function: untouched


def test_the_grader_probes_after_one_stop_and_gives_up_after_two() -> None:
    log = CallLog(GRADER)
    assert log.limit("cost_MD", 11.0) == 11.0
    log.stop("cost_MD", "small", 1.1, rows=31)
    assert log.given_up("cost_MD") is None and log.held_back("cost_MD", large=True) is None
    assert log.limit("cost_MD", 110.0) == 1.1 and log.limit("cost_MD", 0.5) == 0.5
    log.small_failed("cost_MD", "small")  # the grader never holds large cases back for it
    assert log.held_back("cost_MD", large=True) is None
    log.stop("cost_MD", "large", 1.1, rows=9999)
    log.stop("cost_MD", "larger", 1.1, rows=9999)
    assert [s.what for s in log.given_up("cost_MD")] == ["small", "large"]
    assert log.held_back("cost_MD", large=False) == STOPPED


def test_a_policy_needs_at_least_one_stop() -> None:
    with pytest.raises(ValueError, match="give_up_after must be at least 1, got 0"):
        CallPolicy(give_up_after=0, small_first=False)
