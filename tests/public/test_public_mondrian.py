"""Public tests of mondrian (HANDOUT.md, "mondrian")."""
import pytest

from public_cases import bad_calls, runs

pytestmark = pytest.mark.mondrian
FUNCTION = "mondrian"


@pytest.mark.parametrize("run", runs(FUNCTION))
def test_mondrian_valid_and_k_anonymous(run, runner):
    runner.check_property(run)


@pytest.mark.parametrize("run", runs(FUNCTION))
def test_mondrian_matches_reference(run, runner):
    runner.check_expected(run)


@pytest.mark.parametrize("bad", bad_calls(FUNCTION))
def test_mondrian_rejects_bad_input(bad, runner):
    runner.check_bad_call(bad)
