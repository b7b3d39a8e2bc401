"""Bots: programs that take a seat's decisions from what that seat may know.

A bot is handed a :class:`~stops.engine.observation.Observation` (``deal.observe(seat)``) and
answers with one :class:`~stops.engine.actions.Action` that is legal now. It never sees the
:class:`Deal` itself, so a bot cannot cheat by reading another hand or the spare hand: whatever
it knows came through the same filter a human player's screen would use. That is also why the
heuristics below *infer* the rules in force (is the pot a run prize? do pay cards pay when
played?) from the layout and the events instead of reading the variant.

Three bots ship with the library:

* :class:`RandomBot` picks uniformly among the listed legal actions. It is the baseline every
  strategy is measured against, and a cheap fuzzer of the engine.
* :class:`HeuristicBot` plays every phase of every built-in variant "sensibly": it scores
  each lead by the cards it sheds, the chips it collects and the chance it keeps the lead,
  and stakes on the richest spaces; a phase with decisions of its own brings its play
  (:meth:`stops.phases.aids.PhaseAids.advise`: the spare hand's swaps and bids, a betting
  round), and what a seat learns from that phase's events (the cards it shows).
* :class:`ISMCTSBot` searches: information-set Monte Carlo tree search over deals its seat
  might be in (:meth:`~stops.engine.observation.Observation.imagine`), rolled out by the
  heuristic bot; slower by its budget, and stronger (docs/bots.md).

:func:`make_bot` builds any of them from a *bot spec*: its name, then any parameters as
``:key=value`` (``"ismcts:iterations=400:exploration=0.5"``; :data:`PARAMETERS` lists them).
A spec is a plain string, so a simulation's workers rebuild the same bot from it.
:func:`play_deal` drives a deal to its end with one bot per seat through observations only.

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

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Final

from stops.bots.base import Bot, BotFactory, play_deal
from stops.bots.heuristic import HeuristicBot, board_of
from stops.bots.ismcts import BotParameterError, ISMCTSBot
from stops.bots.judgement import hand_quality
from stops.bots.random_bot import RandomBot

if TYPE_CHECKING:
    from stops.rules.registry import Registry
    from stops.rules.variant import Variant

__all__ = [
    "BOTS",
    "PARAMETERS",
    "Bot",
    "BotFactory",
    "BotParameterError",
    "HeuristicBot",
    "ISMCTSBot",
    "RandomBot",
    "board_of",
    "check_bot",
    "check_bots",
    "hand_quality",
    "make_bot",
    "parse_bot",
    "play_deal",
]

BOTS: Final[dict[str, BotFactory]] = {
    "random": RandomBot,
    "heuristic": HeuristicBot,
    "ismcts": ISMCTSBot,
}
"""Bot factories by name (see :class:`BotFactory`)."""

PARAMETERS: Final[dict[str, dict[str, Callable[[str], object]]]] = {
    "ismcts": {"iterations": int, "seconds": float, "exploration": float, "rollout": str,
               "confidence": float},
}
"""The parameters a bot spec may give each bot, with how each is read from its text."""

_CONFIGURABLE: Final[dict[str, Callable[..., Bot]]] = {"ismcts": ISMCTSBot}
"""The factories that take the keyword parameters of :data:`PARAMETERS`."""


def parse_bot(spec: str) -> tuple[str, dict[str, Any]]:
    """A bot spec (``"ismcts:iterations=400:seconds=0.5"``) as its name and parameters.

    Raises :class:`ValueError` naming what is wrong: an unknown bot (listing the bots), a
    parameter the bot does not take (listing its parameters), a value that does not read.
    The values themselves are checked by the bot (:func:`check_bot` makes one to see).
    """
    if not isinstance(spec, str):
        raise ValueError(f"a bot is named by text, got {spec!r}; bots: {', '.join(BOTS)}")
    name, *parts = spec.strip().split(":")
    if name not in BOTS:
        raise ValueError(f"no bot named {name!r}; bots: {', '.join(BOTS)}")
    takes = PARAMETERS.get(name, {})
    params: dict[str, Any] = {}
    for part in parts:
        key, eq, text = part.partition("=")
        key = key.strip()
        if key not in takes:
            offered = (f"its parameters: {', '.join(takes)}" if takes
                       else "it takes no parameters")
            raise ValueError(f"bot {name} has no parameter {key!r} ({offered})")
        if not eq or not text.strip():
            raise ValueError(f"bot {name}: parameter {key} needs a value ({key}=...)")
        try:
            params[key] = takes[key](text.strip())
        except ValueError:
            raise ValueError(f"bot {name}: {key}={text.strip()!r} is not a "
                             f"{'whole number' if takes[key] is int else 'number'}") from None
    return name, params


def check_bot(spec: str) -> None:
    """Raise :class:`ValueError` (naming the bot, the parameter) if ``spec`` cannot be
    made into a bot; make nothing else."""
    make_bot(spec)


def check_bots(specs: Iterable[str]) -> list[str]:
    """``specs`` (blank ones dropped, the rest stripped) once each is known to make a bot;
    :class:`ValueError` naming the bot or parameter otherwise, or listing the bots if
    ``specs`` names none. What every command that takes ``--bots`` checks first."""
    got = [s.strip() for s in specs if s.strip()]
    if not got:
        raise ValueError(f"names no bot; bots: {', '.join(BOTS)}")
    for spec in got:
        check_bot(spec)
    return got


def make_bot(name: str, seed: int = 0, registry: Registry | None = None, *,
             variant: Variant | None = None) -> Bot:
    """The bot named by the spec ``name`` (a key of :data:`BOTS`, with any parameters,
    see :func:`parse_bot`), seeded with ``seed``; ``registry`` is the variant's
    (``variant.registry``) when it plays a plug-in's phase, and ``variant`` the game, when
    the caller has it."""
    bot, params = parse_bot(name)
    if params:
        return _CONFIGURABLE[bot](seed, registry, variant=variant, **params)
    return BOTS[bot](seed, registry, variant=variant)
