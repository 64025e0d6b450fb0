"""Where the self-check runs your functions.

By default every call goes to a child process, started with multiprocessing's `spawn` method
(what Windows always uses, so it works the same on Linux, macOS and Windows), which imports
your solution once and then answers call after call. A call that runs past its limit is
stopped by ending that process, from outside: no POSIX signal is involved, the test fails with
one sentence and the next call starts a fresh process; the self-check makes no further call of
that function (call_gate.py), the other functions' tests run as usual. What your code prints
during a call is shown with that test's result, also when the call was stopped.

`pytest --in-process` (or KANON_IN_PROCESS=1; implied by --pdb and --trace) runs the calls in
pytest's own process instead, so a debugger and breakpoint() work, e.g.
`pytest --in-process -k "cost_MD and example" -s`; there only pytest-timeout's safety net
limits a call.
"""
from __future__ import annotations

import inspect
import io
import multiprocessing
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from solution_import import describe, import_failure, import_solution

START_METHOD = "spawn"
STARTUP_LIMIT = 20.0  # s for a fresh Python process to start (a slow laptop included)
PRINT_LIMIT = 1_000_000  # characters of prints kept per call
ENDED = ("ended", None)


@dataclass(frozen=True)
class Answer:
    """What one call did: kind is "returned", "not-implemented", "raised", "timeout" (stopped
    at its limit) or "ended" (the process running it died; `text` says how)."""

    kind: str
    seconds: float = 0.0  # CPU time of the call
    text: str = ""  # returned: repr of the value; raised: 'ValueError: ... (skeleton.py, ...)'
    number: float | None = None  # returned: the value as a number (None: not a number)
    value_error: str | None = None  # raised a ValueError: its message


def answer(module, solution: Path, name: str, args: list) -> Answer:
    """Call `name(*args)` of the imported solution in this process."""
    fn = getattr(module, name)
    start = time.process_time()
    try:
        value = fn(*args)
    except NotImplementedError:
        return Answer("not-implemented", time.process_time() - start)
    except (Exception, SystemExit) as e:
        return Answer("raised", time.process_time() - start, describe(e, solution),
                      value_error=str(e) if isinstance(e, ValueError) else None)
    return Answer("returned", time.process_time() - start, _shown(value), _number(value))


def exports(module) -> dict[str, str]:
    """'(a, b, c)', the parameters of each public function of the imported solution, by name
    (the self-check reads signatures from this, so it needs no import of its own); a
    keyword-only parameter with a default is left out, since the grader never passes it."""
    found = {}
    for name, value in vars(module).items():
        if name.startswith("_") or not callable(value):
            continue
        try:
            found[name] = "(" + ", ".join(
                p.name for p in inspect.signature(value).parameters.values()
                if not (p.kind is p.KEYWORD_ONLY and p.default is not p.empty)) + ")"
        except (TypeError, ValueError):
            found[name] = "(?)"
    return found


def _shown(value: object) -> str:
    try:
        text = repr(value)
    except Exception as e:  # noqa: BLE001 -- a broken __repr__ is the student's
        text = f"<{type(value).__name__} whose repr raised {type(e).__name__}>"
    return text if len(text) <= 200 else text[:200] + "..."


def _number(value: object) -> float | None:
    """The value as a float when it is a number (int, float, numpy's), else None."""
    if isinstance(value, bool) or not (isinstance(value, (int, float))
                                       or hasattr(value, "__float__")):
        return None
    try:
        return float(value)
    except Exception:  # noqa: BLE001
        return None


class InProcess:
    """Calls in pytest's own process (for debugging): no limit of its own."""

    def __init__(self, module, solution: Path):
        self.module, self.solution = module, solution

    def call(self, name: str, args: list, folder: Path, limit: float) -> Answer:
        return answer(self.module, self.solution, name, args)

    def close(self) -> None:
        pass


class _Prints(io.TextIOBase):
    """A call's prints, written through to a file at once (kept when the call is stopped);
    at most PRINT_LIMIT characters."""

    def __init__(self, path: str):
        self.file = open(path, "a", encoding="utf-8", errors="replace")
        self.left = PRINT_LIMIT

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if self.left > 0:
            part = text[:self.left]
            self.left -= len(part)
            self.file.write(part if self.left else part + "\n[... further prints left out]\n")
            self.file.flush()
        return len(text)

    def close(self) -> None:
        self.file.close()
        super().close()


