"""The commands that join several packages, above them all (only grader.cli stands on this).

Modules: `grade` (`python -m grader grade`: a course's batch, graded by grader.grading and
written by grader.gradebook; `grade_class` is the same from Python). Every other command
lives with its package: courses (course, regen, check, solution), gradebook (export, merge),
similarity, publishing (materials, bundle, gradescope).
"""
__all__ = ["grade"]
