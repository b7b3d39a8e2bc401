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
from typing import Final

ABSENT_RUN: Final = -100
"""A holder no card has: :func:`best_run`'s mark after a suit's last rank."""


def best_run(where: list[int], seats: Sequence[int], order: Sequence[int], shortest: int,
             length_first: bool, trumps: int) -> tuple[int, tuple[int, ...]] | None:
    """``poch.best_sequence`` (``best_held``) were each card ``c`` held by ``where[c]``:
    ``seats`` in the order that keeps a tie (from the dealer's left), ``order`` the rank
    order low to high. A seat's maximal run in a suit is a stretch of that suit, in rank
    order, all held by that seat: one pass over each suit finds every seat's runs (for
    ``clone_for``'s check of the claims on each imagined deal)."""
    rank: dict[int, int] = {s: i for i, s in enumerate(seats)}
    ranks = list(order)
    n = len(ranks)
    if n < shortest:
        return None
    # the best so far: its key (three ints, the last a 0/1 for trumps), then the tie order
    found = False
    b0 = b1 = b2 = 0
    t_seat = t_suit = t_start = 0
    won_h = -1
    won_suit = won_start = won_end = 0
    for suit in range(4):
        base = suit * 13
        # the suit's holders in rank order, read once; a run ends where the holder changes
        # (a stretch shorter than ``shortest`` is passed over without a test of its holder)
        cells = [where[base + r] for r in ranks]
        cells.append(ABSENT_RUN)  # ends the last run
        start = 0
        h = cells[0]
        for p in range(1, n + 1):
            x = cells[p]
            if x == h:
                continue
            length = p - start
            if length >= shortest and h in rank:
                trump = 1 if suit == trumps else 0
                if length_first:
                    k0, k1 = length, p - 1
                else:
                    k0, k1 = p - 1, length
                rh = rank[h]
                if not found or _after(k0, k1, trump, b0, b1, b2) or (
                        k0 == b0 and k1 == b1 and trump == b2
                        and _after(t_seat, t_suit, t_start, rh, suit, start)):
                    found = True
                    b0, b1, b2 = k0, k1, trump
                    t_seat, t_suit, t_start = rh, suit, start
                    won_h, won_suit, won_start, won_end = h, suit, start, p
            start = p
            h = x
    if not found:
        return None
    base = won_suit * 13
    return (won_h, tuple([base + ranks[q] for q in range(won_start, won_end)]))


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
