"""The program that runs inside every sandboxed child (standard library only); this file is
its first part, the others are in grader/sandbox/worker_parts/.

The grader starts it as `python -S -s -P -B -c <the program's text> CMD_FD RESULT_FD`, so the
child's command line names no grader path. It never imports the grader and is never given
the location of expected outputs: it only learns, over the command pipe, where the student's
files and the current case's inputs are.

One program in seven parts. The grader's spawn.py (WORKER_PARTS) joins this file and
worker_parts/limits.py, confine.py, guards.py, retry.py, calls.py and loop.py, in that
order, into the single source text it passes with `-c`: the child runs one module in one
namespace, as before the split, and nothing of it is importable in the child (confine.py,
which uses no other part's name, is also imported by the grader for `landlock_abi`). (The
other way, putting the parts on the child's import path, would name a grader folder on its
command line, need that folder readable inside bubblewrap and by the unprivileged user, and
put the parts' module names next to the student's own, where a student's `limits.py` would
collide.) So a part imports no other part: it uses the names of the parts before it (this
one's `send`, `_exit` and saved originals, guards' FORBIDDEN, ...), and only this part has
the `__future__` import, which then covers the whole program; each part imports the standard
modules it uses.

Protocol: one JSON object per line. The grader sends a `setup` message first; the worker
applies the resource limits, imports the student's module (normally, or in mode "retry" one
top-level statement at a time, leaving out the `__main__` block, command-line code,
experiments and whatever fails), reports `imported` (with what a retry left out) or
`import-failed`, then serves `call` messages: each call runs in a fork of the imported module
(so every case starts from the same fresh module state), in the case's directory, under its
CPU-time limit, and reports `started`, the grandchild's `result`, and `exited` with its exit
status and CPU time. Closing the command pipe ends it. Student code may import the standard
library, its own modules and the allowed packages only (PackageGate). Statuses travel as
plain strings ("returned", "exception", "exit", "memory", "file-size", "setup-failed"); the
grader turns them into its ChildStatus (grader/sandbox/outcomes.py).
"""
from __future__ import annotations

import json
import os
import sys
import time

_fork, _write, _exit, _wait4, _waitpid = os.fork, os.write, os._exit, os.wait4, os.waitpid
_kill, _getpid, _listdir, _open = os.kill, os.getpid, os.listdir, open  # the student's code
_sleep, _monotonic = time.sleep, time.monotonic  # may replace the originals; reap() needs them
_dumps, _perf = json.dumps, time.perf_counter
TRACEBACK_CHARS = 6000
MESSAGE_CHARS = 2000


def send(fd: int, message: dict) -> None:
    """Write one JSON line to the result pipe (looping over partial writes)."""
    data = (_dumps(message, default=repr) + "\n").encode("utf-8", "replace")
    while data:
        try:
            data = data[_write(fd, data):]
        except InterruptedError:
            continue


def flush_output() -> None:
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        try:
            stream.flush()
        except Exception:  # noqa: BLE001 - a student may have replaced or closed them
            pass
