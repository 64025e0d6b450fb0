"""Worker part 2 of 7 (see grader/sandbox/worker.py): the child confining itself before the
student's code runs, through the kernel's interface called with ctypes (standard library
only, uses no name of another part, so the grader imports it too: `landlock_abi`).

Landlock (Linux 5.13+, unprivileged): `confine` allows reading (and executing) only the
paths of `rules["read"]`, reading and writing only those of `rules["write"]` (files: only
`rules["files"]`), and at ABI >= 4 no TCP bind or connect, at ABI >= 6 no signal to and no
abstract UNIX socket of a process outside the child's domain. Then a seccomp filter
(x86_64, aarch64) refuses every socket but TCP (UDP, raw, netlink, packet, UNIX by path;
socketpair stays) and io_uring (whose requests would bypass it). Both are inherited by
everything the child forks or executes, and cannot be undone. (ctypes, not a library: the
PyPI bindings, `landlock` 1.0.0.dev5, `landlockpy` 0.2, `py-landlock` 0.1, `pyseccomp` 0.1.2 of
2021 needing libseccomp.so, are pre-releases or unmaintained, and any would be a package the
graded child imports besides the standard library and numpy.)"""
import ctypes
import os

# syscall numbers and seccomp's audit arch per machine (Landlock's are the generic table's)
_MACHINES = {"x86_64": {"arch": 0xC000003E, "socket": 41, "x32": True},
             "aarch64": {"arch": 0xC00000B7, "socket": 198, "x32": False}}
_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF, _IO_URING_SETUP = 444, 445, 446, 425
_FS_RIGHTS = {1: (1 << 13) - 1, 2: (1 << 14) - 1, 3: (1 << 15) - 1, 5: (1 << 16) - 1}
_EXECUTE, _WRITE_FILE, _READ_FILE, _READ_DIR, _TRUNCATE, _IOCTL_DEV = 1, 2, 4, 8, 1 << 14, 1 << 15
_FILE_RIGHTS = _EXECUTE | _WRITE_FILE | _READ_FILE | _TRUNCATE | _IOCTL_DEV
_NET_TCP, _SCOPES = 3, 3  # BIND_TCP | CONNECT_TCP; ABSTRACT_UNIX_SOCKET | SIGNAL
_NO_NEW_PRIVS, _SET_SECCOMP, _MODE_FILTER = 38, 22, 2
_calls: list = []


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("fs", ctypes.c_uint64), ("net", ctypes.c_uint64), ("scoped", ctypes.c_uint64)]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


class _Filter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8),
                ("k", ctypes.c_uint32)]


class _Program(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_Filter))]


def _libc():
    """The C library's syscall and prctl (loaded once)."""
    if not _calls:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.syscall.restype = ctypes.c_long
        _calls.extend([libc.syscall, libc.prctl])
    return _calls[0], _calls[1]


