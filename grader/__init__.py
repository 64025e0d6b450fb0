"""The kit's sandboxed grader: grade a class's submissions against a course's rubric.

    python -m grader course new DIR --from default|fall2025|all|examples|RUBRIC --term NAME
    python -m grader grade SUBMISSIONS --course DIR --out OUT [--jobs N] [--cluster ADDRESS]
    python -m grader check --course DIR [--against ZIP|OUT]
    python -m grader regen --course DIR [--term NAME]     (or the kit's demos: regen)
    python -m grader materials --course DIR --out PREVIEW
    python -m grader bundle --course DIR --out student.zip
    python -m grader gradescope --course DIR --out autograder.zip
    python -m grader solution --course DIR --out solution.py
    python -m grader merge OUT --manual scores.csv --course DIR
    python -m grader export OUT --format canvas|moodle|gradescope [--roster CSV] [--out FILE]
          [--feedback ZIP]
    python -m grader similarity SUBMISSIONS --out pairs.csv

Packages: courses (a course folder: rubric, term, secret, cases, fingerprint), authoring
(cases and expected outputs, with the reference), grading (one submission and a batch),
sandbox (running student code; knows nothing of grading), shrink (counterexamples),
publishing (bundle, materials, Gradescope). `--rubric FILE` still takes the kit's example
rubrics. The version is part of the resume cache's key (with a hash of the grader's own
sources), so results cached by an older grader are never reused.
"""
__version__ = "1.0.0"
