"""The students' rule checkers (tests/public/rules_samarati.py and rules_mondrian.py, standard
library only, shipped to a rules-judged course) agree with the grader's (kanon.rules) on the
random small tables of test_rules_properties: the same outputs are right, and a wrong one is
named by the same rules, in the same order."""
from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import pytest
from rules_brute import as_table, generalize, mondrian_partitions, release_of, \
    samarati_outputs, samarati_right
from test_rules_properties import _mondrian_case, _partitions, _samarati_candidates, \
    _samarati_case

from kanon.rules import check_mondrian, check_samarati

PUBLIC = Path(__file__).resolve().parents[2] / "public"
sys.path.insert(0, str(PUBLIC))
import rules_mondrian  # noqa: E402
import rules_samarati  # noqa: E402

sys.path.remove(str(PUBLIC))
FIRST_RULES: Counter = Counter()  # (kanon's first rule, the students' first rule) -> count


def _samarati_facts(outputs, max_sup: int) -> tuple[int | None, tuple]:
    good = [s for s, (outliers, *_) in outputs.items() if outliers <= max_sup]
    if not good:
        return None, ()
    low = min(map(sum, good))
    return low, tuple(sorted(s for s in good if sum(s) == low))


@pytest.mark.parametrize("seed", range(60))
def test_samarati_checkers_agree(seed: int) -> None:
    rng, trees, rows, q, released, k, max_sup = _samarati_case(seed)
    header = [t.name for t in trees] + ["s", "e"]
    release = release_of(trees, header, rows, list(range(q)), released)
    outputs = samarati_outputs(trees, rows, list(range(q)), released, k)
    right = samarati_right(outputs, max_sup)
    height, vectors = _samarati_facts(outputs, max_sup)
    if height is None:
        return  # the call must raise ValueError: no output to judge
    case = SimpleNamespace(k=k, max_sup=max_sup, qis=tuple(header[:q]),
                           columns=tuple(header[c] for c in released), height=height,
                           vectors=vectors)
    dghs = {t.name: t.parent for t in trees}
    columns = list(case.columns)
    for table in sorted(_samarati_candidates(rng, outputs, right, trees, q) | right):
        grader = check_samarati(release, k, max_sup, as_table(release, table))
        mine = rules_samarati.check(case, header, rows, dghs, columns, [list(r) for r in table])
        assert (not mine) == (not grader) == (table in right), (table, mine, grader)
        if grader:
            FIRST_RULES[("samarati", grader[0].rule, mine[0][0])] += 1
        assert [r for r, _ in mine] == [b.rule for b in grader], (table, mine, grader)


@pytest.mark.parametrize("seed", range(60))
def test_mondrian_checkers_agree(seed: int) -> None:
    rng, trees, numeric, rows, q, k = _mondrian_case(seed)
    header = [t.name for t in trees] + ["s"]
    released = list(range(q + 1))
    release = release_of(trees, header, rows, list(range(q)), released)
    qis = list(range(q))
    finals = [[sorted(g) for g in p] for p in mondrian_partitions(trees, numeric, rows, qis, k)]
    right = {generalize(trees, numeric, rows, qis, released, p) for p in finals}
    candidates = {generalize(trees, numeric, rows, qis, released, p)
                  for p in _partitions(rng, len(rows))} | right
    for table in list(right):
        i, j = rng.randrange(len(rows)), rng.randrange(q)
        for cell in ("*", "[0-9]", f"[{rows[i][j]}-9]" if numeric[j] else trees[j].leaves()[0]):
            changed = [list(r) for r in table]
            changed[i][j] = cell
            candidates.add(tuple(map(tuple, changed)))
        changed = [list(r) for r in table]
        changed[i][q] = "z"
        candidates.add(tuple(map(tuple, changed)))
    case = SimpleNamespace(k=k, qis=tuple(header[:q]), columns=tuple(header))
    dghs = {t.name: t.parent for t in trees}
    for table in sorted(candidates):
        grader = check_mondrian(release, k, as_table(release, table))
        mine = rules_mondrian.check(case, header, rows, dghs, header, [list(r) for r in table])
        assert (not mine) == (not grader) == (table in right), (table, mine, grader)
        assert [r for r, _ in mine] == [b.rule for b in grader], (table, mine, grader)


def test_the_checkers_met_wrong_answers_of_every_rule() -> None:
    """The samarati comparison above met each rule as the first one broken (run after it)."""
    if not FIRST_RULES:
        pytest.skip("run with the comparisons above")
    met = {rule for (function, rule, _) in FIRST_RULES if function == "samarati"}
    assert {"columns", "full-domain", "satisfies", "lowest-height", "deletion"} <= met, \
        FIRST_RULES
