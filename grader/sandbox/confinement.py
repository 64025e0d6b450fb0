"""What a child confined with Landlock may reach (`landlock_rules`) and whether this kernel
offers Landlock (`landlock_available`); the child applies the rules itself
(worker_parts/confine.py) before any student code runs.

Read and execute: the system's shared libraries and programs, the Python installation's
interpreter, libpython and standard library (not its site-packages; never a whole virtual
environment: it may sit in a checkout next to the grader's hidden cases), and in each site
folder only the entries of the allowed packages and of what they require (numpy: numpy/,
numpy.libs/, its dist-info); the standard library's and site folders themselves may only be
listed. Read and write: the child's scratch folder and /dev/null."""
from __future__ import annotations

import os
import re
import sys
import sysconfig
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from .worker_parts.confine import landlock_abi

SYSTEM_READ = ("/usr/lib", "/usr/lib64", "/usr/lib32", "/lib", "/lib64", "/lib32", "/usr/bin",
               "/bin", "/usr/share/zoneinfo", "/proc", "/sys/devices/system/cpu",
               "/etc/ld.so.cache", "/etc/localtime", "/dev/urandom", "/dev/random", "/dev/zero")
DEVICES_RW = ("/dev/null",)

__all__ = ["landlock_abi", "landlock_available", "landlock_rules", "package_entries"]


def landlock_available() -> bool:
    """Whether this kernel offers Landlock to this process (any ABI)."""
    return landlock_abi() >= 1


@lru_cache(maxsize=1)
def _python_paths() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(read, list): the interpreter, libpython, a virtual environment's pyvenv.cfg and every
    entry of the standard library's folders but their site-packages (an installation's own
    packages, the kit's perhaps among them); those folders themselves may only be listed."""
    read = [os.path.realpath(sys.executable), os.path.join(sys.prefix, "pyvenv.cfg")]
    listed = []
    libdir = sysconfig.get_config_var("LIBDIR") or ""
    if os.path.isdir(libdir):
        read += [os.path.join(libdir, n) for n in sorted(os.listdir(libdir))
                 if n.startswith("libpython")]
    bases = {"base": sys.base_prefix, "platbase": sys.base_exec_prefix,
             "installed_base": sys.base_prefix, "installed_platbase": sys.base_exec_prefix}
    for key in ("stdlib", "platstdlib"):
        folder = os.path.realpath(sysconfig.get_paths(vars=bases)[key])
        if os.path.isdir(folder) and folder not in listed:
            listed.append(folder)
            read += [os.path.join(folder, n) for n in sorted(os.listdir(folder))
                     if n not in ("site-packages", "dist-packages")]
    return tuple(read), tuple(listed)


def _top_entries(dist: metadata.Distribution, sites: list[Path]) -> set[Path]:
    """The site folders' entries a distribution installed (numpy/, numpy.libs/, ...)."""
    entries = set()
    for file in dist.files or []:
        path = Path(os.path.realpath(dist.locate_file(file)))
        for site in sites:
            if site in path.parents:
                entries.add(site / path.relative_to(site).parts[0])
    return entries


@lru_cache(maxsize=8)
def package_entries(allowed: tuple[str, ...], sites: tuple[str, ...]) -> tuple[str, ...]:
    """The site folders' entries of the `allowed` import names' distributions and of every
    distribution they require (extras left out), sorted (computed once per arguments)."""
    roots = [Path(os.path.realpath(s)) for s in sites]
    by_name = metadata.packages_distributions()
    todo = [d for name in allowed for d in by_name.get(name, [])]
    seen: set[str] = set()
    entries: set[Path] = set()
    while todo:
        name = re.sub(r"[-_.]+", "-", todo.pop()).lower()
        if name in seen:
            continue
        seen.add(name)
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        entries |= _top_entries(dist, roots)
        for requirement in dist.requires or []:
            if "extra ==" not in requirement.replace('"', "").replace("'", ""):
                match = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement)
                if match:
                    todo.append(match.group(0))
    return tuple(sorted(str(e) for e in entries))


def landlock_rules(scratch: Path, allowed: list[str], sites: list[str]) -> dict:
    """The paths the child's Landlock ruleset allows: read (and execute), list only, read
    and write single files, read and write everything beneath (the scratch folder)."""
    packages = package_entries(tuple(allowed), tuple(sites))
    python, listed = _python_paths()
    return {"read": [*SYSTEM_READ, *python, *packages], "list": [*listed, *sites],
            "files": list(DEVICES_RW),
            "write": [str(scratch.resolve())]}
