"""The grader's sandbox: every misbehaviour of student code gets its own status, limits hold,
the child sees a clean environment and never the grader's files."""
from __future__ import annotations

import ast
import os
import time
from pathlib import Path

import pytest

from grader.sandbox import Limits, Session, bwrap_available, landlock_available, site_dirs

REPO = Path(__file__).resolve().parents[3]
FUNCS = ["cost_MD", "mondrian"]
# `alone` (tests/kit/conftest.py: no other worker runs a test meanwhile): the tests where a
# child must burn CPU up to its CPU-time limit before a wall-clock bound a few seconds away
# (a 1 s limit and its 5 s backstop, a statement's 1 s and 3 s, a grandchild's 2 s), or must
# start within a few seconds. The others' limits are never reached, or reached by waiting
# (a sleep), or leave seconds of margin for milliseconds of CPU: load cannot change them.


class Child:
    """A session on a module written from `source`, calls run in fresh case folders."""

    def __init__(self, tmp: Path, source: str, *, mode: str = "full", import_limit: float = 5,
                 limits: Limits = Limits(memory_mb=512, output_kb=2), deny=(), bwrap=False,
                 landlock=False):
        self.tmp = tmp
        (tmp / "sub").mkdir(parents=True, exist_ok=True)
        (tmp / "sub" / "student.py").write_text(source, encoding="utf-8")
        (tmp / "import").mkdir()
        self.session = Session(tmp, limits, deny=list(deny),
                               bwrap_hidden=[REPO / "grader"] if bwrap else None,
                               landlock=landlock)
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


@pytest.mark.alone
@pytest.mark.slow
def test_timeout_kills_the_whole_process_group(child, tmp_path: Path) -> None:
    marker = tmp_path / "still-alive"
    c = child("import subprocess, sys, time\n"
              "def cost_MD(a, b, d):\n"
              f"    code = 'import time; time.sleep(2); open(%r, \"w\")' % {str(marker)!r}\n"
              "    subprocess.Popen([sys.executable, '-c', code])\n"
              "    while True: pass\n")
    start = time.monotonic()
    out = c.call(limit=1.0)
    assert out.status == "timeout"
    assert time.monotonic() - start < 3
    assert not c.session.alive()
    # the grandchild started before the child's 1 s of CPU: it would write within ~1 s
    time.sleep(2.5)
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


@pytest.mark.slow
def test_import_failures(child) -> None:
    assert child("raise KeyError('boom')\n").imported.error["type"] == "KeyError"
    assert child("import sys\nsys.exit(2)\n").imported.status == "exit"
    assert child("import os\nos._exit(0)\n").imported.status == "exit"
    slow = child("import time\ntime.sleep(30)\n", import_limit=0.5)
    assert slow.imported.status == "timeout"
    assert child("x = [0] * 10 ** 10\n").imported.status == "memory"


@pytest.mark.alone
@pytest.mark.slow
def test_retry_runs_statements_one_at_a_time_and_says_what_it_left_out(child) -> None:
    source = ("import sys\nsys.setrecursionlimit(5000)\nCACHE = {}\nLIMIT = 2 * 3\n"
              "def cost_MD(a, b, d):\n    return LIMIT + len(CACHE) + sys.getrecursionlimit()\n"
              "print('experiment'); result = cost_MD(0, 0, 0); sys.exit(run())\n"
              "for k in range(10 ** 9):\n    pass\n"
              "TABLE = {v: i for i, v in enumerate('abc')}\n")
    c = child(source, mode="retry", import_limit=2)
    assert c.imported.status == "ok" and c.imported.output == "experiment\n"
    assert [(d["lines"], d["reason"]) for d in c.imported.dropped] == [
        ([7, 7], "it runs cost_MD (an experiment)"),
        ([7, 7], "it raised NameError: name 'run' is not defined"),
        ([8, 9], "it used more than 1 s of CPU time")]
    assert c.call().value["value"] == 6 + 0 + 5000


COURSE_SKELETON_CLI = """from __future__ import annotations
import sys
if sys.version_info[0] < 3 or sys.version_info[1] < 5:
    sys.stdout.write("Requires Python 3.x.\\n")
    sys.exit(1)
if sys.version_info < (3, 9):
    sys.exit("needs 3.9")
if sys.version_info >= (3, 11):
    sys.exit("tested on 3.10 only")
RATE: float = 1.5


def cost_MD(raw_dataset_file: str, anonymized_dataset_file: str, DGH_folder: str) -> float:
    return RATE * 2


if len(sys.argv) < 6:
    print(f"Usage: python3 {sys.argv[0]} algorithm DGH-folder raw-dataset.csv anonymized.csv k")
    sys.exit(1)
algorithm = sys.argv[1]
dgh_path = sys.argv[2]
k = int(sys.argv[5])
function = eval(f"{algorithm}_anonymizer")
function(sys.argv[3], dgh_path, k, sys.argv[4])
if __name__ == "__main__":
    raise SystemExit(main())
"""


