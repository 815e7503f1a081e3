"""How a worker confines itself before it loads a student's file; each limit where the system has it.

- Resource limits (``resource``, POSIX): memory (address space), CPU seconds, open files, the size of
  a file written, no core dump, no new process or thread. Windows has no ``resource`` module: none
  there. macOS takes them but does not enforce the memory limit reliably.
- No network (Linux): a network namespace of its own, with no interface but a loopback that is down
  (as root, or where the kernel lets an ordinary user make a user namespace), so no datagram and no
  connection reaches any other process; and a seccomp filter (x86-64 and arm64) under which no socket
  can be made at all, so no Unix socket of the machine either, no new process is started and no program
  is executed.
- As root: every capability dropped, so the resource limits cannot be raised again, nor the namespace
  left.
- Landlock (Linux 5.13 and later, where enabled; unprivileged): from then on the process opens files
  only in its own folder (read and write) and in the folders it is given to read (Python's: the
  standard library, the installed packages), so not the other students' files, nor the teacher's;
  from Linux 6.7 no TCP connection, from 6.12 no signal to a process outside it (the referee).

A limit this system lacks is left out, and :func:`confine` says which held.
"""

from __future__ import annotations

import ctypes
import os
import platform
import struct
import sys
from collections.abc import Iterable
from typing import IO, Any

__all__ = [
    "confine",
    "drop_capabilities",
    "landlock",
    "landlock_abi",
    "private_stdout",
    "resource_limits",
]

MIB = 1 << 20
OPEN_FILES = 64
FILE_BYTES = MIB

_READ = (1 << 0) | (1 << 2) | (1 << 3)  # LANDLOCK_ACCESS_FS_EXECUTE | READ_FILE | READ_DIR
_READ_FILE = (1 << 0) | (1 << 2)  # the rights a rule on a file (not a folder) may give
_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446  # the same on every Linux architecture
_PR_SET_NO_NEW_PRIVS = 38
_PR_CAPBSET_DROP, _PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 24, 22, 2
_CLONE_NEWUSER, _CLONE_NEWNET, _CLONE_THREAD = 0x10000000, 0x40000000, 0x00010000
_CAPABILITY_V3 = 0x20080522

# The system calls the seccomp filter refuses, by architecture (its audit number, the calls by name, and
# clone's number): socket, and io_uring's setup (io_uring can make sockets); execve and execveat; fork
# and vfork where they exist, and clone unless it makes a thread; clone3, whose flags a filter cannot
# read, says it does not exist (the C library then makes threads with clone).
_SYSCALLS: dict[str, tuple[int, dict[str, int], int]] = {
    "x86_64": (
        0xC000003E,
        {"socket": 41, "io_uring_setup": 425, "execve": 59, "execveat": 322, "fork": 57, "vfork": 58},
        56,
    ),
    "aarch64": (0xC00000B7, {"socket": 198, "io_uring_setup": 425, "execve": 221, "execveat": 281}, 220),
}
_CLONE3 = 435
_ENOSYS = 38
_SECCOMP_ALLOW, _SECCOMP_ERRNO, _EACCES = 0x7FFF0000, 0x00050000, 13


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


def _unshare(flags: int) -> bool:
    return bool(_syscall().unshare(ctypes.c_int(flags)) == 0)


def _own_network() -> bool:
    """Move this process into a network namespace of its own (as root, or in a user namespace of its
    own where the kernel allows an ordinary user one)."""
    if not sys.platform.startswith("linux"):
        return False
    return _unshare(_CLONE_NEWNET) or _unshare(_CLONE_NEWUSER | _CLONE_NEWNET)


def _filter_program(machine: str) -> bytes | None:
    """The seccomp filter of this architecture (:data:`_SYSCALLS`), as classic BPF instructions."""
    if machine not in _SYSCALLS:
        return None
    arch, refused, clone = _SYSCALLS[machine]
    ld, jeq, jge, jset, ret = 0x20, 0x15, 0x35, 0x45, 0x06
    numbers = sorted(refused.values())
    checks = len(numbers)
    allow, deny, missing = 9 + checks, 10 + checks, 11 + checks  # where the three answers are

    def to(target: int, at: int) -> int:  # a BPF jump counts the instructions it skips
        return target - at - 1

    program = [
        (ld, 0, 0, 4),  # 0: the architecture
        (jeq, 1, 0, arch),  # 1: this one's, or
        (ret, 0, 0, _SECCOMP_ERRNO | _EACCES),  # 2: refused (a 32-bit call on a 64-bit system, say)
        (ld, 0, 0, 0),  # 3: the call's number
        (jge, to(deny, 4), 0, 0x40000000),  # 4: the x32 numbers
        *((jeq, to(deny, 5 + i), 0, n) for i, n in enumerate(numbers)),
        (jeq, to(missing, 5 + checks), 0, _CLONE3),
        (jeq, 0, to(allow, 6 + checks), clone),
        (ld, 0, 0, 16),  # clone's flags: the low 32 bits of its first argument (little-endian)
        (jset, to(allow, 8 + checks), to(deny, 8 + checks), _CLONE_THREAD),
        (ret, 0, 0, _SECCOMP_ALLOW),
        (ret, 0, 0, _SECCOMP_ERRNO | _EACCES),
        (ret, 0, 0, _SECCOMP_ERRNO | _ENOSYS),
    ]
    assert len(program) == missing + 1
    return b"".join(struct.pack("=HBBI", *instruction) for instruction in program)


def _seccomp() -> bool:
    """Install :func:`_filter_program` for this process and its threads (no_new_privs first)."""
    program = _filter_program(platform.machine()) if sys.platform.startswith("linux") else None
    if program is None:
        return False
    libc = _syscall()
    buffer = ctypes.create_string_buffer(program, len(program))

    class _Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    prog = _Program(len(program) // 8, ctypes.cast(buffer, ctypes.c_void_p))
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0):
        return False
    return bool(libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) == 0)


def _filtered() -> list[str]:
    return ["no socket, no new process, no program run (seccomp)"] if _seccomp() else []


def drop_capabilities() -> list[str]:
    """As root, drop every capability of this process for good (the bounding set too): it can then
    raise no resource limit again nor leave its namespaces. Nothing to do for an ordinary user."""
    if not (hasattr(os, "geteuid") and os.geteuid() == 0 and sys.platform.startswith("linux")):
        return []
    libc = _syscall()
    for cap in range(64):
        if libc.prctl(_PR_CAPBSET_DROP, cap, 0, 0, 0) and cap > 40:
            break
    header = (ctypes.c_uint32 * 2)(_CAPABILITY_V3, 0)
    data = (ctypes.c_uint32 * 6)()  # effective, permitted, inheritable: nothing, twice (64 bits)
    if libc.capset(ctypes.byref(header), ctypes.byref(data)):
        return []
    return ["as root, but with every capability dropped"]


def confine(setup: dict[str, Any]) -> list[str]:
    """Confine this process as ``setup`` says (``memory_mb``, ``cpu_seconds``, ``read``; its own
    folder is the current one); returns the limits that held."""
    held = resource_limits(int(setup["memory_mb"]), int(setup["cpu_seconds"]))
    network = _own_network()  # before the capabilities go: as root, it needs one
    held += drop_capabilities()
    held += landlock([str(p) for p in setup["read"]], os.getcwd())
    held += (["no network: a network namespace of its own"] if network else []) + _filtered()
    return held
