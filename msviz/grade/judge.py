"""The judge's side of the channel: what a runner sends, read as untrusted input.

The judge never runs student code. It sends a runner one board at a time and
reads back what the runner says happened (`msviz.grade.runner.raw`), with a
size limit, checked against its schema (types, the board's shape, the
cells' symbols, counts) before use; nothing is executed or unpickled. A
message it cannot read makes `Unreadable`: the submission is then stopped,
"it sent something the grader cannot read", and nothing it said counts.

`read_raw` turns that data into an `Attempt`, naming what went wrong: the
runner only reports what was raised and returned, never a verdict.

Examples
--------
>>> from msviz.grade.runner import raw  # here, for the example: the judge itself never runs code
>>> def fill(board, click):
...     board[0][0] = "B"
...     return board
>>> read_raw(raw(fill, [["E"]], (0, 0), 1.0), [["E"]], 1.0).board
[['B']]
>>> read_raw({"returned": "yes"}, [["E"]], 1.0)
Traceback (most recent call last):
...
msviz.grade.judge.Unreadable: it sent something the grader cannot read (returned)
"""

from __future__ import annotations

import json
import math
import os
import re
import select
import time

from ..i18n import _
from .run import Attempt
from .vocabulary import MOST_WRITES, OUTPUT_KEPT, TEXT_KEPT, memory_size

__all__ = ["Unreadable", "Channel", "read_raw", "refused_words", "MOST_BYTES", "CANNOT_READ", "REFUSED"]

#: The most bytes one message from a runner may hold (a 50x50 board's writes take about 1 MB).
MOST_BYTES = 8 * 1024 * 1024
#: What a row says of a submission whose runner sent something the judge cannot read.
CANNOT_READ = "it sent something the grader cannot read"
#: The notes a runner may send (the reading's and the recording board's own, nothing else), in
#: English as the runner writes them; each is said in the language spoken by `_said`.
_NOTES = (
    r"row (?P<row>\d{1,4}) was put in place whole \(board\[\d{1,4}\] = \.\.\.\): its cells count as "
    r"written last; write cell by cell, board\[r\]\[c\] = \.\.\., for the order to be seen",
    r"your function returned a (?P<kind>[\w. ]{1,60}): its cells were compared; "
    r"LeetCode wants a list of lists",
    r"your rows are (?P<kinds>[\w ,.]{1,200}): their cells were compared; LeetCode wants lists",
)
_NOTE = re.compile("|".join(f"(?:{p})" for p in _NOTES))


def _said(note: str) -> str:
    """A runner's note (one of `_NOTES`) in the language spoken."""
    found = _NOTE.fullmatch(note).groupdict()
    if found["row"] is not None:
        return _(
            "row {row} was put in place whole (board[{row}] = ...): its cells count as written last; "
            "write cell by cell, board[r][c] = ..., for the order to be seen"
        ).format(row=found["row"])
    if found["kind"] is not None:
        return _(
            "your function returned a {kind}: its cells were compared; LeetCode wants a list of lists"
        ).format(kind=found["kind"])
    return _("your rows are {kinds}: their cells were compared; LeetCode wants lists").format(
        kinds=found["kinds"]
    )


_READ_KINDS = ("returned nothing", "digits as numbers", "not a board")
#: What a runner refuses the student's code, as its account names it.
REFUSED = ("thread", "process", "program", "limit")


def refused_words(kinds) -> str:
    """What the student's code tried that a runner refuses, in words.

    Examples
    --------
    >>> refused_words(["process"])
    'it started a process: not allowed here'
    >>> refused_words(["thread", "limit"])
    'it started a thread: not allowed here; it changed its limits: not allowed here'
    """
    said = {
        "thread": _("it started a thread: not allowed here"),
        "process": _("it started a process: not allowed here"),
        "program": _("it ran a program: not allowed here"),
        "limit": _("it changed its limits: not allowed here"),
    }
    return "; ".join(said[kind] for kind in REFUSED if kind in kinds)


_ERROR_KINDS = ("time", "recursion", "memory", "index", "error")


class Unreadable(Exception):
    """A runner sent something the judge cannot read: too much, not JSON, not the schema."""

    def __init__(self, what: str = ""):
        super().__init__(CANNOT_READ + (f" ({what})" if what else ""))


def _need(ok: bool, what: str) -> None:
    if not ok:
        raise Unreadable(what)


def _text(value, most: int, what: str) -> str:
    _need(isinstance(value, str), what)
    return value if len(value) <= most else value[: most - 3] + "..."


def _count(value, most: int, what: str) -> int:
    _need(type(value) is int and 0 <= value <= most, what)
    return value


