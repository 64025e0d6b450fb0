"""Courses: a course is a folder outside the kit (course.toml with the rubric and term, a
secret, its hidden cases), kept in the course's private repository.

Modules: `folder` (reading a course folder: Course, load_course, resolve), `secret` (the key
and the term seeds), `create` (`course new`), `redraw` (`regen --course`), `checks` (ready
to grade?), `fingerprint` (one per course term), `against` (`check --against`), `solution`
(the known-good solution module), `option` (`--course` on every command), `command` (the
`course` and `solution` commands). Nothing here writes inside the kit.
"""
__all__ = ["folder", "secret", "create", "redraw", "checks", "fingerprint", "against",
           "solution", "option", "command"]
