"""The message channel between the grader and one child: the command pipe (JSON lines the
grader sends), the result pipe (JSON lines the worker sends back), and the child's stdout and
stderr, multiplexed with selectors and kept up to a cap (`Captured`). `Channel` frames and
parses messages, pumps the pipes and waits for a given event until a deadline; it knows
nothing of what the messages mean (that is session.py's) nor of the process (child.py's).
Lines on the result pipe that are not JSON objects are ignored (student code can write to
it), and the wait raises `Cancelled` when the batch's cancel event is set."""
from __future__ import annotations

import json
import os
import selectors
import threading
import time
from dataclasses import dataclass, field
from typing import IO, Callable


class Cancelled(Exception):
    """The batch was interrupted (Ctrl-C); the child has been killed."""


@dataclass
class Captured:
    """At most `cap` bytes of a child's output, and how many bytes were dropped."""

    cap: int
    data: bytearray = field(default_factory=bytearray)
    dropped: int = 0

    def add(self, chunk: bytes) -> None:
        room = self.cap - len(self.data)
        if room > 0:
            self.data += chunk[:room]
        self.dropped += max(0, len(chunk) - max(room, 0))

    def text(self) -> str:
        text = self.data.decode("utf-8", "replace")
        if self.dropped:
            text += f"\n[... {self.dropped} more bytes of output not kept]"
        return text


def frame(message: dict) -> bytes:
    """One message as it travels: a JSON object on one line."""
    return (json.dumps(message) + "\n").encode("utf-8")


def unframe(partial: bytes, chunk: bytes) -> tuple[list[dict], bytes]:
    """The complete messages in `partial + chunk`, and the unfinished rest. A line that is
    not a JSON object is skipped (not ours: a student wrote to the pipe)."""
    *complete, rest = (partial + chunk).split(b"\n")
    messages = []
    for raw in complete:
        try:
            message = json.loads(raw.decode("utf-8", "replace"))
        except ValueError:
            continue
        if isinstance(message, dict):
            messages.append(message)
    return messages, rest


class Channel:
    """The pipes of one child: send commands, collect result messages and captured output."""

    def __init__(self, cmd_w: int, res_r: int, streams: tuple[IO[bytes], ...]):
        self._cmd_w: int | None = cmd_w
        self._res_r = res_r
        self._streams = streams
        self._lines: list[dict] = []
        self._partial = b""
        self.output = Captured(0)  # replaced by `new_phase` before the child is told anything
        os.set_blocking(res_r, False)
        self._selector: selectors.BaseSelector | None = selectors.DefaultSelector()
        for stream in streams:
            os.set_blocking(stream.fileno(), False)
            self._selector.register(stream.fileno(), selectors.EVENT_READ, "out")
        self._selector.register(res_r, selectors.EVENT_READ, "res")

    def new_phase(self, cap: int) -> Captured:
        """Start capturing output afresh (each phase, import or call, has its own cap)."""
        self.output = Captured(cap)
        return self.output

    def send(self, message: dict) -> bool:
        """Write one message to the command pipe; False when the child no longer reads it."""
        if self._cmd_w is None:
            return False
        data = frame(message)
        try:
            while data:
                data = data[os.write(self._cmd_w, data):]
        except (BrokenPipeError, OSError):
            return False
        return True

    def wait_for(self, events: tuple[str, ...], deadline: float,
                 cancel: threading.Event) -> dict | None:
        """Pump the pipes until a result line of one of `events` arrives (returned), the
        deadline passes or the child's result pipe closes (None). Raises Cancelled when
        `cancel` is set (the caller kills the child)."""
        while True:
            for i, line in enumerate(self._lines):
                if line.get("event") in events:
                    del self._lines[: i + 1]
                    return line
            if cancel.is_set():
                raise Cancelled()
            remaining = deadline - time.monotonic()
            if remaining <= 0 or self._selector is None or not self._selector.get_map():
                return None
            if not self.pump(min(remaining, 0.2)) and self._res_closed():
                return None

    def _res_closed(self) -> bool:
        return all(key.data != "res" for key in self._selector.get_map().values())

    def open(self) -> bool:
        """Whether any pipe from the child is still open."""
        return self._selector is not None and bool(self._selector.get_map())

    def pump(self, timeout: float) -> bool:
        """Read whatever the child wrote; returns whether anything was read."""
        got = False
        for key, _ in self._selector.select(timeout):
            try:
                chunk = os.read(key.fd, 65536)
            except BlockingIOError:
                continue
            except OSError:
                chunk = b""
            if not chunk:
                self._selector.unregister(key.fd)
                continue
            got = True
            if key.data == "out":
                self.output.add(chunk)
            else:
                messages, self._partial = unframe(self._partial, chunk)
                self._lines += messages
        return got

    def drain_while(self, running: Callable[[], bool], timeout: float) -> None:
        """Keep reading while `running()` holds, at most `timeout` seconds, then read what is
        left without waiting."""
        deadline = time.monotonic() + timeout
        while running() and time.monotonic() < deadline:
            if self.open():
                self.pump(0.05)
            else:
                time.sleep(0.02)
        if self.open():
            self.pump(0)

    def close_commands(self) -> None:
        """Close the command pipe (the worker then reaps what is left and exits)."""
        if self._cmd_w is not None:
            try:
                os.close(self._cmd_w)
            except OSError:
                pass
            self._cmd_w = None

    def close(self) -> None:
        """Release every pipe."""
        self.close_commands()
        if self._selector is not None:
            self._selector.close()
            self._selector = None
            os.close(self._res_r)
        for stream in self._streams:
            if stream:
                stream.close()
