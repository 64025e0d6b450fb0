"""Precision and recall of `python -m grader similarity` on the labelled set
(tests/kit/similarity_set/: independent solutions and disguised copies of them)."""
from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest

from grader.similarity.run import KIT_SKELETON, copydetect_available, find_pairs

HERE = Path(__file__).resolve().parents[1]  # tests/kit: the sets live there
SET = HERE / "similarity_set"
# floors at each engine's default threshold (measured: copydetect 1.0 / 1.0 at 0.5; the token
# matcher 1.0 / 0.714 at 0.8: it misses every padded copy)
FLOORS = {"copydetect": (0.95, 0.95), "tokens": (0.95, 0.70)}


def labelled_class() -> tuple[dict[str, str], set[tuple[str, str]]]:
    """(student -> source, the pairs that are copies). Each student's file is the skeleton
    with the student's code after it; `eve` is the realistic class's whole plain solution."""
    skeleton = KIT_SKELETON.read_text(encoding="utf-8")
    sources = {f.stem: skeleton + "\n\n" + f.read_text(encoding="utf-8")
               for folder in ("originals", "copies") for f in sorted((SET / folder).glob("*.py"))}
    sources["eve"] = (HERE / "realistic_class" / "plain" / "skeleton.py").read_text(
        encoding="utf-8")
    family = {name: name.split("-")[0] for name in sources}
    copies = {(a, b) for a, b in combinations(sorted(sources), 2) if family[a] == family[b]}
    return sources, copies


def precision_recall(engine: str) -> tuple[float, float, float]:
    sources, copies = labelled_class()
    pairs, used, threshold = find_pairs(sources, {}, engine, None)
    assert used == engine
    listed = {(p.a, p.b) for p in pairs}
    hits = len(listed & copies)
    return (hits / len(listed) if listed else 1.0), hits / len(copies), threshold


def test_the_set_is_what_it_claims() -> None:
    sources, copies = labelled_class()
    assert len(sources) == 4 * 7 + 1 and len(copies) == 4 * 21
    assert len({s.split("-")[0] for s in sources}) == 5  # four originals and eve


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["copydetect", "tokens"])
def test_precision_and_recall_floors_at_the_default_threshold(engine: str) -> None:
    if engine == "copydetect" and not copydetect_available():
        pytest.skip('copydetect is not installed (pip install -e ".[similarity]")')
    precision, recall, threshold = precision_recall(engine)
    print(f"{engine} at {threshold}: precision {precision:.3f}, recall {recall:.3f}")
    floor_p, floor_r = FLOORS[engine]
    assert precision >= floor_p and recall >= floor_r
