"""Grading on a Dask cluster (`grade --cluster`): a real scheduler and `dask worker` processes
on 127.0.0.1 only (no dashboard), started by the tests (grader.grading.executors.cluster_local).

The example class gives exactly examples/expected-grades.csv; killing a worker (kill -9)
mid-batch loses and doubles nothing; a worker with another grader fingerprint is refused (test
hook: the KANON_WORKER_FINGERPRINT variable, grader.grading.executors.cluster_task); a submission that
kills its workers becomes a grader-error after the scheduler's allowed-failures. Without Dask
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


@pytest.mark.slow
def test_the_cli_and_a_local_grade_never_import_dask(tmp_path: Path) -> None:
    code = ("import sys; from grader import cli\n"
            f"assert cli.main(['grade', {str(EXAMPLES / 'submissions')!r}, '--out', "
            f"{str(tmp_path / 'out')!r}, '--rubric', {str(EXAMPLES / 'rubric.toml')!r}, "
            "'--only', 'alice', '--sandbox', 'none', '--quiet']) == 0\n"
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
         "DASK_DISTRIBUTED__ADMIN__TICK__INTERVAL": "1s",
         "DASK_DISTRIBUTED__ADMIN__SYSTEM_MONITOR__INTERVAL": "2s"}
"""The cluster's processes while they wait: no statistical profiler sampling every worker's
threads, the event loop's tick and the system monitor (dashboard figures) checked seldom;
what is graded, and how a death or a refusal is handled, is unchanged."""
ONE_RETRY = {"DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "1", **QUIET}
"""The scheduler's allowed failures: a task survives one worker's death (a worker killed
mid-batch), the second makes it a grader-error (a submission that kills its workers)."""


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """The module's cluster: a scheduler and two workers, started once."""
    pytest.importorskip("distributed", reason=NO_DASK)
    from grader.grading.executors.cluster_local import LoopbackCluster
    running = LoopbackCluster(tmp_path_factory.mktemp("cluster"), scheduler_env=ONE_RETRY)
    try:
        for _ in range(2):
            running.add_worker(env=QUIET)
        yield running
    finally:
        running.stop()


def client_for(address: str):
    from distributed import Client
    return Client(address, set_as_default=False, timeout="20s")


@pytest.mark.slow
def test_the_example_class_grades_exactly_as_the_golden_file(cluster, tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = subprocess.run(grade_cmd(EXAMPLES / "submissions", out, EXAMPLES / "rubric.toml",
                                    cluster.address), cwd=REPO, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert "graded 13, reused 0" in done.stderr and "on the Dask workers" in done.stderr
    assert read(out / "grades.csv") == read(EXAMPLES / "expected-grades.csv")
    record = json.loads((out / "results" / "alice" / "record.json").read_text())
    assert record["sandbox"] == "none" and record["worker"]
    again = subprocess.run(grade_cmd(EXAMPLES / "submissions", out, EXAMPLES / "rubric.toml",
                                     cluster.address), cwd=REPO, capture_output=True,
                           text=True, timeout=600)
    assert again.returncode == 0 and "graded 0, reused 13" in again.stderr  # the resume cache


KILLED_BATCH = ("alice", "bob", "dave", "erin", "judy", "olivia", "oscar")
"""The examples graded while a worker is killed: seven tasks of a few seconds each (the whole
class's golden grades on the cluster: the test above)."""


@pytest.mark.slow
def test_a_worker_killed_mid_batch_loses_and_doubles_nothing(cluster, tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = subprocess.Popen(grade_cmd(EXAMPLES / "submissions", out, EXAMPLES / "rubric.toml",
                                      cluster.address, "--only", *KILLED_BATCH), cwd=REPO,
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
    golden = [g for g in read(EXAMPLES / "expected-grades.csv") if g["student"] in KILLED_BATCH]
    assert len(golden) == len(KILLED_BATCH) and read(out / "grades.csv") == golden
    lines = [line for line in err.splitlines() if line.startswith("[")]
    assert sorted(line.split("] ")[1].split(":")[0] for line in lines) == sorted(
        KILLED_BATCH)  # each one once


@pytest.mark.slow
def test_a_worker_with_another_grader_is_refused(cluster, tmp_path: Path) -> None:
    r = tiny_rubric(tmp_path)
    a = answers(r)
    student(tmp_path / "subs" / "ann", repr(a["cost_MD"]), repr(a["cost_LM"]))
    cluster.add_worker(env={"KANON_WORKER_FINGERPRINT": "0.9.0+other", **QUIET})
    with client_for(cluster.address) as client:
        client.wait_for_workers(3, timeout=60)
        odd = next(w for w, info in client.scheduler_info()["workers"].items()
                   if info["name"] == f"worker-{len(cluster.workers) - 1}")
        done = subprocess.run(grade_cmd(tmp_path / "subs", tmp_path / "out", r.path,
                                        cluster.address), cwd=REPO, capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        refused = [line for line in done.stderr.splitlines() if odd in line]
        assert refused and refused[0].startswith(f"warning: worker {odd} refused: grader "
                                                 f"fingerprint '0.9.0+other' there, '1.0.0+")
        assert client.run(lambda dask_worker: dask_worker.state.executed_count,
                          workers=[odd])[odd] == 0  # no task was sent to it
    assert read(tmp_path / "out" / "grades.csv")[0]["status"] == "ok"


@pytest.mark.slow
def test_no_matching_worker_is_one_error_line(tmp_path: Path) -> None:
    pytest.importorskip("distributed", reason=NO_DASK)
    from grader.grading.executors.cluster_local import LoopbackCluster
    lonely = LoopbackCluster(tmp_path / "cluster", scheduler_env=QUIET)
    try:
        lonely.add_worker(env={"KANON_WORKER_FINGERPRINT": "0.9.0+other", **QUIET})
        done = subprocess.run(grade_cmd(EXAMPLES / "submissions", tmp_path / "out",
                                        EXAMPLES / "rubric.toml", lonely.address),
                              cwd=REPO, capture_output=True, text=True, timeout=300)
    finally:
        lonely.stop()
    assert done.returncode == 2
    assert done.stderr.startswith(f"error: --cluster {lonely.address}: no worker matches this "
                                  f"grader: worker tcp://127.0.0.1:")
    assert "grader fingerprint '0.9.0+other' there" in done.stderr
    assert len(done.stderr.splitlines()) == 1 and not (tmp_path / "out").exists()


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
def test_a_submission_killing_its_workers_is_a_grader_error(cluster, tmp_path: Path) -> None:
    """Last of the module's: its workers are killed (their nannies start them again)."""
    r = tiny_rubric(tmp_path)
    a = answers(r)
    subs = tmp_path / "subs"
    student(subs / "ann", repr(a["cost_MD"]), repr(a["cost_LM"]))
    student(subs / "kim", "0.0", "0.0", extra="import os\nos.system(f'kill -9 {os.getppid()}')\n")
    done = subprocess.run(grade_cmd(subs, tmp_path / "out", r.path, cluster.address),
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    grades = {g["student"]: g["status"] for g in read(tmp_path / "out" / "grades.csv")}
    assert grades == {"ann": "ok", "kim": "grader-error"}
    feedback = (tmp_path / "out" / "feedback" / "kim.md").read_text(encoding="utf-8")
    assert "each of 2 Dask workers died while grading it" in feedback
