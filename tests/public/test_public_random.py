"""Public tests of random_anonymizer (HANDOUT.md, "random_anonymizer")."""
import pytest

from public_cases import bad_calls, runs

pytestmark = pytest.mark.random
FUNCTION = "random_anonymizer"


@pytest.mark.parametrize("run", runs(FUNCTION))
def test_random_valid_and_k_anonymous(run, runner):
    runner.check_property(run)


@pytest.mark.parametrize("run", runs(FUNCTION))
def test_random_matches_reference(run, runner):
    runner.check_expected(run)


@pytest.mark.parametrize("bad", bad_calls(FUNCTION))
def test_random_rejects_bad_input(bad, runner):
    runner.check_bad_call(bad)
