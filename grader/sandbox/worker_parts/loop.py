"""Worker part 7 of 7 (see grader/sandbox/worker.py): the main loop. Read the setup message,
apply the limits, the confinement (when asked) and the guards, import the student's module,
report, then serve one call per command line in a fork until the command pipe closes."""
import json
import os
import sys


def main() -> None:
    import signal
    signal.signal(signal.SIGTERM, orphaned)
    die_with_parent(signum=signal.SIGTERM)
    _prctl(36, 1)  # PR_SET_CHILD_SUBREAPER: orphans of the student's code come back here
    cmd_fd, res_fd = int(sys.argv[1]), int(sys.argv[2])
    commands = os.fdopen(cmd_fd, "r", encoding="utf-8")
    setup = json.loads(commands.readline())
    set_limits(setup["limits"])
    layers = {}
    if setup.get("confine") is not None:  # before any of the student's code runs
        try:
            layers = confine(setup["confine"])
        except Exception as error:  # noqa: BLE001 - never run student code unconfined
            send(res_fd, {"event": "import-failed", "status": "unconfined",
                          "message": f"{type(error).__name__}: {error}"})
            _exit(0)
    sys.path[:0] = setup["paths"]
    sys.path.extend(setup["site"])
    sys.meta_path.insert(0, Blocker(setup["blocked"], setup["paths"]))
    sys.meta_path.insert(1, PackageGate(setup.get("allowed", ["numpy"]), setup["paths"],
                                        setup["site"]))
    install_guard(setup.get("deny", []))
    sorted_listings()
    sys.argv = [os.path.basename(setup["file"])]
    sys.dont_write_bytecode = True
    os.chdir(setup["import_cwd"])
    start = _perf()
    try:
        module, dropped = load_module(setup["file"], setup["module"], setup["mode"],
                                      float(setup.get("retry_budget", 10.0)),
                                      float(setup.get("retry_wall", 30.0)),
                                      {int(k): v for k, v in setup.get("known", {}).items()})
    except BaseException as error:  # noqa: BLE001 - import failures are reported, then exit
        flush_output()
        reap()
        send(res_fd, {"event": "import-failed", "seconds": _perf() - start,
                      "forbidden": FORBIDDEN, "layers": layers, **outcome_of(error)})
        _exit(0)
    seconds = _perf() - start
    signal.signal(signal.SIGTERM, orphaned)  # again: the student's import may have replaced it
    flush_output()
    reap()
    send(res_fd, {"event": "imported", "seconds": seconds, "forbidden": FORBIDDEN,
                  "layers": layers,
                  "functions": function_info(module, setup["functions"]), "dropped": dropped})
    while True:
        line = commands.readline()
        if not line:
            reap()
            _exit(0)
        message = json.loads(line)
        flush_output()
        worker, pid = _getpid(), _fork()
        if pid == 0:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)  # only the worker cleans up
            die_with_parent(worker)
            run_call(module, message, cmd_fd, res_fd)
        send(res_fd, {"event": "started", "case": message["case"], "pid": pid})
        _, status, usage = _wait4(pid, 0)
        send(res_fd, {"event": "exited", "case": message["case"], "leftover": reap(),
                      "returncode": os.waitstatus_to_exitcode(status),
                      "cpu": usage.ru_utime + usage.ru_stime})


if __name__ == "__main__":
    main()
