"""Runs and pairs among the cards each seat holds: Poch's checks of an imagined deal.

``clone_for`` checks every imagined Poch deal against the claims by holding seen (the
sequence space's best run, :func:`best_run`) and against the pochs seen (a pair held,
:func:`has_pair`). ``games/poch.py``, where those rules live, is not compiled (its claim
policy subclasses the turn-up phase's, its aids the interpreted aids' classes), so these
loops, run on every copy, live here, in plain typed functions of the cards alone that the
compiled build turns native: interpreted, they cost a compiled ``clone_for`` about two
``clone()``s a call. In the phases layer, below the games, so that the games stay
independent of one another (a module of ``stops.games`` imports no other).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import eq
from typing import Final

ABSENT_RUN: Final = -100
"""A holder no card has: :func:`best_run`'s separator after a suit's last rank."""


def best_run(where: list[int], seats: Sequence[int], order: Sequence[int], shortest: int,
             length_first: bool, trumps: int) -> tuple[int, tuple[int, ...]] | None:
    """``poch.best_sequence`` (``best_held``) were each card ``c`` held by ``where[c]``:
    ``seats`` in the order that keeps a tie (from the dealer's left), ``order`` the rank
    order low to high. A seat's maximal run in a suit is a stretch of that suit, in rank
    order, all held by that seat (for ``clone_for``'s check of the claims on each imagined
    deal).

    The holders of the four suits are read in rank order as one row (a separator between
    suits, :func:`_layout`), and where neighbours are held alike is one string of bytes:
    a run of ``shortest`` is ``shortest - 1`` ones in a row, found by ``bytes.find`` in C.
    Most deals hold few such runs, so the Python-level work is per run found, not per card
    (a step per card of the 32-card pack was most of a pure Poch copy's claims check)."""
    n = len(order)
    if n < shortest:
        return None
    key = order if isinstance(order, tuple) else tuple(order)
    idx = _LAYOUTS.get(key)
    if idx is None:
        idx = _layout(key)
    ext = where + _END
    cells = list(map(ext.__getitem__, idx))
    alike = bytes(map(eq, cells, cells[1:]))
    ones = _ONES[shortest - 1] if shortest > 1 else b""
    width = n + 1
    # the best so far: its key (three ints, the last a 0/1 for trumps), then the tie order
    found = False
    b0 = b1 = b2 = 0
    t_seat = t_suit = t_start = 0
    won_h = -1
    won_suit = won_start = won_end = 0
    stop = len(alike) - 1  # the last separator starts no run (nor does an empty ``ones``)
    i = alike.find(ones, 0, stop)
    while i >= 0:
        # found at a run's first cell (a match further in would have been found earlier)
        h = cells[i]
        p = i + shortest - 1 if shortest > 1 else i
        while cells[p + 1] == h:  # to the run's last cell (the separator ends it)
            p += 1
        if h in seats:
            suit = i // width
            start = i - suit * width
            last = p - suit * width
            length = p - i + 1
            trump = 1 if suit == trumps else 0
            if length_first:
                k0, k1 = length, last
            else:
                k0, k1 = last, length
            rh = seats.index(h)
            if not found or _after(k0, k1, trump, b0, b1, b2) or (
                    k0 == b0 and k1 == b1 and trump == b2
                    and _after(t_seat, t_suit, t_start, rh, suit, start)):
                found = True
                b0, b1, b2 = k0, k1, trump
                t_seat, t_suit, t_start = rh, suit, start
                won_h, won_suit, won_start, won_end = h, suit, start, last + 1
        i = alike.find(ones, p + 1, stop)
    if not found:
        return None
    base = won_suit * 13
    return (won_h, tuple([base + key[q] for q in range(won_start, won_end)]))


_END: Final = [ABSENT_RUN]
"""Put after ``where``: card 52, the separator :func:`_layout` puts after each suit."""

_ONES: Final = tuple(b"\x01" * k for k in range(14))
"""``k`` neighbours held alike in a row (a run of ``k + 1`` cards), per ``k``."""

_LAYOUTS: Final[dict[tuple[int, ...], list[int]]] = {}
"""The row :func:`best_run` reads, per rank order (the key fixes the value)."""


def _layout(order: tuple[int, ...]) -> list[int]:
    """Each suit's cards in the rank order ``order``, suit by suit, each suit followed by
    card 52 (:data:`_END`: held by no one, so no run crosses from one suit to the next),
    kept in :data:`_LAYOUTS`."""
    out: list[int] = []
    for suit in range(4):
        out.extend(suit * 13 + r for r in order)
        out.append(52)
    _LAYOUTS[order] = out
    return out


def _after(a0: int, a1: int, a2: int, b0: int, b1: int, b2: int) -> bool:
    """``(a0, a1, a2) > (b0, b1, b2)``, compared without making the tuples (native ints
    when compiled)."""
    if a0 != b0:
        return a0 > b0
    if a1 != b1:
        return a1 > b1
    return a2 > b2


def has_pair(cards: list[int]) -> bool:
    """Two of ``cards`` share a rank (a poch under ``poch_requires: pair`` proves one)."""
    seen = 0
    for c in cards:
        bit = 1 << (c % 13)
        if seen & bit:
            return True
        seen |= bit
    return False
