"""run_as: a grader running as root starts student code as an unprivileged user (`nobody`),
so files only root may read (hidden cases, results) stay closed even to code that goes around
the audit hook (ctypes), and the kernel applies the process limit.

The tests that start children as `nobody` need root and a Python >= 3.11 that `nobody` can
run: the test interpreter when it lies in a readable place, else a system one (pyenv under
/root or a venv in a private temporary folder is not). They do not use bubblewrap."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from grader import rubric as rubric_mod
from grader.errors import UserError
from grader.grading.host import resolve_run_as
from grader.sandbox import Limits, RunAs, Session, landlock_available, python_problem

ROOT = os.geteuid() == 0
as_root = pytest.mark.skipif(not ROOT, reason="only root can start a child as another user; "
                                              "as an ordinary user run_as has no effect")
SECRET = "the-expected-output-nobody-may-read"
FUNCS = ["cost_MD", "cost_LM", "mondrian"]
SOLUTION = f"""
import ctypes, os
def cost_MD(a, b, d):
    return float(os.getuid() * 1000 + len(os.getgroups()))
def cost_LM(path, mode, d):
    libc = ctypes.CDLL(None)          # around the audit hook: straight to the C library
    libc.open.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.c_int]
    fd = libc.open(path.encode(), mode, 0o644)
    if fd < 0:
        return -1.0
    if mode == os.O_RDONLY:
        data = os.read(fd, 1000)
        print(data.decode())
        return float(len(data))
    return float(fd)
def mondrian(raw, dgh, k, out):
    if k == 1:
        return os.read(os.open(raw, os.O_RDONLY), 1000).decode()   # raises PermissionError
    with open(out, "w") as f:
        f.write("a,b\\n1,2\\n")
