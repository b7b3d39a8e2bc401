"""Playing a deal to its end: the inner loop of every simulation.

Kept in a module of its own so that the compiled build (``STOPS_COMPILE=1``) compiles the loop
with the deal it drives; :mod:`stops.apps.simulate` re-exports both functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from stops.engine.deal import Deal
from stops.engine.rng import Rng


def play_random(deal: Deal, rng: Rng) -> int:
    """Play ``deal`` to its end with uniformly random legal decisions; returns the count.

    Each decision is ``legal[rng.below(len(legal))]``, with :meth:`Rng.below`'s rejection
    loop written out here on the generator's bound ``bits()`` (the same draws in the same
    order: a call less per decision)."""
    n = 0
    bits = rng.bits()
    while deal.to_act is not None:
        legal = deal.legal_actions()
        m = len(legal)
        if m <= 0:
            raise ValueError(f"seat {deal.to_act} is to act but has no legal decision")
        k = m.bit_length()
        r = bits(k)
        while r >= m:
            r = bits(k)
        deal.apply(legal[r])
        n += 1
    return n


def play_random_indexed(deal: Deal, rng: Rng) -> int:
    """:func:`play_random` through the integer step API (``legal_count`` /
    ``apply_index``): the same decisions from the same ``rng``, so the same games, without
    the legal-set membership test of ``apply``."""
    n = 0
    while deal.to_act is not None:
        deal.apply_index(rng.below(deal.legal_count()))
        n += 1
    return n


def play_with_bots(deal: Deal, bots: Sequence[Any]) -> int:
    """Play ``deal`` to its end, each seat's decisions made by ``bots[seat]``.

    A bot is anything with ``act(observation) -> Action`` (see :mod:`stops.bots`); it sees
    only ``deal.observe(seat)``.
    """
    n = 0
    while deal.to_act is not None:
        seat = deal.to_act
        bot = bots[seat]
        deal.apply(bot.act(deal.observe(seat)))
        n += 1
    return n


__all__ = ["play_random", "play_random_indexed", "play_with_bots"]
