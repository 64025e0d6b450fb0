"""Similarity between submissions' solution files, for a TA to look at (never a verdict).

    python -m grader similarity SUBMISSIONS --out pairs.csv [--threshold T]
        [--archive DIR ...] [--engine auto|copydetect|tokens]

Writes pairs.csv (student_a, student_b, similarity, a_in_b, b_in_a, shared; most similar
first) and, beside it, pairs.html: every listed pair side by side, the shared code
highlighted. A student of an --archive folder (past years' submissions, any layout `grade`
accepts) is named `<folder name>/<id>`; archived submissions are compared with this class,
not with each other. Same inputs, same output bytes.

Engines: copydetect (copydetect_engine.py) when installed (the similarity extra), else
this module's token matcher, with a one-line message saying how to install copydetect. The
token matcher: each submission's Python files (the chosen solution and the .py files beside
it) are tokenized; comments, docstrings and layout are dropped, identifiers become ID,
strings STR and numbers NUM, so renaming variables or rewording comments changes nothing. A
submission's fingerprint is the set of hashes of its runs of K consecutive tokens. Runs that
come from the kit's own skeleton.py, or that more than half of the submissions share, are
common ground and ignored. The similarity of two submissions is |A & B| / min(|A|, |B|): how
much of the smaller one also appears in the other.
"""
from __future__ import annotations

import csv
import hashlib
import importlib.util
import io
import keyword
import shutil
import tempfile
import tokenize
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path

from kanon.files import atomic_write_text

from ..errors import UserError
from ..paths import KIT_SKELETON
from ..rubric import Rubric
from ..grading.intake import ArchiveProblem, discover, unpack
from .pairs import Pair
from ..grading.solution import choose

K = 12  # tokens per fingerprinted run
THRESHOLD = 0.8  # the token matcher's default threshold
ENGINES = ("auto", "copydetect", "tokens")
INSTALL_HINT = ('copydetect is not installed: using the built-in token matcher (no highlighted '
                'report); for copydetect run pip install -e ".[similarity]" '
                '(or pip install copydetect)')


@dataclass
class Outcome:
    """What run_similarity wrote."""

    pairs: list[Pair]
    engine: str
    threshold: float
    html: Path
    compared: int  # submissions of the class
    archived: int  # archived submissions
SKIP = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
        tokenize.ENCODING, tokenize.ENDMARKER}


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


def similar_pairs(fingerprints: dict[str, set[str]], common: set[str], threshold: float,
                  archive: dict[str, set[str]] | None = None) -> list[Pair]:
    """The token matcher's pairs at or above the threshold (class x class, class x archive)."""
    archive = archive or {}
    counts: dict[str, int] = {}
    for fp in fingerprints.values():
        for h in fp:
            counts[h] = counts.get(h, 0) + 1
    crowd = {h for h, n in counts.items() if len(fingerprints) >= 4 and n > len(fingerprints) / 2}
    own = {s: fp - common - crowd for s, fp in {**fingerprints, **archive}.items()}
    names = sorted(fingerprints)
    pairs = []
    for a, b in list(combinations(names, 2)) + [(a, b) for a in names for b in sorted(archive)]:
        if not own[a] or not own[b]:
            continue
        shared = len(own[a] & own[b])
        score = shared / min(len(own[a]), len(own[b]))
        if score >= threshold:
            pairs.append(Pair(a, b, round(score, 4), round(shared / len(own[a]), 4),
                              round(shared / len(own[b]), 4), shared))
    pairs.sort(key=lambda p: (-p.score, p.a, p.b))
    return pairs


def copydetect_available() -> bool:
    return importlib.util.find_spec("copydetect") is not None


def load_sources(submissions: Path, rubric: Rubric, prefix: str = "") -> dict[str, str]:
    """Each submission's Python source (solution first), by student id (with prefix)."""
    caps = rubric.settings.caps()
    work = Path(tempfile.mkdtemp(prefix="kanon-similarity-"))
    sources: dict[str, str] = {}
    try:
        subs = discover(submissions.resolve(), work, rubric.id_pattern, caps)
        if not subs:
            raise UserError(f"no submissions found in {submissions}")
        for sub in subs:
            try:
                folder = unpack(sub, work / "unpacked" / sub.student, rubric.id_pattern, caps)
            except ArchiveProblem:
                continue
            sources[prefix + sub.student] = submission_source(folder)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return sources


def find_pairs(current: dict[str, str], archive: dict[str, str], engine: str,
               threshold: float | None) -> tuple[list[Pair], str, float]:
    """(pairs, engine used, threshold used). engine "auto" is copydetect when installed."""
    skeleton = KIT_SKELETON.read_text(encoding="utf-8") if KIT_SKELETON.is_file() else ""
    if engine == "copydetect" or (engine == "auto" and copydetect_available()):
        from . import copydetect_engine as cd
        used = cd.THRESHOLD if threshold is None else threshold
        return cd.similar_pairs(current, archive, skeleton, used), "copydetect", used
    used = THRESHOLD if threshold is None else threshold
    pairs = similar_pairs({s: fingerprint(t) for s, t in current.items()},
                          fingerprint(skeleton) if skeleton else set(), used,
                          {s: fingerprint(t) for s, t in archive.items()})
    return pairs, "tokens", used


def pairs_csv(pairs: list[Pair]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["student_a", "student_b", "similarity", "a_in_b", "b_in_a", "shared"])
    writer.writerows([p.a, p.b, p.score, p.a_in_b, p.b_in_a, p.shared] for p in pairs)
    return buffer.getvalue()


def run_similarity(submissions: Path, out: Path, rubric: Rubric, threshold: float | None = None,
                   archives: list[Path] | tuple[Path, ...] = (), engine: str = "auto"
                   ) -> Outcome:
    """Write the CSV of similar pairs and its HTML report (same name, .html) beside it."""
    from .report import report_html
    if engine not in ENGINES:
        raise UserError(f"--engine must be one of {', '.join(ENGINES)}")
    if engine == "copydetect" and not copydetect_available():
        raise UserError(INSTALL_HINT.split(":")[0] + '; pip install -e ".[similarity]"')
    for folder in archives:
        if not folder.exists():
            raise UserError(f"archive not found: {folder}")
    current = load_sources(submissions, rubric)
    archive: dict[str, str] = {}
    for folder in archives:
        archive.update(load_sources(folder, rubric, prefix=f"{folder.resolve().name}/"))
    pairs, used, used_threshold = find_pairs(current, archive, engine, threshold)
    html_path = out.with_suffix(".html")
    atomic_write_text(out, pairs_csv(pairs))
    atomic_write_text(html_path, report_html(pairs, {**current, **archive}, used,
                                             used_threshold, len(current), len(archive)))
    return Outcome(pairs, used, used_threshold, html_path, len(current), len(archive))