def _strings(row, most: int) -> bool:
    """Whether `row` is a list of str each at most `most` long (passes at C speed: join fails on any
    other kind of cell, and the longest is measured without a loop of Python's)."""
    try:
        "".join(row)
    except TypeError:
        return False
    return max(map(len, row), default=0) <= most


def _rows(value, shape, what: str, one_letter: bool) -> list[list[str]]:
    """A board of `shape` as a runner sent it: rows of strings (one letter each, if asked)."""
    rows, cols = shape
    _need(isinstance(value, list) and len(value) == rows, what)
    for row in value:
        _need(isinstance(row, list) and len(row) == cols, what)
        _need(_strings(row, 1 if one_letter else 120), what)
        _need(not one_letter or len("".join(row)) == cols, what)  # no empty cell
    return value


def _after(value, shape) -> list[list[str]]:
    """The board given, as the call left it: its rows may have any length (the student's own rows)."""
    _need(isinstance(value, list) and len(value) == shape[0], "after")
    for row in value:
        _need(isinstance(row, list) and len(row) <= 4 * shape[1] + 64 and _strings(row, 120), "after")
    return value


def _writes(value, shape, count: int) -> tuple:
    """The writes as ``(row, col, symbol, depth)``, each on the board (checked a column at a time)."""
    rows, cols = shape
    _need(isinstance(value, list) and len(value) <= min(count, MOST_WRITES + rows * cols), "writes")
    if not value:
        return ()
    kinds = set(map(type, value))  # lists from JSON; tuples from a runner in this process
    _need((kinds == {list} or kinds == {tuple}) and set(map(len, value)) == {4}, "writes")
    rs, cs, vs, ds = zip(*value)
    for numbers, most in ((rs, rows - 1), (cs, cols - 1), (ds, 10**7)):
        _need(set(map(type, numbers)) == {int} and 0 <= min(numbers) and max(numbers) <= most, "writes")
    _need(_strings(vs, 120), "writes")
    return tuple(value) if kinds == {tuple} else tuple(map(tuple, value))


def _error(value) -> dict | None:
    if value is None:
        return None
    _need(isinstance(value, dict) and value.get("kind") in _ERROR_KINDS, "error")
    return {
        "kind": value["kind"],
        "text": _text(value.get("text", ""), TEXT_KEPT, "error"),
        "deepest": _count(value.get("deepest", 0), 10**7, "error"),
    }


def read_raw(data, board, limit: float) -> Attempt:
    """Read a runner's account of one board (untrusted) as an `Attempt`, naming what went wrong.

    Raises `Unreadable` when `data` is not what a runner sends for `board`.
    """
    _need(isinstance(data, dict), "not a message")
    shape = (len(board), len(board[0]))
    returned = data.get("returned")
    if returned is not None:
        returned = _rows(returned, shape, "returned", one_letter=True)
    read = data.get("read")
    if read is not None:
        _need(isinstance(read, dict) and read.get("kind") in _READ_KINDS, "read")
        read = {"kind": read["kind"], "problem": _text(read.get("problem"), TEXT_KEPT, "read")}
        returned = None
    count = _count(data.get("write_count"), 10**12, "write_count")
    writes = _writes(data.get("writes"), shape, count)
    notes = data.get("notes")
    _need(isinstance(notes, list) and len(notes) <= shape[0] + 4, "notes")
    for note in notes:
        _need(isinstance(note, str) and _NOTE.fullmatch(note) is not None, "notes")
    changed = data.get("changed")
    _need(isinstance(changed, list) and len(changed) <= 1000, "changed")
    changed = [_text(c, 200, "changed") for c in changed]
    cpu = data.get("cpu")
    _need(type(cpu) in (int, float) and math.isfinite(cpu) and 0 <= cpu <= 10**6, "cpu")
    for key in ("recursed", "used_msviz"):
        _need(isinstance(data.get(key), bool), key)
    refused = data.get("refused", [])
    _need(isinstance(refused, list) and all(kind in REFUSED for kind in refused), "refused")
    out = Attempt(
        returned=returned if returned is not None else _text(data.get("returned_text"), TEXT_KEPT, "text"),
        returned_text=_text(data.get("returned_text"), TEXT_KEPT, "returned_text"),
        board=returned,
        notes=tuple(_said(note) for note in notes),
        writes=writes,
        recursed=data["recursed"],
        deepest=_count(data.get("deepest"), 10**7, "deepest"),
        given=_after(data.get("after"), shape),
        cpu=float(cpu),
        output=_text(data.get("output"), OUTPUT_KEPT, "output"),
        changed=tuple(changed),
    )
    out.problem, out.bug = _problem(_error(data.get("error")), read, shape, limit, count)
    if out.problem is not None:
        out.board = None
    if out.changed:
        shown = ", ".join(out.changed[:3]) + (" ..." if len(out.changed) > 3 else "")
        out.problem = _("your code changed {what}").format(what=shown)
        out.bug, out.board = "changed the grader", None
    elif refused:
        out.problem = refused_words(refused)
        out.bug, out.board = "refused", None
    elif data["used_msviz"] and out.bug in (None, "crash"):
        out.problem = _("your function called msviz's reveal (or a trace or generator of msviz)")
        out.bug, out.board = "used msviz", None
    return out


