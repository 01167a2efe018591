"""The fence around a student's code (Linux): what it may read, write, connect to and signal.

A runner calls `enter` on itself before it loads or calls any of the
student's code. Each layer is applied where the platform allows it, and
`enter` returns the names of the layers that held:

- ``"files"``: Landlock (Linux 5.13 and later, no privilege needed). The
  process may read Python's installation, msviz and its own folder, and
  write only its private temporary folder; nothing else, not even as root.
- ``"network"``: a seccomp filter refuses ``socket()`` (TCP, UDP, UNIX
  sockets, netlink) and ``io_uring_setup`` (which could make one), and,
  where Landlock has ABI 4, TCP ``bind``/``connect`` are refused too.
- ``"signals"``: Landlock ABI 6 scopes signals and abstract UNIX sockets to
  the process's own domain: it cannot signal the judge or another runner.
- ``"processes"``: a PID namespace of its own (and a network namespace with
  no interface up), through an unprivileged user namespace. The runner is
  its second process; the first only waits, and when it goes, the kernel
  ends every process left in the namespace (a daemon, a fork bomb).
- ``"ipc"``: an IPC namespace of its own: System V shared memory, message
  queues and semaphores (and POSIX message queues) made inside vanish with
  the runner, and those of the teacher's and of other runners cannot be seen.
- ``"spawning"``: a second seccomp filter, put on last (`refuse_spawning`),
  once the runner has everything it needs: no new thread or process
  (``clone`` for either, ``clone3``, ``fork``, ``vfork``), no program run
  (``execve``, ``execveat``), no limit changed (``setrlimit``, and
  ``prlimit64`` but to read one). Each is refused with an error, never a
  crash: the runner names the attempt (`msviz.grade.guard.Attempts`).

The judge reaches a runner only through the pipes it chose to keep open
(`msviz.grade.child.start`, `msviz.grade.schedule`).

Examples
--------
>>> set(LAYERS) == {"files", "network", "signals", "processes", "ipc", "spawning"}
True
"""

from __future__ import annotations

import os
import signal
import struct
import sys
import sysconfig

try:
    import ctypes
except ImportError:  # some embedded Pythons: no layer can be put on, the guards alone hold
    ctypes = None

from ..i18n import Phrases, _, listed
from .seccomp import refuse_network, refuse_spawning

__all__ = [
    "LAYERS",
    "NONE",
    "available",
    "layers_words",
    "enter",
    "refuse_spawning",
    "landlock_abi",
    "clean_environment",
]

#: The layers a fence can have, in the order they are named.
LAYERS = ("files", "network", "signals", "processes", "ipc", "spawning")
#: What a report says when no layer held (in English; `layers_words` says it in the language spoken).
NONE = "none: submissions ran with your rights"
#: The layers (the keys of `LAYERS`), and none, in words.
LAYER_WORDS = Phrases(
    "grade_fence",
    {
        "files": "files",
        "network": "network",
        "signals": "signals",
        "processes": "processes",
        "ipc": "shared memory and message queues",
        "spawning": "no new threads, processes or programs, limits fixed",
        "none": NONE,
    },
)

_LINUX = sys.platform.startswith("linux")
_LANDLOCK_CREATE_RULESET, _LANDLOCK_ADD_RULE, _LANDLOCK_RESTRICT_SELF = 444, 445, 446
_PR_SET_NO_NEW_PRIVS, _PR_SET_PDEATHSIG = 38, 1
_CLONE_NEWUSER, _CLONE_NEWPID, _CLONE_NEWNET, _CLONE_NEWIPC = 0x10000000, 0x20000000, 0x40000000, 0x08000000
# Landlock's file rights: execute, write, read file, read dir (0-3), then the ones a reader lacks.
_FS_READ = (1 << 0) | (1 << 2) | (1 << 3)
_FS_FILE = (1 << 0) | (1 << 1) | (1 << 2)  # rights a rule on a file (not a folder) may hold
_FS_BITS = {1: 13, 2: 14, 3: 15, 4: 15, 5: 16}  # rights Landlock knows at each ABI (16 from ABI 5 on)
_TRUNCATE, _IOCTL_DEV = 1 << 14, 1 << 15


def _libc():
    if ctypes is None:
        raise OSError(0, "this Python has no ctypes")
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc


def landlock_abi() -> int:
    """The Landlock ABI this kernel offers, 0 where there is none (not Linux, too old, turned off).

    Examples
    --------
    >>> landlock_abi() >= 0
    True
    """
    if not _LINUX:
        return 0
    try:
        abi = _libc().syscall(_LANDLOCK_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(1))
    except (OSError, AttributeError):
        return 0
    return max(0, int(abi))


def _fs_rights(abi: int) -> int:
    return (1 << _FS_BITS.get(abi, 16)) - 1


