"""Nothing a submission starts outlives its case, a killed grader leaves nothing behind, and a
submission's status does not depend on the sandbox mode (issue 15)."""
from __future__ import annotations

import csv
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from grader.sandbox import reaper

from grader import rubric
from grader.commands.grade import grade_class
from grader.grading.batch import BatchSettings
from grader.sandbox import Limits, Session, bwrap_available
from tiny_class import TINY as RUNNER_TINY

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "examples"
# `alone` (tests/kit/conftest.py): the detached daemons' timeout, where a 1 s CPU-time limit
# (the least the kernel enforces: whole seconds) must run out before the daemon's 2 s of sleep
# do. The other daemons are killed when a call returns or its child dies (milliseconds of CPU
# within 2.5 s), and the waits for a grader's children are polls with deadlines of seconds:
# load cannot change their outcome.
NO_BWRAP = "bubblewrap (bwrap) is missing or cannot create namespaces here"
MODES = ["none", pytest.param("bwrap", marks=pytest.mark.skipif(not bwrap_available(),
                                                                 reason=NO_BWRAP))]
DAEMON = """
import os, time
def _daemon(marker, delay=2.5):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            time.sleep(delay)
            with open(marker, "w") as f:
                f.write("still running")
        os._exit(0)
"""


def session(scratch: Path, source: str, mode: str) -> Session:
    (scratch / "sub").mkdir(parents=True)
    (scratch / "import").mkdir()
    (scratch / "sub" / "student.py").write_text(source, encoding="utf-8")
    s = Session(scratch, Limits(memory_mb=512), bwrap_hidden=[REPO / "grader"]
                if mode == "bwrap" else None, deny=[REPO / "grader"])
    imported = s.start(file=scratch / "sub" / "student.py", module="student",
                       paths=[scratch / "sub"], import_cwd=scratch / "import",
                       functions=["cost_MD"], mode="full", import_limit=10,
                       max_call_seconds=5)
    assert imported.status == "ok", imported
    return s


def call(s: Session, scratch: Path, name: str, limit: float = 5.0):
    (scratch / name).mkdir()
    return s.call(case=name, cwd=scratch / name, function="cost_MD", args=[1, 2, 3],
                  time_limit=limit)


