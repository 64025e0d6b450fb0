"""The grader's sandbox: every misbehaviour of student code gets its own status, limits hold,
the child sees a clean environment and never the grader's files."""
from __future__ import annotations

import ast
import os
import time
from pathlib import Path

import pytest

from grader.sandbox import Limits, Session, bwrap_available, site_dirs

REPO = Path(__file__).resolve().parents[2]
FUNCS = ["cost_MD", "mondrian"]


class Child:
    """A session on a module written from `source`, calls run in fresh case folders."""

    def __init__(self, tmp: Path, source: str, *, mode: str = "full", import_limit: float = 5,
                 limits: Limits = Limits(memory_mb=512, output_kb=2), deny=(), bwrap=False):
        self.tmp = tmp
        (tmp / "sub").mkdir(parents=True)
        (tmp / "sub" / "student.py").write_text(source, encoding="utf-8")
        (tmp / "import").mkdir()
        self.session = Session(tmp, limits, deny=list(deny),
                               bwrap_hidden=[REPO / "grader"] if bwrap else None)
        self.imported = self.session.start(
            file=tmp / "sub" / "student.py", module="student", paths=[tmp / "sub"],
            import_cwd=tmp / "import", functions=FUNCS, mode=mode, import_limit=import_limit,
            max_call_seconds=5)
        self.n = 0

    def call(self, function: str = "cost_MD", args=(1, 2, 3), limit: float = 5.0):
        self.n += 1
        cwd = self.tmp / f"case{self.n}"
        cwd.mkdir()
        return self.session.call(case=f"c{self.n}", cwd=cwd, function=function, args=list(args),
                                 time_limit=limit)

    def close(self) -> None:
        self.session.close()


@pytest.fixture
def child(tmp_path: Path):
    made = []

    def make(source: str, **kw) -> Child:
        made.append(Child(tmp_path / f"s{len(made)}", source, **kw))
        return made[-1]
    yield make
    for c in made:
        c.close()


def test_returned_values_and_fresh_module_state_per_call(child) -> None:
    c = child("import numpy\nCOUNT = [0]\ndef cost_MD(a, b, d):\n    COUNT[0] += 1\n"
              "    return numpy.float64(COUNT[0]) + 0.5\n"
              "def mondrian(a, b, k, o):\n    return 'text'\n")
    assert c.imported.status == "ok"
    assert c.imported.functions["cost_MD"]["callable"]
    assert c.imported.functions["mondrian"]["params"][2] == ["k", "POSITIONAL_OR_KEYWORD", False]
    assert [c.call().value["value"] for _ in range(3)] == [1.5, 1.5, 1.5]
    other = c.call("mondrian", (1, 2, 3, 4))
    assert other.status == "returned" and other.value == {"value_kind": "other", "type": "str",
                                                          "repr": "'text'"}


def test_exceptions_exit_and_crashes_each_have_a_status(child) -> None:
    c = child("import os, signal, sys\n"
              "def cost_MD(a, b, d):\n"
              "    if a == 1: raise ValueError('bad row 3')\n"
              "    if a == 2: sys.exit('bye')\n"
              "    if a == 3: os._exit(4)\n"
              "    if a == 4: os.kill(os.getpid(), signal.SIGSEGV)\n"
              "    if a == 5: return [0] * 10 ** 10\n"
              "    if a == 6: raise NotImplementedError\n")
    error = c.call(args=(1, 0, 0))
    assert error.status == "exception" and error.error["type"] == "ValueError"
    assert error.error["message"] == "bad row 3"
    assert 'student.py", line 3, in cost_MD' in error.error["traceback"]
    assert "<string>" not in error.error["traceback"]  # the worker's frames are hidden
    assert c.call(args=(2, 0, 0)).status == "exit"
    crash = c.call(args=(3, 0, 0))
    assert (crash.status, crash.error) == ("crash", {"code": "4"})
    segv = c.call(args=(4, 0, 0))
    assert (segv.status, segv.error) == ("crash", {"signal": "SIGSEGV"})
    memory = c.call(args=(5, 0, 0))
    assert memory.status == "memory" and memory.error["type"] == "MemoryError"
    assert c.call(args=(6, 0, 0)).error["type"] == "NotImplementedError"
    assert c.session.alive()  # the child survives all of its forks' failures


def test_timeout_kills_the_whole_process_group(child, tmp_path: Path) -> None:
    marker = tmp_path / "still-alive"
    c = child("import subprocess, sys, time\n"
              "def cost_MD(a, b, d):\n"
              f"    code = 'import time; time.sleep(3); open(%r, \"w\")' % {str(marker)!r}\n"
              "    subprocess.Popen([sys.executable, '-c', code])\n"
              "    while True: pass\n")
    start = time.monotonic()
    out = c.call(limit=1.0)
    assert out.status == "timeout"
    assert time.monotonic() - start < 3
    assert not c.session.alive()
    time.sleep(3.5)
    assert not marker.exists()  # the grandchild started by the student was killed too


def test_output_is_captured_up_to_the_cap_and_file_size_is_limited(child) -> None:
    c = child("print('hello from import')\n"
              "def cost_MD(a, b, d):\n"
              "    print('x' * 100000)\n    return 1\n"
              "def mondrian(a, b, k, o):\n"
              "    open('big', 'wb').write(b'0' * (3 * 1024 * 1024))\n",
              limits=Limits(memory_mb=512, output_kb=2, file_size_mb=1))
    assert c.imported.output == "hello from import\n"
    loud = c.call()
    assert loud.status == "returned"
    assert len(loud.output.split("\n")[0]) == 2048 and loud.output_dropped == 100001 - 2048
    assert c.call("mondrian", (1, 2, 3, 4)).status == "file-size"