def test_the_course_skeletons_module_level_command_line_is_left_out(child) -> None:
    first = child(COURSE_SKELETON_CLI)
    assert first.imported.status == "exit"
    c = child(COURSE_SKELETON_CLI, mode="retry")
    assert c.imported.status == "ok" and c.imported.output == ""
    got = [(d["lines"][0], d["reason"]) for d in c.imported.dropped]
    assert got == [(8, "it called sys.exit / exit (code 'tested on 3.10 only')"),
                   (17, "it reads the command line (sys.argv)"),
                   (20, "it reads the command line (sys.argv)"),
                   (21, "it reads the command line (sys.argv)"),
                   (22, "it reads the command line (sys.argv)"),
                   (23, "it raised NameError: name 'algorithm' is not defined"),
                   (24, "it reads the command line (sys.argv)"),
                   (25, 'the `if __name__ == "__main__":` block')]
    assert c.call().value["value"] == 3.0


def test_only_the_allowed_packages_can_be_imported(child, tmp_path: Path) -> None:
    refused = child("import pytest\n")
    assert refused.imported.error["type"] == "ModuleNotFoundError"
    assert refused.imported.error["message"] == (
        "pytest is not available: this course allows only numpy and the standard library")
    c = child("import numpy as np, json\nimport pytest as pt\n"
              "def cost_MD(a, b, d):\n    return float(np.float64(2.5))\n"
              "def mondrian(a, b, k, o):\n    import _pytest\n", mode="retry")
    assert [d["binds"] for d in c.imported.dropped] == [["pt"]]
    assert c.call().value["value"] == 2.5
    inside = c.call("mondrian", (1, 2, 3, 4))
    assert inside.error["message"].startswith("_pytest is not available")
    helper = tmp_path / "own"
    (helper / "sub").mkdir(parents=True)
    (helper / "sub" / "mytools.py").write_text("VALUE = 4.0\n")
    own = Child(helper, "import mytools\ndef cost_MD(a, b, d):\n    return mytools.VALUE\n")
    try:
        assert own.call().value["value"] == 4.0  # the student's own modules are allowed
    finally:
        own.close()


def test_keyword_arguments_reach_the_parameters_of_that_name(child) -> None:
    c = child("def mondrian(raw_dataset_file, DGH_folder, output_file, k):\n"
              "    return float(k)\n")
    out = c.session.call(case="kw", cwd=c.tmp / "import", function="mondrian", args=[],
                         kwargs={"raw_dataset_file": "r", "DGH_folder": "d", "k": 7,
                                 "output_file": "o"}, time_limit=5)
    assert out.value["value"] == 7.0


@pytest.mark.alone
@pytest.mark.slow
def test_cpu_time_is_measured_and_limits_it(child) -> None:
    c = child("import time\n"
              "def cost_MD(a, b, d):\n    end = time.process_time() + 0.3\n"
              "    while time.process_time() < end: pass\n    return 1.0\n"
              "def mondrian(a, b, k, o):\n    while True: pass\n")
    fine = c.call()
    assert fine.status == "returned" and 0.3 <= fine.cpu_seconds < 1.0
    spin = c.call("mondrian", (1, 2, 3, 4), limit=1.0)
    assert spin.status == "timeout" and spin.error == {"signal": "SIGXCPU"}  # the kernel's limit
    assert spin.cpu_seconds > 0.5
    sleepy = child("import time\ndef cost_MD(a, b, d):\n    time.sleep(60)\n")
    waited = sleepy.session.call(case="w", cwd=sleepy.tmp / "import", function="cost_MD",
                                 args=[1, 2, 3], time_limit=5, wall_limit=0.5)
    assert waited.status == "timeout" and waited.error == {"wall": True}


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
              "    for name in ('reference', 'grader', 'kanon', 'kanon.cells'):\n"
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


def test_folder_listings_come_in_name_order(child, tmp_path: Path) -> None:
    c = child("import glob, os, pathlib\n"
              "def cost_MD(a, b, d):\n"
              "    for name in ('zeta', 'alpha', 'mid', 'beta'):\n"
              "        open(name + '.txt', 'w').close()\n"
              "    with os.scandir('.') as it:\n"
              "        scanned = [e.name for e in it]\n"
              "    print(os.listdir('.'), glob.glob('*.txt'), scanned,\n"
              "          [p.name for p in pathlib.Path('.').iterdir()], next(os.walk('.'))[2])\n"
              "    return 1.0\n")
    out = c.call()
    names = ["alpha.txt", "beta.txt", "mid.txt", "zeta.txt"]
    assert out.output.strip() == str((names, names, names, names, names)).replace(
        "(", "").replace(")", "").replace("], [", "] [")


