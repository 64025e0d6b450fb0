"""The sandbox: running student code in a child process, never in the grader's own process.
This package's face (what grader/grading imports) re-exports its layers; it imports nothing
of grader/grading (the grading side, session_keeper included, stands on it).

A `Session` is one child (the worker program, grader/sandbox/worker.py and its parts) that
imports the student's module once, under an import CPU-time limit, in a scratch directory;
each `call` then runs in a fork of that child, in the case's own directory, under a CPU-time
limit enforced by the kernel (what decides a verdict) and a generous wall-clock backstop
enforced here (`wall_backstop`; the child and all it started are killed). The child gets a
clean environment (HOME and TMPDIR inside the scratch directory, a fixed hash seed), limits
on address space, file size, processes and open files, stdin from /dev/null, and its output
captured up to a cap. With `bwrap_hidden` (the folders to hide) the child also runs under
bubblewrap: no network, a read-only view of the machine, and the grader's cases, the
submissions and the results hidden; only the scratch directory is writable. With `landlock`
the child instead confines itself before importing anything of the student's (Landlock at the
kernel's highest ABI, then a seccomp socket filter: confinement.py lists what it may reach,
worker_parts/confine.py applies it) and reports the layers it applied. With `run_as`
(a `RunAs`, used when the grader runs as root) the child runs as that unprivileged user, and
the folders it writes are handed to that user. Outcomes carry a `ChildStatus` (outcomes.py
lists them).

The layers, each in its own module:
  limits.py    Limits, the wall-clock backstop, the process limit, disk use
  runas.py     RunAs: the unprivileged user
  spawn.py     the child's program text, command line, environment, bubblewrap, deny list
  confinement.py  Landlock: whether the kernel has it, the paths a confined child may reach
  channel.py   the pipes: message framing, multiplexing, captured output, Cancelled
  child.py     one started child process: start, wait, kill its tree, close
  outcomes.py  ChildStatus, ImportOutcome, CallOutcome; worker reports -> outcomes
  session.py   Session: the policy (import, calls, deadlines, disk polling, kills)
  reaper.py    leftover scratch folders and processes of earlier runs
  packages.py  the allowed third-party packages: installed? requirements.txt lines
  worker.py    the child's program, first part; worker_parts/ the other six (confine.py:
               Landlock and the socket filter)
"""
from __future__ import annotations

from .channel import Cancelled
from .confinement import landlock_abi, landlock_available
from .limits import Limits, wall_backstop
from .outcomes import CallOutcome, ChildStatus, ImportOutcome
from .runas import RunAs
from .session import Session
from .spawn import WORKER_SOURCE, bwrap_available, python_problem, site_dirs

__all__ = ["CallOutcome", "Cancelled", "ChildStatus", "ImportOutcome", "Limits", "RunAs",
           "Session", "WORKER_SOURCE", "bwrap_available", "landlock_abi", "landlock_available",
           "python_problem", "site_dirs", "wall_backstop"]
