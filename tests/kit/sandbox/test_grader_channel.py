"""The sandbox's layers without a child: the message channel (captured output and its cap,
message framing, waiting over real pipes), the boundary where the worker's plain-string
statuses become ChildStatus, and the worker program joined from its parts."""
from __future__ import annotations

import ast
import json
import os
import signal
import sys
import threading
import time

import pytest

from grader.sandbox.channel import Cancelled, Captured, Channel, frame, unframe
from grader.sandbox.outcomes import (CallOutcome, ChildStatus, ImportOutcome, call_outcome,
                                     import_died, import_reported)
from grader.sandbox.spawn import WORKER_PARTS, WORKER_SOURCE

# ------------------------------------------------------------------------------ captured output


@pytest.mark.parametrize("cap, chunks, kept, dropped", [
    (10, [b"abc"], b"abc", 0),
    (10, [b"0123456789"], b"0123456789", 0),
    (10, [b"0123456789A"], b"0123456789", 1),
    (10, [b"01234", b"56789", b"xyz"], b"0123456789", 3),
    (10, [b"0123456", b"789abc", b"", b"de"], b"0123456789", 5),
    (0, [b"abc", b"de"], b"", 5),
    (4, [], b"", 0),
])
def test_captured_keeps_up_to_the_cap_and_counts_the_rest(cap, chunks, kept, dropped) -> None:
    captured = Captured(cap)
    for chunk in chunks:
        captured.add(chunk)
    assert bytes(captured.data) == kept and captured.dropped == dropped
    text = captured.text()
    assert text.startswith(kept.decode())
    assert text.endswith(f"[... {dropped} more bytes of output not kept]") == (dropped > 0)


def test_captured_text_survives_a_character_cut_by_the_cap() -> None:
    captured = Captured(2)
    captured.add("é!".encode())  # two bytes of é fit, the ! is dropped
    assert captured.text().startswith("é") and captured.dropped == 1
    cut = Captured(1)
    cut.add("é".encode())
    assert cut.text().startswith("\ufffd")  # half a character: replaced, never an error


# ------------------------------------------------------------------------------ framing


@pytest.mark.parametrize("partial, chunk, messages, rest", [
    (b"", b'{"event": "a"}\n', [{"event": "a"}], b""),
    (b"", b'{"event": "a"}\n{"event": "b"}\n', [{"event": "a"}, {"event": "b"}], b""),
    (b"", b'{"event": "a"}\n{"ev', [{"event": "a"}], b'{"ev'),
    (b'{"ev', b'ent": "b"}\n', [{"event": "b"}], b""),
    (b"", b"not json\n[1, 2]\n42\n{\"event\": \"c\"}\n", [{"event": "c"}], b""),  # not ours
    (b"", b"\n\n", [], b""),
    (b"", b'{"x": "\xff"}\n', [{"x": "\ufffd"}], b""),
    (b"", b"", [], b""),
])
def test_unframe_splits_lines_and_skips_what_is_not_a_message(partial, chunk, messages,
                                                               rest) -> None:
    assert unframe(partial, chunk) == (messages, rest)


@pytest.mark.parametrize("message", [{}, {"case": "c1", "args": [1, "é", None]},
                                     {"text": "two\nlines"}])
def test_frame_is_one_line_that_unframes_to_the_message(message) -> None:
    data = frame(message)
    assert data.endswith(b"\n") and data.count(b"\n") == 1
    assert unframe(b"", data) == ([message], b"")


# ---------------------------------------------------------------------------- a channel, real pipes


@pytest.fixture
def pipes():
    """A Channel whose other ends the test holds: (channel, read commands, write results,
    write output)."""
    cmd_r, cmd_w = os.pipe()
    res_r, res_w = os.pipe()
    out_r, out_w = os.pipe()
    stream = os.fdopen(out_r, "rb", buffering=0)
    channel = Channel(cmd_w, res_r, (stream,))
    yield channel, cmd_r, res_w, out_w
    channel.close()
    for fd in (cmd_r, res_w, out_w):
        try:
            os.close(fd)
        except OSError:
            pass


def test_channel_sends_one_line_per_message(pipes) -> None:
    channel, cmd_r, _, _ = pipes
    assert channel.send({"case": "c1", "cpu": 1.5})
    assert os.read(cmd_r, 1000) == b'{"case": "c1", "cpu": 1.5}\n'
    channel.close_commands()
    assert not channel.send({"case": "c2"})  # closed: refused, not an error


