"""The public counterexample pool a student bundle ships (tests/public/teach.py reads it): the
pool file (grader/grading/shrink/pool.py) of each part the course grades by exact answers,
under its rule variant, as `tests/public/data/counterexamples/<function>[~<variant>].json`.

A part judged by rules (`judge = "rules"`) that the rules self-check covers
(rules_selfcheck.rule_parts) ships its course's own pool instead (cases/counterexamples/rules/
<part>.json, made from the course's public data: grader/authoring/rules_pool.py) as
`tests/public/data/counterexamples/rules/<part>.json` (tests/public/teach_rules.py reads it).
Left out: a course whose [data] is not the default contract's (the kit's pool's answers follow
the default), and functions without a pool file. The
pool holds public inputs and the reference's answers on them only (grader/authoring/pool.py;
tests/kit/publishing/test_bundle_pool.py checks it against the hidden cases).
"""
from __future__ import annotations

from ..grading.shrink.pool import pool_folder, pool_key
from ..grading.shrink.rules_search import RULES_DIR, rules_folder
from ..paths import PUBLIC_TESTS
from ..zipfiles import Entry
from .rules_selfcheck import rule_parts

BUNDLE_POOL = f"{PUBLIC_TESTS}/data/counterexamples"


def pool_entries(rubric) -> list[Entry]:
    """The bundle's pool files for `rubric` (paths relative to the bundle folder)."""
    rules = rules_folder(rubric.cases_dir)
    own = [Entry(f"{BUNDLE_POOL}/{RULES_DIR}/{p.key}.json",
                 (rules / f"{p.key}.json").read_bytes())
           for p in rule_parts(rubric) if (rules / f"{p.key}.json").is_file()]
    if not rubric.schema.is_default:
        return own
    folder = pool_folder(rubric.cases_dir)
    keys = sorted({pool_key(p.function, p.variant) for p in rubric.auto_parts
                   if p.judge != "rules"})
    return own + [Entry(f"{BUNDLE_POOL}/{key}.json", (folder / f"{key}.json").read_bytes())
                  for key in keys if (folder / f"{key}.json").is_file()]


__all__ = ["BUNDLE_POOL", "pool_entries"]
