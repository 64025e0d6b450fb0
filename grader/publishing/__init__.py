"""Publishing: what leaves the course staff's hands, checked so that nothing secret
(reference code, hidden cases, the course's secret) reaches students.

  materials/  the course's HANDOUT.md and skeleton.py from section sources (`materials`)
  bundle      the students' zip (`bundle`): materials, public tests and data
  course_data  the dataset at a bundle's top level: the kit's, or the course's own
  course_files  the bundle's public tests' data cut to the course's parts (renamed data
              files too); their Python ships as it is
  rules_selfcheck  a rules-judged course's own self-check: cases from its public data
  own_selfcheck  a course's own functions' self-check: their public cases as data, kcheck/
  leaks       what must never be in a published zip
  pool_files  the public counterexample pool a bundle ships for the self-check
  student_readme  a non-English course's README.md and self-check catalog in the bundle
  languages   what each language still lacks (`languages`)
  gradescope  the Gradescope autograder zip (`gradescope`), verified after it is built
  autograde   what runs inside that autograder for each submission (grading + gradebook)
  templates/  the files both zips start from
  command_line  the `bundle`, `gradescope` and `materials` commands' parsers and runs (cheap
              to import: each run imports its builder)

Stands on every package below it (courses, authoring, grading, gradebook, the sandbox's
package list) and on grader.zipfiles for deterministic zips.
"""
__all__ = ["autograde", "bundle", "command_line", "course_data", "course_files", "gradescope",
           "languages", "leaks", "materials", "own_selfcheck", "pool_files", "rules_selfcheck",
           "student_readme"]
