"""The copydetect engine of `python -m grader similarity` (needs the similarity extra:
`pip install -e ".[similarity]"`).

copydetect (Stanford MOSS's winnowing, well kept) reduces each submission's Python code to a
token string (names become V or F, strings S, comments and layout dropped) and hashes its
runs of NOISE characters. With the window equal to NOISE every run is kept, so the result does
not depend on Python's per-process string hashing: same inputs, same pairs. Runs found in the
kit's skeleton, or in more than half of the class (with at least 4 submissions), are
boilerplate and removed before comparing. A pair's share a_in_b is the part of a's code that is
also in b; its score is the larger share (the smaller submission's share, as the token matcher
has it).
"""
from __future__ import annotations

import io
import logging
from itertools import combinations

import numpy as np
from copydetect import CodeFingerprint, compare_files
from copydetect.utils import get_token_coverage

from .pairs import Pair

NOISE = 25  # characters of filtered code per hashed run (copydetect's default)
THRESHOLD = 0.5  # default score for a pair to be listed (see docs/tas.md's measurements)


def _fingerprint(name: str, source: str) -> CodeFingerprint:
    logging.disable(logging.WARNING)  # copydetect warns through the root logger
    try:
        # the lexer named: finding it from the name ".py" loads every lexer of pygments
        return CodeFingerprint(f"{name}.py", NOISE, 1, language="python",
                               fp=io.StringIO(source))
    finally:
        logging.disable(logging.NOTSET)


def _drop(fp: CodeFingerprint, hashes: set[int]) -> None:
    """Remove boilerplate runs from a fingerprint (done here rather than by copydetect's own
    boilerplate option, which also drops a file's repeated runs)."""
    fp.hashes = fp.hashes - hashes
    fp.hash_idx = {h: i for h, i in fp.hash_idx.items() if h not in hashes}
    fp.token_coverage = get_token_coverage(fp.hash_idx, fp.k, len(fp.filtered_code))


def similar_pairs(current: dict[str, str], archive: dict[str, str], skeleton: str,
                  threshold: float) -> list[Pair]:
    """Pairs of the class (and of a class member with an archived submission) whose score is
    at or above the threshold, most similar first."""
    prints = {name: _fingerprint(name, text) for name, text in {**current, **archive}.items()}
    common = set(_fingerprint("skeleton", skeleton).hashes) if skeleton else set()
    counts: dict[int, int] = {}
    for name in current:
        for h in prints[name].hashes:
            counts[h] = counts.get(h, 0) + 1
    if len(current) >= 4:
        common |= {h for h, n in counts.items() if n > len(current) / 2}
    for fp in prints.values():
        _drop(fp, common)
    names = sorted(current)
    candidates = list(combinations(names, 2)) + [(a, b) for a in names for b in sorted(archive)]
    pairs = []
    for a, b in candidates:
        fa, fb = prints[a], prints[b]
        if not fa.hashes or not fb.hashes:
            continue
        overlap, (a_in_b, b_in_a), (slices_a, slices_b) = compare_files(fa, fb)
        score = max(float(a_in_b), float(b_in_a))
        if score < threshold:
            continue
        pairs.append(Pair(a, b, round(score, 4), round(float(a_in_b), 4),
                          round(float(b_in_a), 4), int(overlap),
                          _spans(slices_a), _spans(slices_b)))
    pairs.sort(key=lambda p: (-p.score, p.a, p.b))
    return pairs


def _spans(slices: np.ndarray) -> list[tuple[int, int]]:
    """copydetect's 2xN start/end array as sorted (start, end) character ranges."""
    if slices.size == 0:
        return []
    return sorted((int(s), int(e)) for s, e in zip(slices[0], slices[1]))
