"""Grading on a Dask cluster (`grade --cluster`): a real scheduler and `dask worker` processes
on 127.0.0.1 only (no dashboard), started by the tests (grader.grading.executors.cluster_local).

The example class, graded once while one of the workers is killed (kill -9) mid-batch, gives
exactly examples/expected-grades.csv, each submission once; a worker with another grader
fingerprint is refused (test hook: the KANON_WORKER_FINGERPRINT variable,
grader.grading.executors.cluster_task), and alone it is one error line; a submission that kills
its workers becomes a grader-error after the scheduler's allowed-failures. Without Dask
these tests skip, saying so; the import checks run always.
"""
from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tiny_class import answers, student, tiny_rubric

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "examples"
NO_DASK = "Dask is not installed (pip install -e \".[cluster]\"): the cluster tests need it"


def read(path: Path) -> list[dict]:
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def grade_cmd(subs: Path, out: Path, rubric: Path, address: str, *extra: str) -> list[str]:
    return [sys.executable, "-m", "grader", "grade", str(subs), "--out", str(out), "--rubric",
            str(rubric), "--sandbox", "none", "--run-as", "none", "--cluster", address, *extra]


def grade_here(capsys, *args) -> tuple[int, str]:
    """`grade_cmd(*args)` run in this process, the coordinator without a program of its own
    (the command line itself runs as a program in the tests of the error line, the killed
    worker and the course folder): its exit status and stderr."""
    from grader import cli
    capsys.readouterr()
    status = cli.main(grade_cmd(*args)[3:])
    return status, capsys.readouterr().err