def too_slow(limit: float) -> str:
    """What a board's answer says when its CPU time ran past `limit`.

    Examples
    --------
    >>> too_slow(2.0)
    'stopped after 2 s of CPU time, the limit for one board'
    """
    return _("stopped after {seconds} s of CPU time, the limit for one board").format(seconds=f"{limit:g}")


def _problem(error, read, shape, limit: float, writes: int) -> tuple[str | None, str | None]:
    """What went wrong, from what was raised and returned: the problem in words and its mistake's key."""
    cells = shape[0] * shape[1]
    if error is None:
        return (None, None) if read is None else (read["problem"], read["kind"])
    kind, deepest = error["kind"], error["deepest"]
    if kind == "time":
        problem, bug = too_slow(limit), "too slow"
        if deepest > cells + 2:
            bug = "endless recursion" if writes < deepest / 2 else "revisits revealed cells"
        elif writes > 2 * cells:
            bug = "queued many times"
            problem = _(
                "too slow on a {rows}x{cols} board: {writes} writes to its {cells} cells in {seconds} s of "
                "CPU time: cells go into the queue many times; mark a cell when it goes in"
            ).format(rows=shape[0], cols=shape[1], writes=writes, cells=cells, seconds=f"{limit:g}")
        return problem, bug
    if kind == "recursion":  # the problem starts with the error's name (`check` reads it)
        bug = "recursion limit"
        if deepest > cells + 2:
            bug = "endless recursion" if writes < deepest / 2 else "revisits revealed cells"
        where = {"deepest": deepest, "rows": shape[0], "cols": shape[1], "cells": cells, "writes": writes}
        if bug == "endless recursion":
            said = _(
                "{deepest} nested calls on a {rows}x{cols} board ({cells} cells), {writes} cells written"
            )
        else:
            said = _("{deepest} nested calls on a {rows}x{cols} board ({cells} cells)")
        return "RecursionError: " + said.format(**where), bug
    if kind == "memory":
        said = _("your function used more than {size} of memory").format(size=memory_size())
        return "MemoryError: " + said, "memory"
    return error["text"] or _("an error"), "off by one" if kind == "index" else "crash"


#: Seconds between two looks at a runner's CPU time while the judge waits for its answer.
POLL = 0.1


class Channel:
    """The judge's end of a runner's channel: requests out, messages in, each read with a size limit.

    `deadline` is a `time.monotonic()` value past which `receive` gives up
    (raises `TimeoutError`).
    """

    def __init__(self, read: int, write: int, deadline: float):
        self.read, self.write, self.deadline = read, write, deadline
        self.buffer = bytearray()

    def send(self, message: dict) -> bool:
        """Send one request; False when the runner is gone."""
        data = memoryview((json.dumps(message) + "\n").encode())
        try:
            while data:
                data = data[os.write(self.write, data) :]
        except (BrokenPipeError, OSError):
            return False
        return True

    def receive(self, watch=None):
        """The next message, or None when the runner closed its end (ended).

        Raises `Unreadable` for a message over `MOST_BYTES`, not JSON, or not
        an object, and `TimeoutError` past the deadline. `watch`, if given, is
        called every `POLL` seconds while nothing comes (it may raise, to stop waiting).
        """
        while True:
            end = self.buffer.find(b"\n")
            if end >= 0:
                line = bytes(self.buffer[:end])
                del self.buffer[: end + 1]
                return _parse(line)
            if len(self.buffer) > MOST_BYTES:
                raise Unreadable("a message too long")
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            ready, _, _ = select.select([self.read], [], [], min(left, 1.0 if watch is None else POLL))
            if not ready:
                if watch is not None:
                    watch()
                continue
            try:
                chunk = os.read(self.read, 1 << 20)
            except OSError:
                chunk = b""
            if not chunk:
                if self.buffer:
                    del self.buffer[:]
                return None
            self.buffer += chunk

    def close(self) -> None:
        for fd in {self.read, self.write}:
            try:
                os.close(fd)
            except OSError:
                pass


def _parse(line: bytes) -> dict:
    try:
        message = json.loads(line.decode("utf-8"))
    except (ValueError, RecursionError, UnicodeDecodeError):
        raise Unreadable("not JSON") from None
    _need(isinstance(message, dict), "not an object")
    return message