def _serve(conn, solution: str) -> None:
    """The child process: import the solution, then answer (name, args, folder, prints file)
    requests until None arrives."""
    quiet = sys.stdout = sys.stderr = open(os.devnull, "w")  # the parent's import shows them
    path = Path(solution)
    conn.send(("started", None))
    try:
        module = import_solution(path)
    except KeyboardInterrupt:
        raise
    except BaseException as e:  # SystemExit included
        conn.send(("failed", import_failure(e, path)))
        return
    conn.send(("ready", exports(module)))
    while (request := conn.recv()) is not None:
        name, args, folder, prints = request
        os.chdir(folder)
        sys.stdout = sys.stderr = shown = _Prints(prints)
        try:
            result = answer(module, path, name, args)
        finally:
            sys.stdout = sys.stderr = quiet
            shown.close()
        conn.send(("answer", result))


class Worker:
    """The child process that runs the solution's calls (see the module's docstring)."""

    def __init__(self, solution: Path, import_limit: float):
        self.solution, self.import_limit = solution, import_limit
        self.scratch: Path | None = None  # where the calls' prints go (set before a call)
        self.process = self.conn = None
        self.calls = 0
        self.defined: dict[str, str] = {}  # the solution's functions: exports()
        self.broken: str | None = None  # why a restart failed: no further attempt

    def launch(self) -> None:
        """Start the process, without waiting for it (it starts while pytest collects)."""
        context = multiprocessing.get_context(START_METHOD)
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child, str(self.solution)),
                                       daemon=True, name="kanon-solution")
        self.process.start()
        child.close()

    def start(self) -> str | None:
        """Wait until the process (launched now unless it was) has imported the solution;
        None, or why that failed."""
        if self.process is None:
            self.launch()
        if self._receive(STARTUP_LIMIT)[0] != "started":
            self.stop()
            return (f"could not start a Python process for {self.solution.name} within "
                    f"{STARTUP_LIMIT:g} s")
        kind, detail = self._receive(self.import_limit)
        if kind == "ready":
            self.defined = detail
            return None
        self.stop()
        if kind == "failed":
            return detail
        if kind == "ended":
            return (f"could not import {self.solution.name}: the process importing it ended "
                    f"(exit code {self.process.exitcode})")
        return (f"could not import {self.solution.name}: importing it did not finish within "
                f"{self.import_limit:g} s (keep experiments under "
                f"`if __name__ == \"__main__\":`)")

    def call(self, name: str, args: list, folder: Path, limit: float) -> Answer:
        """Run `name(*args)` in `folder`; stop it after `limit` seconds (wall clock)."""
        if self.process is None:
            self.broken = self.broken or self.start()
            if self.broken:
                return Answer("ended", text=self.broken)
        self.calls += 1
        prints = self.scratch / f"prints-{self.calls}.txt"
        try:
            self.conn.send((name, args, str(folder), str(prints)))
            kind, result = self._receive(limit)
        except BaseException:  # pytest-timeout's safety net, Ctrl+C: the call is abandoned
            self.stop()
            raise
        if prints.is_file():  # pytest shows them with the test's result
            sys.stdout.write(prints.read_text(encoding="utf-8", errors="replace"))
        if kind == "answer":
            return result
        code = self.process.exitcode
        self.stop()
        if kind == "ended":
            return Answer("ended", text=f"the Python process running it ended (exit code "
                                        f"{code}) before the call returned")
        return Answer("timeout", seconds=limit)

    def _receive(self, limit: float) -> tuple[str, object]:
        """The next message, ENDED when the process died, ("timeout", None) after `limit` s."""
        if not self.conn.poll(limit):
            return "timeout", None
        try:
            return self.conn.recv()
        except (EOFError, OSError):
            self.process.join(5)
            return ENDED

    def stop(self) -> None:
        """End the process (from outside: a stopped call may never read another message)."""
        if self.process is not None:
            if self.process.is_alive():
                self.process.kill()
            self.process.join(5)
            self.conn.close()
        self.process = self.conn = None

    def close(self) -> None:
        """Ask the process to finish, then make sure it has."""
        if self.process is not None and self.process.is_alive():
            try:
                self.conn.send(None)
                self.process.join(2)
            except OSError:
                pass
        self.stop()
