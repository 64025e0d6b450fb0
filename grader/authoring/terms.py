"""Terms: fresh hidden cases for each term of a course (a course folder, grader/courses).

    python -m grader regen --course DIR --term "Fall 2026"

Seed. Everything a term draws comes from HMAC-SHA256(KEY, b"kanon-kit term\\0" + NAME +
b"\\0" + WHAT) (grader/courses/secret.py), KEY the course's secret, NAME in UTF-8 after
Unicode NFC normalization and WHAT naming the draw ("rows:ties", "data:ties", "case:<case
identity>"); the first 8 bytes, big-endian, seed Python's random.Random (Mersenne Twister).
So a course's term gives the same bytes on every machine and Python version (Python's hash()
is never used), each draw is independent of the others, and without the course's secret the
draws cannot be made again.

What a term changes (grader/authoring/casegen.py states the sizes): every hidden dataset gets
new rows, and its size n is drawn within +-20% of the default (ties: 34..40 rows); the
hierarchies (structures) and public/adult never change. A hidden case's integer arguments
follow its dataset (n0 the default size, n the term's):

    expect = "..." cases, k = 1, and cost cases      unchanged
    k > n0 // 2 (k close to n: "k=n=31", k=35, n=36)  k' = n - (n0 - k), the same gap to n
    6 < k <= n0 // 2 ("ties, k=17 (two ECs)")         k' drawn with n // k' == n0 // k
    2 <= k <= 6 (small k)                              k' drawn in [max(2, k-1), k+1]

A drawn k' also keeps whether n is a multiple of k ("n not a multiple of k") when some k' in
its range can; l, s and max_sup never change. Names follow (grader/grading/term_view.py):
"k=5 (n=53)" is shown as "k=4 (n=61)". A name's claim "(suppression decides)" is checked
by regen with the reference (the output with max_sup differs from the one with max_sup = 0);
when the drawn k' breaks it (or its rendered name is already taken in its rubric), regen
tries the rest of the range, then for a small k every other k' in [2, 2k], ascending; when
none holds, regen stops with an error asking for another term name.
"""
from __future__ import annotations

import hashlib
import hmac
import random
import unicodedata

from ..errors import UserError
from ..grading.term_view import case_ident
from ..rubric import Case
from .casegen import HIDDEN, Draw

MAX_NAME = 64
SMALL_K = 6


def term_seed(key: bytes, term: str, what: str) -> int:
    """The 64-bit seed of draw `what` of term `term` in the course with `key`: the first 8
    bytes, big-endian, of HMAC-SHA256(key, b"kanon-kit term\\0" + term + b"\\0" + what)."""
    message = b"kanon-kit term\0" + term.encode("utf-8") + b"\0" + what.encode("utf-8")
    return int.from_bytes(hmac.new(key, message, hashlib.sha256).digest()[:8], "big")


def check_name(name: object, where: str = "--term") -> str:
    """The term's name, NFC-normalized; UserError (naming `where`) when it is not a string,
    empty, too long, has leading or trailing spaces, control or unprintable characters or a
    path separator."""
    if not isinstance(name, str):
        raise UserError(f"{where}: expected the term's name as a string, got {name!r}")
    if not name.strip():
        raise UserError(f"{where} {name!r}: the term's name is empty")
    bad = next((c for c in name if not c.isprintable()), None)
    if bad is not None:
        raise UserError(f"{where} {name!r}: contains a control or unprintable character "
                        f"(U+{ord(bad):04X}); use letters, digits, spaces and punctuation")
    if "/" in name or "\\" in name:
        raise UserError(f"{where} {name!r}: must not contain a path separator (/ or \\)")
    if name != name.strip():
        raise UserError(f"{where} {name!r}: has leading or trailing spaces")
    if len(name) > MAX_NAME:
        raise UserError(f"{where}: the name has {len(name)} characters; at most {MAX_NAME}")
    return unicodedata.normalize("NFC", name)


def draws(name: str, key: bytes) -> dict[str, Draw]:
    """Each hidden dataset's draw in term `name` of the course with `key` (casegen.generate's
    `draws`)."""
    result = {}
    for dataset, (_, _, (lo, hi)) in HIDDEN.items():
        rows = random.Random(term_seed(key, name, f"rows:{dataset}")).randint(lo, hi)
        result[dataset] = Draw(term_seed(key, name, f"data:{dataset}"), rows, fresh=True)
    return result


def record(name: str, key: bytes) -> dict:
    """The manifest's `term` before its cases are chosen: name, seed (hex: the term's own
    draw, which reveals nothing of the key) and rows per dataset folder."""
    return {"name": name, "seed": f"{term_seed(key, name, 'term'):016x}",
            "rows": {f"hidden/{d}": draw.rows for d, draw in draws(name, key).items()},
            "cases": {}}


def default_rows(data: str) -> int | None:
    """The default size of a hidden dataset folder ("hidden/ties" -> 36), None for others."""
    entry = HIDDEN.get(data.removeprefix("hidden/")) if data.startswith("hidden/") else None
    return entry[1].rows if entry else None


def _pool(k: int, n0: int, n: int) -> list[int]:
    """The k's a term may use for a rubric's k on a dataset of n0 (default) and n rows."""
    if k > n0 // 2:
        return [n - (n0 - k)]
    if k > SMALL_K:
        span = [j for j in range(SMALL_K + 1, n + 1) if n // j == n0 // k]
    else:
        span = list(range(max(2, k - 1), k + 2))
    same = [j for j in span if (n % j == 0) == (n0 % k == 0)]
    return same or span


def candidates(name: str, key: bytes, case: Case, n: int) -> list[dict]:
    """The case's integer arguments in term `name` (course `key`) on a dataset of n rows, in
    the order regen tries them: the drawn one first, then the rest of the range ascending."""
    n0 = default_rows(case.data)
    k = case.ints.get("k")
    if case.expect or n0 is None or not isinstance(k, int) or k == 1:
        return [dict(case.ints)]
    pool = _pool(k, n0, n)
    first = random.Random(term_seed(key, name, f"case:{case_ident(case)}")).choice(pool)
    wider = range(2, 2 * k + 1) if k <= SMALL_K else range(0)
    order = [first] + [j for j in pool if j != first] + [j for j in wider if j not in pool]
    return [{**case.ints, "k": j} for j in order]