def test_channel_waits_for_an_event_and_captures_output(pipes) -> None:
    channel, _, res_w, out_w = pipes
    channel.new_phase(5)
    os.write(out_w, b"hello world")
    os.write(res_w, b'garbage\n{"event": "started"}\n{"event": "res')
    os.write(res_w, b'ult", "status": "returned"}\n{"event": "exited"}\n')
    event = channel.wait_for(("result",), time.monotonic() + 5, threading.Event())
    assert event == {"event": "result", "status": "returned"}
    assert channel.wait_for(("exited",), time.monotonic() + 5, threading.Event()) == {
        "event": "exited"}
    channel.drain_while(lambda: False, 0)
    assert channel.output.text() == "hello\n[... 6 more bytes of output not kept]"
    channel.new_phase(5)
    assert channel.output.text() == "" and channel.output.dropped == 0  # each phase afresh


def test_channel_wait_ends_at_the_deadline_when_the_pipe_closes_or_on_cancel(pipes) -> None:
    channel, _, res_w, _ = pipes
    start = time.monotonic()
    assert channel.wait_for(("result",), start + 0.3, threading.Event()) is None
    assert 0.25 <= time.monotonic() - start < 3
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        channel.wait_for(("result",), time.monotonic() + 5, cancel)
    os.close(res_w)  # the child is gone: no need to wait for the deadline
    start = time.monotonic()
    assert channel.wait_for(("result",), start + 30, threading.Event()) is None
    assert time.monotonic() - start < 5


# ------------------------------------------------------------------------------ statuses


def test_child_status_is_a_string_in_comparisons_and_json() -> None:
    assert ChildStatus.TIMEOUT == "timeout" and f"{ChildStatus.FILE_SIZE}" == "file-size"
    assert json.dumps({"status": ChildStatus.OK}) == '{"status": "ok"}'
    assert {"crash": 1}[ChildStatus.CRASH] == 1
    assert sorted(s.value for s in ChildStatus) == sorted(
        ["ok", "returned", "exception", "exit", "memory", "timeout", "file-size", "crash"])


@pytest.mark.parametrize("kind", [CallOutcome, ImportOutcome])
def test_outcomes_hold_a_child_status_even_when_built_from_text(kind) -> None:
    assert type(kind("timeout").status) is ChildStatus
    with pytest.raises(ValueError):
        kind("cpu-limit")  # the status nothing produces is not one


def _result(status, **more) -> dict:
    return {"event": "result", "case": "c", "status": status, "seconds": 0.5, **more}


@pytest.mark.parametrize("result, returncode, status, error", [
    (_result("returned", value_kind="number", value=3.0), 0, ChildStatus.RETURNED, {}),
    (_result("exception", type="ValueError", message="m", mro=["ValueError"]), 0,
     ChildStatus.EXCEPTION, {"type": "ValueError", "message": "m", "mro": ["ValueError"]}),
    (_result("exit", code="3"), 0, ChildStatus.EXIT, {"code": "3"}),
    (_result("memory", type="MemoryError"), 0, ChildStatus.MEMORY, {"type": "MemoryError"}),
    (_result("file-size", type="OSError"), 0, ChildStatus.FILE_SIZE, {"type": "OSError"}),
    (_result("setup-failed", type="AttributeError"), 70, ChildStatus.CRASH,
     {"type": "AttributeError"}),
    (None, -signal.SIGXCPU, ChildStatus.TIMEOUT, {"signal": "SIGXCPU"}),
    (None, -signal.SIGXFSZ, ChildStatus.FILE_SIZE, {"signal": "SIGXFSZ"}),
    (None, -signal.SIGSEGV, ChildStatus.CRASH, {"signal": "SIGSEGV"}),
    (None, 3, ChildStatus.CRASH, {"code": "3"}),
    (None, None, ChildStatus.CRASH, {"code": "None"}),
    ({"event": "result", "case": "c"}, -signal.SIGKILL, ChildStatus.CRASH,
     {"signal": "SIGKILL"}),  # a result without a status: as if unreported
])
def test_call_reports_become_outcomes(result, returncode, status, error) -> None:
    outcome = call_outcome(result, returncode, 1.25)
    assert isinstance(outcome, CallOutcome) and type(outcome.status) is ChildStatus
    assert outcome.status == status and outcome.error == error
    assert outcome.returncode == returncode
    assert outcome.seconds == (0.5 if result and "status" in result else 1.25)
    assert outcome.value == ({"value_kind": "number", "value": 3.0}
                             if status == ChildStatus.RETURNED else {})


