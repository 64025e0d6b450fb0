"""Public tests of samarati (HANDOUT.md, "samarati")."""
import pytest

from public_cases import bad_calls, runs

pytestmark = pytest.mark.samarati
FUNCTION = "samarati"


@pytest.mark.parametrize("run", runs(FUNCTION))
def test_samarati_valid_and_k_anonymous_after_suppression(run, runner):
    runner.check_property(run)


@pytest.mark.parametrize("run", runs(FUNCTION))
def test_samarati_matches_reference(run, runner):
    runner.check_expected(run)


@pytest.mark.parametrize("bad", bad_calls(FUNCTION))
def test_samarati_rejects_bad_input(bad, runner):
    runner.check_bad_call(bad)
