"""Authoring cases: what the course staff produce before grading, with the reference.

  casegen         the hidden datasets of the default draw (seeded generators)
  terms           a term's draw: sizes, rows and each hidden case's k, seeded by
                  term_seed (HMAC of the course's secret)
  privacy_inputs  the inputs of the privacy-measure parts' cases
  pool            the counterexamples' public inputs and the reference's answers
  rules_pool      a course's own pool for its rule-judged parts, from its public data
  model_draw      a course's hidden datasets drawn from its own data model ([data] model)
  course_runs     a course's own functions' reference ([[function]]): one answer, the
                  band of a quality-judged part over seeded runs, made anonymized inputs
  regen           expected outputs by running the staff solution (the only place the
                  grader does), and the manifest
  course_file     the students' course file (what a bundle says of the course)
  public_data     the public tests' table of functions (markers, signatures, checks) from
                  the contracts, and their cases cut to a course

Stands on grading (expected outputs, term views, the shrink pool's format) and the core.
"""
__all__ = ["casegen", "course_file", "course_runs", "model_draw", "pool", "privacy_inputs",
           "public_data", "regen", "rules_pool", "terms"]
