"""How a worker confines itself before it loads a student's file; each limit where the system has it.

- Resource limits (``resource``, POSIX): memory (address space), CPU seconds, open files, the size of
  a file written, no core dump, no new process or thread. Windows has no ``resource`` module: none
  there. macOS takes them but does not enforce the memory limit reliably.
- Landlock (Linux 5.13 and later, where enabled; unprivileged): from then on the process opens files
  only in its own folder (read and write) and in the folders it is given to read (Python's: the
  standard library, the installed packages), so not the other students' files, nor the teacher's;
  from Linux 6.7 no TCP connection, from 6.12 no signal to a process outside it (the referee).

A limit this system lacks is left out, and :func:`confine` says which held. As root, a process can raise
its resource limits again: run the tournament as an ordinary user.
"""

from __future__ import annotations

import ctypes
import os
import sys
from collections.abc import Iterable
from typing import IO, Any

__all__ = ["confine", "landlock", "landlock_abi", "private_stdout", "resource_limits"]

MIB = 1 << 20
OPEN_FILES = 64
FILE_BYTES = MIB

_READ = (1 << 0) | (1 << 2) | (1 << 3)  # LANDLOCK_ACCESS_FS_EXECUTE | READ_FILE | READ_DIR
_READ_FILE = (1 << 0) | (1 << 2)  # the rights a rule on a file (not a folder) may give
_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446  # the same on every Linux architecture
_PR_SET_NO_NEW_PRIVS = 38


class _RulesetAttr(ctypes.Structure):
    _fields_ = [("fs", ctypes.c_uint64), ("net", ctypes.c_uint64), ("scoped", ctypes.c_uint64)]


class _PathBeneath(ctypes.Structure):
    _pack_ = 1
    _fields_ = [("allowed", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def private_stdout() -> IO[bytes]:
    """A private copy of this process's stdout, for a worker's answers; fd 1 and 2 go nowhere from now on
    (what a student's code prints, even with ``os.write(1, ...)``, reaches no one)."""
    channel = os.fdopen(os.dup(1), "wb")
    nowhere = os.open(os.devnull, os.O_RDWR)
    for fd in (1, 2):
        os.dup2(nowhere, fd)
    return channel


def resource_limits(memory_mb: int, cpu_seconds: int) -> list[str]:
    """Set the resource limits (soft and hard alike, so they cannot be raised again by an ordinary
    user); returns those that held."""
    try:
        import resource
    except ImportError:  # Windows
        return []
    wanted = [
        ("RLIMIT_AS", memory_mb * MIB, f"memory {memory_mb} MiB"),
        ("RLIMIT_CPU", cpu_seconds, f"CPU {cpu_seconds} s"),
        ("RLIMIT_NOFILE", OPEN_FILES, f"{OPEN_FILES} open files"),
        ("RLIMIT_FSIZE", FILE_BYTES, "files of 1 MiB at most"),
        ("RLIMIT_CORE", 0, "no core dump"),
        ("RLIMIT_NPROC", 1, "no new process"),
    ]
    held = []
    for name, value, said in wanted:
        which = getattr(resource, name, None)
        if which is None:
            continue
        try:
            _, hard = resource.getrlimit(which)
            value = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):
            continue
        held.append(said)
    return held


def _syscall() -> Any:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc


def landlock_abi() -> int:
    """The Landlock version this kernel offers (0: none, or not Linux)."""
    if not sys.platform.startswith("linux"):
        return 0
    try:
        abi = _syscall().syscall(_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    except (OSError, AttributeError):
        return 0
    return max(0, int(abi))


def landlock(read: Iterable[str], own: str) -> list[str]:
    """Let this process open files only beneath ``own`` (any access) and ``read`` (read only), with
    Landlock; returns what held (nothing where Landlock is missing or disabled)."""
    abi = landlock_abi()
    if abi < 1:
        return []
    libc = _syscall()
    fs = {1: 0x1FFF, 2: 0x3FFF, 3: 0x7FFF, 4: 0x7FFF}.get(abi, 0xFFFF)
    attr = _RulesetAttr(fs, 0b11 if abi >= 4 else 0, 0b11 if abi >= 6 else 0)
    size = 8 if abi < 4 else 16 if abi < 6 else 24
    ruleset = libc.syscall(_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(size), ctypes.c_uint32(0))
    if ruleset < 0:
        return []
    try:
        for path, rights in [(own, fs), *((p, _READ) for p in read)]:
            _allow(libc, ruleset, path, rights)
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) or libc.syscall(_RESTRICT_SELF, ruleset, 0):
            return []
    finally:
        os.close(ruleset)
    held = [f"opens files only in its own folder and Python's (Landlock ABI {abi})"]
    held += ["no TCP connection"] if abi >= 4 else []
    held += ["no signal to another process"] if abi >= 6 else []
    return held


def _allow(libc: Any, ruleset: int, path: str, rights: int) -> None:
    """Add the rule "``rights`` beneath ``path``" (fewer on a file); a path that cannot be opened is
    left out (it is then not allowed)."""
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return
    try:
        if not os.path.isdir(path):
            rights &= _READ_FILE
        rule = _PathBeneath(rights, fd)
        libc.syscall(_ADD_RULE, ruleset, 1, ctypes.byref(rule), 0)  # LANDLOCK_RULE_PATH_BENEATH
    finally:
        os.close(fd)


def confine(setup: dict[str, Any]) -> list[str]:
    """Confine this process as ``setup`` says (``memory_mb``, ``cpu_seconds``, ``read``; its own
    folder is the current one); returns the limits that held."""
    held = resource_limits(int(setup["memory_mb"]), int(setup["cpu_seconds"]))
    held += landlock([str(p) for p in setup["read"]], os.getcwd())
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        held.append("but as root, which may undo the resource limits")
    return held
