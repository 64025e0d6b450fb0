"""The public counterexample pool a student bundle ships (tests/public/teach.py reads it): the
pool file (grader/grading/shrink/pool.py) of each part the course grades by exact answers,
under its rule variant, as `tests/public/data/counterexamples/<function>[~<variant>].json`.

Left out: parts judged by rules (`judge = "rules"`, their own pool under the course's
cases/counterexamples/rules/ stays with the grader), a course whose [data] is not the default
contract's (the pool's answers follow the default), and functions without a pool file. The
pool holds public inputs and the reference's answers on them only (grader/authoring/pool.py;
tests/kit/publishing/test_bundle_pool.py checks it against the hidden cases).
"""
from __future__ import annotations

from ..grading.shrink.pool import pool_folder, pool_key
from ..paths import PUBLIC_TESTS
from ..zipfiles import Entry

BUNDLE_POOL = f"{PUBLIC_TESTS}/data/counterexamples"


def pool_entries(rubric) -> list[Entry]:
    """The bundle's pool files for `rubric` (paths relative to the bundle folder)."""
    if not rubric.schema.is_default:
        return []
    folder = pool_folder(rubric.cases_dir)
    keys = sorted({pool_key(p.function, p.variant) for p in rubric.auto_parts
                   if p.judge != "rules"})
    return [Entry(f"{BUNDLE_POOL}/{key}.json", (folder / f"{key}.json").read_bytes())
            for key in keys if (folder / f"{key}.json").is_file()]


__all__ = ["BUNDLE_POOL", "pool_entries"]