def landlock_abi() -> int:
    """The Landlock ABI version this kernel offers to this process (0: none, or not Linux)."""
    try:
        syscall, _ = _libc()
        version = syscall(_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    except (OSError, AttributeError):
        return 0
    return max(int(version), 0)


def _fail(what: str) -> OSError:
    errno = ctypes.get_errno()
    return OSError(errno, f"{what}: {os.strerror(errno)}")


def _add_path(syscall, ruleset: int, path: str, rights: int) -> bool:
    """Allow `rights` beneath `path` (a file gets only its file rights); False if missing."""
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        if not os.path.isdir(path):
            rights &= _FILE_RIGHTS
        rule = _PathBeneath(rights, fd)
        if syscall(_ADD_RULE, ruleset, 1, ctypes.byref(rule), 0) != 0:
            raise _fail(f"landlock_add_rule {path}")
    finally:
        os.close(fd)
    return True


def _landlock(rules: dict, abi: int) -> dict:
    """Build the ruleset of `rules` at `abi` and restrict this process to it."""
    syscall, prctl = _libc()
    fs = _FS_RIGHTS[max(k for k in _FS_RIGHTS if k <= abi)]
    attr = _RulesetAttr(fs, _NET_TCP if abi >= 4 else 0, _SCOPES if abi >= 6 else 0)
    size = 24 if abi >= 6 else 16 if abi >= 4 else 8
    ruleset = syscall(_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), 0)
    if ruleset < 0:
        raise _fail("landlock_create_ruleset")
    try:
        read = fs & (_EXECUTE | _READ_FILE | _READ_DIR)
        for path in rules["read"]:
            _add_path(syscall, ruleset, path, read)
        for path in rules["list"]:
            _add_path(syscall, ruleset, path, _READ_DIR)
        for path in rules["files"]:
            _add_path(syscall, ruleset, path, fs & _FILE_RIGHTS & ~_EXECUTE)
        for path in rules["write"]:
            if not _add_path(syscall, ruleset, path, fs):
                raise OSError(2, f"the writable folder {path} is missing")
        if prctl(_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise _fail("prctl(PR_SET_NO_NEW_PRIVS)")
        if syscall(_RESTRICT_SELF, ruleset, 0) != 0:
            raise _fail("landlock_restrict_self")
    finally:
        os.close(ruleset)
    return {"landlock": abi, "files": True, "tcp": abi >= 4, "signals": abi >= 6,
            "abstract-sockets": abi >= 6}


def _socket_filter(machine: dict) -> list[tuple[int, int, int, int]]:
    """The seccomp program: socket() only for TCP (AF_INET/AF_INET6, SOCK_STREAM, protocol 0
    or 6), no io_uring, everything else allowed; another architecture's calls refused."""
    ld, jeq, jge, ret, alu_and = 0x20, 0x15, 0x35, 0x06, 0x54
    allow, deny = 0x7FFF0000, 0x00050000 | 13  # SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO(EACCES)
    program = [(ld, 0, 0, 4), (jeq, 1, 0, machine["arch"]), (ret, 0, 0, deny), (ld, 0, 0, 0)]
    if machine["x32"]:
        program.append((jge, 0, 1, 0x40000000))
        program.append((ret, 0, 0, deny))
    program += [(jeq, 0, 1, _IO_URING_SETUP), (ret, 0, 0, deny),
                (jeq, 1, 0, machine["socket"]), (ret, 0, 0, allow),
                (ld, 0, 0, 16), (jeq, 1, 0, 2), (jeq, 0, 6, 10),  # AF_INET, AF_INET6
                (ld, 0, 0, 24), (alu_and, 0, 0, 0xF), (jeq, 0, 3, 1),  # SOCK_STREAM
                (ld, 0, 0, 32), (jeq, 2, 0, 0), (jeq, 1, 0, 6),  # IPPROTO_IP, IPPROTO_TCP
                (ret, 0, 0, deny), (ret, 0, 0, allow)]
    return program


def _seccomp(machine: dict) -> None:
    _, prctl = _libc()
    steps = _socket_filter(machine)
    table = (_Filter * len(steps))(*(_Filter(*step) for step in steps))
    program = _Program(len(steps), table)
    if prctl(_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 or prctl(
            _SET_SECCOMP, _MODE_FILTER, ctypes.byref(program), 0, 0) != 0:
        raise _fail("prctl(PR_SET_SECCOMP)")


def confine(rules: dict) -> dict:
    """Confine this process with Landlock at the kernel's highest ABI, then the socket filter
    where this machine's numbers are known; the layers that are now active. OSError when
    Landlock is missing or refuses (the child must then not run student code); a socket
    filter the platform refuses is only recorded as missing ("other-sockets": False)."""
    abi = landlock_abi()
    if abi < 1:
        raise OSError(38, "this kernel offers no Landlock")
    layers = _landlock(rules, abi)
    machine = _MACHINES.get(os.uname().machine)
    try:
        if machine is not None:
            _seccomp(machine)
        layers["other-sockets"] = machine is not None
    except OSError:
        layers["other-sockets"] = False
    return layers
