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


def run_lanes(order: Sequence[int]) -> tuple[int, int] | None:
    """``(low, width)`` when the rank ``order`` is consecutive rank indices low to high
    (``low``, ``low + 1``, ...): a seat's cards then read as one mask of four lanes of
    ``width`` bits, a suit's ranks at ``low`` and up in each, an empty bit between lanes
    (see :func:`best_run_lanes`); ``None`` for any other order (an ace low, a gap), which
    :func:`best_run` reads card by card."""
    n = len(order)
    if n == 0 or any(order[i] != order[0] + i for i in range(n)):
        return None
    return order[0], n + 1


def lane_mask(suits: Sequence[int], low: int, width: int) -> int:
    """A hand's suit masks (bit ``r`` for rank index ``r``, as ``Deal.masks`` keeps them)
    as one mask of four lanes (see :func:`run_lanes`)."""
    span = (1 << (width - 1)) - 1
    return (((suits[0] >> low) & span) | ((suits[1] >> low) & span) << width
            | ((suits[2] >> low) & span) << (2 * width)
            | ((suits[3] >> low) & span) << (3 * width))


def best_run_lanes(masks: list[list[int]], seats: Sequence[int], played: Sequence[int],
                   low: int, width: int, shortest: int, length_first: bool,
                   trumps: int) -> tuple[int, tuple[int, ...]] | None:
    """:func:`best_run` read from the seats' masks rather than card by card, for a rank
    order of consecutive ranks (:func:`run_lanes`): ``masks`` the deal's suit masks per
    seat (its hands now), ``played`` per seat of ``seats`` the lane mask of the cards he
    has played (public: the same for every copy of one view). A seat's runs of ``shortest``
    or more are found by shifts of his lane mask (``shortest - 1`` of them), so a seat
    with none, most seats of most deals, costs a few operations where a pass over every
    cell of the pack cost Poch's copy half a ``clone()``; each such run is then read off
    its first and last bit. The best run is the greatest key, ties to the first seat
    from the dealer's left, then the lower suit, then the lower start, as
    :func:`best_run` keeps them (the seats are read in that order, each seat's runs by
    suit and start: a tie keeps the run found first)."""
    span = (1 << (width - 1)) - 1
    found = False
    b0 = b1 = b2 = 0
    won_h = -1
    won_start = won_end = 0
    for i in range(len(seats)):
        s = seats[i]
        m = masks[s]
        full = (((m[0] >> low) & span) | ((m[1] >> low) & span) << width
                | ((m[2] >> low) & span) << (2 * width)
                | ((m[3] >> low) & span) << (3 * width)) | played[i]
        r = full
        for _ in range(shortest - 1):
            r &= r >> 1
        starts = r & ~(full << 1)  # the first bit of each maximal run long enough
        if not starts:
            continue
        ends = full & ~(full >> 1)
        while starts:
            bit = starts & -starts
            starts ^= bit
            start = bit.bit_length() - 1
            e = ends >> start
            end = start + (e & -e).bit_length() - 1
            top = end % width
            length = end - start + 1
            trump = 1 if end // width == trumps else 0
            if length_first:
                k0, k1 = length, top
            else:
                k0, k1 = top, length
            if not found or _after(k0, k1, trump, b0, b1, b2):
                found = True
                b0, b1, b2 = k0, k1, trump
                won_h, won_start, won_end = s, start, end
    if not found:
        return None
    base = (won_start // width) * 13 + low - (won_start // width) * width
    return (won_h, tuple([base + q for q in range(won_start, won_end + 1)]))
