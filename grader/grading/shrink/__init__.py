"""Counterexamples (issue 21): for each function with a wrong or partial case, a small input
from public material on which the student's function and the reference disagree.

Design: the reference never runs in the grader. `python -m grader regen` (grader/authoring/
pool.py, the only code that runs the reference) precomputes a *pool*: seeded small inputs
from public data (rows of adult-hw1.csv, the public DGHs, the public test datasets), each the
head of two nested *chains* (rows dropped one at a time, then QIs, or QIs first), with the
reference's output of every member. Grading (search.py) runs the student's function on
chain members in the submission's own sandbox session and binary-searches each chain for its
smallest member that still differs, within a per-function budget (the pool's format and the
search are kcheck's: kcheck/pool.py, kcheck/search.py, which the students' self-check uses
too); the gradebook (grader/gradebook/counterexample.py) writes the feedback text and files.
Every value shown comes from the pool, hence from public data.

  pool.py    where the pool is (the kit's, or a cases folder's own)
  probe.py   one student call on a member, in the sandbox session, against the budget
  hook.py    what the case runner calls: pick the functions, search, store in the result
  rules_search.py  a rule-judged part's search (the course's own pool, smallest member
             first, each output judged by the rules: kcheck/rules)
"""
__all__ = ["hook", "pool", "probe", "rules_search"]
