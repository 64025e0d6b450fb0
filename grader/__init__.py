"""The kit's sandboxed grader: grade a class's submissions against a course's rubric.

Commands (`python -m grader COMMAND --help` for each):

    course new DIR --from default|fall2025|all|examples|RUBRIC|COURSE --term NAME
                   [--language en|zh-CN]
    grade SUBMISSIONS --course DIR --out OUT [--jobs N] [--cluster ADDRESS] [--sandbox ...]
    check --course DIR [--against ZIP|OUT]
    regen --course DIR [--term NAME]          (without --course: the kit's demo cases)
    materials --course DIR --out PREVIEW
    bundle --course DIR --out student.zip
    gradescope --course DIR --out autograder.zip
    solution --course DIR --out solution.py
    merge OUT --manual scores.csv --course DIR
    export OUT --format canvas|moodle|gradescope [--roster CSV] [--out FILE] [--feedback ZIP]
    similarity SUBMISSIONS --out pairs.csv [--archive DIR ...]
    languages [--language zh-CN]              (what a language still lacks)

`--rubric FILE` still takes the kit's example rubrics (public demos).

The packages, lowest first; each imports only its own modules and those below it (the
hygiene test checks it):

  core        this folder's modules: errors, paths, prog (the program's name), contract (the
              graded functions' signatures and files), imports, settings (the rubric's
              validated [settings]), rubric (with rubric_types: its records, rubric_data:
              the [data] table, rubric_model: the data model and its hidden draws, and
              rubric_manual: staff-graded parts), language (the
              languages a course can be in), catalogs (gettext message catalogs), zipfiles
              (deterministic zips); parts/ (a graded part's contract, the kit's library of
              functions, a course's own declared ones, the judges' names)
  sandbox     running untrusted code in a child process; knows nothing of grading
  grading     one submission and a batch of them (executors/: threads or Dask; shrink/:
              counterexamples); writes records only
  authoring   cases and expected outputs, with the reference
  courses     a course folder: rubric, term, secret, cases; course, regen, check, solution
  gradebook   grades.csv, feedback, summary, dashboard, LMS exports, manual scores (merge)
  similarity  similar pairs of submissions, for a TA to look at
  publishing  the student bundle, materials, the Gradescope autograder (and autograde,
              what runs inside it)
  commands    the commands that join packages (grade)
  cli         cli.py parses and calls (__main__ runs it)

The version is part of the resume cache's key (with a hash of the grader's own sources), so
results cached by an older grader are never reused.
"""
__version__ = "1.0.0"