def test_many_files_over_the_disk_limit_are_stopped(child) -> None:
    c = child("def cost_MD(a, b, d):\n"
              "    for i in range(10 ** 6):\n"
              "        open(f'part{i}', 'wb').write(b'0' * 2 ** 20)\n",
              limits=Limits(memory_mb=512, file_size_mb=2, disk_mb=20))
    out = c.call(limit=20)
    assert out.status == "file-size" and 20 * 2**20 < out.error["disk"] < 2**30
    assert out.seconds < 10


def test_import_failures(child) -> None:
    assert child("raise KeyError('boom')\n").imported.error["type"] == "KeyError"
    assert child("import sys\nsys.exit(2)\n").imported.status == "exit"
    assert child("import os\nos._exit(0)\n").imported.status == "exit"
    slow = child("import time\ntime.sleep(30)\n", import_limit=1.0)
    assert slow.imported.status == "timeout"
    assert child("x = [0] * 10 ** 10\n").imported.status == "memory"


def test_definitions_mode_drops_top_level_experiments(child) -> None:
    source = ("import sys\nsys.setrecursionlimit(5000)\nCACHE = {}\nLIMIT = 2 * 3\n"
              "def cost_MD(a, b, d):\n    return LIMIT + len(CACHE) + sys.getrecursionlimit()\n"
              "print('experiment'); result = cost_MD(0, 0, 0); sys.exit(run())\n"
              "for k in range(10 ** 9):\n    pass\n")
    c = child(source, mode="defs")
    assert c.imported.status == "ok" and c.imported.output == ""
    assert c.call().value["value"] == 6 + 0 + 5000


def test_the_child_sees_a_clean_environment(child, monkeypatch) -> None:
    monkeypatch.setenv("KANON_SECRET", "do-not-leak")
    c = child("import os, sys\n"
              "def cost_MD(a, b, d):\n"
              "    print(sorted(os.environ))\n"
              "    print(os.getcwd(), os.environ['HOME'], os.environ['TMPDIR'])\n"
              "    print(hash('abc'), sys.path)\n"
              "    return 0\n")
    first, second = c.call(), c.call()
    lines = first.output.splitlines()
    assert "KANON_SECRET" not in first.output
    cwd, home, tmp = lines[1].split()
    assert cwd.endswith("case1") and home == cwd and tmp == cwd
    assert lines[2].split()[0] == second.output.splitlines()[2].split()[0]  # fixed hash seed
    child_path = [Path(p) for p in ast.literal_eval(lines[2].split(" ", 1)[1])]
    assert not kit_folders(child_path), child_path


def kit_folders(paths: list[Path]) -> list[Path]:
    """The entries of `paths` inside the kit's checkout, except the interpreter's own
    site-packages: a virtual environment made inside the checkout (the README's `.venv`)
    holds third-party packages such as numpy, not the kit's sources."""
    site = [Path(d).resolve() for d in site_dirs()]
    return [p for p in paths if (p.resolve() == REPO or REPO in p.resolve().parents)
            and p.resolve() not in site]


def test_the_kit_cannot_be_imported_and_its_files_cannot_be_opened(child) -> None:
    manifest = REPO / "grader" / "cases" / "manifest.json"
    c = child("def cost_MD(a, b, d):\n"
              "    for name in ('reference', 'grader'):\n"
              "        try:\n            __import__(name)\n            return -1\n"
              "        except ImportError:\n            pass\n"
              f"    open({str(manifest)!r}).read()\n",
              deny=[REPO / "grader"])
    out = c.call()
    assert out.status == "exception" and out.error["type"] == "PermissionError"
    assert out.forbidden == [str(manifest)]


@pytest.mark.skipif(not bwrap_available(), reason="bubblewrap (bwrap) is not installed")
def test_bubblewrap_hides_files_and_blocks_network_and_writes(child, tmp_path: Path) -> None:
    c = child("import os, socket\n"
              "def cost_MD(a, b, d):\n"
              f"    print(os.listdir({str(REPO / 'grader')!r}))\n"
              "    try:\n        socket.create_connection(('1.1.1.1', 80), timeout=2)\n"
              "    except OSError as e:\n        print('network', e.errno)\n"
              f"    try:\n        open({str(REPO / 'written-by-child')!r}, 'w')\n"
              "    except OSError as e:\n        print('write', e.errno)\n"
              "    open('ok.txt', 'w').write('fine')\n    return 0\n", bwrap=True)
    out = c.call()
    assert out.status == "returned", out
    lines = out.output.splitlines()
    assert lines[0] == "[]"
    assert lines[1].startswith("network ") and lines[2] == "write 30"  # EROFS
    assert not (REPO / "written-by-child").exists()
    assert (c.tmp / "case1" / "ok.txt").read_text() == "fine"


def test_signals_to_the_grader_are_refused(child) -> None:
    c = child("import os, signal\n"
              "def cost_MD(a, b, d):\n"
              "    grader = os.getppid() if a == 1 else -1\n"
              "    if a == 1:\n        grader = int(open(f'/proc/{os.getppid()}/stat').read()"
              ".rsplit(')', 1)[1].split()[1])\n"
              "    os.kill(grader, signal.SIGKILL)\n    return 0\n")
    for which in (1, 2):
        out = c.call(args=(which, 0, 0))
        assert out.status == "exception" and out.error["type"] == "PermissionError"
        assert "(the grader)" in out.forbidden[0]
    assert c.call(args=(1, 0, 0)).forbidden == [f"a signal to process {os.getpid()} (the grader)"]
