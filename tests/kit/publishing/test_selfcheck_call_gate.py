"""tests/public/call_gate.py, which the students' self-check uses to hold calls back: after a
stopped call, none of that function's later calls is made (each test not run says which call
stopped it); a function runs on adult-hw1.csv only once its small cases pass; the adult-size
tests of each file run last. (The bundle's self-check with looping functions, end to end:
test_selfcheck_endless_loop.py.)"""
from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

PUBLIC = Path(__file__).resolve().parents[3] / "tests" / "public"
if str(PUBLIC) not in sys.path:
    sys.path.insert(0, str(PUBLIC))

from call_gate import Gate, adult_last, case_of, is_case_test  # noqa: E402
from public_cases import BAD_CALLS, COSTS, MEASURES, RUNS  # noqa: E402

JOBSEX = "cost_MD on case 'jobsex-anon-example'"


def test_after_a_stopped_call_no_further_call_of_that_function_is_made() -> None:
    gate = Gate()
    assert gate.why_not("cost_MD", "cost_MD on case 'world-raw'", large=False) is None
    gate.stop("cost_MD", JOBSEX, 30.3)
    with pytest.raises(pytest.skip.Exception) as skipped:
        gate.check("cost_MD", "cost_MD on case 'world-raw'", large=False)
    assert str(skipped.value) == (
        f"cost_MD on case 'world-raw': not run, because {JOBSEX} did not return within "
        f"30.3 s and the self-check makes no further call of cost_MD after stopping one (an "
        f"endless loop? fix that call first)")
    with pytest.raises(pytest.skip.Exception, match=r"because cost_MD on case 'jobsex-anon"):
        gate.check("cost_MD", "cost_MD on case 'adult-levels'", large=True)
    gate.check("cost_LM", "cost_LM on case 'world-raw'", large=False)  # other functions run
    gate.stop("cost_MD", "cost_MD on case 'world-raw'", 30.3)  # the first stop is named
    assert gate.stopped == {"cost_MD": (JOBSEX, 30.3)}
    assert gate.summary() == [
        f"{JOBSEX} did not return within 30.3 s (an endless loop in cost_MD?), so the "
        f"self-check did not run cost_MD's 2 later public tests (HANDOUT.md, \"Time limits\")"]


def test_adult_size_calls_wait_until_the_small_cases_pass() -> None:
    gate = Gate()
    gate.check("mondrian", "mondrian(k=8) on case 'adult'", large=True)  # nothing failed yet
    gate.small_failed("mondrian", "test_mondrian_matches_reference[grid-k2]")
    gate.small_failed("mondrian", "test_mondrian_matches_reference[grid-k3]")
    gate.check("mondrian", "mondrian(k=2) on case 'world'", large=False)  # small: still run
    with pytest.raises(pytest.skip.Exception) as skipped:
        gate.check("mondrian", "mondrian(k=8) on case 'adult'", large=True)
    assert str(skipped.value) == (
        "mondrian(k=8) on case 'adult': not run, because "
        "test_mondrian_matches_reference[grid-k2] failed and the self-check runs mondrian on "
        "adult-hw1.csv only once its small cases pass")
    assert gate.summary() == [
        "mondrian did not run on adult-hw1.csv (1 public test): it runs there once its small "
        "cases pass, and test_mondrian_matches_reference[grid-k2] failed"]


def test_a_stop_and_a_failed_small_case_are_told_apart() -> None:
    gate = Gate()
    gate.small_failed("samarati", "test_samarati_matches_reference[sam-k2-max_sup0]")
    for _ in range(2):
        with pytest.raises(pytest.skip.Exception):
            gate.check("samarati", "samarati(k=16, max_sup=100) on case 'adult'", large=True)
    gate.stop("samarati", "samarati(k=7, max_sup=0) on case 'sam'", 60)
    with pytest.raises(pytest.skip.Exception, match="did not return within 60 s"):
        gate.check("samarati", "samarati(k=2, max_sup=-1) on case 'sam'", large=False)
    assert len(gate.not_run) == 3
    first, second = gate.summary()
    assert first.startswith("samarati did not run on adult-hw1.csv (2 public tests)")
    assert second.startswith("samarati(k=7, max_sup=0) on case 'sam' did not return within "
                             "60 s (an endless loop in samarati?), so the self-check did not "
                             "run samarati's 1 later public test ")


def test_the_case_of_each_kind_of_test() -> None:
    adult_run = next(r for r in RUNS if r.case == "adult")
    assert case_of({"run": adult_run}) == "adult" and is_case_test({"run": adult_run})
    assert case_of({"case": COSTS[0]}) == "jobsex" and is_case_test({"case": COSTS[0]})
    assert case_of({"case": MEASURES[-1]}) == "adult" and is_case_test({"case": MEASURES[-1]})
    assert case_of({"bad": BAD_CALLS[0]}) == "jobsex" and not is_case_test({"bad": BAD_CALLS[0]})
    bad_cost = {"case": "world", "name": "anon-interval-outside.csv", "column": "age"}
    assert case_of(bad_cost) == "world" and not is_case_test(bad_cost)
    assert case_of({"name": "cost_MD"}) is None and not is_case_test({})


def test_adult_size_tests_go_last_in_their_file() -> None:
    adult, small = COSTS[3], COSTS[0]
    items = [SimpleNamespace(nodeid=f"tests/public/{file}::{name}", params=params)
             for file, name, params in [
                 ("test_public_api.py", "test_signature[cost_MD]", {}),
                 ("test_public_functions.py", "test_cost_MD[jobsex]", {"case": small}),
                 ("test_public_functions.py", "test_cost_MD[adult-levels]", {"case": adult}),
                 ("test_public_functions.py", "test_cost_LM[jobsex]", {"case": small}),
                 ("test_public_functions.py", "test_cost_LM[adult-levels]", {"case": adult}),
                 ("test_public_functions.py", "test_cost_MD_rejects[world]", {"case": "world"}),
                 ("test_public_functions.py", "test_random[adult]", {"run": RUNS[3]}),
                 ("test_public_functions.py", "test_random[jobsex]", {"run": RUNS[0]})]]
    ordered = [item.nodeid.split("::")[1] for item in adult_last(items, lambda i: i.params)]
    assert ordered == ["test_signature[cost_MD]", "test_cost_MD[jobsex]", "test_cost_LM[jobsex]",
                       "test_cost_MD_rejects[world]", "test_random[jobsex]",
                       "test_cost_MD[adult-levels]", "test_cost_LM[adult-levels]",
                       "test_random[adult]"]
