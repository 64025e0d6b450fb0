"""What running student code in a child gave: `ChildStatus` (the one list of a child's
statuses), `ImportOutcome` and `CallOutcome`, and the boundary where the worker's reports
(JSON lines with plain-string statuses) and a child's exit status become outcomes
(`import_reported`, `import_died`, `call_outcome`). A status the worker does not send is
refused there: the outcome is a crash with a `grader_error` message, never a verdict."""
from __future__ import annotations

import enum
import signal
from dataclasses import dataclass, field


class ChildStatus(enum.StrEnum):
    """How an import or a call ended (a str: compares and serializes as its value)."""

    OK = "ok"  # the import finished (imports only)
    RETURNED = "returned"  # the call returned a value (calls only)
    EXCEPTION = "exception"  # it raised
    EXIT = "exit"  # it called sys.exit / exit
    MEMORY = "memory"  # MemoryError: the address-space limit
    TIMEOUT = "timeout"  # the CPU-time limit (SIGXCPU, or SIGKILL past it) or the wall backstop
    FILE_SIZE = "file-size"  # a file over the size limit (SIGXFSZ / EFBIG) or the disk limit
    CRASH = "crash"  # died without reporting (a signal, os._exit), or a grader error


# What the worker reports, in plain strings: for a call (its fork's `result` line) and for a
# failed import (`import-failed`), and what each becomes here.
CALL_REPORTS = {"returned": ChildStatus.RETURNED, "exception": ChildStatus.EXCEPTION,
                "exit": ChildStatus.EXIT, "memory": ChildStatus.MEMORY,
                "file-size": ChildStatus.FILE_SIZE, "setup-failed": ChildStatus.CRASH}
IMPORT_FAILURES = {"exception": ChildStatus.EXCEPTION, "exit": ChildStatus.EXIT,
                   "memory": ChildStatus.MEMORY,
                   "file-size": ChildStatus.EXCEPTION}  # reported as the exception it raised
ERROR_KEYS = ("type", "message", "traceback", "code", "mro")
VALUE_KEYS = ("value_kind", "value", "type", "repr")


def unknown_status(status: object) -> str:
    return f"grader error: the child reported an unknown status {status!r}"


@dataclass
class ImportOutcome:
    """How importing the student's module went: status OK, EXCEPTION, EXIT, MEMORY, TIMEOUT
    (CPU limit, or `error["wall"]` for the wall-clock backstop) or CRASH."""

    status: ChildStatus
    seconds: float = 0.0
    functions: dict = field(default_factory=dict)
    error: dict = field(default_factory=dict)  # type, message, traceback / code / signal
    output: str = ""
    output_dropped: int = 0
    forbidden: list[str] = field(default_factory=list)  # refused accesses to grader files
    dropped: list[dict] = field(default_factory=list)  # retry: statements left out, and why
    layers: dict = field(default_factory=dict)  # confinement the child applied (confine.py)

    def __post_init__(self) -> None:
        self.status = ChildStatus(self.status)  # a plain string is converted, or refused


@dataclass
class CallOutcome:
    """How one call went: status RETURNED, EXCEPTION, EXIT, MEMORY, TIMEOUT (CPU limit, or
    `error["wall"]` for the wall-clock backstop), CRASH (died without reporting) or FILE_SIZE
    (a file over the limit, or `error["disk"]` bytes in the scratch folder). `cpu_seconds` is
    the call's CPU time as the kernel counted it."""

    status: ChildStatus
    seconds: float = 0.0
    cpu_seconds: float | None = None
    value: dict = field(default_factory=dict)  # value_kind, value / type, repr
    error: dict = field(default_factory=dict)
    returncode: int | None = None
    output: str = ""
    output_dropped: int = 0
    forbidden: list[str] = field(default_factory=list)
    leftover: int = 0  # processes the call left running after it returned (then killed)

    def __post_init__(self) -> None:
        self.status = ChildStatus(self.status)  # a plain string is converted, or refused


def signal_name(code: int | None) -> str:
    """The signal that ended a process with return code `code` (negative), else the code."""
    if code is None or code >= 0:
        return str(code)
    try:
        return signal.Signals(-code).name
    except ValueError:
        return f"signal {-code}"


def _forbidden(report: dict) -> list[str]:
    return [str(f) for f in report.get("forbidden", [])][:20]


def import_reported(event: dict) -> ImportOutcome:
    """The outcome of an `imported` or `import-failed` report."""
    if event["event"] == "imported":
        return ImportOutcome(ChildStatus.OK, event.get("seconds", 0.0), event.get("functions", {}),
                             forbidden=_forbidden(event), dropped=list(event.get("dropped", [])),
                             layers=dict(event.get("layers") or {}))
    reported = event.get("status", "exception")
    error = {k: event[k] for k in ERROR_KEYS if k in event}
    status = IMPORT_FAILURES.get(reported)
    if reported == "unconfined":  # the child refused to run student code unconfined
        status, error = ChildStatus.CRASH, {"grader_error": "grader error: the child could not "
                                            f"confine itself ({event.get('message', '')})"}
    elif status is None:
        status, error = ChildStatus.CRASH, {**error, "grader_error": unknown_status(reported)}
    return ImportOutcome(status, event.get("seconds", 0.0), error=error,
                         forbidden=_forbidden(event), layers=dict(event.get("layers") or {}))


def import_died(code: int | None, seconds: float) -> ImportOutcome:
    """The outcome of an import whose child ended without reporting (exit status `code`)."""
    status = ChildStatus.EXIT if code is not None and code >= 0 else ChildStatus.CRASH
    error = {"code": str(code)} if status == "exit" else {"signal": signal_name(code)}
    if error.get("signal") == "SIGXCPU":  # the import's CPU-time limit
        status = ChildStatus.TIMEOUT
    return ImportOutcome(status, seconds, error=error)


def call_outcome(result: dict | None, returncode: int | None, seconds: float) -> CallOutcome:
    """A fork's `result` report (if any) and exit status, as a CallOutcome."""
    if result is not None and "status" in result:
        status = CALL_REPORTS.get(result["status"])
        if status is None:
            return CallOutcome(ChildStatus.CRASH, seconds, returncode=returncode,
                               error={"code": str(returncode),
                                      "grader_error": unknown_status(result["status"])})
        error = {k: result[k] for k in ERROR_KEYS if k in result}
        value = {k: result[k] for k in VALUE_KEYS if k in result}
        returned = status == ChildStatus.RETURNED
        return CallOutcome(status, float(result.get("seconds", seconds) or 0.0),
                           value=value if returned else {}, error={} if returned else error,
                           returncode=returncode, forbidden=_forbidden(result))
    if returncode is not None and returncode < 0:
        name = signal_name(returncode)
        status = {"SIGXCPU": ChildStatus.TIMEOUT, "SIGXFSZ": ChildStatus.FILE_SIZE}.get(
            name, ChildStatus.CRASH)
        return CallOutcome(status, seconds, error={"signal": name}, returncode=returncode)
    return CallOutcome(ChildStatus.CRASH, seconds, error={"code": str(returncode)},
                       returncode=returncode)
