"""Many short pytest runs started from one warm process: `python -m pytest ARGS`, each run in
a child forked from a server that has already imported pytest and numpy.

A run in a fork is a fresh pytest session in a process of its own (its cwd, its environment,
its cwd first on sys.path as `python -m` puts it, its stdout and stderr in a file), so what it
does and reports is what `python -m pytest` does; only the interpreter's start-up and those
imports are paid once per server instead of once per run. Used where a test file starts dozens
of one-test runs (test_quality_gate.py's mutants); the literal command stays tested by the
files' other runs. Where the platform has no `os.fork` (Windows) or forking a process that
imported numpy is unsafe (macOS), each run is a plain `python -m pytest` instead: the same
results, at the start-up's cost.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

FORKS = hasattr(os, "fork") and sys.platform.startswith("linux")
"""Whether runs fork from the warm server (else each is a fresh process)."""

SERVER = r"""
import json, os, sys, traceback
import gc
import numpy, pytest, _pytest.junitxml, _pytest.terminal  # what every run imports first
# (not the installed plugins: pytest rewrites their asserts itself, and warns if it cannot)
import importlib
for name in sys.argv[1:]:  # the server's `preload`
    importlib.import_module(name)
gc.freeze()  # what the server holds is never garbage: a run's collections (pytest's closing
# gc.collect() calls among them) look only at what the run itself made
for line in sys.stdin:
    job = json.loads(line)
    pid = os.fork()
    if pid == 0:
        code = 70
        try:
            os.chdir(job["cwd"])
            os.environ.clear()
            os.environ.update(job["env"])
            sys.path[0] = job["cwd"]
            for name in [m for m in sys.modules if m.split(".")[0] in job["forget"]]:
                del sys.modules[name]  # preloaded, but this run imports its own copy
            out = os.open(job["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            os.dup2(out, 1)
            os.dup2(out, 2)
            code = int(pytest.main(job["args"]))
        except BaseException:
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    print(json.dumps(os.waitstatus_to_exitcode(status)), flush=True)
"""


class PytestServer:
    """One warm process; `run` is `python -m pytest ARGS` in `cwd` with `env`, one at a time.

    `preload`: further modules the server imports once (in `cwd`, with `env`), where every run
    would import the same files the same way (modules that read no environment variable and
    no file of a run when imported), e.g. the kit's checker; not pytest's plugins (a run warns
    that it cannot rewrite their asserts)."""

    def __init__(self, cwd: Path, env: dict[str, str], preload: tuple[str, ...] = ()):
        self.process = subprocess.Popen([sys.executable, "-c", SERVER, *preload], cwd=cwd,
                                        env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True) if FORKS else None

    def run(self, args: list[str], cwd: Path, env: dict[str, str], output: Path,
            forget: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
        """The run's exit code and what it printed (stdout and stderr, together). `forget`:
        preloaded top-level packages this run must import afresh (e.g. its own patched copy,
        found first on its sys.path)."""
        if self.process is None:  # no fork here: a fresh `python -m pytest`
            with output.open("wb") as out:
                code = subprocess.run([sys.executable, "-m", "pytest", *args], cwd=cwd, env=env,
                                      stdout=out, stderr=subprocess.STDOUT).returncode
            printed = output.read_text(encoding="utf-8", errors="replace")
            return subprocess.CompletedProcess(["pytest", *args], code, printed, "")
        job = {"args": list(args), "cwd": str(cwd), "env": env, "out": str(output),
               "forget": list(forget)}
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(json.dumps(job) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the pytest server ended (exit {self.process.wait()})")
        printed = output.read_text(encoding="utf-8", errors="replace")
        return subprocess.CompletedProcess(["pytest", *args], json.loads(line), printed, "")

    def close(self) -> None:
        """End the server (it ends when its input does)."""
        if self.process is None:
            return
        if self.process.stdin:
            self.process.stdin.close()
        self.process.wait(timeout=60)
        if self.process.stdout:
            self.process.stdout.close()
