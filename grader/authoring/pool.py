"""Building the counterexample pool (grader/grading/shrink/pool.py describes it) with the reference:
the only other place besides regen.py that runs it, and only from `python -m grader regen`.

Why a precomputed pool rather than the reference in the grader: the grading side never
imports `reference/` (tests/kit/core/test_core.py) and the Gradescope autograder ships without it,
yet its results must carry the same counterexamples; a pool of public inputs with their
reference outputs is data like the public expected outputs, so it ships everywhere, and the
same submission always meets the same inputs. Every subset the search may try must have its
answer stored, so the search walks fixed nested chains (two per seed: rows first, or QIs
first) instead of arbitrary subsets: about 14 members per chain, each a reference run here.

Seeds, deterministic (numpy's generator seeded from sha256 of the function and seed number):
every public test dataset of tests/public/data that the function's public tests use, whole
(at most 12 rows and 3 QIs), and ADULT_SEEDS samples of 12 rows and 3 QIs of adult-hw1.csv
per argument set, with PARAMS' small k (a shrunk table keeps the public cases' rule, only k
fits its size). The pool is rebuilt only when its fingerprint (public inputs, reference and
core sources, BUILDER_VERSION) changed.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import numpy as np

from kanon.files import atomic_write_text, dump_json, sha256_bytes, sha256_file
from kanon.table import read_table

from ..contract import (ANONYMIZED_INPUT, OUTPUT_FILE, RAW_FILE, SIGNATURES, VARIANTS,
                        call_args, is_cost)
from ..paths import KIT_ROOT
from ..grading.shrink.pool import KIT_POOL, Chain, Member, Source, pool_key

BUILDER_VERSION = "1"
PUBLIC = KIT_ROOT / "tests" / "public" / "data"
ADULT = KIT_ROOT / "grader" / "cases" / "public" / "adult"
ADULT_SEEDS, SEED_ROWS, SEED_QIS = 4, 12, 3
PARAMS: dict[str, list[dict]] = {
    "random_anonymizer": [{"k": 2, "s": 7}, {"k": 3, "s": 42}],
    "bottomup_anonymizer": [{"k": 2, "l": 1}, {"k": 2, "l": 2}],
    "samarati": [{"k": 2, "max_sup": 0}, {"k": 2, "max_sup": 1}, {"k": 3, "max_sup": 2}],
    "t_closeness": [{"distance": "equal"}, {"distance": "ordered"}],
}
ANONYMIZED = {"cost_MD": ("levels.csv", "intervals.csv"), "cost_LM": ("levels.csv", "intervals.csv"),
              "entropy_l": ("classes.csv",), "t_closeness": ("classes.csv",)}


def targets() -> list[tuple[str, str | None]]:
    """Every (function, variant) a rubric may grade."""
    return [(f, None) for f in SIGNATURES] + [(f, v) for f, vs in VARIANTS.items() for v in vs]


def params(function: str) -> list[dict]:
    if function in PARAMS:
        return PARAMS[function]
    return [{}] if is_cost(function) else [{"k": 2}, {"k": 3}]


def _dgh_texts(folder: Path, header: list[str]) -> dict[str, str]:
    return {c: (folder / f"{c}.txt").read_text(encoding="utf-8") for c in header
            if (folder / f"{c}.txt").is_file()}


def _source(raw: Path, dghs: Path, label: str, anonymized: Path | None) -> Source:
    table = read_table(str(raw))
    rows = {n: r for n, r in enumerate(table.rows, start=1)}
    anon = None if anonymized is None else {
        n: r for n, r in enumerate(read_table(str(anonymized)).rows, start=1)}
    return Source(label, table.header, rows, _dgh_texts(dghs, table.header),
                  None if anonymized is None else anonymized.name, anon)


def public_sources(function: str, variant: str | None) -> list[tuple[str, Source]]:
    """(key, source) of the public test datasets the function's public tests use."""
    index = json.loads((PUBLIC / "index.json").read_text(encoding="utf-8"))
    who = f"{function}:{variant or 'default'}" if function in VARIANTS else function
    found = []
    for rel, users in sorted(index.items()):
        if who not in users or not rel.startswith("data/cases/"):
            continue
        folder = PUBLIC / rel.removeprefix("data/")
        anons = sorted(p for p in folder.glob("anon-*.csv")
                       if "not-ancestor" not in p.name and "outside" not in p.name)
        label = f"tests/public/{rel}/raw.csv"
        if is_cost(function):
            found += [(f"{folder.name}+{a.name}", _source(folder / "raw.csv", folder / "DGHs",
                                                           label, a)) for a in anons]
        else:
            found.append((folder.name, _source(folder / "raw.csv", folder / "DGHs", label, None)))
    return found


def adult_sources(function: str) -> list[tuple[str, Source]]:
    names = ANONYMIZED.get(function, (None,))
    return [(f"adult+{n}" if n else "adult",
             _source(ADULT / "adult-hw1.csv", ADULT / "DGHs", "adult-hw1.csv",
                     ADULT / "anonymized" / n if n else None)) for n in names]


def _rng(*parts: object) -> np.random.Generator:
    return np.random.default_rng(int(sha256_bytes(repr(parts).encode())[:12], 16))


