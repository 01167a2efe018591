"""The fence's seccomp filters: classic BPF programs, built here and put on with ``prctl``.

Two filters, each checked against the machine's architecture first (a call
made in another one, or an x32 call on x86-64, is refused):

- `refuse_network`: ``socket()`` and ``io_uring_setup`` fail with EACCES;
- `refuse_spawning`: no new thread or process (``clone``, ``clone3``,
  ``fork``, ``vfork``), no program (``execve``, ``execveat``), no limit
  changed (``setrlimit``, and a ``prlimit64`` that sets one) fail with EPERM.

Examples
--------
>>> len(_spawning_program(0xC000003E, True, _SPAWNING["x86_64"])) > 10
True
"""

from __future__ import annotations

import platform
import struct
import sys

try:
    import ctypes
except ImportError:  # some embedded Pythons: no filter can be put on
    ctypes = None

__all__ = ["refuse_network", "refuse_spawning", "REFUSED_ERRNO"]

_PR_SET_NO_NEW_PRIVS, _PR_SET_SECCOMP = 38, 22

#: Per machine: (AUDIT_ARCH, socket's number, whether x32 numbers must be refused).
_ARCHES = {"x86_64": (0xC000003E, 41, True), "aarch64": (0xC00000B7, 198, False)}
_IO_URING_SETUP = 425
#: Per machine, the system calls `refuse_spawning` refuses: clone, clone3, then fork, vfork, execve,
#: execveat, setrlimit (aarch64 has no fork nor vfork), and prlimit64 (refused when it sets a limit).
_SPAWNING = {
    "x86_64": {"clone": 56, "clone3": 435, "others": (57, 58, 59, 322, 160), "prlimit64": 302},
    "aarch64": {"clone": 220, "clone3": 435, "others": (221, 281, 164), "prlimit64": 261},
}


def _op(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    """One classic BPF instruction."""
    return struct.pack("HBBI", code, jt, jf, k)


_LD, _JEQ, _JGE, _RET = 0x20, 0x15, 0x35, 0x06
_ALLOW = 0x7FFF0000


def _refuse(number: int) -> int:
    """A seccomp return value: the call fails with errno `number` (it is not made)."""
    return 0x00050000 | number


def _arch() -> tuple[int, bool]:
    """This machine's AUDIT_ARCH and whether x32 numbers exist (to be refused); OSError elsewhere."""
    arch = _ARCHES.get(platform.machine())
    if arch is None or ctypes is None:
        raise OSError(0, f"no seccomp filter for {platform.machine()}")
    return arch[0], arch[2]


def _head(audit: int, x32: bool) -> list[bytes]:
    """A filter's first instructions: another architecture, or an x32 call, is refused (EACCES)."""
    return [
        _op(_LD, 4),  # the architecture
        _op(_JEQ, audit, 1, 0),
        _op(_RET, _refuse(13)),
        _op(_LD, 0),  # the system call's number
        _op(_JGE, 0x40000000 if x32 else 0xFFFFFFFF, 0, 1),
        _op(_RET, _refuse(13)),
    ]


def _install(program: list[bytes], libc) -> None:
    """Put a seccomp filter on this process (and every thread it will have)."""
    code = b"".join(program)
    filters = ctypes.create_string_buffer(code, len(code))
    prog = struct.pack("HxxxxxxP", len(program), ctypes.addressof(filters))
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS)")
    if libc.prctl(_PR_SET_SECCOMP, 2, ctypes.create_string_buffer(prog, len(prog)), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_SECCOMP)")


def refuse_network(libc) -> None:
    """Refuse ``socket()`` and ``io_uring_setup`` with EACCES (x86_64 and aarch64 only); OSError
    where no filter can be put on. `libc`: the C library, through ctypes, its errno kept."""
    audit, x32 = _arch()
    socket_nr = _ARCHES[platform.machine()][1]
    _install(
        _head(audit, x32)
        + [
            _op(_JEQ, socket_nr, 1, 0),
            _op(_JEQ, _IO_URING_SETUP, 0, 1),
            _op(_RET, _refuse(13)),
            _op(_RET, _ALLOW),
        ],
        libc,
    )


#: The error a refused thread, process, program or limit gets (EPERM: "Operation not permitted").
REFUSED_ERRNO = 1


def _spawning_program(audit: int, x32: bool, numbers: dict) -> list[bytes]:
    """The filter of `refuse_spawning`: clone3 says ENOSYS (a C library then tries clone), clone and
    the others EPERM; prlimit64 only when it sets a limit (its third argument, the new one, is not NULL)."""
    others = numbers["others"]
    refuse, nosys = _refuse(REFUSED_ERRNO), _refuse(38)
    body = [
        _op(_JEQ, numbers["clone3"], 0, 1),
        _op(_RET, nosys),
        _op(_JEQ, numbers["clone"], 0, 1),
        _op(_RET, refuse),
    ]
    for i, number in enumerate(others):  # each jumps to the one refusal after the list
        body.append(_op(_JEQ, number, len(others) - i + 1, 0))
    body += [
        _op(_JEQ, numbers["prlimit64"], 2, 0),
        _op(_RET, _ALLOW),
        _op(_RET, refuse),
        # prlimit64: args[2] is at offset 32 (its low half) and 36 (its high half)
        _op(_LD, 32),
        _op(_JEQ, 0, 0, 2),
        _op(_LD, 36),
        _op(_JEQ, 0, 1, 0),
        _op(_RET, refuse),
        _op(_RET, _ALLOW),
    ]
    return _head(audit, x32) + body


def refuse_spawning() -> list[str]:
    """Refuse, from now on, every new thread or process, every program run and every limit changed.

    Called by a runner last, once it has what it needs (its clock's thread,
    its limits); returns ``["spawning"]`` where the filter holds, else ``[]``.
    """
    if not sys.platform.startswith("linux"):
        return []
    try:
        audit, x32 = _arch()
        libc = ctypes.CDLL(None, use_errno=True)
        _install(_spawning_program(audit, x32, _SPAWNING[platform.machine()]), libc)
    except (OSError, KeyError, AttributeError):
        return []
    return ["spawning"]