def wait_until_gone(folder: Path, seconds: float = 10.0) -> set[int]:
    """Processes still marked with `folder` once they had `seconds` to die (SIGKILL is
    asynchronous); an empty set when none is left."""
    deadline = time.monotonic() + seconds
    while (left := reaper.marked(folder)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_a_setsid_double_fork_does_not_outlive_its_case(tmp_path: Path, mode: str) -> None:
    scratch = tmp_path / "scratch"
    marker = scratch / "late-marker"  # the only folder writable in both modes
    s = session(scratch, DAEMON + f"def cost_MD(a, b, d):\n    _daemon({str(marker)!r})\n"
                f"    return 1.0\n", mode)
    try:
        out = call(s, scratch, "c1")
        assert out.status == "returned" and out.leftover >= 1
        assert s.alive()  # the child serves the next case as before
        assert call(s, scratch, "c2").leftover >= 1
    finally:
        s.close()
    time.sleep(3.5)  # longer than the daemon sleeps before writing
    assert not marker.exists()
    assert wait_until_gone(scratch) == set()


@pytest.mark.alone
@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_a_timeout_kills_the_detached_daemons_too(tmp_path: Path, mode: str) -> None:
    scratch = tmp_path / "scratch"
    marker = scratch / "late-marker"
    s = session(scratch, DAEMON + f"def cost_MD(a, b, d):\n    _daemon({str(marker)!r}, 2.0)\n"
                "    while True:\n        pass\n", mode)
    try:
        assert call(s, scratch, "c1", limit=1.0).status == "timeout"
    finally:
        s.close()
    # the daemon started before the child's 1 s of CPU: it would write within 1 s from here
    time.sleep(2.0)
    assert not marker.exists()
    assert wait_until_gone(scratch) == set()


@pytest.mark.slow
def test_orphans_of_a_child_killed_from_inside_are_killed(tmp_path: Path) -> None:
    scratch = tmp_path / "scratch"
    marker = scratch / "late-marker"
    s = session(scratch, DAEMON + f"def cost_MD(a, b, d):\n    _daemon({str(marker)!r})\n"
                "    time.sleep(0.5)\n    os.kill(os.getppid(), 9)\n    time.sleep(5)\n", "none")
    try:
        out = call(s, scratch, "c1")
        assert out.status == "crash"
    finally:
        s.close()
    time.sleep(3.5)
    assert not marker.exists()
    assert wait_until_gone(scratch) == set()


@pytest.mark.parametrize("mode", MODES)
def test_reading_where_the_grader_runs_is_forbidden(tmp_path: Path, mode: str) -> None:
    s = session(tmp_path / "scratch", "import os\ndef cost_MD(a, b, d):\n"
                "    return len(os.readlink(f'/proc/{os.getppid()}/cwd'))\n", mode)
    try:
        # the case's fork reads where its parent (the child) runs: allowed; then where the
        # grader (or, under bubblewrap, the sandbox's init) runs: refused
        out = call(s, tmp_path / "scratch", "c1")
        assert out.status == "returned" and not out.forbidden  # its own child: allowed
    finally:
        s.close()
    s = session(tmp_path / "scratch2", "import os\ndef cost_MD(a, b, d):\n"
                "    with open(f'/proc/{os.getppid()}/stat') as f:\n"
                "        parent = f.read().rsplit(')', 1)[1].split()[1]\n"
                "    return len(os.readlink(f'/proc/{parent}/cwd'))\n", mode)
    try:
        out = call(s, tmp_path / "scratch2", "c1")
        assert out.status == "exception" and out.error["type"] == "PermissionError"
        assert out.forbidden == ["/proc/<grader>/cwd"]
    finally:
        s.close()


@pytest.mark.parametrize("mode", MODES)
def test_opening_a_hidden_folder_is_forbidden_in_both_modes(tmp_path: Path, mode: str) -> None:
    target = REPO / "grader" / "cases" / "manifest.json"
    s = session(tmp_path / "scratch", f"def cost_MD(a, b, d):\n"
                f"    return len(open({str(target)!r}).read())\n", mode)
    try:
        out = call(s, tmp_path / "scratch", "c1")
        assert out.status == "exception" and out.forbidden == [str(target)]
    finally:
        s.close()


def grades(out: Path) -> dict[str, dict]:
    with open(out / "grades.csv", encoding="utf-8", newline="") as f:
        return {row["student"]: row for row in csv.DictReader(f)}


@pytest.mark.slow
def test_judy_reads_forbidden_in_both_modes(tmp_path: Path) -> None:
    r = rubric.load(EXAMPLES / "rubric.toml", {"run_as": "none"})
    with open(EXAMPLES / "expected-grades.csv", encoding="utf-8", newline="") as f:
        golden = {row["student"]: row for row in csv.DictReader(f)}["judy"]
    modes = ["none"] + (["bwrap"] if bwrap_available() else [])
    for mode in modes:
        grade_class(BatchSettings(EXAMPLES / "submissions", tmp_path / mode, r, jobs=1, sandbox=mode,
                                  progress=False, only=("judy",)))
        assert grades(tmp_path / mode)["judy"] == golden, mode
    if len(modes) == 1:
        pytest.skip(f"judy graded without bubblewrap only: {NO_BWRAP}")


SLEEPER = """\
import os, time
if os.fork() == 0:
    os.setsid()
    time.sleep(120)
    os._exit(0)
time.sleep(120)

def cost_MD(raw_dataset_file, anonymized_dataset_file, DGH_folder):
    return 0.0
"""
TINY = RUNNER_TINY.replace("import_time_limit = 5", "import_time_limit = 120")


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
def test_kill_9_of_the_grader_leaves_nothing_running_and_the_next_run_cleans(
        tmp_path: Path, mode: str) -> None:
    subs, base = tmp_path / "subs", tmp_path / "scratch-base"
    (subs / "sam").mkdir(parents=True)
    (subs / "sam" / "skeleton.py").write_text(SLEEPER, encoding="utf-8")
    base.mkdir()
    (tmp_path / "tiny.toml").write_text(TINY, encoding="utf-8")
    grader = subprocess.Popen(
        [sys.executable, "-m", "grader", "grade", str(subs), "--out", str(tmp_path / "out"),
         "--rubric", str(tmp_path / "tiny.toml"), "--sandbox", mode, "--run-as", "none",
         "--scratch", str(base), "--quiet"], cwd=REPO, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while len(reaper.marked(base)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)  # the child sleeps at import, its daemon too
        started = reaper.marked(base)
        assert len(started) >= 2
        children = {p for p in started if (reaper._stat(p) or ("", 0))[1] == grader.pid}
    finally:
        grader.send_signal(signal.SIGKILL)
        grader.wait()
    stale = [p for p in base.iterdir() if p.name.startswith("kanon-grader-")]
    assert len(stale) == 1 and (stale[0] / reaper.OWNER_FILE).is_file()
    if mode == "none":  # the child dies with the grader, after killing its detached daemon
        assert children and not any(_alive_after(p, 10.0) for p in children)
    assert wait_until_gone(base) == set()  # bwrap: the PID namespace dies with the sandbox
    live = base / "kanon-grader-live"  # a folder whose owner runs: never removed
    live.mkdir()
    reaper.claim(live)
    (subs / "sam" / "skeleton.py").write_text(SLEEPER.replace("time.sleep(120)", "pass"),
                                              encoding="utf-8")
    r = rubric.load(tmp_path / "tiny.toml", {"run_as": "none"})
    grade_class(BatchSettings(subs, tmp_path / "out", r, jobs=1, sandbox=mode, scratch=base, progress=False))
    assert not stale[0].exists() and live.is_dir()
    assert wait_until_gone(base) == set()
    assert "sam" in grades(tmp_path / "out")


def _alive_after(pid: int, seconds: float) -> bool:
    """Whether `pid` still runs (not a zombie) after up to `seconds` of waiting for it to die."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        info = reaper._stat(pid)
        if info is None or info[0] in ("Z", "X"):
            return False
        time.sleep(0.05)
    return True


@pytest.mark.skipif(not bwrap_available(), reason=NO_BWRAP)
def test_under_bubblewrap_a_child_has_no_network(tmp_path: Path) -> None:
    """Checked locally: the interfaces the child sees, and a connection to a listener this
    test opened on loopback (no traffic leaves the machine)."""
    import socket
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        port = listener.getsockname()[1]
        s = session(tmp_path / "scratch", "import socket\ndef cost_MD(a, b, d):\n"
                    "    names = sorted(name for _, name in socket.if_nameindex())\n"
                    "    try:\n"
                    f"        socket.create_connection(('127.0.0.1', {port}), timeout=2)\n"
                    "    except OSError as e:\n"
                    "        raise RuntimeError(f'{names} {type(e).__name__}')\n"
                    "    raise RuntimeError(f'{names} connected')\n", "bwrap")
        try:
            out = call(s, tmp_path / "scratch", "c1")
        finally:
            s.close()
    assert out.status == "exception"
    assert out.error["message"] == "['lo'] ConnectionRefusedError"


def test_only_scratch_folders_of_dead_runs_are_removed(tmp_path: Path) -> None:
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    dead_pid = int(gone.stdout)
    folders = {name: tmp_path / name for name in (
        "kanon-grader-dead", "kanon-grader-reused", "kanon-grader-live", "kanon-grader-old",
        "kanon-alice-dead", "other-dead")}
    for folder in folders.values():
        folder.mkdir()
        (folder / "file").write_text("x")
    own = reaper.start_time(os.getpid())
    namespace = os.readlink("/proc/self/ns/pid")
    for name in ("kanon-grader-dead", "kanon-alice-dead", "other-dead"):
        (folders[name] / reaper.OWNER_FILE).write_text(f"{dead_pid} 1 {namespace}\n")
    parent = os.getppid()  # alive, but not the process that started at the recorded time
    (folders["kanon-grader-reused"] / reaper.OWNER_FILE).write_text(
        f"{parent} {reaper.start_time(parent) + 1} {namespace}\n")
    reaper.claim(folders["kanon-grader-live"])  # this process: alive
    # kanon-grader-old has no owner file (an older grader's): never removed
    if reaper.start_time(dead_pid) is None:  # (unless its pid was reused meanwhile)
        removed = reaper.remove_stale(tmp_path)
        assert sorted(p.name for p in removed) == ["kanon-alice-dead", "kanon-grader-dead",
                                                   "kanon-grader-reused"]
    assert folders["kanon-grader-live"].is_dir() and folders["kanon-grader-old"].is_dir()
    assert folders["other-dead"].is_dir()
    assert reaper.owner_alive(folders["kanon-grader-live"])
    assert own is not None and not folders["kanon-grader-reused"].exists()


def test_a_platform_without_subreaper_is_named_in_the_warnings(tmp_path: Path,
                                                                monkeypatch) -> None:
    (tmp_path / "subs" / "sam").mkdir(parents=True)
    (tmp_path / "subs" / "sam" / "skeleton.py").write_text(
        "def cost_MD(raw_dataset_file, anonymized_dataset_file, DGH_folder):\n    return 0.0\n")
    (tmp_path / "tiny.toml").write_text(TINY, encoding="utf-8")
    r = rubric.load(tmp_path / "tiny.toml", {"run_as": "none"})
    monkeypatch.setattr(reaper, "subreaper_supported", lambda: False)
    result = grade_class(BatchSettings(tmp_path / "subs", tmp_path / "out", r, sandbox="none", progress=False))
    assert [w for w in result.warnings if "no child subreaper" in w]
    monkeypatch.undo()
    result = grade_class(BatchSettings(tmp_path / "subs", tmp_path / "out2", r, sandbox="none", progress=False))
    assert not [w for w in result.warnings if "subreaper" in w]
