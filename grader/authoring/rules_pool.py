"""Building a course's counterexample pool for its rule-judged parts (`judge = "rules"`, the
USTC lab's Samarati and Mondrian) with the reference, from the course's PUBLIC data only.

The kit's pool (pool.py) answers by the default contract; a course with a schema (kanon/
schema.py) releases other columns, deletes suppressed records and writes its hierarchies in
its own format, and each of its parts has its own QIs. So such a course gets a pool of its own,
one file per rule-judged part, `<cases_dir>/counterexamples/rules/<part key>.json`, in the
kit's pool format (grader/grading/shrink/pool.py): sources are the datasets of the part's
public cases (never one a hidden case reads), restricted to the released columns (the part's
QIs and the sensitive column) and one column that is not released (the raw file's first: an
output that releases it breaks "columns"), with the part's hierarchies as the course writes
them; seeds of SEED_ROWS rows and at most SEED_QIS of the part's QIs, and of each QI alone (a
QI never generalized or never cut shows alone), for pool.py's PARAMS' small k, each the head
of pool.py's two chains; every member's `expected` is the reference's answer under the
course's schema: ONE right answer, shown beside the student's (the search judges by the
rules, grader/grading/shrink/rules_search.py). A part's file is rebuilt only when its
fingerprint (the part, the schema, its public data, the reference and core sources, this
builder, BUILDER_VERSION) changed.
"""
from __future__ import annotations

from functools import partial
from pathlib import Path

from kanon.files import atomic_write_text, dump_json, sha256_bytes, sha256_file
from kanon.table import read_table

from ..contract import DGH_DIR, RAW_FILE
from ..grading.expected import data_folder
from ..grading.shrink.pool import Member, Source
from ..grading.shrink.rules_search import RULES_DIR, rules_folder
from ..paths import KIT_ROOT
from .pool import _chains, _rng, _source_json, params, run_member

BUILDER_VERSION = "2"
SEEDS, SEED_ROWS, SEED_QIS = 4, 12, 3

__all__ = ["build", "fresh", "rule_parts", "RULES_DIR"]


def rule_parts(rubric) -> list:
    """The rubric's parts judged by rules, in rubric order."""
    return [p for p in rubric.auto_parts if p.judge == "rules"]


def public_data(rubric, part) -> list[str]:
    """The datasets (`data` of the rubric's cases) the part's public cases use, less any
    that a hidden case of the rubric reads."""
    hidden = {c.data for c in rubric.cases() if c.hidden}
    return sorted({c.data for c in part.cases if not c.hidden and not c.expect} - hidden)


def _source(rubric, part, data: str) -> Source:
    """The public dataset `data` restricted to the part's released columns and the first
    column that is not released, with the part's hierarchy texts."""
    folder = data_folder(rubric.cases_dir, data)
    table = read_table(str(folder / RAW_FILE))
    dghs = {p.stem: p for p in sorted((folder / DGH_DIR).glob("*.txt"))}
    qis = [c for c in table.header if c in dghs and (part.qis is None or c in part.qis)]
    schema = part.cases[0].schema
    keep = schema.released(table.header, [table.header.index(q) for q in qis], str(folder))
    dropped = [c for c in range(len(table.header)) if c not in keep]
    keep = sorted(keep + dropped[:1])
    header = [table.header[c] for c in keep]
    rows = {n: [row[c] for c in keep] for n, row in enumerate(table.rows, start=1)}
    texts = {q: dghs[q].read_text(encoding="utf-8") for q in qis}
    return Source(RAW_FILE, header, rows, texts)


def seeds(part, key: str, source: Source) -> list[tuple[str, tuple, tuple, dict]]:
    """(source key, rows, QIs, ints) of every seed of the part: SEEDS samples per argument
    set, of SEED_ROWS rows and at most SEED_QIS QIs (in column order), then one per QI alone
    (the rows of the first sample)."""
    out, alone = [], []
    width = min(SEED_QIS, len(source.qis))
    for p, ints in enumerate(params(part.function)):
        for n in range(SEEDS):
            rng = _rng("rules", part.key, key, p, n)
            qis = sorted(rng.choice(len(source.qis), width, replace=False).tolist())
            rows = tuple(int(r) for r in sorted(rng.choice(len(source.rows), SEED_ROWS,
                                                           replace=False) + 1))
            out.append((key, rows, tuple(source.qis[q] for q in qis), ints))
            if n == 0:
                alone += [(key, rows, (qi,), ints) for qi in source.qis]
    return out + alone


