"""The gradebook and the staff's reports, from a batch's records (grader.grading writes only
the records; this package writes everything people read and LMSs import).

  writer           Gradebook: the batch's Reports (feedback and results.json per student as
                   soon as graded; the class files once all are)
  export           the files of a graded folder: grades.csv, feedback/<id>.md, results.json
                   (Gradescope), summary.md/.json, timings.csv, manual-template.csv
  case_text        how one case's result reads (a hidden case: its verdict only)
  notes_text       a record's notes in the course's language (from their data)
  counterexample   a part's counterexample in the feedback and Gradescope's text, and its
                   files under feedback/<id>/counterexamples (from the record's entry)
  shares           Gradescope's per-test max scores (exact binary fractions adding up to
                   the parts' points)
  dashboard        summary.html, the class dashboard (redrawn from the folder's own files)
  lms              `export --format canvas|moodle|gradescope`: the grades CSV an LMS imports
  feedback_export  `export --feedback ZIP`: feedback pages in the zip layout the LMS takes
  markdown_html    the small, safe Markdown-to-HTML renderer of those pages
  export_command   the `export` command
  scores_csv       reading the staff's scores of the manual parts
  merge            those scores into a graded folder
  merge_command    the `merge` command (its parser cheap to import: merge is imported when
                   it runs)

Every file is written atomically with deterministic bytes. Imports grading, courses and the
core; nothing of similarity or publishing.
"""
__all__ = ["case_text", "counterexample", "dashboard", "export", "export_command",
           "feedback_export", "lms", "markdown_html", "merge", "merge_command", "notes_text",
           "scores_csv", "shares", "writer"]
