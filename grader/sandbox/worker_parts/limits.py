"""Worker part 2 of 7 (see grader/sandbox/worker.py): limits and process hygiene. The
resource limits set once from the setup message, Linux prctl (parent-death signal, child
subreaper), and reaping: killing whatever the student's code left running below the worker,
when a call ends and when the grader dies."""
import os
import resource


def set_limits(limits: dict) -> None:
    """Address space, file size, processes, open files, core dumps and CPU time."""
    def cap(kind: int, value: int, hard: int | None = None) -> None:
        try:
            old_soft, old_hard = resource.getrlimit(kind)
            new_hard = hard if hard is not None else value
            if old_hard != resource.RLIM_INFINITY:
                new_hard = min(new_hard, old_hard)
            resource.setrlimit(kind, (min(value, new_hard), new_hard))
        except (ValueError, OSError):
            pass  # a limit the platform refuses stays as it was; the wall clock still applies
    cap(resource.RLIMIT_AS, limits["address_space"])
    cap(resource.RLIMIT_FSIZE, limits["file_size"])
    cap(resource.RLIMIT_NOFILE, limits["open_files"])
    cap(resource.RLIMIT_CORE, 0)
    if hasattr(resource, "RLIMIT_NPROC") and limits["processes"] > 0:
        cap(resource.RLIMIT_NPROC, limits["processes"])
    cap(resource.RLIMIT_CPU, limits["import_cpu"], limits["max_cpu"])


_LIBC: list = []


def _prctl(option: int, value: int) -> bool:
    """Linux prctl(option, value); False where there is none."""
    try:
        if not _LIBC:
            import ctypes
            _LIBC.append(ctypes.CDLL(None, use_errno=True).prctl)
        return _LIBC[0](option, value, 0, 0, 0) == 0
    except Exception:  # noqa: BLE001 - not Linux, no C library
        return False


def die_with_parent(parent: int | None = None, signum: int = 9) -> None:
    """Ask for `signum` (SIGKILL by default) when the parent dies (PR_SET_PDEATHSIG); exit if
    it already has."""
    parent = os.getppid() if parent is None else parent
    _prctl(1, signum)
    if os.getppid() != parent:
        _exit(0)


def reap() -> int:
    """Kill and reap every process left below this one (a subreaper: orphans of the
    student's code, setsid'd or not, are re-parented here); how many there were. Done when
    no child is left at all (a process can appear while /proc is being read)."""
    me, seen, deadline = _getpid(), set(), _monotonic() + 10
    while _monotonic() < deadline:
        try:
            while _waitpid(-1, os.WNOHANG)[0]:  # reap what has exited already
                pass
        except ChildProcessError:
            break
        table = {}
        try:
            for entry in _listdir("/proc"):
                try:
                    with _open(f"/proc/{entry}/stat", "rb") as f:
                        fields = f.read().rpartition(b")")[2].split()
                    table[int(entry)] = (fields[0], int(fields[1]))
                except (OSError, ValueError, IndexError):
                    continue
        except OSError:
            break  # no /proc: what is left is not found
        found, stack = set(), [me]
        while stack:
            parent = stack.pop()
            for pid, (state, ppid) in table.items():
                if ppid == parent and pid not in found:
                    found.add(pid)
                    stack.append(pid)
        for pid in found:
            if table[pid][0] not in (b"Z", b"X"):
                seen.add(pid)
                try:
                    _kill(pid, 9)
                except OSError:
                    pass
        _sleep(0.002)
    return len(seen)


def orphaned(signum, frame) -> None:
    """The grader died (the worker's parent-death signal, SIGTERM): kill and reap everything
    the student's code started, detached daemons included (they were re-parented here), and
    end, so that a killed grader leaves nothing running in any sandbox mode."""
    reap()
    _exit(0)