def readable_places(extra=(), hidden=()) -> list[str]:
    """The folders a fenced runner may read: Python's installation, msviz, the system's libraries;
    none of `hidden` (a folder beneath one of them is left out by allowing its siblings instead)."""
    paths = set(sysconfig.get_paths().values()) | {sys.prefix, sys.base_prefix, sys.exec_prefix}
    paths |= {os.path.dirname(os.path.abspath(__file__ + "/..")), os.path.dirname(sys.executable)}
    paths |= {"/usr", "/lib", "/lib64", "/lib32", "/bin", "/etc/ld.so.cache", "/etc/localtime"}
    try:
        import site

        paths |= set(site.getsitepackages()) | {site.getusersitepackages()}
    except (AttributeError, ImportError):
        pass
    paths |= {p for p in sys.path if p and os.path.isdir(p) and _is_library(p)}
    paths |= set(extra)
    real = {os.path.realpath(p) for p in paths if p} | {os.path.abspath(p) for p in paths if p}
    places = sorted(p for p in real if os.path.exists(p))
    for folder in hidden:
        places = _without(places, os.path.realpath(folder))
    return places


def _without(places: list[str], hidden: str) -> list[str]:
    """`places`, where one holds `hidden`, replaced by what it holds but `hidden` (and so on down).

    Examples
    --------
    >>> import os, tempfile
    >>> top = tempfile.mkdtemp()
    >>> for part in ("a/msviz", "a/numpy", "b"):
    ...     os.makedirs(os.path.join(top, part))
    >>> [p[len(top):] for p in _without([top], os.path.join(top, "a", "msviz"))]
    ['/a/numpy', '/b']
    """
    out = []
    for place in places:
        inside = os.path.commonpath([place, hidden]) == place
        if os.path.commonpath([place, hidden]) == hidden or (inside and not os.path.isdir(place)):
            continue
        if not inside:
            out.append(place)
            continue
        try:
            names = sorted(os.listdir(place))
        except OSError:
            continue
        below = [os.path.join(place, name) for name in names]
        out += _without([p for p in below if p != hidden], hidden)
    return out


def _is_library(path: str) -> bool:
    """Whether a sys.path entry is part of an installation (site-packages, the standard library)."""
    parts = os.path.realpath(path).split(os.sep)
    return any(p in ("site-packages", "dist-packages") or p.startswith("python3") for p in parts)


def _landlock(abi: int, read: list[str], write: list[str]) -> None:
    """Allow only reading `read` and reading and writing `write`; refuse TCP (ABI 4), scope signals (6)."""
    libc = _libc()
    fs = _fs_rights(abi)
    net = 3 if abi >= 4 else 0  # bind and connect TCP, with no rule allowing either
    scoped = 3 if abi >= 6 else 0  # abstract UNIX sockets, signals
    attr = struct.pack("QQQ", fs, net, scoped)[: 8 if abi < 4 else 16 if abi < 6 else 24]
    buffer = ctypes.create_string_buffer(attr, len(attr))
    ruleset = libc.syscall(_LANDLOCK_CREATE_RULESET, buffer, ctypes.c_size_t(len(attr)), ctypes.c_uint32(0))
    if ruleset < 0:
        raise OSError(ctypes.get_errno(), "landlock_create_ruleset")
    try:
        for rights, places in ((_FS_READ, read), (fs, write)):
            for place in places:
                _allow(libc, ruleset, place, rights, abi)
        for device in ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random"):
            _allow(libc, ruleset, device, _FS_FILE | (_IOCTL_DEV if abi >= 5 else 0), abi)
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
        if libc.syscall(_LANDLOCK_RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0)) != 0:
            raise OSError(ctypes.get_errno(), "landlock_restrict_self")
    finally:
        os.close(ruleset)


