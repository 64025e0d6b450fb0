"""`python -m grader regen` and `check`: a course's cases (--course DIR), or the kit's own
example rubrics' (--rubric, the public demos), drawn, recomputed and checked; `check
--against` compares a built zip or a graded folder with the course's fingerprint."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import UserError
from ..paths import KIT_ROOT
from ..language import describe
from ..prog import prog_name


def _rubrics(paths: list[Path] | None):
    """The given rubrics; by default the built-in one, the Fall 2025 one and the optional
    parts' template (grader/rubric-2025.toml, rubric-optional.toml) and, in a checkout, the
    examples'."""
    from .. import rubric as rubric_mod
    if not paths:
        paths = [rubric_mod.DEFAULT_RUBRIC]
        for extra in (rubric_mod.DEFAULT_RUBRIC.with_name("rubric-2025.toml"),
                      rubric_mod.DEFAULT_RUBRIC.with_name("rubric-optional.toml"),
                      rubric_mod.DEFAULT_RUBRIC.with_name("rubric-all.toml"),
                      KIT_ROOT / "examples" / "rubric.toml"):
            if extra.is_file():
                paths.append(extra)
    return [rubric_mod.load(p) for p in paths]


def regen(args: argparse.Namespace) -> int:
    from .. import rubric as rubric_mod
    from ..authoring.course_file import write_course_file
    from ..authoring.regen import regenerate
    if args.course is not None:
        if args.rubric:
            raise UserError("give --course or --rubric, not both (a course folder holds its "
                            "rubric)")
        return _regen_course(args)
    rubrics = _rubrics(args.rubric)
    manifest = regenerate(rubrics, KIT_ROOT, datasets=not args.keep_datasets, term=args.term)
    if rubrics[0].path == rubric_mod.DEFAULT_RUBRIC.resolve():  # the students' copy of its rules
        write_course_file(rubrics[0], KIT_ROOT)
    term = manifest.get("term")
    print(f"{len(manifest['entries'])} expected outputs, {len(manifest['files'])} dataset "
          f"files" + (f"; term {term['name']}" if term else "; the default term"),
          file=sys.stderr)
    return 0


def _regen_course(args: argparse.Namespace) -> int:
    from ..grading.fingerprint import fingerprint
    from .folder import load_course
    from .redraw import redraw
    from ..grading.term_view import apply_term
    course = load_course(args.course)
    if course.public_demo and course.rubric.cases_dir.is_relative_to(course.folder):
        return _regen_own_demo(course, args)
    if course.public_demo:
        if args.term is not None:
            raise UserError(f"{course.file}: a public demo course has no secret to draw a term "
                            f"with; make a course of your own with `{prog_name()} course new "
                            f"DIR --from default --term NAME`")
        args.course = None
        return regen(args)
    manifest = redraw(course, args.term, args.keep_datasets)
    course = load_course(args.course)
    found = fingerprint(apply_term(course.rubric))
    print(f"{course.folder}: term {course.term!r}, {len(manifest['entries'])} expected "
          f"outputs, {len(manifest['files'])} hidden dataset files; fingerprint "
          f"{found['fingerprint']}", file=sys.stderr)
    return 0


def _regen_own_demo(course, args: argparse.Namespace) -> int:
    """A public demo that keeps its data and cases in its own folder (courses/ustc): its
    datasets are committed (made by reference.data), so only the expected outputs are
    recomputed."""
    from ..authoring.regen import regenerate
    if args.term is not None:
        from .checks import origin_name
        raise UserError(f"{course.file}: a public demo course has no secret to draw a term "
                        f"with; make a private copy with `{prog_name()} course new "
                        f"DIR --from {origin_name(course.folder)} --term NAME` (it draws its "
                        f"hidden datasets from the course's data model)")
    manifest = regenerate([course.rubric], KIT_ROOT, datasets=False, public=False)
    print(f"{course.folder}: {len(manifest['entries'])} expected outputs, "
          f"{len(manifest['files'])} dataset files", file=sys.stderr)
    return 0


def check(args: argparse.Namespace) -> int:
    from ..grading.freshness import stale
    if args.course is not None:
        if args.rubric:
            raise UserError("give --course or --rubric, not both")
        return _check_course(args)
    if args.against is not None:
        raise UserError("--against needs --course DIR (the course to compare with)")
    rubrics = _rubrics(args.rubric)
    problems = stale(rubrics)
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        return 1
    cases = sum(len(list(r.cases())) for r in rubrics)
    print(f"ok: the expected outputs of all {cases} cases of {len(rubrics)} rubric(s) are "
          f"fresh", file=sys.stderr)
    return 0


def _check_course(args: argparse.Namespace) -> int:
    from .against import compare, rebuild_command
    from .checks import problems
    from ..grading.fingerprint import fingerprint
    from .folder import load_course
    from ..grading.freshness import stale
    from ..grading.term_view import apply_term
    from .checks import with_fix
    course = load_course(args.course)
    found = problems(course) if not course.public_demo else with_fix(
        stale([course.rubric]), course.command("regen"))
    found += _stale_rules_pool(course)
    for p in found:
        print(p, file=sys.stderr)
    if found:
        return 1
    ours = fingerprint(apply_term(course.rubric))
    if args.against is not None:
        different = compare(ours, args.against)
        if different:
            print(f"{args.against} does not belong to course {course.folder} as it is now "
                  f"(fingerprint {ours['fingerprint']}):", file=sys.stderr)
            for line in different:
                print(f"  {line}", file=sys.stderr)
            again = rebuild_command(args.course, args.against)
            print(f"build it again from the course: {again}", file=sys.stderr)
            return 1
    print(f"ok: course {course.folder}, term {course.term or 'default'}, language "
          f"{describe(course.language)}: all "
          f"{len(course.rubric.cases())} cases fresh; fingerprint {ours['fingerprint']}"
          + (f"; {args.against} belongs to it" if args.against is not None else ""),
          file=sys.stderr)
    return 0


def _stale_rules_pool(course) -> list[str]:
    """The rule-judged parts whose counterexample pool is missing or stale."""
    from ..authoring.rules_pool import fresh
    return [f"{course.folder}: the counterexample pool of part {key!r} is missing or stale; "
            f"run `{prog_name()} regen --course {course.folder}`" for key in fresh(course.rubric)]


def require_same_term(course_dir: Path, graded: Path) -> None:
    """UserError unless the graded folder's fingerprint is the course's current one."""
    from .against import compare, rebuild_command
    from ..grading.fingerprint import fingerprint
    from .folder import resolve
    from ..grading.term_view import apply_term
    rubric, _ = resolve(course_dir)
    different = compare(fingerprint(apply_term(rubric)), graded)
    if different:
        raise UserError(f"{graded} was not graded with course {course_dir} as it is now "
                        f"({different[0]}); grade it again: "
                        f"{rebuild_command(course_dir, graded)}")
