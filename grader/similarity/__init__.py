"""Similarity between submissions' solution files, for a TA to look at (never a verdict).

  run               run_similarity: pick each submission's solution file, compare the class
                    (and past years' archives) with an engine, write pairs.csv and pairs.html
  pairs             the Pair both engines return and the caveat every report carries
  copydetect_engine the copydetect engine (the `similarity` extra), else the token matcher
  report            the self-contained HTML side-by-side report
  command           the `similarity` command (refreshes a graded folder's dashboard)

Stands on grading's intake and solution choice; the gradebook's dashboard lists the pairs.
"""
__all__ = ["command", "copydetect_engine", "pairs", "report", "run"]
