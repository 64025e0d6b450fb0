"""Where a batch's submissions are graded: the executor seam of grader.grading.runner.

An executor takes the submissions still to grade (each with its resume-cache key) and yields
(submission, record) as each one finishes, in any order; the runner alone writes results.

  threads        Executor (the protocol), ThreadExecutor (this host, `--jobs` threads, the
                 default), grader_error (the record of a submission the grader failed on)
  cluster        DaskExecutor: each submission a task on a Dask cluster (`--cluster`; Dask
                 is imported only there)
  cluster_task   what travels to a worker and runs there (BatchSpec, identities; no Dask)
  cluster_option the `--cluster` option's wiring
  cluster_local  a loopback Dask cluster for tests and laptops (127.0.0.1 only)
"""
from .threads import Executor, ThreadExecutor, grader_error

__all__ = ["Executor", "ThreadExecutor", "grader_error"]
