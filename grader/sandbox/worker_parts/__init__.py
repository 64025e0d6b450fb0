"""Parts of the child's program (grader/sandbox/worker.py explains how they are joined). The
grader never imports them: spawn.py reads their text, in the order of its WORKER_PARTS:
limits (resource limits, the parent watch), confine (Landlock and the seccomp socket
filter), guards (the import and file guards), retry (importing a file one statement at a
time), calls (one call in a fork), loop (the child's main loop)."""
__all__: list[str] = []  # read as text, never imported
