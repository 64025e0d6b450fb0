"""Validity and privacy checks of an anonymizer's output file (HANDOUT.md, "Files" and the five anonymizers' sections).

`check_output(...)` returns None when the output is valid, else a message naming the first
violation (row numbers are 1-based data rows, as in the contract). Hierarchies and datasets
are read with the independent oracle's readers, never with the reference's.
"""
from __future__ import annotations

import itertools
import os

import oracle


def _interval_ok(p: oracle.Problem, c: int, raw: str, cell: str) -> bool:
    interval = oracle.parse_interval(cell)
    if interval is None:
        return False
    lo, hi = interval
    return lo < hi and lo <= float(raw) <= hi


def check_output(raw_file: str, out_file: str, dgh_folder: str, *, k: int,
                 l: int | None = None, max_sup: int | None = None, intervals: bool = False,
                 minimal: bool = False, full_domain: bool = False) -> str | None:
    """Check one output file against its raw file.

    Always: header unchanged, same number of rows, non-QI cells unchanged (so rows are in
    order), every QI cell an ancestor-or-self of its raw cell (or, with `intervals`, a valid
    `[lo-hi]` of a numeric QI), every EC at least k rows.
    `max_sup`: ECs of fewer than k rows are allowed only when all their QI cells are roots,
    at most max_sup such suppressed rows (Samarati).
    `l`: every EC has at least l distinct sensitive values.
    `minimal`: every EC's cell is the LCA of its raw values (for a numeric QI with
    `intervals`: `[min-max]` of its raw strings, or the raw value when min = max).
    `full_domain`: one lattice vector explains every non-suppressed row (bottom-up, Samarati).
    """
    if not os.path.isfile(out_file):
        return f"no output file {out_file}"
    p = oracle.Problem(raw_file, dgh_folder)
    header, rows = oracle.read_dataset(out_file)
    if header != p.header:
        return f"header changed: {header} != {p.header}"
    if len(rows) != p.n:
        return f"{len(rows)} output rows for {p.n} raw rows"
    for i, (raw, out) in enumerate(zip(p.rows, rows), start=1):
        for c in range(len(header)):
            if c in p.others and out[c] != raw[c]:
                return f"row {i}, non-QI column {header[c]!r}: {out[c]!r} != raw {raw[c]!r}"
            if c in p.qi:
                h = p.h[c]
                if out[c] in h.parent:
                    if not h.is_ancestor_or_self(out[c], raw[c]):
                        return (f"row {i}, column {header[c]!r}: {out[c]!r} is not an "
                                f"ancestor-or-self of {raw[c]!r}")
                elif not (intervals and p.is_numeric(c) and _interval_ok(p, c, raw[c], out[c])):
                    return f"row {i}, column {header[c]!r}: {out[c]!r} is not a generalization " \
                           f"of {raw[c]!r}"
    classes = oracle.equivalence_classes(p, rows)
    roots = tuple(p.h[c].root for c in p.qi)
    suppressed = 0
    for key, members in classes.items():
        if len(members) < k:
            if max_sup is None or key != roots:
                return f"EC {dict(zip(p.qi, key))} has {len(members)} < k = {k} rows " \
                       f"(rows {[i + 1 for i in members]})"
            suppressed += len(members)
    if max_sup is not None and suppressed > max_sup:
        return f"{suppressed} suppressed rows > max_sup = {max_sup}"
    if l is not None:
        s = p.sensitive()
        for key, members in classes.items():
            values = {p.rows[i][s] for i in members}
            if len(values) < l:
                return f"EC of rows {[i + 1 for i in members]} has {len(values)} < l = {l} " \
                       f"distinct sensitive values"
    if minimal:
        message = _check_minimal(p, rows, classes, intervals)
        if message:
            return message
    if full_domain:
        message = _check_full_domain(p, rows, max_sup or 0)
        if message:
            return message
    return None


def _check_minimal(p: oracle.Problem, rows, classes, intervals: bool) -> str | None:
    for members in classes.values():
        for c in p.qi:
            values = [p.rows[i][c] for i in members]
            if intervals and p.is_numeric(c):
                lo, hi = min(values, key=float), max(values, key=float)
                want = lo if float(lo) == float(hi) else f"[{lo}-{hi}]"
            else:
                want = p.h[c].lca(values)
            got = rows[members[0]][c]
            if got != want:
                return f"EC of rows {[i + 1 for i in members]}, column {p.header[c]!r}: " \
                       f"{got!r} is not the minimal generalization {want!r}"
    return None


def _check_full_domain(p: oracle.Problem, rows, max_sup: int) -> str | None:
    """Some vector s gives every row either up(raw, s) or (at most max_sup rows) all roots."""
    roots = [p.h[c].root for c in p.qi]
    all_root = [all(row[c] == r for c, r in zip(p.qi, roots)) for row in rows]
    options = []
    for c in p.qi:
        h = p.h[c]
        ok = [s for s in range(h.height() + 1)
              if all(h.up(p.rows[i][c], s) == rows[i][c]
                     for i in range(p.n) if not all_root[i])]
        if not ok:
            return f"column {p.header[c]!r}: no single generalization height explains the output"
        options.append(ok)
    for vector in itertools.product(*options):
        extra = sum(1 for i in range(p.n) if all_root[i] and any(
            p.h[c].up(p.rows[i][c], s) != r for c, s, r in zip(p.qi, vector, roots)))
        if extra <= max_sup:
            return None
    return "no lattice vector explains the output within max_sup suppressed rows"
