"""Courses: a course is a folder outside the kit (course.toml with the rubric and term, a
secret, its hidden cases), kept in the course's private repository.

Modules: `folder` (reading a course folder: Course, load_course, resolve), `secret` (the key,
and refusing to publish it; the term seeds are grader.authoring.terms.term_seed), `create`
(`course new`), `origins` (the example courses `--from` names), `redraw` (`regen --course`), `checks` (ready to grade?), `against` (`check
--against`, comparing grader.grading.fingerprint's fingerprints), `solution` (the known-good
solution module), `option` (`--course` on every command), `upkeep` (the `regen` and `check`
commands), `command` (the `course` and `solution` commands). Nothing here writes inside the
kit. Stands on authoring, grading and the core.
"""
__all__ = ["against", "checks", "command", "create", "folder", "option", "origins", "redraw",
           "secret", "solution", "upkeep"]
