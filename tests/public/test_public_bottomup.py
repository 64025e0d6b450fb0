"""Public tests of bottomup_anonymizer (HANDOUT.md, "bottomup_anonymizer")."""
import pytest

from public_cases import bad_calls, runs

pytestmark = pytest.mark.bottomup
FUNCTION = "bottomup_anonymizer"


@pytest.mark.parametrize("run", runs(FUNCTION))
def test_bottomup_valid_and_k_anonymous_and_l_diverse(run, runner):
    runner.check_property(run)


@pytest.mark.parametrize("run", runs(FUNCTION))
def test_bottomup_matches_reference(run, runner):
    runner.check_expected(run)


@pytest.mark.parametrize("bad", bad_calls(FUNCTION))
def test_bottomup_rejects_bad_input(bad, runner):
    runner.check_bad_call(bad)