def seeds(function: str, variant: str | None) -> list[tuple[str, tuple, tuple, dict]]:
    """(source key, rows, QIs, ints) of every seed, in search order: public test datasets,
    then adult samples."""
    out = []
    for key, source in public_sources(function, variant):
        for ints in params(function):
            out.append((key, tuple(source.rows), tuple(source.qis), ints))
    for key, source in adult_sources(function):
        for p, ints in enumerate(params(function)):
            for n in range(ADULT_SEEDS):
                rng = _rng(function, key, p, n)
                qis = sorted(rng.choice(len(source.qis), SEED_QIS, replace=False).tolist())
                rows = sorted(rng.choice(len(source.rows), SEED_ROWS, replace=False) + 1)
                out.append((key, tuple(int(r) for r in rows),
                            tuple(source.qis[q] for q in qis), ints))
    return out


def _chains(rows: tuple, qis: tuple, ints: dict, salt: tuple) -> list[list[tuple, tuple]]:
    """The two chains of (rows, QIs) from a seed: rows dropped one at a time (seeded order)
    down to k rows then QIs down to one; and QIs first, then rows."""
    least = max(ints.get("k", 1), 1)
    order = [rows[i] for i in _rng("rows", *salt).permutation(len(rows))]
    def drop_rows(start_qis: tuple) -> list:
        kept = list(rows)
        steps = []
        for r in order[:max(len(rows) - least, 0)]:
            kept.remove(r)
            steps.append((tuple(kept), start_qis))
        return steps
    def drop_qis(start_rows: tuple) -> list:
        return [(start_rows, qis[:j]) for j in range(len(qis) - 1, 0, -1)]
    rows_first = [(rows, qis)] + drop_rows(qis)
    rows_first += drop_qis(rows_first[-1][0])
    qis_first = [(rows, qis)] + drop_qis(rows)
    qis_first += drop_rows(qis_first[-1][1])
    return [rows_first, qis_first]


def _reference(function: str, variant: str | None):
    import reference
    return reference.VARIANTS[(function, variant)] if variant else getattr(reference, function)


def run_member(member: Member, function, name: str) -> object:
    """The reference's answer on a member (CSV text or a float); None when it raises."""
    with tempfile.TemporaryDirectory(prefix="kanon-pool-") as tmp:
        member.write(Path(tmp), RAW_FILE, ANONYMIZED_INPUT)
        cwd = os.getcwd()
        os.chdir(tmp)
        try:
            result = function(*call_args(name, member.ints))
        except (ValueError, FileNotFoundError):
            return None
        finally:
            os.chdir(cwd)
        if is_cost(name):
            return float(result)
        return (Path(tmp) / OUTPUT_FILE).read_text(encoding="utf-8")


def fingerprint() -> str:
    """What the pool depends on: the builder, the public inputs, the reference and the core
    (with kcheck, whose hierarchy reader the core uses)."""
    files = sorted([*PUBLIC.rglob("*"), *ADULT.rglob("*"), *(KIT_ROOT / "reference").rglob("*.py"),
                    *(KIT_ROOT / "kanon").rglob("*.py"), *(KIT_ROOT / "kcheck").rglob("*.py"),
                    Path(__file__)])
    parts = [f"{p.relative_to(KIT_ROOT).as_posix()}:{sha256_file(p)}" for p in files
             if p.is_file() and "__pycache__" not in p.parts]
    return sha256_bytes("\n".join([BUILDER_VERSION, *parts]).encode())[:24]


def _source_json(source: Source, used: set[int]) -> dict:
    data = {"label": source.label, "header": source.header, "dghs": source.dghs,
            "rows": {str(n): source.rows[n] for n in sorted(used)}}
    if source.anonymized is not None:
        data["anonymized_label"] = source.anonymized_label
        data["anonymized"] = {str(n): source.anonymized[n] for n in sorted(used)}
    return data


def build_function(function: str, variant: str | None, stamp: str) -> dict:
    """One function's pool file, as JSON-ready data."""
    reference = _reference(function, variant)
    sources = dict(public_sources(function, variant) + adult_sources(function))
    answers: dict[tuple, object] = {}
    chains, used = [], {}
    for n, (key, rows, qis, ints) in enumerate(seeds(function, variant)):
        for chain in _chains(rows, qis, ints, (function, key, n)):
            members = []
            for sub_rows, sub_qis in chain:
                ident = (key, sub_rows, sub_qis, tuple(sorted(ints.items())))
                if ident not in answers:
                    member = Member(sources[key], sub_rows, sub_qis, ints, None)
                    answers[ident] = run_member(member, reference, function)
                if answers[ident] is None:
                    break  # the reference refuses it (e.g. no l-diverse node): stop here
                members.append({"rows": list(sub_rows), "qis": list(sub_qis),
                                "expected": answers[ident]})
            if members:
                chains.append({"source": key, "ints": ints, "members": members})
                used.setdefault(key, set()).update(rows)
    return {"function": function, "variant": variant, "fingerprint": stamp,
            "sources": {k: _source_json(sources[k], used[k]) for k in sorted(used)},
            "chains": chains}


def fresh(folder: Path = KIT_POOL, stamp: str | None = None) -> bool:
    """Whether every pool file is there and built from today's inputs."""
    stamp = stamp or fingerprint()
    for function, variant in targets():
        path = folder / f"{pool_key(function, variant)}.json"
        try:
            if json.loads(path.read_text(encoding="utf-8")).get("fingerprint") != stamp:
                return False
        except (OSError, ValueError):
            return False
    return True


def build(folder: Path = KIT_POOL, force: bool = False) -> bool:
    """(Re)build the pool in `folder` unless it is fresh; True when it was built."""
    stamp = fingerprint()
    if not force and fresh(folder, stamp):
        return False
    for function, variant in targets():
        data = build_function(function, variant, stamp)
        atomic_write_text(folder / f"{pool_key(function, variant)}.json", dump_json(data))
    return True


__all__ = ["build", "fresh", "Chain"]