@pytest.mark.slow
def test_the_cli_and_a_local_grade_never_import_dask(tmp_path: Path) -> None:
    r = tiny_rubric(tmp_path)  # a one-student class: what is graded does not matter here
    student(tmp_path / "subs" / "ann", "1.0", "2.0")
    code = ("import sys; from grader import cli\n"
            f"assert cli.main(['grade', {str(tmp_path / 'subs')!r}, '--out', "
            f"{str(tmp_path / 'out')!r}, '--rubric', {str(r.path)!r}, "
            "'--sandbox', 'none', '--quiet']) == 0\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_without_dask_the_cluster_option_says_how_to_install_it(tmp_path: Path) -> None:
    block = ("import sys\nclass NoDask:\n    def find_spec(self, name, path=None, target=None):\n"
             "        if name.split('.')[0] in ('dask', 'distributed'):\n"
             "            raise ImportError('no ' + name)\n"
             "sys.meta_path.insert(0, NoDask())\nfrom grader import cli\n"
             f"sys.exit(cli.main(['grade', {str(EXAMPLES / 'submissions')!r}, '--out', "
             f"{str(tmp_path / 'out')!r}, '--cluster', 'tcp://127.0.0.1:9']))\n")
    done = subprocess.run([sys.executable, "-c", block], cwd=REPO, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr == ("error: --cluster tcp://127.0.0.1:9: Dask is not installed; "
                           "install it with pip install -e \".[cluster]\"\n")
    assert not (tmp_path / "out").exists()


QUIET = {"DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED": "False",
         "DASK_DISTRIBUTED__ADMIN__TICK__INTERVAL": "2s",
         "DASK_DISTRIBUTED__ADMIN__SYSTEM_MONITOR__INTERVAL": "10s",
         "DASK_DISTRIBUTED__ADMIN__SYSTEM_MONITOR__DISK": "False",
         "DASK_DISTRIBUTED__SCHEDULER__WORK_STEALING": "False",
         "DASK_DISTRIBUTED__WORKER__MEMORY__MONITOR_INTERVAL": "1s"}
"""The cluster's processes while they wait (60% less idle CPU): no statistical profiler
sampling every worker's threads; the event loop's tick, the system monitor (dashboard figures,
without the disk's) and the workers' and nannies' memory checked seldom; no work stealing (the
grader has no more tasks in flight than the workers have threads: none waits to be stolen).
What is graded, and how a death or a refusal is handled, is unchanged."""
ONE_RETRY = {"DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "1", **QUIET}
"""The scheduler's allowed failures: a task survives one worker's death (a worker killed
mid-batch), the second makes it a grader-error (a submission that kills its workers)."""


ODD = {"KANON_WORKER_FINGERPRINT": "0.9.0+other", **QUIET}
"""A worker claiming another grader's sources (the test hook of cluster_task)."""


@pytest.fixture(scope="module")
def lonely(tmp_path_factory):
    """The module's scheduler with one worker only, which claims another grader's sources
    (worker-0; no nanny: it is never killed); `cluster` adds the matching workers."""
    pytest.importorskip("distributed", reason=NO_DASK)
    from grader.grading.executors.cluster_local import LoopbackCluster
    running = LoopbackCluster(tmp_path_factory.mktemp("cluster"), scheduler_env=ONE_RETRY)
    try:
        running.add_worker(env=ODD, nanny=False)
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def cluster(lonely):
    """The module's cluster: the scheduler, its odd worker and two matching workers (their
    nannies start them again when they die), started once; returned once all three joined
    (a grader finding the odd one alone would stop: no worker matches)."""
    for _ in range(2):
        lonely.add_worker(env=QUIET)
    with client_for(lonely.address) as client:
        client.wait_for_workers(3, timeout=120)
    return lonely


def client_for(address: str):
    from distributed import Client
    return Client(address, set_as_default=False, timeout="20s")


@pytest.mark.slow
def test_no_matching_worker_is_one_error_line(lonely, tmp_path: Path) -> None:
    assert len(lonely.workers) == 1, "runs before `cluster` adds the matching workers"
    done = subprocess.run(grade_cmd(EXAMPLES / "submissions", tmp_path / "out",
                                    EXAMPLES / "rubric.toml", lonely.address),
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    assert done.stderr.startswith(f"error: --cluster {lonely.address}: no worker matches this "
                                  f"grader: worker tcp://127.0.0.1:")
    assert "grader fingerprint '0.9.0+other' there" in done.stderr
    assert len(done.stderr.splitlines()) == 1 and not (tmp_path / "out").exists()


@pytest.fixture(scope="module")
def class_graded_with_a_kill(cluster, tmp_path_factory) -> tuple[Path, str]:
    """The example class graded on the module's cluster while one of its workers is killed
    (kill -9) mid-batch, once for the two tests below (each submission a task of a few
    seconds): the output folder and the grader's stderr."""
    out = tmp_path_factory.mktemp("killed") / "out"
    proc = subprocess.Popen(grade_cmd(EXAMPLES / "submissions", out, EXAMPLES / "rubric.toml",
                                      cluster.address), cwd=REPO,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    with client_for(cluster.address) as client:
        deadline = time.monotonic() + 120
        busy: list[str] = []
        while not busy:  # a worker running one of the batch's tasks
            assert time.monotonic() < deadline and proc.poll() is None
            busy = [w for w, keys in client.processing().items() if keys]
            time.sleep(0.05)
        time.sleep(0.3)
        pid = client.run(os.getpid, workers=busy[:1])[busy[0]]
        os.kill(pid, signal.SIGKILL)
    _, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    return out, err


@pytest.mark.slow
def test_a_worker_killed_mid_batch_loses_and_doubles_nothing(class_graded_with_a_kill) -> None:
    out, err = class_graded_with_a_kill  # before the test below resumes into `out`
    golden = read(EXAMPLES / "expected-grades.csv")
    assert len(golden) == 13 and read(out / "grades.csv") == golden
    lines = [line for line in err.splitlines() if line.startswith("[")]
    assert sorted(line.split("] ")[1].split(":")[0] for line in lines) == sorted(
        g["student"] for g in golden)  # each one once


@pytest.mark.slow
def test_the_example_class_grades_exactly_as_the_golden_file(class_graded_with_a_kill, cluster,
                                                             capsys) -> None:
    out, err = class_graded_with_a_kill
    assert "graded 13, reused 0" in err and "on the Dask workers" in err
    assert read(out / "grades.csv") == read(EXAMPLES / "expected-grades.csv")
    record = json.loads((out / "results" / "alice" / "record.json").read_text())
    assert record["sandbox"] == "none" and record["worker"]
    status, again = grade_here(capsys, EXAMPLES / "submissions", out, EXAMPLES / "rubric.toml",
                               cluster.address)
    assert status == 0 and "graded 0, reused 13" in again  # the resume cache


@pytest.mark.slow
def test_a_worker_with_another_grader_is_refused(cluster, tmp_path: Path, capsys) -> None:
    r = tiny_rubric(tmp_path)
    a = answers(r)
    student(tmp_path / "subs" / "ann", repr(a["cost_MD"]), repr(a["cost_LM"]))
    with client_for(cluster.address) as client:  # worker-0: the odd one
        client.wait_for_workers(3, timeout=60)
        odd = next(w for w, info in client.scheduler_info()["workers"].items()
                   if info["name"] == "worker-0")
        status, err = grade_here(capsys, tmp_path / "subs", tmp_path / "out", r.path,
                                 cluster.address)
        assert status == 0, err
        refused = [line for line in err.splitlines() if odd in line]
        assert refused and refused[0].startswith(f"warning: worker {odd} refused: grader "
                                                 f"fingerprint '0.9.0+other' there, '1.0.0+")
        assert client.run(lambda dask_worker: dask_worker.state.executed_count,
                          workers=[odd])[odd] == 0  # no task was sent to it
    assert read(tmp_path / "out" / "grades.csv")[0]["status"] == "ok"


def test_each_worker_reports_its_sandbox_mode_and_a_forced_mode_it_lacks_is_refused(
        monkeypatch) -> None:
    """Runs without Dask: what `client.run(worker_identity, ...)` returns on a worker."""
    from grader import rubric as rubric_mod
    from grader.grading.executors import cluster
    from grader.grading import host
    from grader.grading.executors.cluster_task import BatchSpec, worker_identity
    r = rubric_mod.load(EXAMPLES / "rubric.toml", {"run_as": "none"})
    cases_rel = r.cases_dir.relative_to(REPO).as_posix()

    def found(sandbox: str) -> dict[str, str]:
        return worker_identity(BatchSpec("b", r, cases_rel, sandbox, {}))
    monkeypatch.setattr(host, "bwrap_available", lambda run_as=None: False)  # a container
    monkeypatch.setattr(host, "landlock_available", lambda: True)
    assert found("auto")["sandbox"] == "landlock" and found("none")["sandbox"] == "none"
    assert found("bwrap")["sandbox"] == "bwrap not usable"
    monkeypatch.setattr(host, "landlock_available", lambda: False)
    assert found("auto")["sandbox"] == "none"
    assert cluster.refusal("w1", found("landlock"), {}) == (
        "worker w1 refused: --sandbox landlock, but landlock is not usable there")


@pytest.mark.slow
def test_a_course_folder_grades_on_the_workers_from_its_shared_path(cluster, tmp_path: Path
                                                                     ) -> None:
    """A course folder outside the kit (issue 24): the workers read its cases at the same path
    (here: one machine, as on a shared filesystem), never from a task, and every record names
    the course's fingerprint."""
    from grader import cli
    course = tmp_path / "course"
    assert cli.main(["course", "new", str(course), "--from", "examples", "--term", "Dask"]) == 0
    subs = tmp_path / "subs"
    (subs / "staff").mkdir(parents=True)
    assert cli.main(["solution", "--course", str(course), "--out",
                     str(subs / "staff" / "skeleton.py")]) == 0
    out = tmp_path / "out"
    command = [sys.executable, "-m", "grader", "grade", str(subs), "--out", str(out),
               "--course", str(course), "--sandbox", "none", "--run-as", "none",
               "--cluster", cluster.address]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and "on the Dask workers" in done.stderr, done.stderr
    stamp = done.stderr.splitlines()[0].rsplit("fingerprint ", 1)[1]
    record = json.loads((out / "results" / "staff" / "record.json").read_text())
    assert record["worker"] and record["course"] == stamp
    assert record["score"] == record["max"] == 100


@pytest.mark.slow
def test_a_submission_killing_its_workers_is_a_grader_error(cluster, tmp_path: Path,
                                                            capsys) -> None:
    """Last of the module's: its workers are killed (their nannies start them again)."""
    r = tiny_rubric(tmp_path)
    a = answers(r)
    subs = tmp_path / "subs"
    student(subs / "ann", repr(a["cost_MD"]), repr(a["cost_LM"]))
    student(subs / "kim", "0.0", "0.0", extra="import os\nos.system(f'kill -9 {os.getppid()}')\n")
    status, err = grade_here(capsys, subs, tmp_path / "out", r.path, cluster.address)
    assert status == 0, err
    grades = {g["student"]: g["status"] for g in read(tmp_path / "out" / "grades.csv")}
    assert grades == {"ann": "ok", "kim": "grader-error"}
    feedback = (tmp_path / "out" / "feedback" / "kim.md").read_text(encoding="utf-8")
    assert "each of 2 Dask workers died while grading it" in feedback
