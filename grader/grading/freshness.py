"""Whether the stored cases are up to date for some rubrics (`python -m grader check`, and
the Gradescope build's own check), in the cases folder's term."""
from __future__ import annotations

from kanon.files import sha256_file

from ..errors import UserError
from ..rubric import Rubric
from .expected import load_manifest, lookup
from .term_view import apply_term

__all__ = ["stale"]


def stale(rubrics: list[Rubric]) -> list[str]:
    """Why the stored cases are not up to date for `rubrics`, as graded in the cases
    folder's term (empty when they are)."""
    problems: list[str] = []
    for rubric in map(apply_term, rubrics):
        cases_dir = rubric.cases_dir
        manifest = load_manifest(cases_dir)
        for rel, digest in manifest.get("files", {}).items():
            path = cases_dir / rel
            if not path.is_file() or sha256_file(path) != digest:
                problems.append(f"{path}: differs from the manifest")
        for case in rubric.cases():
            try:
                lookup(case, cases_dir, manifest)
            except UserError as e:
                problems.append(str(e))
    return problems