"""


def _python_for(run_as: RunAs, folder: Path) -> str | None:
    """A Python >= 3.11 that `run_as` can start (the test's own if possible)."""
    names = [sys.executable] + [shutil.which(n, path="/usr/local/bin:/usr/bin:/bin") or ""
                                for n in ("python3.13", "python3.12", "python3.11", "python3")]
    for python in names:
        if not python:
            continue
        try:
            new = subprocess.run([python, "-c", "import sys; sys.exit(sys.version_info < (3, 11))"],
                                 capture_output=True, timeout=30).returncode == 0
        except OSError:
            continue
        if new and python_problem(run_as, folder, python) is None:
            return python
    return None


@pytest.fixture
def reachable(tmp_path: Path):
    """A scratch folder `nobody` can pass through (pytest's own tmp_path is root-only)."""
    base = Path(tempfile.mkdtemp(prefix="kanon-runas-test-"))
    base.chmod(0o711)
    yield base
    shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def nobody(reachable: Path) -> tuple[RunAs, str]:
    run_as = RunAs.lookup("nobody")
    if run_as is None:
        pytest.fail("the test machine has no user `nobody`")
    python = _python_for(run_as, reachable)
    if python is None:
        pytest.skip("no Python >= 3.11 that `nobody` can run here (see "
                    "test_auto_falls_back_when_the_user_cannot_run_python)")
    return run_as, python


def _session(scratch: Path, run_as: RunAs | None, python: str,
             landlock: bool = False) -> Session:
    scratch.mkdir()
    (scratch / "sub").mkdir()
    (scratch / "sub" / "student.py").write_text(SOLUTION, encoding="utf-8")
    (scratch / "import").mkdir()
    session = Session(scratch, Limits(memory_mb=1024), run_as=run_as, python=python,
                      landlock=landlock)
    imported = session.start(file=scratch / "sub" / "student.py", module="student",
                             paths=[scratch / "sub"], import_cwd=scratch / "import",
                             functions=FUNCS, mode="full", import_limit=20, max_call_seconds=20)
    assert imported.status == "ok", imported
    return session


def _call(session: Session, scratch: Path, n: int, function: str, args: list):
    cwd = scratch / f"case-{n}"
    cwd.mkdir()
    (cwd / "input.csv").write_text("a,b\n1,2\n", encoding="utf-8")  # copied by the grader
    return session.call(case=f"c{n}", cwd=cwd, function=function, args=args, time_limit=20), cwd


@as_root
def test_child_runs_as_nobody_writes_its_folder_and_cannot_read_root_files(
        nobody, reachable: Path) -> None:
    run_as, python = nobody
    secret_dir = reachable / "cases"  # searchable by all: only the file's mode protects it
    secret_dir.mkdir(mode=0o755)
    secret = secret_dir / "expected.csv"
    secret.write_text(SECRET, encoding="utf-8")
    secret.chmod(0o600)
    results = reachable / "results"  # like /autograder/results: root's, not writable
    results.mkdir(mode=0o755)
    scratch = reachable / "scratch"
    session = _session(scratch, run_as, python)
    try:
        assert scratch.stat().st_uid == 0 and scratch.stat().st_mode & 0o777 == 0o711
        for sub in ("home", "tmp", "import"):
            assert (scratch / sub).stat().st_uid == run_as.uid
        who, _ = _call(session, scratch, 1, "cost_MD", [0, 0, 0])
        assert who.status == "returned"
        assert who.value["value"] == run_as.uid * 1000  # not root, no supplementary groups
        wrote, cwd = _call(session, scratch, 2, "mondrian", ["input.csv", "DGHs", 4, "out.csv"])
        assert wrote.status == "returned"
        assert (cwd / "out.csv").read_text() == "a,b\n1,2\n"  # the grader still reads it
        assert (cwd / "out.csv").stat().st_uid == run_as.uid
        assert (cwd / "input.csv").stat().st_uid == run_as.uid
        read, _ = _call(session, scratch, 3, "cost_LM", [str(secret), os.O_RDONLY, 0])
        assert read.status == "returned" and read.value["value"] == -1.0  # ctypes: EACCES
        direct, _ = _call(session, scratch, 4, "mondrian", [str(secret), "DGHs", 1, "o.csv"])
        assert direct.status == "exception" and direct.error["type"] == "PermissionError"
        write, _ = _call(session, scratch, 5, "cost_LM",
                         [str(results / "results.json"), os.O_WRONLY | os.O_CREAT, 0])
        assert write.status == "returned" and write.value["value"] == -1.0
        assert not (results / "results.json").exists()
        for outcome in (read, direct, write):
            assert SECRET not in outcome.output and SECRET not in repr(outcome.error)
    finally:
        session.close()
    # the same code as root reads the file: what run_as stops is real
    control_scratch = reachable / "control"
    control = _session(control_scratch, None, python)
    try:
        leaked, _ = _call(control, control_scratch, 1, "cost_LM", [str(secret), os.O_RDONLY, 0])
        assert leaked.status == "returned" and leaked.value["value"] == len(SECRET)
        assert SECRET in leaked.output
    finally:
        control.close()


@as_root
@pytest.mark.skipif(not landlock_available(), reason="this kernel offers no Landlock")
def test_landlock_also_confines_a_child_that_runs_as_nobody(nobody, reachable: Path) -> None:
    """The child switches to `nobody` first (Popen), then confines itself: a world-readable
    file outside its scratch folder, which `nobody` may read, stays closed."""
    run_as, python = nobody
    decoy = reachable / "other-course.csv"
    decoy.write_text(SECRET, encoding="utf-8")
    decoy.chmod(0o644)
    scratch = reachable / "scratch"
    session = _session(scratch, run_as, python, landlock=True)
    try:
        who, _ = _call(session, scratch, 1, "cost_MD", [0, 0, 0])
        assert who.status == "returned" and who.value["value"] == run_as.uid * 1000
        read, _ = _call(session, scratch, 2, "cost_LM", [str(decoy), os.O_RDONLY, 0])
        assert read.status == "returned" and read.value["value"] == -1.0, read
        assert SECRET not in read.output and session.layers["files"]
    finally:
        session.close()


@as_root
def test_a_planted_link_is_not_followed_when_folders_are_handed_over(nobody, reachable) -> None:
    run_as, _ = nobody
    target = reachable / "root-file"
    target.write_text("x", encoding="utf-8")
    case = reachable / "case"
    (case / "DGHs").mkdir(parents=True)
    (case / "DGHs" / "a.txt").write_text("a", encoding="utf-8")
    (case / "link").symlink_to(target)
    run_as.give(case)
    assert {p.lstat().st_uid for p in [case, *case.rglob("*")]} == {run_as.uid}
    assert target.stat().st_uid == 0  # the link itself changed owner, not what it points to


@as_root
def test_auto_means_nobody_and_none_keeps_root(reachable: Path) -> None:
    warnings: list[str] = []
    assert resolve_run_as("none", reachable, warnings) is None
    assert resolve_run_as("", reachable, warnings) is None and warnings == []
    auto = resolve_run_as("auto", reachable, warnings)
    nobody = RunAs.lookup("nobody")
    if python_problem(nobody, reachable) is None:
        assert auto == nobody and warnings == []
    else:  # this interpreter is out of nobody's reach (e.g. pyenv under /root)
        assert auto is None and len(warnings) == 1 and "runs as root" in warnings[0]


@as_root
def test_auto_falls_back_when_the_user_cannot_run_python(monkeypatch, reachable: Path) -> None:
    import grader.grading.host as host
    monkeypatch.setattr(host, "python_problem", lambda run_as, folder: "Permission denied")
    warnings: list[str] = []
    assert resolve_run_as("auto", reachable, warnings) is None
    assert warnings and "cannot run" in warnings[0] and "runs as root" in warnings[0]
    assert "--run-as none" in warnings[0] and "readable for nobody" in warnings[0]
    with pytest.raises(UserError, match="nobody: user 'nobody' cannot run"):
        resolve_run_as("nobody", reachable, [])
    monkeypatch.setattr(host.RunAs, "lookup", classmethod(lambda cls, name: None))
    warnings = []
    assert resolve_run_as("auto", reachable, warnings) is None
    assert "there is no user 'nobody'" in warnings[0]
    assert "--run-as USER" in warnings[0] and "--run-as none" in warnings[0]
    with pytest.raises(UserError, match="no user 'kanon-no-such-user'"):
        resolve_run_as("kanon-no-such-user", reachable, [])


@as_root
def test_root_by_name_is_refused(reachable: Path) -> None:
    with pytest.raises(UserError, match="is root"):
        resolve_run_as("root", reachable, [])


def test_run_as_has_no_effect_for_an_ordinary_user(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    warnings: list[str] = []
    for choice in ("auto", "nobody", "kanon-no-such-user"):
        assert resolve_run_as(choice, tmp_path, warnings) is None
    assert warnings == []


def test_readable_inside_follows_the_mode_bits(tmp_path: Path) -> None:
    stranger = RunAs("stranger", 54321, 54321)
    folder = tmp_path / "cases"
    (folder / "expected").mkdir(parents=True)
    out = folder / "expected" / "a.csv"
    out.write_text("x", encoding="utf-8")
    tmp_path.chmod(0o755)
    for f in (folder, folder / "expected"):
        f.chmod(0o755)
    out.chmod(0o644)
    probe = RunAs("probe", 54321, 54321)
    above_ok = all(probe.can(p.stat(), 1) for p in tmp_path.parents)
    assert stranger.readable_inside(folder) == (out if above_ok else None)
    out.chmod(0o600)
    assert stranger.readable_inside(folder) is None
    out.chmod(0o644)
    folder.chmod(0o700)  # what run_autograder's chmod -R go-rwx does
    assert stranger.readable_inside(folder) is None
    owner = RunAs("owner", os.getuid(), os.getgid())
    assert owner.readable_inside(tmp_path / "cases") is not None or not above_ok


@pytest.mark.parametrize("value", ["bad user", "a/b", 5, "x" * 40])
def test_the_rubric_checks_run_as(tmp_path: Path, value) -> None:
    text = rubric_mod.DEFAULT_RUBRIC.read_text(encoding="utf-8")
    shown = f'"{value}"' if isinstance(value, str) else str(value)
    path = tmp_path / "rubric.toml"
    path.write_text(text.replace("[settings]", f"[settings]\nrun_as = {shown}", 1),
                    encoding="utf-8")
    with pytest.raises(UserError, match=r"settings\.run_as: expected a user name"):
        rubric_mod.load(path)


def test_run_as_setting_and_override() -> None:
    assert rubric_mod.load().settings.run_as == "auto"
    assert rubric_mod.load(None, {"run_as": ""}).settings.run_as == ""
    assert rubric_mod.load(None, {"run_as": "grader-kids"}).settings.run_as == "grader-kids"
    assert rubric_mod.load(None, {"run_as": None}).settings.run_as == "auto"


def test_cli_rejects_a_bad_run_as(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "grader", "grade", str(tmp_path), "--out",
                           str(tmp_path / "out"), "--run-as", "bad user"],
                          cwd=Path(__file__).resolve().parents[3], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2 and "settings.run_as" in done.stderr
    assert "Traceback" not in done.stderr
