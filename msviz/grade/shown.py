"""What a submission wrote, made safe where a person sees it: one helper for each place.

A student's code chooses its exception's text, what it prints, its file's
name and its homework's seed. Shown as they are, such strings can drive the
teacher's terminal (escape sequences: erase a line, move the cursor, set the
window's title, write the clipboard with OSC 52), forge a progress line, run
as a formula in a spreadsheet, or reorder what follows them on a page
(Unicode's bidirectional controls: ``ali\\u202ecod.exe.py`` reads as another
name). Each place has its helper:

- `for_terminal`: control characters (C0, DEL, C1) and bidirectional controls
  become visible escapes (``\\x1b``, ``\\u202e``);
- `for_csv`: the same, and a cell a spreadsheet would run (one that starts
  with ``=``, ``+``, ``-``, ``@``, a TAB or a CR, also after spaces) gets a
  single quote before it, as OWASP recommends for CSV injection;
- `for_html`: control characters as visible escapes, HTML-escaped, inside
  ``<bdi>``, so that an override inside cannot reorder the text after it.

results.json is data, and keeps each string as it was sent.

Examples
--------
>>> print(for_terminal("ada\\x1b[2K\\r[9/9] carol: right"))
ada\\x1b[2K\\x0d[9/9] carol: right
>>> for_csv("\\t=HYPERLINK(1)")
"'\\\\x09=HYPERLINK(1)"
>>> for_html("ali\\u202ecod.exe.py")
'<bdi>ali\\u202ecod.exe.py</bdi>'
"""

from __future__ import annotations

import html
import re

__all__ = ["for_terminal", "for_csv", "for_html", "UNSAFE"]

#: Unicode's bidirectional controls: embeddings and overrides (U+202A-202E), isolates (U+2066-2069),
#: the marks LRM, RLM (U+200E, U+200F) and ALM (U+061C).
BIDI = "\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c"
#: What is never shown as it is: C0 controls, DEL, C1 controls and the bidirectional controls.
UNSAFE = re.compile(f"[\x00-\x1f\x7f-\x9f{BIDI}]")
_LINES = re.compile(f"[\x00-\x09\x0b-\x1f\x7f-\x9f{BIDI}]")  # the same, newlines apart
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # controls but newline and TAB: for a page
#: How a cell that a spreadsheet would run starts (after any spaces).
_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def for_terminal(text, *, lines: bool = False) -> str:
    """`text` as a terminal may show it: each control character as a visible escape.

    With `lines`, newlines are kept (a report's traceback); otherwise the
    text is one line, so that it cannot start a forged one.

    Examples
    --------
    >>> for_terminal("a\\x1b]52;c;ZXZpbA==\\x07b")
    'a\\\\x1b]52;c;ZXZpbA==\\\\x07b'
    >>> for_terminal("one\\ntwo"), for_terminal("one\\ntwo", lines=True)
    ('one\\\\x0atwo', 'one\\ntwo')
    """
    return (_LINES if lines else UNSAFE).sub(_escape, str(text))


def for_csv(value):
    """`value` as results.csv holds it: a string made safe as for a terminal, and a quote before one
    a spreadsheet would run as a formula; a number as it is.

    Examples
    --------
    >>> for_csv("=1+1"), for_csv("  @SUM(A1)"), for_csv("\\r=1"), for_csv(3), for_csv("ada")
    ("'=1+1", "'  @SUM(A1)", "'\\\\x0d=1", 3, 'ada')
    """
    if not isinstance(value, str):
        return value
    safe = for_terminal(value)
    return "'" + safe if value.lstrip(" ").startswith(_FORMULA) else safe


def for_html(text) -> str:
    """`text` as a page shows it: control characters as visible escapes, HTML-escaped, inside
    ``<bdi>`` (its direction its own: a bidirectional control inside reorders nothing after it).

    Examples
    --------
    >>> for_html("<b>ada</b>\x1b")
    '<bdi>&lt;b&gt;ada&lt;/b&gt;\\\\x1b</bdi>'
    """
    return f"<bdi>{html.escape(_CONTROLS.sub(_escape, str(text)))}</bdi>"
