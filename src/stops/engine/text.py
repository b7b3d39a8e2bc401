"""Text from variant files and records, made safe to print on a terminal."""

from __future__ import annotations

import re
import unicodedata

_KEEP = frozenset("\n\t")
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b.?")
"""Whole terminal escape sequences (CSI, OSC, and two-character ones), removed as a unit so
no fragment such as ``[31m`` is left behind."""


def printable(text: str) -> str:
    """``text`` without control characters (whole terminal escape sequences, carriage
    returns, backspaces, C1 controls, bidirectional overrides and other format characters);
    newlines and tabs are kept.

    The one sanitiser for text that came from a file or a record and is shown to a person:
    ``stops rules`` and the other commands pass everything they print through it, and the
    terminal game can call it too.
    """
    if text.isprintable():
        return text
    text = _ESCAPES.sub("", text)
    return "".join(ch for ch in text
                   if ch in _KEEP or unicodedata.category(ch) not in ("Cc", "Cf", "Cs"))


def shown(value: object, limit: int = 80) -> str:
    """``repr(value)`` for an error message, cut to ``limit`` characters. A whole number too
    long to print (Python refuses more than 4,300 digits), or data nested too deeply to
    print, is described instead: a message about bad input must never fail itself."""
    try:
        text = repr(value)
    except ValueError:
        return "a number far too large"
    except RecursionError:
        return "data nested far too deeply"
    return text if len(text) <= limit else text[:limit - 3] + "..."


def players_text(lo: int, hi: int) -> str:
    """A range of player counts as a player reads it: ``"3 to 8 players"``, ``"2 players"``."""
    return f"{lo} players" if lo == hi else f"{lo} to {hi} players"
