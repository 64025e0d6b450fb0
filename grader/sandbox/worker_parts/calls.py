"""Worker part 6 of 7 (see grader/sandbox/worker.py): one call in a fork, and what is reported
of it. `run_call` runs one graded function in the case's directory under its CPU-time limit
and reports its result; `encode_value`, `describe_exception` and `outcome_of` turn a return
value or an exception into the plain statuses the grader's outcomes.py converts;
`function_info` describes the graded names after an import."""
import math
import numbers
import os
import resource
import tempfile
import traceback


def describe_exception(error: BaseException) -> dict:
    """Type, message and a traceback of the student's frames only."""
    try:
        message = str(error)
    except Exception:  # noqa: BLE001 - a student's __str__ may raise
        message = "<the exception's message could not be printed>"
    try:
        frames = [f for f in traceback.extract_tb(error.__traceback__)
                  if f.filename not in ("<string>",) and not f.filename.startswith("<frozen")]
        text = "".join(traceback.format_list(frames[-12:]))
        text += "".join(traceback.format_exception_only(type(error), error))
    except Exception:  # noqa: BLE001
        text = f"{type(error).__name__}: {message}\n"
    return {"type": type(error).__name__, "message": message[:MESSAGE_CHARS],
            "traceback": text[-TRACEBACK_CHARS:],
            "mro": [c.__name__ for c in type(error).__mro__]}


def outcome_of(error: BaseException) -> dict:
    if isinstance(error, SystemExit):
        return {"status": "exit", "code": repr(error.code)[:200]}
    if isinstance(error, MemoryError):
        return {"status": "memory", **describe_exception(error)}
    if isinstance(error, OSError) and error.errno == 27:  # EFBIG: RLIMIT_FSIZE reached
        return {"status": "file-size", **describe_exception(error)}
    return {"status": "exception", **describe_exception(error)}


def encode_value(value: object) -> dict:
    """How a call's return value is reported: numbers as floats, anything else by type."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        try:
            return {"value_kind": "number", "value": float(value)}
        except Exception:  # noqa: BLE001
            pass
    if value is None:
        return {"value_kind": "none"}
    try:
        shown = repr(value)[:200]
    except Exception:  # noqa: BLE001
        shown = "<unprintable>"
    return {"value_kind": "other", "type": type(value).__name__, "repr": shown}


def run_call(module, message: dict, cmd_fd: int, res_fd: int) -> None:
    """The grandchild: run one function in the case's directory, report, and exit."""
    try:
        os.close(cmd_fd)
    except OSError:
        pass
    case = message["case"]
    FORBIDDEN.clear()  # attempts while importing were reported with the import
    try:
        cwd = message["cwd"]
        os.chdir(cwd)
        for var in ("HOME", "TMPDIR"):  # inside the case's own directory
            os.environ[var] = cwd
        tempfile.tempdir = None
        cpu = max(1, math.ceil(float(message["cpu"])))  # SIGXCPU at the limit, then SIGKILL
        hard = resource.getrlimit(resource.RLIMIT_CPU)[1]
        wanted = cpu + 1 if hard == resource.RLIM_INFINITY else min(cpu + 1, hard)
        resource.setrlimit(resource.RLIMIT_CPU, (min(cpu, wanted), wanted))
        function = getattr(module, message["function"])
    except BaseException as error:  # noqa: BLE001
        send(res_fd, {"event": "result", "case": case, "status": "setup-failed",
                      **describe_exception(error)})
        _exit(70)
    start = _perf()
    try:
        value = function(*message.get("args", []), **message.get("kwargs", {}))
        outcome = {"status": "returned", **encode_value(value)}
    except BaseException as error:  # noqa: BLE001 - every student failure is reported
        outcome = outcome_of(error)
    seconds = _perf() - start
    flush_output()
    send(res_fd, {"event": "result", "case": case, "seconds": seconds, "forbidden": FORBIDDEN,
                  **outcome})
    _exit(0)


def function_info(module, names: list[str]) -> dict:
    """For each graded name: whether it is a callable, and its parameters if inspectable."""
    import inspect
    info = {}
    for name in names:
        obj = getattr(module, name, None)
        entry = {"callable": callable(obj), "params": None}
        if callable(obj):
            try:
                entry["params"] = [[p.name, p.kind.name, p.default is not p.empty]
                                   for p in inspect.signature(obj).parameters.values()]
            except (TypeError, ValueError):
                pass
        info[name] = entry
    return info
