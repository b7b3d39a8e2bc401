"""Text from variant files and records, made safe to print on a terminal."""

from __future__ import annotations

import unicodedata

_KEEP = frozenset("\n\t")
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")


def printable(text: str) -> str:
    """``text`` without control characters (terminal escape codes, carriage returns,
    backspaces, C1 controls and bidirectional overrides); newlines and tabs are kept.

    The one sanitiser for text that came from a file or a record and is shown to a person:
    ``stops rules`` and the other commands pass everything they print through it, and the
    terminal game can call it too.
    """
    if text.isprintable():
        return text
    return "".join(ch for ch in text
                   if ch in _KEEP or (ch not in _BIDI
                                      and unicodedata.category(ch) not in ("Cc", "Cs")))
