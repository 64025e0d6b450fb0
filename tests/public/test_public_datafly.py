"""Public tests of datafly (HANDOUT.md, "datafly"). They run when your course grades it
(tests/public/course.json); in a folder holding every part's tests, they also run when your
file defines datafly, and are skipped otherwise."""
import pytest

from messages import _
from public_cases import OPTIONAL_SIGNATURES, bad_calls, runs

pytestmark = pytest.mark.datafly
FUNCTION = "datafly"


@pytest.mark.timeout(120)
def test_datafly_signature(runner, solution):
    runner.applies(FUNCTION)
    got = solution.parameters(FUNCTION)
    if got != OPTIONAL_SIGNATURES[FUNCTION]:
        pytest.fail(_("{name} must take {wanted}, yours takes {got}").format(
            name=FUNCTION, wanted=OPTIONAL_SIGNATURES[FUNCTION], got=got), pytrace=False)


@pytest.mark.parametrize("run", runs(FUNCTION))
def test_datafly_valid_and_k_anonymous(run, runner):
    runner.check_property(run)


@pytest.mark.parametrize("run", runs(FUNCTION))
def test_datafly_matches_reference(run, runner):
    runner.check_expected(run)


@pytest.mark.parametrize("bad", bad_calls(FUNCTION))
def test_datafly_rejects_bad_input(bad, runner):
    runner.check_bad_call(bad)


@pytest.mark.timeout(120)
def test_datafly_refuses_to_overwrite_the_raw_file(runner):
    runner.check_rejects(FUNCTION, "jobsex", ["adult-hw1.csv", "DGHs", 2, "adult-hw1.csv"],
                         _("output_file is the raw dataset file itself"))
