"""Public tests of topdown_greedy (HANDOUT.md, "topdown_greedy"). They run when your course
grades it (tests/public/course.json); in a folder holding every part's tests, they also run
when your file defines topdown_greedy, and are skipped otherwise."""
import pytest

from messages import _
from public_cases import OPTIONAL_SIGNATURES, bad_calls, runs

pytestmark = pytest.mark.greedy
FUNCTION = "topdown_greedy"


@pytest.mark.timeout(120)
def test_greedy_signature(runner, solution):
    runner.applies(FUNCTION)
    got = solution.parameters(FUNCTION)
    if got != OPTIONAL_SIGNATURES[FUNCTION]:
        pytest.fail(_("{name} must take {wanted}, yours takes {got}").format(
            name=FUNCTION, wanted=OPTIONAL_SIGNATURES[FUNCTION], got=got), pytrace=False)


@pytest.mark.parametrize("run", runs(FUNCTION))
def test_greedy_valid_and_k_anonymous(run, runner):
    runner.check_property(run)


@pytest.mark.parametrize("run", runs(FUNCTION))
def test_greedy_matches_reference(run, runner):
    runner.check_expected(run)


@pytest.mark.parametrize("bad", bad_calls(FUNCTION))
def test_greedy_rejects_bad_input(bad, runner):
    runner.check_bad_call(bad)


@pytest.mark.timeout(120)
def test_greedy_refuses_to_overwrite_the_raw_file(runner):
    runner.check_rejects(FUNCTION, "jobsex", ["adult-hw1.csv", "DGHs", 2, "adult-hw1.csv"],
                         _("output_file is the raw dataset file itself"))
