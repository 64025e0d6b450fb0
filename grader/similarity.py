"""Similarity between submissions' solution files, for a TA to look at (never a verdict).

Each submission's Python files (the chosen solution and the .py files beside it) are
tokenized; comments, docstrings and layout are dropped, identifiers become ID, strings STR
and numbers NUM, so renaming variables or rewording comments changes nothing. A submission's
fingerprint is the set of hashes of its runs of K consecutive tokens. Runs that come from the
kit's own skeleton.py, or that more than half of the submissions share, are common ground and
ignored. The similarity of two submissions is |A & B| / min(|A|, |B|): how much of the smaller
one also appears in the other. Pairs at or above the threshold are written, most similar
first. Same inputs, same output bytes.
"""
from __future__ import annotations

import csv
import hashlib
import io
import keyword
import shutil
import tempfile
import tokenize
from itertools import combinations
from pathlib import Path

from .errors import UserError
from .fsutil import atomic_write_text
from .intake import ArchiveProblem, Caps, discover, unpack
from .rubric import Rubric
from .solution import choose

K = 12  # tokens per fingerprinted run
SKIP = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
        tokenize.ENCODING, tokenize.ENDMARKER}
KIT_SKELETON = Path(__file__).resolve().parent.parent / "skeleton.py"


def normalized_tokens(source: str) -> list[str]:
    """The token stream with names, strings and numbers abstracted (keywords kept) and
    statement-level strings (docstrings) dropped."""
    raw = []
    try:
        raw = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass  # a file that does not tokenize contributes nothing
    tokens: list[str] = []
    statement_start = True
    for i, tok in enumerate(raw):
        if tok.type in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
            statement_start = True
            continue
        if tok.type in SKIP:
            continue
        docstring = (statement_start and tok.type == tokenize.STRING and i + 1 < len(raw)
                     and raw[i + 1].type in (tokenize.NEWLINE, tokenize.ENDMARKER))
        statement_start = False
        if docstring:
            continue
        if tok.type == tokenize.NAME:
            tokens.append(tok.string if keyword.iskeyword(tok.string) else "ID")
        elif tok.type == tokenize.STRING or tok.type in _FSTRING:
            if not tokens or tokens[-1] != "STR":  # adjacent strings and f-string parts
                tokens.append("STR")
        elif tok.type == tokenize.NUMBER:
            tokens.append("NUM")
        else:
            tokens.append(tok.string)
    return tokens


_FSTRING = {getattr(tokenize, n) for n in ("FSTRING_START", "FSTRING_MIDDLE", "FSTRING_END")
            if hasattr(tokenize, n)}


def fingerprint(source: str) -> set[str]:
    tokens = normalized_tokens(source)
    return {hashlib.sha1(" ".join(tokens[i:i + K]).encode()).hexdigest()[:16]
            for i in range(max(0, len(tokens) - K + 1))}


def submission_source(folder: Path) -> str:
    """The solution file and the other .py files of the submission, in a fixed order."""
    solution = choose(folder)
    if solution.file is None:
        return ""
    files = [solution.file] + sorted(folder / p for p in solution.sources
                                     if folder / p != solution.file)
    return "\n".join(f.read_text(encoding="utf-8", errors="replace") for f in files)


def similar_pairs(fingerprints: dict[str, set[str]], common: set[str], threshold: float
                  ) -> list[tuple[str, str, float, int]]:
    """(student a, student b, similarity, shared runs) at or above the threshold."""
    counts: dict[str, int] = {}
    for fp in fingerprints.values():
        for h in fp:
            counts[h] = counts.get(h, 0) + 1
    crowd = {h for h, n in counts.items() if len(fingerprints) >= 4 and n > len(fingerprints) / 2}
    own = {s: fp - common - crowd for s, fp in fingerprints.items()}
    pairs = []
    for a, b in combinations(sorted(own), 2):
        if not own[a] or not own[b]:
            continue
        shared = len(own[a] & own[b])
        score = shared / min(len(own[a]), len(own[b]))
        if score >= threshold:
            pairs.append((a, b, round(score, 4), shared))
    pairs.sort(key=lambda p: (-p[2], p[0], p[1]))
    return pairs


def run_similarity(submissions: Path, out: Path, rubric: Rubric, threshold: float) -> int:
    """Write the CSV of similar pairs; returns how many pairs it lists."""
    caps = Caps(max_bytes=int(rubric.settings["max_archive_mb"]) * 2**20,
                max_files=int(rubric.settings["max_archive_files"]))
    work = Path(tempfile.mkdtemp(prefix="kanon-similarity-"))
    try:
        subs = discover(submissions.resolve(), work, rubric.id_pattern, caps)
        if not subs:
            raise UserError(f"no submissions found in {submissions}")
        fingerprints: dict[str, set[str]] = {}
        for sub in subs:
            try:
                folder = unpack(sub, work / "unpacked" / sub.student, rubric.id_pattern, caps)
            except ArchiveProblem:
                continue
            fingerprints[sub.student] = fingerprint(submission_source(folder))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    common = fingerprint(KIT_SKELETON.read_text(encoding="utf-8")) if KIT_SKELETON.is_file() \
        else set()
    pairs = similar_pairs(fingerprints, common, threshold)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["student_a", "student_b", "similarity", "shared_runs"])
    writer.writerows(pairs)
    atomic_write_text(out, buffer.getvalue())
    return len(pairs)
