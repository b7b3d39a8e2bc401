"""Bots: programs that take a seat's decisions from what that seat may know.

A bot is handed a :class:`~stops.engine.observation.Observation` (``deal.observe(seat)``) and
answers with one :class:`~stops.engine.actions.Action` that is legal now. It never sees the
:class:`Deal` itself, so a bot cannot cheat by reading another hand or the spare hand: whatever
it knows came through the same filter a human player's screen would use. That is also why the
heuristics below *infer* the rules in force (is the pot a run prize? do pay cards pay when
played?) from the layout and the events instead of reading the variant.

Two bots ship with the library:

* :class:`RandomBot` picks uniformly among the listed legal actions. It is the baseline every
  strategy is measured against, and a cheap fuzzer of the engine.
* :class:`HeuristicBot` plays every phase of every built-in variant "sensibly": it scores
  each lead by the cards it sheds, the chips it collects and the chance it keeps the lead,
  and stakes on the richest spaces; a phase with decisions of its own brings its play
  (:meth:`stops.phases.aids.PhaseAids.advise`: the spare hand's swaps and bids, a betting
  round), and what a seat learns from that phase's events (the cards it shows).

:func:`make_bot` builds either by name, and :func:`play_deal` drives a deal to its end with one
bot per seat through observations only.

>>> import stops
>>> from stops.bots import make_bot, play_deal
>>> table = stops.Table("boodle", seats=3, chips=50, seed=1)
>>> deal = table.new_deal()
>>> play_deal(deal, [make_bot("heuristic", s) for s in range(3)]) > 0
True
>>> deal.is_terminal
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from stops.bots.base import Bot, BotFactory, play_deal
from stops.bots.heuristic import HeuristicBot, board_of
from stops.bots.judgement import hand_quality
from stops.bots.random_bot import RandomBot

if TYPE_CHECKING:
    from stops.rules.registry import Registry
    from stops.rules.variant import Variant

__all__ = [
    "BOTS",
    "Bot",
    "BotFactory",
    "HeuristicBot",
    "RandomBot",
    "board_of",
    "hand_quality",
    "make_bot",
    "play_deal",
]

BOTS: Final[dict[str, BotFactory]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
}
"""Bot factories by name (see :class:`BotFactory`)."""


def make_bot(name: str, seed: int = 0, registry: Registry | None = None, *,
             variant: Variant | None = None) -> Bot:
    """The bot called ``name`` (a key of :data:`BOTS`), seeded with ``seed``; ``registry``
    is the variant's (``variant.registry``) when it plays a plug-in's phase, and
    ``variant`` the game, when the caller has it."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"no bot named {name!r}; bots: {', '.join(sorted(BOTS))}") from None
    return factory(seed, registry, variant=variant)