@pytest.mark.alone
def test_a_restarted_retry_leaves_out_what_the_first_one_did_without_running_it(
        tmp_path: Path) -> None:
    source = "import time\nSTART = time.time()\ntime.sleep(30)\ndef cost_MD(a, b, d):\n" \
             "    return 2.0\n"
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "student.py").write_text(source, encoding="utf-8")
    (tmp_path / "import").mkdir()
    session = Session(tmp_path, Limits(memory_mb=512))
    try:
        started = time.monotonic()
        imported = session.start(file=tmp_path / "sub" / "student.py", module="student",
                                 paths=[tmp_path / "sub"], import_cwd=tmp_path / "import",
                                 functions=FUNCS, mode="retry", import_limit=5,
                                 max_call_seconds=5, known={3: "it ran for more than 7.5 s"})
        assert time.monotonic() - started < 5  # the sleep did not run again
        assert [(d["lines"], d["reason"]) for d in imported.dropped] == [
            ([3, 3], "it ran for more than 7.5 s")]
    finally:
        session.close()


LANDLOCK = pytest.mark.skipif(not landlock_available(),
                              reason="this kernel offers no Landlock (Linux 5.13+ with landlock "
                                     "in its lsm= list)")
# The student's code goes around Python (the C library through ctypes; no call the audit hook
# sees): read a world-readable decoy outside its scratch folder, create a file outside it,
# connect to a listener on 127.0.0.1, signal the grader, open a UDP socket. Each attempt's
# errno (0: it worked); in a call with a != 0, from a forked grandchild in its own session.
ATTEMPTS = """import ctypes, json, os, socket
libc = ctypes.CDLL(None, use_errno=True)
def attempts(decoy, outside, port, grader):
    found = {}
    fd = libc.open(decoy.encode(), os.O_RDONLY)
    found['read'] = ctypes.get_errno() if fd < 0 else 0
    fd = libc.open(outside.encode(), os.O_WRONLY | os.O_CREAT, 0o644)
    found['write'] = ctypes.get_errno() if fd < 0 else 0
    found['connect'] = socket.socket().connect_ex(('127.0.0.1', port))
    found['signal'] = ctypes.get_errno() if libc.kill(grader, 0) != 0 else 0
    try:
        socket.socket(socket.AF_INET, socket.SOCK_DGRAM).close()
        found['udp'] = 0
    except OSError as e:
        found['udp'] = e.errno
    return found
def mondrian(decoy, outside, port, grader):
    if os.fork() == 0:
        os.setsid()
        with open('grandchild.json', 'w') as f:
            json.dump(attempts(decoy, outside, port, grader), f)
        os._exit(0)
    os.wait()
    return json.load(open('grandchild.json'))
def cost_MD(decoy, outside, port, grader):
    return attempts(decoy, outside, port, grader)
"""


@pytest.mark.parametrize("landlock", [pytest.param(True, marks=LANDLOCK), False])
@pytest.mark.parametrize("function", ["cost_MD", "mondrian"])
def test_landlock_keeps_ctypes_code_from_files_network_and_the_grader(
        child, tmp_path: Path, landlock: bool, function: str) -> None:
    import socket
    decoy = tmp_path / "other-course" / "cases" / "hidden" / "expected.csv"
    decoy.parent.mkdir(parents=True)
    decoy.write_text("the answers of another course\n")
    for folder in (decoy.parent, decoy.parent.parent, decoy.parent.parent.parent, tmp_path):
        folder.chmod(0o755)
    decoy.chmod(0o644)  # world-readable: only the sandbox can keep it from the child
    outside = tmp_path / "outside" / "written.txt"
    outside.parent.mkdir()
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.setblocking(False)
        c = child(ATTEMPTS, landlock=landlock)
        out = c.call(function, (str(decoy), str(outside), listener.getsockname()[1],
                                os.getpid()))
        assert out.status == "returned", out
        found = ast.literal_eval(out.value["repr"])
        try:
            listener.accept()[0].close()
            reached = True
        except BlockingIOError:
            reached = False
    if not landlock:  # the same code, unconfined, gets everywhere: the test can fail
        assert found == dict.fromkeys(found, 0) and outside.exists() and reached
        return
    assert found["read"] == found["write"] == found["connect"] == 13  # EACCES
    assert found["signal"] == 1 and found["udp"] == 13  # EPERM: outside its domain
    assert not outside.exists() and not reached
    assert c.session.layers == {"landlock": c.session.layers["landlock"], "files": True,
                                "tcp": True, "signals": True, "abstract-sockets": True,
                                "other-sockets": True}


