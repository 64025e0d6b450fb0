"""Parts of the child's program (grader/sandbox/worker.py explains how they are joined). The
grader never imports them: spawn.py reads their text, in the order of its WORKER_PARTS."""