@pytest.mark.parametrize("reported", ["ok", "timeout", "cpu-limit", "bogus", None, 3])
def test_an_unknown_call_status_is_a_crash_naming_a_grader_error(reported) -> None:
    outcome = call_outcome(_result(reported, value_kind="none"), 0, 1.0)
    assert outcome.status == ChildStatus.CRASH and outcome.value == {}
    assert outcome.error["grader_error"] == (
        f"grader error: the child reported an unknown status {reported!r}")


@pytest.mark.parametrize("event, status", [
    ({"event": "imported", "seconds": 0.1, "functions": {"f": {}}, "dropped": [{"lines": [1]}]},
     ChildStatus.OK),
    ({"event": "import-failed", "status": "exception", "type": "NameError"},
     ChildStatus.EXCEPTION),
    ({"event": "import-failed", "type": "NameError"}, ChildStatus.EXCEPTION),
    ({"event": "import-failed", "status": "exit", "code": "0"}, ChildStatus.EXIT),
    ({"event": "import-failed", "status": "memory"}, ChildStatus.MEMORY),
    ({"event": "import-failed", "status": "file-size", "type": "OSError"},
     ChildStatus.EXCEPTION),
    ({"event": "import-failed", "status": "bogus"}, ChildStatus.CRASH),
])
def test_import_reports_become_outcomes(event, status) -> None:
    outcome = import_reported({**event, "forbidden": [f"/x{i}" for i in range(30)]})
    assert isinstance(outcome, ImportOutcome) and type(outcome.status) is ChildStatus
    assert outcome.status == status and len(outcome.forbidden) == 20
    if status == ChildStatus.OK:
        assert outcome.functions == {"f": {}} and outcome.dropped == [{"lines": [1]}]
    assert ("grader_error" in outcome.error) == (event.get("status") == "bogus")


@pytest.mark.parametrize("code, status, error", [
    (0, ChildStatus.EXIT, {"code": "0"}),
    (1, ChildStatus.EXIT, {"code": "1"}),
    (-signal.SIGXCPU, ChildStatus.TIMEOUT, {"signal": "SIGXCPU"}),
    (-signal.SIGKILL, ChildStatus.CRASH, {"signal": "SIGKILL"}),
    (None, ChildStatus.CRASH, {"signal": "None"}),
    (-200, ChildStatus.CRASH, {"signal": "signal 200"}),
])
def test_an_import_that_died_unreported(code, status, error) -> None:
    outcome = import_died(code, 2.0)
    assert (outcome.status, outcome.error, outcome.seconds) == (status, error, 2.0)


# ------------------------------------------------------------------------------ the worker's parts


def test_the_worker_is_its_parts_joined_in_order() -> None:
    folder = WORKER_PARTS[1].parent
    assert {p.name for p in WORKER_PARTS[1:]} == {
        p.name for p in folder.glob("*.py") if p.name != "__init__.py"}  # none forgotten
    texts = [p.read_text(encoding="utf-8") for p in WORKER_PARTS]
    assert all(text.rstrip("\n") in WORKER_SOURCE for text in texts)
    tree = ast.parse(WORKER_SOURCE)
    assert ast.get_docstring(tree).startswith("The program that runs inside every sandboxed")
    for path, text in zip(WORKER_PARTS, texts):
        part = ast.parse(text)
        assert len(text.splitlines()) <= 350, path
        futures = [n for n in part.body if isinstance(n, ast.ImportFrom)
                   and n.module == "__future__"]
        assert bool(futures) == (path == WORKER_PARTS[0]), path  # only the first part
        for node in ast.walk(part):
            if isinstance(node, ast.ImportFrom):
                assert node.level == 0, path  # no relative imports: one program
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [
                    node.module]
                assert all(n.partition(".")[0] in sys.stdlib_module_names
                           for n in names), (path, names)
    assert WORKER_SOURCE.rstrip().endswith('if __name__ == "__main__":\n    main()')