@LANDLOCK
def test_landlock_lets_numpy_the_scratch_folder_and_subprocesses_work(child) -> None:
    c = child("import numpy, subprocess, sys, tempfile\n"
              "def cost_MD(a, b, d):\n"
              "    open('here.txt', 'w').write('mine')\n"
              "    with tempfile.NamedTemporaryFile() as f:\n        f.write(b'x')\n"
              "    done = subprocess.run([sys.executable, '-c', 'print(6 * 7)'],\n"
              "                          capture_output=True, text=True)\n"
              "    return float(numpy.arange(5).sum()) + int(done.stdout)\n", landlock=True)
    assert c.imported.status == "ok", c.imported
    out = c.call()
    assert out.status == "returned" and out.value["value"] == 52.0, out
    assert (c.tmp / "case1" / "here.txt").read_text() == "mine"


def test_sandbox_auto_falls_back_to_landlock_then_none_with_a_warning(monkeypatch) -> None:
    from grader.errors import UserError
    from grader.grading import host
    monkeypatch.setattr(host, "bwrap_available", lambda run_as=None: False)
    monkeypatch.setattr(host, "landlock_available", lambda: True)
    warnings: list[str] = []
    assert host.sandbox_mode("auto", None, warnings) == "landlock" and warnings == []
    monkeypatch.setattr(host, "landlock_available", lambda: False)  # an older kernel
    assert host.sandbox_mode("auto", None, warnings) == "none"
    assert warnings == [host.UNCONFINED]
    assert "neither bubblewrap nor Landlock" in warnings[0]
    for unconfined in ("read every world-readable file", "write wherever", "use the network",
                       "signal"):
        assert unconfined in warnings[0]
    with pytest.raises(UserError, match="--sandbox landlock: this kernel offers no Landlock"):
        host.sandbox_mode("landlock")


def test_sandbox_landlock_without_landlock_is_a_one_line_error(tmp_path: Path, monkeypatch,
                                                               capsys) -> None:
    from grader import cli
    from grader.grading import host
    monkeypatch.setattr(host, "landlock_available", lambda: False)
    subs = tmp_path / "subs"
    subs.mkdir()
    (subs / "alice.py").write_text("def cost_MD(a, b, d):\n    return 0\n")
    status = cli.main(["grade", str(subs), "--out", str(tmp_path / "out"), "--rubric",
                       str(REPO / "examples" / "rubric.toml"), "--sandbox", "landlock",
                       "--quiet"])
    err = capsys.readouterr().err.splitlines()
    assert status == 2 and len(err) == 1 and err[0].startswith("error: --sandbox landlock: ")
    assert not (tmp_path / "out").exists()


def test_landlock_rules_name_numpy_but_never_the_checkout_or_a_whole_site_folder(
        tmp_path: Path) -> None:
    import numpy
    from grader.sandbox.confinement import landlock_rules
    rules = landlock_rules(tmp_path, ["numpy"], site_dirs())
    reachable = [Path(p) for p in rules["read"] + rules["files"] + rules["write"]]
    cases = REPO / "grader" / "cases"
    assert not [p for p in reachable if p == cases or p in cases.parents]  # nor the checkout
    assert not set(site_dirs()) & set(rules["read"]) and set(site_dirs()) <= set(rules["list"])
    assert str(Path(numpy.__file__).resolve().parent) in rules["read"]
    assert rules["write"] == [str(tmp_path.resolve())]


@LANDLOCK
def test_a_child_that_cannot_confine_itself_runs_no_student_code(child, monkeypatch) -> None:
    from grader.sandbox import session
    monkeypatch.setattr(session, "landlock_rules", lambda *args: {
        "read": [], "list": [], "files": [], "write": ["/nonexistent-kanon-scratch"]})
    c = child("open('ran.txt', 'w').write('imported')\n", landlock=True)
    assert c.imported.status == "crash" and not (c.tmp / "import" / "ran.txt").exists()
    assert "could not confine itself" in c.imported.error["grader_error"]
    assert "/nonexistent-kanon-scratch is missing" in c.imported.error["grader_error"]
    # graded: a grader-error record for the TA, not a verdict on the student
    from grader.commands.grade import grade_class
    from grader.grading.batch import BatchSettings
    from tiny_class import student, tiny_rubric
    student(c.tmp / "subs" / "amy", "1.0", "2.0")
    result = grade_class(BatchSettings(c.tmp / "subs", c.tmp / "out", tiny_rubric(c.tmp), jobs=1,
                                       sandbox="landlock", progress=False))
    assert [r["status"] for r in result.records] == ["grader-error"]