def _allow(libc, ruleset: int, place: str, rights: int, abi: int) -> None:
    """Add a rule: `rights` beneath `place` (a file gets only the rights a file can have)."""
    try:
        fd = os.open(place, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return
    try:
        if not os.path.isdir(place):
            rights &= _FS_FILE | (_TRUNCATE if abi >= 3 else 0) | (_IOCTL_DEV if abi >= 5 else 0)
        rule = ctypes.create_string_buffer(struct.pack("=Qi", rights, fd), 12)
        if libc.syscall(_LANDLOCK_ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(1), rule, ctypes.c_uint32(0)):
            raise OSError(ctypes.get_errno(), f"landlock_add_rule {place}")
    finally:
        os.close(fd)


def _namespaces() -> bool:
    """Enter a user, PID, network and IPC namespace of our own (this process stays outside the PID one)."""
    libc = _libc()
    uid, gid = os.geteuid(), os.getegid()
    if libc.unshare(_CLONE_NEWUSER | _CLONE_NEWPID | _CLONE_NEWNET | _CLONE_NEWIPC) != 0:
        return False
    try:
        with open("/proc/self/setgroups", "w") as f:
            f.write("deny")
        with open("/proc/self/uid_map", "w") as f:
            f.write(f"{uid} {uid} 1")
        with open("/proc/self/gid_map", "w") as f:
            f.write(f"{gid} {gid} 1")
    except OSError:
        return True  # the namespaces hold; the student's files will just belong to nobody
    return True


def clean_environment(home: str) -> dict:
    """What a runner's environment holds: what Python needs, none of the teacher's variables.

    Examples
    --------
    >>> sorted(clean_environment("/tmp/x"))[:3]
    ['HOME', 'LANG', 'MALLOC_ARENA_MAX']
    """
    package_home = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    wanted = [package_home] + [p for p in sys.path if p and _is_library(p)]
    return {
        "PATH": "/usr/bin:/bin",
        "HOME": home,
        "TMPDIR": home,
        "LANG": "C.UTF-8",
        "PYTHONPATH": os.pathsep.join(dict.fromkeys(wanted)),
        "PYTHONIOENCODING": "utf-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONUNBUFFERED": "1",
        "PYTHONNOUSERSITE": "1",
        "MPLBACKEND": "Agg",
        "MALLOC_ARENA_MAX": "2",
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
    }


def _restrict(read: list[str], write: list[str], hidden=()) -> list[str]:
    """In the runner: Landlock, then the seccomp filter; return the layers that held."""
    held = []
    abi = landlock_abi()
    if abi:
        try:
            _landlock(abi, readable_places(read, hidden), write)
            held.append("files")
            if abi >= 6:
                held.append("signals")
        except OSError:
            abi = 0
    try:
        refuse_network(_libc())
        held.append("network")
    except OSError:
        if abi >= 4:
            held.append("network")  # TCP at least
    return held


def enter(read, write, *, namespaces: bool = True, hidden=()) -> list[str]:
    """Fence this process; return the layers that held. In the parent, this call never returns.

    `read` and `write` are the folders it may read, and read and write; no
    file beneath `hidden` can be read, even where one of Python's folders holds it.
    With `namespaces`, this process enters new namespaces, forks a first process
    that waits (the namespace's init) and a second one, the runner, which
    returns from `enter`; the others live only to pass on how the runner
    ended. Call it in a single-threaded process (after fork, or at start).
    """
    held = []
    if namespaces and _LINUX and ctypes is not None and _namespaces():
        held += ["processes", "ipc"]
        _init_and_runner()
        # here: the runner, pid 2 of its namespace
    return _restrict(list(read), list(write), hidden) + held


def _init_and_runner() -> None:
    """Fork the namespace's init, which forks the runner; the first two pass on how it ended."""
    status_read, status_write = os.pipe()
    init = os.fork()
    if init:  # outside the namespace: wait for init, then end as the runner ended
        os.close(status_write)
        os.waitpid(init, 0)
        raw = os.read(status_read, 16)
        _end_as(int(raw) if raw.strip().lstrip(b"-").isdigit() else 1 << 8)
    os.close(status_read)
    _libc().prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)  # the judge kills the first: init goes too
    runner = os.fork()
    if runner == 0:
        os.close(status_write)
        return
    for fd in range(3, 1024):  # init holds nothing the runner may want
        if fd != status_write:
            try:
                os.close(fd)
            except OSError:
                pass
    while True:  # reap everything; end when the runner ends (the kernel then ends the rest)
        try:
            pid, status = os.wait()
        except ChildProcessError:
            os._exit(1)
        if pid == runner:
            os.write(status_write, str(status).encode())
            os._exit(0)


def _end_as(status: int) -> None:
    """End this process as a process with wait status `status` ended: by the same signal, or code."""
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            signal.signal(number, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, [number])
        except (OSError, ValueError):
            pass
        os.kill(os.getpid(), number)
        os._exit(128 + number)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)


def available() -> list[str]:
    """The layers a fenced runner gets on this machine, tried in a child process.

    Examples
    --------
    >>> set(available()) <= set(LAYERS)
    True
    """
    if not (_LINUX and hasattr(os, "fork")):
        return []
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read)
            held = enter([], []) + refuse_spawning()
            os.write(write, " ".join(held).encode())
        finally:
            os._exit(0)
    os.close(write)
    said = b""
    while chunk := os.read(read, 1024):
        said += chunk
    os.close(read)
    os.waitpid(pid, 0)
    return [layer for layer in LAYERS if layer in said.decode().split()]


def no_fence() -> str:
    """Said in a report where the function's process had no fence (no ctypes, not Linux, too old).

    Examples
    --------
    >>> no_fence()
    'no fence on this machine: your function ran with your rights, under the time and memory limits alone'
    """
    return _(
        "no fence on this machine: your function ran with your rights, under the time and memory limits alone"
    )


def layers_words(held) -> str:
    """The layers that held, in words for a report.

    Examples
    --------
    >>> layers_words(["network", "files"]), layers_words([])
    ('files, network', 'none: submissions ran with your rights')
    """
    named = [LAYER_WORDS[layer] for layer in LAYERS if layer in held]
    return listed(named) if named else LAYER_WORDS["none"]
