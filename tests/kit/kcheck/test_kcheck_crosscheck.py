"""kcheck against the kit: on the kit's own data (adult-hw1.csv, DGHs/ in the tabs format) the
reference topdown_greedy's output passes kcheck's quality judge, and kcheck's NCP equals the
reference's own metric (the partitions' size x NCP of their generalization, summed) and the
privacy checker's (kanon.privacy.load_release); its LM equals the kit's cost_LM."""
from __future__ import annotations

from pathlib import Path

import pytest

from kanon.cells import is_numeric
from kanon.privacy import lm_total, load_release
from kanon.problem import load_problem_for_k
from kcheck import judge_quality, read_folder, read_table
from reference.topdown_greedy import _Greedy, topdown_greedy

REPO = Path(__file__).resolve().parents[3]
RAW, DGHS = REPO / "adult-hw1.csv", REPO / "DGHs"


@pytest.mark.parametrize("k", [6, 40])
def test_kchecks_ncp_is_the_references_on_its_own_output(tmp_path: Path, k: int) -> None:
    problem = load_problem_for_k(str(RAW), str(DGHS), k)
    greedy = _Greedy(problem, k)
    reference_ncp = sum(greedy.cost(part) for part in greedy.run())
    out = tmp_path / "out.csv"
    topdown_greedy(str(RAW), str(DGHS), k, str(out))

    raw = read_table(RAW)
    trees = read_folder(DGHS, "tabs")
    qis = [c for c in raw.header if c in trees]
    numeric = [c for c in qis if is_numeric(raw.column(c))]
    assert numeric == ["age"] and len(qis) == 8
    verdict, facts = judge_quality(raw, trees, out, k=k, qis=qis, numeric=numeric,
                                   released=raw.header)
    assert verdict.ok, verdict
    assert facts.smallest >= k
    assert facts.cost == pytest.approx(reference_ncp, rel=1e-9)
    release = load_release(str(RAW), str(out), str(DGHS))
    assert facts.cost == pytest.approx(float(release.ncp.sum()), rel=1e-9)
    assert facts.classes == len(release.sizes)

    _, lm_facts = judge_quality(raw, trees, out, k=k, qis=qis, numeric=numeric,
                                released=raw.header, metric="lm")
    assert lm_facts.cost == pytest.approx(lm_total(release.lm), rel=1e-9)