def fingerprint(rubric, part) -> str:
    """What a part's pool depends on."""
    case = part.cases[0]
    files: list[tuple[str, Path]] = []
    for d in public_data(rubric, part):
        folder = data_folder(rubric.cases_dir, d)
        files += [(f"{d}/{p.relative_to(folder).as_posix()}", p)
                  for p in [folder / RAW_FILE, *sorted((folder / DGH_DIR).glob("*.txt"))]]
    code = sorted([*(KIT_ROOT / "reference").rglob("*.py"), *(KIT_ROOT / "kanon").rglob("*.py"),
                   *(KIT_ROOT / "kcheck").rglob("*.py"), Path(__file__),
                   Path(__file__).with_name("pool.py")])
    files += [(p.relative_to(KIT_ROOT).as_posix(), p) for p in code
              if "__pycache__" not in p.parts]
    parts = [BUILDER_VERSION, part.key, part.function, repr(part.qis),
             repr(sorted(case.schema.changes().items()))]
    parts += [f"{label}:{sha256_file(p)}" for label, p in files if p.is_file()]
    return sha256_bytes("\n".join(parts).encode())[:24]


def build_part(rubric, part, stamp: str) -> dict:
    """One part's pool file, as JSON-ready data."""
    import reference
    schema = part.cases[0].schema
    function = partial(getattr(reference, part.function), schema=schema)
    sources = {d: _source(rubric, part, d) for d in public_data(rubric, part)}
    answers: dict[tuple, object] = {}
    chains, used = [], {}
    for key, source in sources.items():
        for n, (_, rows, qis, ints) in enumerate(seeds(part, key, source)):
            for chain in _chains(rows, qis, ints, ("rules", part.key, key, n)):
                members = []
                for sub_rows, sub_qis in chain:
                    ident = (sub_rows, sub_qis, tuple(sorted(ints.items())))
                    if ident not in answers:
                        member = Member(source, sub_rows, sub_qis, ints, None)
                        answers[ident] = run_member(member, function, part.function)
                    if answers[ident] is None:
                        break  # the reference refuses it (e.g. n < k): stop here
                    members.append({"rows": list(sub_rows), "qis": list(sub_qis),
                                    "expected": answers[ident]})
                if members:
                    chains.append({"source": key, "ints": ints, "members": members})
                    used.setdefault(key, set()).update(rows)
    return {"part": part.key, "function": part.function, "variant": None,
            "judge": "rules", "schema": schema.changes(), "fingerprint": stamp,
            "sources": {k: _source_json(sources[k], used[k]) for k in sorted(used)},
            "chains": chains}


def _stamp_of(path: Path) -> str | None:
    import json
    try:
        return json.loads(path.read_text(encoding="utf-8")).get("fingerprint")
    except (OSError, ValueError):
        return None


def fresh(rubric) -> list[str]:
    """The rule-judged parts of `rubric` whose pool file is missing or stale ([]: fresh)."""
    folder = rules_folder(rubric.cases_dir)
    return [p.key for p in rule_parts(rubric)
            if _stamp_of(folder / f"{p.key}.json") != fingerprint(rubric, p)]


def build(rubrics: list, force: bool = False) -> list[str]:
    """(Re)build the pool of every rule-judged part of `rubrics` that is not fresh (and drop
    the files of parts no rubric has); returns the parts built."""
    built, kept = [], {}
    for rubric in rubrics:
        folder = rules_folder(rubric.cases_dir)
        for part in rule_parts(rubric):
            kept.setdefault(folder, set()).add(f"{part.key}.json")
            stamp = fingerprint(rubric, part)
            path = folder / f"{part.key}.json"
            if force or _stamp_of(path) != stamp:
                atomic_write_text(path, dump_json(build_part(rubric, part, stamp)))
                built.append(part.key)
    for rubric in rubrics:
        folder = rules_folder(rubric.cases_dir)
        for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
            if path.name not in kept.get(folder, set()):
                path.unlink()
    return built
